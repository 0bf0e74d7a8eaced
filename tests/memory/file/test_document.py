"""Changing a parsed memory file (repomem/memory/file/document.py): only changed entries
re-rendered, new entries and sections in canonical order, CRLF kept, next steps edited in
place."""

from __future__ import annotations

from pathlib import Path

from repomem.memory import file as mfile
from repomem.memory import model
from repomem.memory.model import Fact, Session
from tests.memory.file.samples import read


def test_changing_one_entry_leaves_every_other_byte_alone() -> None:
    text = read("hand_edited.md")
    doc = mfile.parse(text, Path("REPOMEM.md"))
    fact = doc.fact("my-own-fact")
    assert fact is not None
    fact.text = "Rewritten."
    doc.touch(fact)
    out = doc.render()
    old_block = "### my-own-fact\nWritten by a person with no fields at all.\n"
    new_block = "### my-own-fact · valid\nRewritten.\n- source: person\n- confidence: medium\n"
    assert out == text.replace(old_block, new_block)


def test_new_entries_go_to_their_sections_in_canonical_order(tmp_path: Path) -> None:
    doc = mfile.parse("<!-- repomem:memory schema_version=1 version=0 -->\n# M\n", tmp_path / "m")
    doc.add(Fact(id="d-1", kind="decision", text="Use LanceDB.", recorded=model.now_iso()))
    doc.add(Session(id="s-1", title="One", started="2026-11-22T01:00:00Z"))
    doc.add(Fact(id="c-1", kind="convention", text="Atomic writes."))
    out = doc.render()
    assert out.index("## Conventions") < out.index("## Decisions") < out.index("## Sessions")
    again = mfile.parse(out, tmp_path / "m")
    assert [f.id for f in again.facts()] == ["c-1", "d-1"]
    assert again.render() == out


def test_crlf_files_keep_crlf_when_entries_are_added() -> None:
    doc = mfile.parse(read("crlf.md"), Path("m"))
    doc.add(Fact(id="f-2", text="Second."))
    out = doc.render()
    assert "\r\n### f-2 · valid\r\nSecond.\r\n" in out
    assert "\n" not in out.replace("\r\n", "")


def test_next_steps_change_only_their_own_lines(tmp_path: Path) -> None:
    doc = mfile.new_doc(tmp_path / "REPOMEM.md")
    doc.set_next_steps([model.NextStep("placeholder")])
    grouped = (
        "Release blockers:\n\n- [ ] fix the flaky login test\n  - [ ] check the CI cache\n\n"
        "After the release:\n\n* [ ] migrate to the new cache\n"
    )
    text = doc.render().replace("- [ ] placeholder\n", grouped)
    doc = mfile.parse(text, tmp_path / "REPOMEM.md")
    steps = doc.next_steps()
    steps[1].done = True
    doc.set_next_steps([*steps, model.NextStep("write the changelog")])
    out = doc.render()
    expected = grouped.replace("  - [ ] check", "  - [x] check").replace(
        "* [ ] migrate to the new cache\n",
        "* [ ] migrate to the new cache\n- [ ] write the changelog\n",
    )
    assert out == text.replace(grouped, expected)
    doc = mfile.parse(out, tmp_path / "REPOMEM.md")
    doc.set_next_steps([s for s in doc.next_steps() if s.text != "fix the flaky login test"])
    assert "flaky" not in doc.render() and "Release blockers:" in doc.render()
