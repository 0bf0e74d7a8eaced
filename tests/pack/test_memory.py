"""The project memory inside packs: what goes in, stale facts marked, budget share."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repomem.errors import WriteAccessError
from repomem.index import indexer
from repomem.memory import derived, ops, session
from repomem.pack import builder, tokens
from tests.conftest import Repo
from tests.pack.test_builder import BILLING, make_project


def project_with_memory(repo: Repo) -> dict[str, str]:
    make_project(repo)
    cfg = repo.config()
    path = repo.root / "REPOMEM.md"
    ops.remember(cfg, "Money amounts are Decimal, never float.", kind="convention")
    ids = {
        "tax": ops.remember(
            cfg,
            "Tax is applied once per line item by apply_tax, at a 20% default rate.",
            cites=["billing/invoice.py:apply_tax"],
        ).fact.id,  # fmt: skip
        "routes": ops.remember(
            cfg,
            "Routes are planned as straight lines between two stops.",
            cites=["shipping/routes.py"],
        ).fact.id,  # fmt: skip
        "old": ops.remember(cfg, "Invoices total without any tax at all.").fact.id,
    }
    ops.supersede(cfg, ids["old"], "Invoice totals include tax.", why="VAT was added")
    gone = ops.remember(cfg, "The tax officer's name is Quentin Pluckrose.").fact.id
    ops.forget(cfg, gone)
    ops.add_next_step(cfg, "Support reduced VAT rates")
    session.start(cfg, "Tax work")
    session.end(cfg, summary="Looked into VAT on invoices.")
    text = path.read_text(encoding="utf-8").replace(
        "## Overview\n", "## Overview\n\nAn invoicing and shipping service.\n", 1
    )
    path.write_text(text, encoding="utf-8")
    repo.commit("memory")
    return ids


def test_the_pack_carries_overview_conventions_relevant_facts_and_recent_work(repo: Repo) -> None:
    ids = project_with_memory(repo)
    pack = builder.build(repo.config(), "Invoice tax is applied twice for VAT items")
    md = pack.render("md")
    assert "## Project memory (from `REPOMEM.md`)" in md
    assert "An invoicing and shipping service." in md
    assert "Money amounts are Decimal, never float." in md
    assert f"[{ids['tax']}] Tax is applied once per line item" in md
    assert "Invoice totals include tax." in md
    assert "Support reduced VAT rates" in md
    assert "Looked into VAT on invoices." in md
    assert "Invoices total without any tax at all." not in md  # superseded
    assert "Pluckrose" not in md  # forgotten
    assert md.index("## Project memory") < md.index("## Most relevant files") < md.index("## Code")
    data = json.loads(pack.render("json"))
    kinds = {i["kind"] for i in data["items"]}
    assert "memory" in kinds
    mem = [i for i in data["items"] if i["kind"] == "memory"]
    assert all(i["path"] == "REPOMEM.md" and i["reason"] and i["text"] for i in mem)
    assert "REPOMEM.md" not in [r["path"] for r in data["ranking"]]


def test_a_fact_whose_code_changed_is_marked_stale_even_before_memory_check(repo: Repo) -> None:
    ids = project_with_memory(repo)
    repo.write("billing/invoice.py", BILLING.replace("amount * (1 + rate)", "amount * rate"))
    md = builder.build(repo.config(), "Invoice tax is applied twice for VAT items").render()
    line = next(ln for ln in md.splitlines() if ids["tax"] in ln)
    assert "STALE" in line and "`billing/invoice.py:apply_tax` changed" in line
    assert f"- [{ids['tax']}] Tax is applied" not in md


def test_relevant_facts_lift_the_files_they_cite(repo: Repo) -> None:
    project_with_memory(repo)
    task = "straight lines between two stops look wrong on the map"
    pack = builder.build(repo.config(), task)
    assert "shipping/routes.py" in [p for p, _ in pack.ranking[:3]]
    item = next(i for i in pack.items if i.path == "shipping/routes.py" and i.kind == "file")
    assert "cited by a relevant memory fact" in item.reason


def test_memory_stays_within_its_share_of_the_budget(repo: Repo) -> None:
    project_with_memory(repo)
    cfg = repo.config(**{"pack.memory_share": 0.05})
    pack = builder.build(cfg, "Invoice tax is applied twice", budget=2000)
    mem = [i for i in pack.items if i.kind == "memory"]
    assert sum(tokens.count(i.text, cfg.pack.token_margin) for i in mem) <= 100
    assert pack.tokens <= 2000


def test_code_makes_room_before_memory_when_the_rendered_pack_is_over(repo: Repo) -> None:
    # Code items outscore memory entries, so fitting the rendered pack by value alone dropped
    # the next steps and the last session first, at every budget (gin, 2,500 tokens: no
    # memory at all).
    project_with_memory(repo)
    cfg = repo.config()
    for budget in (1200, 2000, 3000):
        for fmt in builder.FORMATS:
            pack = builder.build(cfg, "Invoice tax is applied twice", budget=budget, fmt=fmt)
            text = pack.render(fmt)
            assert pack.tokens <= budget
            assert "Support reduced VAT rates" in text, (budget, fmt)
            assert "Looked into VAT on invoices." in text, (budget, fmt)
            assert "Money amounts are Decimal" in text, (budget, fmt)


def test_a_hand_edit_of_the_memory_file_reaches_the_next_pack(repo: Repo) -> None:
    project_with_memory(repo)
    cfg = repo.config()
    builder.build(cfg, "anything about invoices")
    path = repo.root / "REPOMEM.md"
    text = path.read_text(encoding="utf-8").replace(
        "## Decisions\n",
        "## Decisions\n\n### d-hand · valid\nWe bill monthly, zebra-striped invoices.\n",
        1,
    )
    path.write_text(text, encoding="utf-8")
    md = builder.build(cfg, "why are invoices zebra-striped").render()
    assert "We bill monthly, zebra-striped invoices." in md


def test_a_broken_memory_file_does_not_stop_the_pack(repo: Repo) -> None:
    make_project(repo)
    repo.write(
        "REPOMEM.md",
        "<!-- repomem:memory schema_version=1 version=1 -->\n## Facts\n### f-1 · wobbly\nx\n",
    )
    md = builder.build(repo.config(), "Invoice tax").render()
    assert "Memory file problem" in md and "unknown status `wobbly`" in md
    assert "## Code" in md


def test_a_memory_file_linked_outside_the_repository_does_not_stop_the_pack(
    repo: Repo, tmp_path: Path
) -> None:
    make_project(repo)
    private = tmp_path / "private.md"
    private.write_text("Home address: 1 Private Lane.\n", encoding="utf-8")
    (repo.root / "REPOMEM.md").symlink_to(private)
    md = builder.build(repo.config(), "Invoice tax private lane").render()
    assert "Memory file problem" in md and "symbolic link" in md
    assert "Private Lane" not in md and "## Code" in md


GH_TOKEN = "ghp_" + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"
AWS_KEY = "AKIA" + "IOSFODNN7EXAMPLE"


def test_a_secret_written_into_the_memory_file_by_hand_reaches_no_pack_store_or_recall(
    repo: Repo,
) -> None:
    ids = project_with_memory(repo)
    cfg = repo.config()
    path = repo.root / "REPOMEM.md"
    text = path.read_text(encoding="utf-8")
    text = text.replace(
        "An invoicing and shipping service.",
        f"An invoicing and shipping service. Deploy with token {GH_TOKEN}",
    ).replace("at a 20% default rate.", f"at a 20% default rate, key {AWS_KEY}")
    path.write_text(text, encoding="utf-8")  # a hand edit (or a `git pull`)
    for fmt in builder.FORMATS:
        out = builder.build(cfg, "Invoice tax is applied twice for VAT items", fmt=fmt).render(fmt)
        assert "An invoicing and shipping service." in out and ids["tax"] in out
        assert GH_TOKEN not in out and AWS_KEY not in out, fmt
    found = derived.recall(cfg, "tax applied default rate key")
    assert found and all(AWS_KEY not in str(item) for item, _ in found)
    stored = b"".join(p.read_bytes() for p in (repo.root / ".git").rglob("*") if p.is_file()
                      and "repomem" in p.parts)  # fmt: skip
    assert GH_TOKEN.encode() not in stored and AWS_KEY.encode() not in stored


def test_a_token_pasted_into_the_task_is_not_echoed_by_the_pack(repo: Repo) -> None:
    make_project(repo)
    task = f"curl -H 'Authorization: Bearer {GH_TOKEN}' fails when Invoice totals apply_tax"
    for fmt in builder.FORMATS:
        out = builder.build(repo.config(), task, fmt=fmt).render(fmt)
        assert "Authorization: Bearer" in out and GH_TOKEN not in out, fmt


def test_a_password_written_into_the_task_as_prose_is_not_echoed(repo: Repo) -> None:
    make_project(repo)
    task = (
        "deploy to staging with DB_PASSWORD=TaskPw9Hj3 and password: TaskColon4Df, then "
        'check that api_key = os.environ["API_KEY"] reaches Invoice totals'
    )
    out = builder.build(repo.config(), task).render("md")
    assert "TaskPw9Hj3" not in out and "TaskColon4Df" not in out
    assert 'api_key = os.environ["API_KEY"]' in out  # pasted code stays as written


def test_a_store_that_cannot_be_written_still_serves_packs_and_recall(repo: Repo) -> None:
    # A read-only checkout: the memory file changed since the store's rows were synced, and
    # the store's lock cannot be taken (a folder where the lock file goes fails for root too).
    ids = project_with_memory(repo)
    cfg = repo.config()
    builder.build(cfg, "Invoice tax")  # index and rows in sync
    path = repo.root / "REPOMEM.md"
    path.write_text(path.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    lock = indexer.state_dir(cfg) / "index.lock"
    lock.unlink(missing_ok=True)
    lock.mkdir()
    md = builder.build(cfg, "Invoice tax is applied twice for VAT items", refresh=False).render()
    assert ids["tax"] in md and "Support reduced VAT rates" in md
    assert derived.recall(cfg, "tax applied once per line item")
    repo.write("billing/credit.py", "def credit_note():\n    return 0\n")
    with pytest.raises(WriteAccessError, match="index.lock"):
        builder.build(cfg, "Invoice tax", refresh=True)  # refreshing must write: one error


def test_the_latest_compacted_history_is_the_one_of_the_latest_sessions_not_the_last() -> None:
    """History entries out of time order in the file (an older merge appended theirs after
    ours, or a hand edit): a long-lived branch's older entry came last in the file and was
    packed as the latest."""
    from repomem.memory import file as mfile
    from repomem.memory.model import HistoryEntry
    from repomem.pack.memory import Selection, recent

    october = HistoryEntry("h-2", label="2 sessions", summary="October's work.",
                           sessions=["s-3", "s-4"], span="2026-10-01 .. 2026-10-20")  # fmt: skip
    september = HistoryEntry("h-1", label="2 sessions", summary="September's work.",
                             sessions=["s-1", "s-2"], span="2026-09-01 .. 2026-09-09")  # fmt: skip
    doc = mfile.new_doc(Path("REPOMEM.md"))
    doc.add(october)
    doc.add(september)
    assert [h.id for h in doc.history()] == ["h-2", "h-1"]
    (entry,) = [e for e in recent(Selection(doc=doc)) if e.symbol.startswith("history")]
    assert entry.symbol == "history h-2" and "October's work." in entry.text
