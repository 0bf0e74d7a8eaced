from __future__ import annotations

import json
import os
import re

import pytest

from repomem import config
from repomem.errors import BudgetError, InputError, WriteAccessError
from repomem.index import indexer
from repomem.pack import builder, render, tokens
from tests.conftest import Repo
from tests.pack.project import BILLING, EMOJI, emoji_project, make_project


def test_the_pack_puts_the_relevant_code_first(repo: Repo) -> None:
    make_project(repo)
    pack = builder.build(repo.config(), "Invoice.total applies tax twice when items are empty")
    assert pack.ranking[0][0] == "billing/invoice.py"
    code = [i for i in pack.items if i.kind in ("file", "symbol")]
    assert code[0].path == "billing/invoice.py"
    assert "def apply_tax" in code[0].text
    assert all(i.reason for i in pack.items)


def test_the_budget_is_a_hard_ceiling(repo: Repo) -> None:
    make_project(repo)
    for budget in (250, 400, 900, 3000):
        for fmt in ("md", "json", "xml"):
            pack = builder.build(
                repo.config(), "plan_route and helper functions", budget=budget, fmt=fmt
            )
            rendered = pack.render(fmt)
            assert tokens.count(rendered, repo.config().pack.token_margin) <= budget
            assert pack.tokens <= budget


def test_a_character_ceiling_is_kept_in_every_format(repo: Repo) -> None:
    make_project(repo)
    task = "plan_route and helper functions"
    whole = builder.build(repo.config(), task, budget=3000).render("md")
    for limit in (1500, 3000, len(whole) // 2):
        for fmt in ("md", "json", "xml"):
            pack = builder.build(repo.config(), task, budget=3000, fmt=fmt, max_chars=limit)
            assert len(pack.render(fmt)) <= limit
            if fmt != "md":  # Markdown says how long ago the index was updated: it may tick
                assert pack.rendered == pack.render(fmt)  # the text measured, for the caller
    half = builder.build(repo.config(), task, budget=3000, max_chars=len(whole) // 2)
    assert half.items and half.budget < 3000  # packed again within less, not emptied
    # a ceiling the whole pack fits under changes nothing
    same = builder.build(repo.config(), task, budget=3000, max_chars=len(whole) + 20)
    assert same.budget == 3000 and len(same.render("md")) > len(whole) // 2
    with pytest.raises(BudgetError, match="300 characters"):
        builder.build(repo.config(), task, budget=3000, max_chars=300)


def test_a_character_ceiling_counts_as_javascript_does(repo: Repo) -> None:
    task = emoji_project(repo)
    for fmt in ("md", "json", "xml"):
        pack = builder.build(repo.config(), task, budget=3000, fmt=fmt, max_chars=2000)
        text = pack.render(fmt)
        assert EMOJI in text and render.utf16_len(text) <= 2000, fmt
    assert render.utf16_len("a\u00e9\u4e2d\U0001f389") == 5
    assert render.utf16_len("\ud800") == 1  # a lone surrogate: one unit, as in JavaScript


@pytest.mark.parametrize("body", ["def f():\n    pass\n", "def f(): pass\n"])
def test_a_task_that_matches_nothing_still_gets_a_small_projects_code(
    repo: Repo, folder: Repo, body: str
) -> None:
    repo.write("a.py", body)
    repo.commit("one file")
    folder.write("a.py", body)
    for project in (repo, folder):
        pack = builder.build(project.config(), "fix f", budget=500)
        assert [(i.kind, i.path) for i in pack.items if i.kind != "map"] == [("file", "a.py")]
        md = pack.render("md")
        assert f"```python\n{body}```" in md  # no blank line before the fence


def test_items_never_repeat_code(repo: Repo) -> None:
    make_project(repo)
    pack = builder.build(repo.config(), "Invoice total apply_tax", budget=6000)
    seen: list[tuple[str, int, int]] = []
    for item in pack.items:
        if item.kind == "map":
            assert (item.start_line, item.end_line) == (0, 0)  # not a range of the file's lines
            continue
        for path, start, end in seen:
            assert not (path == item.path and item.start_line <= end and start <= item.end_line)
        seen.append((item.path, item.start_line, item.end_line))


def test_a_file_named_in_the_task_keeps_its_rank(repo: Repo) -> None:
    make_project(repo)
    pack = builder.build(repo.config(), "Something is off in app.py when printing")
    assert pack.ranking[0][0] == "app.py"


def test_a_stack_frame_points_at_its_file_and_function(repo: Repo) -> None:
    make_project(repo)
    task = (
        'Traceback (most recent call last):\n  File "/srv/x/shipping/routes.py", line 2, '
        "in plan_route\nIndexError: list index out of range\n"
    )
    pack = builder.build(repo.config(), task)
    assert pack.ranking[0][0] == "shipping/routes.py"


def test_tests_are_ranked_below_the_code_they_test(repo: Repo) -> None:
    make_project(repo)
    pack = builder.build(repo.config(), "apply_tax returns the wrong amount")
    order = [p for p, _ in pack.ranking]
    assert order.index("billing/invoice.py") < order.index("tests/test_invoice.py")


def test_an_unindexed_repository_is_indexed_first(repo: Repo) -> None:
    make_project(repo)
    assert not indexer.open_store(repo.config()).exists()
    pack = builder.build(repo.config(), "Invoice")
    assert pack.fresh and pack.items


def test_a_stale_index_is_reported_or_refreshed(repo: Repo) -> None:
    make_project(repo)
    indexer.run(repo.config())
    repo.write("billing/invoice.py", BILLING + "\n\ndef refund(invoice):\n    return -1\n")
    stale = builder.build(repo.config(), "refund an invoice", refresh=False)
    assert stale.fresh is False and stale.pending == 1
    assert "stale" in stale.render("md").splitlines()[1]
    fresh = builder.build(repo.config(), "refund an invoice", refresh=True)
    assert fresh.fresh is True
    assert any("def refund" in i.text for i in fresh.items)


def test_a_stale_index_that_cannot_be_written_still_packs_unless_a_refresh_was_asked_for(
    repo: Repo,
) -> None:
    """A read-only checkout whose files changed since its index was built (another user
    pulled): the default refresh is a wish, the README promises packs from the index as it is;
    `--refresh` asks for one, and that must write (test_memory says so too)."""
    make_project(repo)
    cfg = repo.config()
    indexer.run(cfg)
    repo.write("billing/invoice.py", BILLING + "\n\ndef refund(invoice):\n    return -1\n")
    lock = indexer.state_dir(cfg) / "index.lock"
    lock.unlink(missing_ok=True)
    lock.mkdir()  # the lock cannot be taken: it fails for root too, as a read-only disk does
    pack = builder.build(cfg, "refund an invoice")
    assert pack.fresh is False and pack.pending == 1 and pack.items
    assert "stale" in pack.render("md").splitlines()[1]
    with pytest.raises(WriteAccessError, match="index.lock"):
        builder.build(cfg, "refund an invoice", refresh=True)


def test_a_refresh_limit_packs_from_the_index_as_it_is_when_more_changed(repo: Repo) -> None:
    make_project(repo)
    indexer.run(repo.config())
    repo.write("billing/invoice.py", BILLING + "\n\ndef refund(invoice):\n    return -1\n")
    repo.write("billing/extra.py", "def credit_note():\n    return 0\n")
    held = builder.build(repo.config(), "refund an invoice", refresh_at_most=1)
    assert held.fresh is False and held.pending == 2
    assert not any("def refund" in i.text for i in held.items)
    small = builder.build(repo.config(), "refund an invoice", refresh_at_most=2)
    assert small.fresh is True and any("def refund" in i.text for i in small.items)


def test_a_refresh_limit_records_the_mtimes_of_files_only_touched_without_their_rows(
    repo: Repo,
) -> None:
    make_project(repo)
    cfg = repo.config()
    indexer.run(cfg)
    misc = sorted(f"misc/{p.name}" for p in (repo.root / "misc").iterdir())
    indexed_at = [r["indexed_at"] for r in indexer.open_store(cfg).rows_for_paths("files", misc)]
    for rel in misc:  # same content, a new mtime (a checkout's)
        st = (repo.root / rel).stat()
        os.utime(repo.root / rel, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    repo.write("billing/invoice.py", BILLING + "\n\ndef refund(invoice):\n    return -1\n")
    pack = builder.build(cfg, "refund an invoice", refresh_at_most=1)
    # one file changed: refreshed; twenty only touched, not counted, recorded
    assert pack.fresh is True and pack.pending == 0
    assert any("def refund" in i.text for i in pack.items)
    store = indexer.open_store(cfg)
    assert [r["indexed_at"] for r in store.rows_for_paths("files", misc)] == indexed_at
    states = store.file_states()
    for rel in misc:
        st = (repo.root / rel).stat()
        assert states[rel][:2] == (st.st_size, st.st_mtime_ns), rel
    assert indexer.prepare(cfg, indexer.reader(cfg)).plan.changed == []  # nothing to read


def test_a_refresh_limit_never_starts_a_rebuild(repo: Repo) -> None:
    make_project(repo)
    indexer.run(repo.config())
    repo.write("billing/invoice.py", BILLING + "\n\ndef refund(invoice):\n    return -1\n")
    cfg = repo.config(**{"index.max_line_length": 777})  # another fingerprint: a rebuild
    held = builder.build(cfg, "refund an invoice", refresh_at_most=1000)
    assert held.fresh is False
    assert builder.build(cfg, "refund an invoice").fresh is True  # without a limit it rebuilds


def test_bad_input_gets_clear_errors(repo: Repo) -> None:
    make_project(repo)
    with pytest.raises(InputError, match="empty"):
        builder.build(repo.config(), "   \n")
    with pytest.raises(BudgetError, match="budget is 10 tokens, below the smallest pack budget"):
        builder.build(repo.config(), "Invoice", budget=10)
    with pytest.raises(InputError, match="format"):
        builder.build(repo.config(), "Invoice", fmt="yaml")


def test_a_huge_task_text_still_packs(repo: Repo) -> None:
    make_project(repo)
    task = "apply_tax " + " ".join(f"word{i}" for i in range(50_000))
    pack = builder.build(repo.config(), task, budget=2000)
    assert pack.tokens <= 2000
    assert re.search(r"apply_tax", pack.render("md"))


def test_notes_on_top_files_go_into_the_pack_and_stale_ones_say_so(repo: Repo) -> None:
    from repomem.llm import notes

    make_project(repo)
    cfg = repo.config()
    builder.build(cfg, "anything")  # indexes
    notes.write_note(cfg, "billing/invoice.py", "Totals are cached per invoice; clear on edit.")
    pack = builder.build(cfg, "Invoice.total applies tax twice")
    (note,) = [i for i in pack.items if i.kind == "note"]
    assert note.path == "billing/invoice.py" and note.symbol == "human"
    md = pack.render("md")
    assert "## Notes on these files" in md and "Totals are cached per invoice" in md
    assert md.index("## Notes on these files") < md.index("## Code")
    repo.write("billing/invoice.py", BILLING + "\n\ndef refund():\n    pass\n")
    pack = builder.build(cfg, "Invoice.total applies tax twice")
    (note,) = [i for i in pack.items if i.kind == "note"]
    assert "stale" in note.reason
    assert "(stale: the file changed since)" in pack.render("md")


def test_the_pack_says_when_the_index_was_updated_and_what_is_pending(repo: Repo) -> None:
    make_project(repo)
    cfg = repo.config()
    builder.build(cfg, "anything")
    repo.write("app.py", "def main():\n    pass\n")
    pack = builder.build(cfg, "Invoice totals", refresh=False)
    data = json.loads(pack.render("json"))
    assert data["pending"] == 1 and data["fresh"] is False
    assert isinstance(data["indexed_at"], float)
    assert re.search(
        r"index stale: 1 file changed since indexing, updated \d+ s ago", pack.render()
    )


def test_a_file_named_by_an_absolute_path_in_a_compiler_error_ranks_first(repo: Repo) -> None:
    for name in ("errors", "utils", "gin", "context", "tree"):
        repo.write(
            f"{name}.go", f"package gin\n\nfunc {name.title()}Value() int {{\n\treturn 1\n}}\n"
        )
    repo.commit()
    indexer.run(repo.config())
    task = "/home/dev/go/src/github.com/gin-gonic/gin/errors.go:4:9: cannot use x (type int)"
    data = json.loads(builder.build(repo.config(), task, budget=2000).render("json"))
    assert data["ranking"][0]["path"] == "errors.go", data["ranking"][:3]


def test_the_work_in_progress_inside_a_submodule_is_named_by_its_files(
    superproject: Repo,
) -> None:
    superproject.write("libs/core/pkg/core.py", "def core_helper():\n    return 5\n")
    pack = builder.build(superproject.config(), "core_helper returns the wrong number")
    assert pack.uncommitted == ["libs/core/pkg/core.py"]
    assert pack.ranking[0][0] == "libs/core/pkg/core.py"


def test_the_pack_names_the_work_in_progress(repo: Repo) -> None:
    make_project(repo)
    task = "Invoice.total applies tax twice when items are empty"
    clean = builder.build(repo.config(), task, fmt="json")
    assert clean.uncommitted == [] and "Uncommitted" not in clean.render("md")
    repo.write("shipping/routes.py", "def plan_route(a, b, c):\n    return [a, b, c]\n")
    repo.write("shipping/drafts.py", "def estimate(route):\n    return len(route)\n")  # new
    repo.write(".env", "TOKEN=abc\n")
    repo.write(".repomem", "[pack]\nbudget = 8000\n")  # repomem's own files are not the work
    repo.write("REPOMEM.md", "# Project memory\n")
    pack = builder.build(repo.config(), task)
    assert sorted(pack.uncommitted) == ["shipping/drafts.py", "shipping/routes.py"]
    assert pack.ranking[0][0] == "billing/invoice.py"
    assert "Uncommitted changes in `shipping/" in pack.render("md")
    assert json.loads(pack.render("json"))["uncommitted"] == pack.uncommitted
    assert '<file path="shipping/routes.py"/>' in pack.render("xml")
    ranked = dict(pack.ranking)
    assert ranked["shipping/routes.py"] > dict(clean.ranking).get("shipping/routes.py", 0.0)


def test_the_work_in_progress_names_deleted_files_as_deleted(repo: Repo) -> None:
    # the "Uncommitted changes" line left them out
    make_project(repo)
    repo.write("deploy/.env", "TOKEN=abc\n")  # tracked, never indexed
    repo.commit()
    task = "Invoice.total applies tax twice when items are empty"
    (repo.root / "misc/module_3.py").unlink()
    (repo.root / "deploy/.env").unlink()
    repo.write("shipping/routes.py", "def plan_route(a, b, c):\n    return [a, b, c]\n")
    pack = builder.build(repo.config(), task)
    assert pack.uncommitted == ["misc/module_3.py", "shipping/routes.py"]
    assert pack.deleted == {"misc/module_3.py"}
    assert "misc/module_3.py" not in dict(pack.ranking)
    head = pack.render("md").splitlines()[2]
    assert head == "Uncommitted changes in `misc/module_3.py` (deleted), `shipping/routes.py`."
    data = json.loads(pack.render("json"))
    assert data["uncommitted"] == pack.uncommitted
    assert data["uncommitted_deleted"] == ["misc/module_3.py"]
    xml = pack.render("xml")
    assert '<file path="misc/module_3.py" deleted="true"/>' in xml
    assert '<file path="shipping/routes.py"/>' in xml


def test_code_with_old_mac_line_ends_is_packed_line_by_line(repo: Repo) -> None:
    body = "".join(f"def helper_{i}(x):\r    return x + {i}\r\r" for i in range(60))
    repo.write("mac.py", (body + "def second(x):\r    return x * 2\r").encode())
    repo.commit()
    pack = builder.build(repo.config(), "second doubles x", budget=3000)
    code, signatures = (i for i in pack.items if i.path == "mac.py")  # was one line of 1-1
    assert (code.kind, code.start_line, code.end_line) == ("file", 1, 182)
    assert code.text.splitlines()[180:] == ["def second(x):", "    return x * 2"]
    assert signatures.kind == "map" and "\n  4: def helper_1(x)\n" in signatures.text
    assert "\r" not in pack.render("md")


def test_a_small_budget_drops_the_work_in_progress_before_the_ranking(repo: Repo) -> None:
    make_project(repo)
    for i in range(12):
        repo.write(f"misc/module_{i}.py", f"def changed_{i}():\n    pass\n")
    for fmt in ("md", "json", "xml"):
        pack = builder.build(repo.config(), "Invoice totals", budget=config.MIN_BUDGET, fmt=fmt)
        assert tokens.count(pack.render(fmt), repo.config().pack.token_margin) <= pack.budget
        roomy = builder.build(repo.config(), "Invoice totals", budget=3000, fmt=fmt)
        assert len(roomy.uncommitted) == 12
        assert "and 4 more" in roomy.render("md")
        assert len(json.loads(roomy.render("json"))["uncommitted"]) == render.UNCOMMITTED_SHOWN


def test_the_task_file_inside_the_repository_is_not_ranked_or_work_in_progress(
    repo: Repo,
) -> None:
    """`repomem pack --task-file TASK.md` with TASK.md in the checkout: it ranked third (on
    requests) for its own text, and was listed as the work in progress."""
    make_project(repo)
    task = "Invoice.total applies tax twice when items are empty"
    repo.write("TASK.md", task + "\n\nInvoice total tax items empty Invoice.total\n")
    pack = builder.build(repo.config(), task, leave_out=[repo.root / "TASK.md"])
    assert "TASK.md" not in dict(pack.ranking) and "TASK.md" not in pack.uncommitted
    assert pack.ranking[0][0] == "billing/invoice.py"
    assert all(i.path != "TASK.md" for i in pack.items)
