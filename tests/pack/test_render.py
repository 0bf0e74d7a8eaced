from __future__ import annotations

import json
import re

from repomem.index import indexer
from repomem.pack import builder, render
from tests.conftest import Repo
from tests.pack.project import make_project


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
    assert data["task"].endswith(" …") and len(data["task"]) <= render.TASK_ECHO + 2
    assert len(data["ranking"]) >= 20


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


def test_the_markdown_header_says_the_task_without_its_control_characters(repo: Repo) -> None:
    # `repomem pack` prints it to a terminal, which runs an escape sequence (`\x1b[2J` clears
    # the screen), and the MCP tool hands a NUL to the model
    make_project(repo)
    md = builder.build(repo.config(), "\x1b[2Jfix\x00 the \x07tax", budget=800).render("md")
    assert md.splitlines()[0] == "# Context pack: [2Jfix the tax"


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
