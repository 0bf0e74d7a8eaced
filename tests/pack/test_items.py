from __future__ import annotations

import json

from repomem.index import indexer
from repomem.pack import builder
from tests.conftest import Repo


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


def test_a_note_on_a_folder_comes_with_its_top_ranked_files(repo: Repo) -> None:
    from repomem.llm import notes
    from tests.pack.project import make_project

    make_project(repo)
    repo.commit()
    cfg = repo.config()
    builder.build(cfg, "anything")  # indexes
    notes.write_note(cfg, "billing", "Money is in integer cents throughout this package.")
    notes.write_note(cfg, "shipping", "Routes come from the carrier's API.")
    pack = builder.build(cfg, "Invoice.total applies tax twice")
    folder = [i for i in pack.items if i.kind == "note" and i.path == "billing/"]
    assert len(folder) == 1 and folder[0].symbol == "human"
    assert "folder of" in folder[0].reason and "billing/invoice.py" in folder[0].reason
    md = pack.render("md")
    assert "- `billing/` (human): Money is in integer cents" in md
    # a folder's note comes only with code of that folder in the pack, within the budget
    for budget in (8000, 1200, 600, 300):
        pack = builder.build(cfg, "Invoice.total applies tax twice", budget=budget)
        assert pack.tokens <= budget
        code = [i.path for i in pack.items if i.kind in ("file", "symbol")]
        for folder in ("billing/", "shipping/"):
            noted = any(i.path == folder for i in pack.items)
            assert not noted or any(p.startswith(folder) for p in code), (budget, folder)
        if budget == 600:  # the billing code alone: its folder's note, not shipping's
            notes_in = [i.path for i in pack.items if i.kind == "note"]
            assert "billing/" in notes_in and "shipping/" not in notes_in
