from __future__ import annotations

import json
import re

import pytest

from repomem.errors import BudgetError, InputError
from repomem.index import indexer
from repomem.pack import builder, tokens
from tests.conftest import Repo

BILLING = '''"""Billing: invoices and their totals."""


class Invoice:
    """An invoice with line items."""

    def __init__(self, items):
        self.items = items

    def total(self):
        """Sum of the line items, with tax."""
        return sum(apply_tax(i) for i in self.items)


def apply_tax(amount, rate=0.2):
    """Add VAT to an amount."""
    return amount * (1 + rate)
'''


def make_project(repo: Repo) -> None:
    repo.write("billing/invoice.py", BILLING)
    repo.write("billing/__init__.py", "from billing.invoice import Invoice\n")
    repo.write("shipping/routes.py", "def plan_route(a, b):\n    return [a, b]\n" * 3)
    repo.write(
        "app.py",
        "from billing.invoice import Invoice\n\n\ndef main():\n    print(Invoice([1]).total())\n",
    )
    for i in range(20):
        body = "\n".join(f"def helper_{i}_{j}(x):\n    return x + {j}\n" for j in range(40))
        repo.write(f"misc/module_{i}.py", body)
    repo.write(
        "tests/test_invoice.py",
        "from billing.invoice import apply_tax\n\n"
        "def test_tax():\n    assert apply_tax(10) == 12\n",
    )
    repo.commit()


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


def test_fitting_the_rendered_pack_drops_only_what_it_must() -> None:
    # 60 small symbols: the packing's estimate of their headings is low, so the rendered pack
    # is over the budget and the least valuable items go, several at a time.
    from repomem.config import PackSection

    code = [
        builder.Item("symbol", f"pkg/mod_{i}.py", f"helper_{i}", 1, 3, 0, 1.0 - i / 100,
                     "function that matches the task text with a long explanation of why",
                     f"def helper_{i}(x):\n    return x + {i}\n", exact=False)
        for i in range(60)
    ]  # fmt: skip
    for fmt in ("md", "json", "xml"):
        pack = builder.Pack("task", 1200, 0, True, "repo", None, 0)
        items = [builder.Item(**vars(i)) for i in code]
        builder._fill(pack, [], items, [], 1200, 1.0, PackSection(), fmt)
        assert pack.tokens <= 1200
        kept = {i.symbol for i in pack.items}
        dropped = [i for i in items if i.symbol not in kept]
        assert kept and dropped, fmt
        # the most valuable dropped item does not fit back in: nothing went needlessly
        best = max(dropped, key=lambda i: i.score)
        assert all(best.score < i.score for i in pack.items), fmt
        pack.items.append(best)
        assert tokens.count(pack.render(fmt)) > 1200, fmt


@pytest.mark.parametrize("fmt", ["md", "json", "xml"])
def test_what_the_fitted_pack_leaves_goes_to_items_left_out(fmt: str) -> None:
    # Items of very different sizes with long reasons: the packing's estimates are off both
    # ways, so the first fill either stops early or is trimmed by more than it must be.
    from repomem.config import PackSection

    code = [
        builder.Item("symbol", f"pkg/mod_{i}.py", f"helper_{i}", 1, 3, 0, 1.0 - i / 100,
                     "function that matches the task text " + "and is explained at length " * 5,
                     "".join(f"def helper_{i}_{j}(x):\n    return x + {j}\n"
                             for j in range(1 + (i * 7) % 13)), exact=False)
        for i in range(60)
    ]  # fmt: skip
    for budget in (900, 1500, 2500):
        pack = builder.Pack("task", budget, 0, True, "repo", None, 0)
        builder._fill(pack, [], code, [], budget, 1.0, PackSection(), fmt)
        assert pack.tokens == tokens.count(pack.render(fmt)) <= budget
        assert all(i.tokens == tokens.count(i.text) for i in pack.items)
        kept = {i.symbol for i in pack.items}
        left = [i for i in code if i.symbol not in kept]
        assert left
        # none of the items left out fits in what is left: the budget is used
        smallest = min(left, key=lambda i: len(i.text))
        pack.items.append(smallest)
        assert tokens.count(pack.render(fmt)) > budget, (fmt, budget, pack.tokens)


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


def test_json_follows_the_documented_contract(repo: Repo) -> None:
    make_project(repo)
    data = json.loads(builder.build(repo.config(), "apply_tax rate").render("json"))
    assert {"task", "budget", "tokens", "fresh", "items", "ranking"} <= set(data)
    for item in data["items"]:
        assert set(item) == {
            "kind",
            "path",
            "symbol",
            "start_line",
            "end_line",
            "tokens",
            "score",
            "reason",
            "text",
        }
    assert len(data["ranking"]) >= 20  # files that did not fit are ranked too
    assert all(set(r) == {"path", "score"} for r in data["ranking"])
    scores = [r["score"] for r in data["ranking"]]
    assert scores == sorted(scores, reverse=True)


def test_xml_is_well_formed(repo: Repo) -> None:
    import xml.etree.ElementTree as ET

    make_project(repo)
    root = ET.fromstring(builder.build(repo.config(), "Invoice <total> & tax").render("xml"))
    assert root.tag == "context_pack"
    assert root.find("task") is not None and "<total>" in (root.find("task").text or "")


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


def test_bad_input_gets_clear_errors(repo: Repo) -> None:
    make_project(repo)
    with pytest.raises(InputError, match="empty"):
        builder.build(repo.config(), "   \n")
    with pytest.raises(BudgetError, match="minimum"):
        builder.build(repo.config(), "Invoice", budget=10)
    with pytest.raises(InputError, match="format"):
        builder.build(repo.config(), "Invoice", fmt="yaml")


def test_a_huge_task_text_still_packs(repo: Repo) -> None:
    make_project(repo)
    task = "apply_tax " + " ".join(f"word{i}" for i in range(50_000))
    pack = builder.build(repo.config(), task, budget=2000)
    assert pack.tokens <= 2000
    assert re.search(r"apply_tax", pack.render("md"))


def test_a_long_task_leaves_the_budget_to_code_in_json_and_xml(repo: Repo) -> None:
    # a long issue (logs pasted in) was echoed whole: it took the budget, the code and the
    # ranking were dropped to make room for it
    make_project(repo)
    task = "Invoice.total applies tax twice\n" + "log line with nothing useful\n" * 1200
    for fmt in ("json", "xml"):
        pack = builder.build(repo.config(), task, budget=3000, fmt=fmt)
        assert pack.tokens <= 3000
        code = [i for i in pack.items if i.kind in ("file", "symbol")]
        assert code and code[0].path == "billing/invoice.py"
        assert len(pack.ranking) >= 20
    data = json.loads(pack.render("json"))
    assert data["task"].startswith("Invoice.total applies tax twice\nlog line")
    assert data["task"].endswith(" …") and len(data["task"]) <= builder.TASK_ECHO + 2
    assert len(data["ranking"]) >= 20


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
        r"index stale: 1 file\(s\) changed since indexing, updated \d+ s ago", pack.render()
    )


def test_a_nested_function_brings_the_function_around_it(repo: Repo) -> None:
    # The task names a nested helper; the pack shows the whole function it lives in (the
    # helper alone means little, and once packed it would keep its parent out).
    fields = "\n".join(f'    fields.append(("field_{i}", realm + "{i}"))' for i in range(70))
    digest = (
        "import hashlib\n\n\n"
        "def build_digest_header(method, url, realm):\n"
        '    """The Authorization header for HTTP digest authentication."""\n\n'
        "    def md5_utf8(x):\n"
        '        return hashlib.md5(x.encode("utf-8")).hexdigest()\n\n'
        "    fields = []\n"
        f"{fields}\n"
        '    return ", ".join(f"{k}={md5_utf8(v)}" for k, v in fields)\n'
    )
    filler = "\n".join(
        f"def unrelated_{i}(a, b):\n    total = a * {i} + b\n    return total - {i}\n"
        for i in range(40)
    )
    repo.write("auth/digest.py", digest + "\n\n" + filler)
    repo.write("auth/__init__.py", "")
    repo.commit()
    pack = builder.build(repo.config(), "md5_utf8 breaks on non-ASCII passwords", budget=3000)
    code = {i.symbol: i for i in pack.items if i.kind in ("file", "symbol")}
    assert "build_digest_header" in code, list(code)
    assert "def md5_utf8" in code["build_digest_header"].text
    assert not any(s.endswith(".md5_utf8") for s in code)


def test_the_best_function_of_a_top_file_goes_in_whatever_its_size(repo: Repo) -> None:
    # A long function that matches the task best is worth more than many short ones that
    # match it a little, even though each of those costs less.
    rows = "\n".join(
        f"    cells.append(round_currency(invoice.line_{i}.amount * invoice.rate, 'EUR'))"
        for i in range(150)
    )
    big = f"def render_invoice_table(invoice):\n    cells = []\n{rows}\n    return cells\n"
    small = "\n".join(
        f"def currency_helper_{i}(invoice):\n    return invoice.amount_{i}\n" for i in range(30)
    )
    repo.write("billing/tables.py", big + "\n\n" + small)
    for i in range(8):
        repo.write(
            f"billing/extra_{i}.py",
            "\n".join(
                f"def invoice_table_{i}_{j}(invoice):\n"
                f"    # the currency of an invoice table, rounded\n"
                f"    return round_currency(invoice.table_{j}, invoice.currency)\n"
                for j in range(12)
            ),
        )
    repo.commit()
    pack = builder.build(
        repo.config(), "render_invoice_table rounds the currency of an invoice table wrong",
        budget=4000,
    )  # fmt: skip
    code = {i.symbol for i in pack.items if i.kind == "symbol"}
    assert "render_invoice_table" in code, sorted(code)


def test_a_large_budget_takes_the_top_file_whole(repo: Repo) -> None:
    # With room to spare, the best file goes in whole (the lines a fix touches are often
    # outside the functions that match the task), not as its matching symbols alone.
    body = "\n".join(
        f"def shipment_step_{i}(parcel):\n    parcel.weight += {i}\n    return parcel\n"
        for i in range(250)
    )
    repo.write("shipping/steps.py", '"""Shipment steps."""\nimport math\n\n' + body)
    repo.write("shipping/__init__.py", "")
    repo.commit()
    task = "shipment_step_7 adds the parcel weight twice"
    small = builder.build(repo.config(), task, budget=4000)
    large = builder.build(repo.config(), task, budget=20000)
    assert [i.kind for i in small.items if i.path == "shipping/steps.py"][0] == "symbol"
    whole = [i for i in large.items if i.path == "shipping/steps.py" and i.kind == "file"]
    assert whole and "import math" in whole[0].text


def test_markdown_and_xml_group_the_code_by_file_in_ranking_order() -> None:
    # items come by value, alternating between files; a reader gets each file's code together,
    # the files in ranking order and each file's items in line order
    pack = builder.Pack(
        task="t", budget=8000, tokens=0, fresh=True, repository="r", commit=None, pending=0,
        ranking=[("b.py", 3.0), ("a.py", 2.0), ("c.py", 1.0)],
    )  # fmt: skip
    spans = [("a.py", 40, 2.9), ("b.py", 90, 2.8), ("a.py", 10, 2.7), ("b.py", 5, 2.6)]
    pack.items = [
        builder.Item("symbol", p, f"f{line}", line, line + 2, 10, score, "matches", "pass")
        for p, line, score in spans
    ] + [builder.Item("file", "c.py", "", 1, 3, 10, 3.5, "named in the task", "x = 1")]
    want = [("b.py", 5), ("b.py", 90), ("a.py", 10), ("a.py", 40), ("c.py", 1)]
    md = re.findall(r"^### (?:`[^`]+` in )?([^\s:]+):(\d+)-", pack.render("md"), flags=re.M)
    assert [(p, int(n)) for p, n in md] == want
    xml = re.findall(r'<(?:file|symbol) path="([^"]+)" start_line="(\d+)"', pack.render("xml"))
    assert [(p, int(n)) for p, n in xml] == want
    # JSON keeps the items in order of value
    assert [i["start_line"] for i in json.loads(pack.render("json"))["items"]][:2] == [40, 90]


def test_item_text_is_the_files_lines_past_form_feeds(repo: Repo) -> None:
    lines = ["import os", "\x0c", "def helper():", "    return 1", "\x0c"]
    lines += ["def compute_total(items):", "    total = sum(items)", "    return total * 1.2"]
    for i in range(150):
        lines += ["", "", f"def filler_{i}(a, b):", f"    value = a * {i} + b", "    return value"]
    repo.write("billing.py", "\n".join(lines) + "\n")
    repo.commit()
    indexer.run(repo.config())
    data = json.loads(
        builder.build(repo.config(), "compute_total doubles the tax", budget=1500).render("json")
    )
    items = [i for i in data["items"] if i["path"] == "billing.py" and i["kind"] != "map"]
    assert any(i["symbol"] == "compute_total" for i in items)
    for item in items:
        expected = "\n".join(lines[item["start_line"] - 1 : item["end_line"]])
        assert item["text"].rstrip("\n") == expected.rstrip("\n"), item


def test_xml_packs_stay_well_formed_with_control_characters_in_task_and_code(
    repo: Repo,
) -> None:
    import xml.etree.ElementTree as ET

    repo.write("billing.py", "import os\n\x0c\ndef compute_total(items):\n    return '\x01'\n")
    repo.commit()
    indexer.run(repo.config())
    pack = builder.build(repo.config(), "compute_total\x01 breaks \x00 here", budget=800, fmt="xml")
    root = ET.fromstring(pack.render("xml"))
    assert "compute_total" in (root.findtext("task") or "")
    assert any("def compute_total" in (e.text or "") for e in root.iter() if e.tag != "task")


def test_markdown_fences_are_longer_than_any_fence_inside_the_code(repo: Repo) -> None:
    code = (
        '"""Turn titles into URL slugs.\n\nExample:\n\n```\n>>> make_slug("Hello World")\n'
        '\'hello-world\'\n```\n"""\n\n\ndef make_slug(title):\n'
        '    return "-".join(title.lower().split())\n'
    )
    repo.write("slugify.py", code)
    repo.commit()
    indexer.run(repo.config())
    out = builder.build(repo.config(), "make_slug keeps punctuation", budget=800).render("md")
    assert "````python\n" in out and "\n````" in out
    # read as CommonMark does: the code's own ``` lines stay inside the pack's fence
    fence, headings = "", []
    for line in out.splitlines():
        ticks = len(line) - len(line.lstrip("`"))
        if not fence and ticks >= 3:
            fence = "`" * ticks
        elif fence and ticks >= len(fence) and not line.strip("`"):
            fence = ""
        elif not fence and line.startswith("## "):
            headings.append(line)
    assert fence == "" and any(h.startswith("## Code") for h in headings), headings


def test_a_nested_function_comes_alone_when_its_parent_is_too_large_for_the_pack(
    repo: Repo,
) -> None:
    steps = "".join(
        f"    step_{i} = compute_step({i}, data)\n    log.debug('step {i}: %s', step_{i})\n"
        for i in range(400)
    )
    repo.write(
        "pipeline.py",
        'def run_pipeline(data):\n    """Run every stage."""\n\n    def normalize_record(rec):\n'
        "        return rec.strip().lower()\n\n"
        + steps
        + "    return [normalize_record(r) for r in data]\n",
    )
    repo.commit()
    indexer.run(repo.config())
    task = "normalize_record() lowercases the record but should keep case"
    for budget in (1000, 3000):
        data = json.loads(builder.build(repo.config(), task, budget=budget).render("json"))
        spans = [(i["path"], i["start_line"], i["end_line"]) for i in data["items"]]
        assert ("pipeline.py", 4, 5) in spans, (budget, spans)


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
    (repo.root / "misc/module_3.py").unlink()
    pack = builder.build(repo.config(), task)
    assert sorted(pack.uncommitted) == ["shipping/drafts.py", "shipping/routes.py"]
    assert pack.ranking[0][0] == "billing/invoice.py"
    assert "Uncommitted changes in `shipping/" in pack.render("md")
    assert json.loads(pack.render("json"))["uncommitted"] == pack.uncommitted
    assert '<file path="shipping/routes.py"/>' in pack.render("xml")
    ranked = dict(pack.ranking)
    assert ranked["shipping/routes.py"] > dict(clean.ranking).get("shipping/routes.py", 0.0)


def test_a_small_budget_drops_the_work_in_progress_before_the_ranking(repo: Repo) -> None:
    make_project(repo)
    for i in range(12):
        repo.write(f"misc/module_{i}.py", f"def changed_{i}():\n    pass\n")
    for fmt in ("md", "json", "xml"):
        pack = builder.build(repo.config(), "Invoice totals", budget=builder.MIN_BUDGET, fmt=fmt)
        assert tokens.count(pack.render(fmt), repo.config().pack.token_margin) <= pack.budget
        roomy = builder.build(repo.config(), "Invoice totals", budget=3000, fmt=fmt)
        assert len(roomy.uncommitted) == 12
        assert "and 4 more" in roomy.render("md")
        assert len(json.loads(roomy.render("json"))["uncommitted"]) == builder.UNCOMMITTED_SHOWN
