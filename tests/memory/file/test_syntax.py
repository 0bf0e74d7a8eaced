"""The escapes of the memory file (repomem/memory/file/syntax.py): entry text that looks like
structure and list items holding commas or percent signs read back as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from repomem.memory import file as mfile
from repomem.memory import model
from repomem.memory.model import Fact, Session

TRICKY = [
    "```python snippets must use 4 spaces",
    "- topic: caching",
    "## Overview of the build",
    "### f-12345678 · valid",
    "~~~ a tilde fence",
    "<<<<<<< HEAD",
    "\\## already escaped by hand",
    "\\\\- why: two backslashes",
    "#### f-12345678 · valid",
    "f-12345678 · stale",
    "##s-1 · a heading without its blank",
]


@pytest.mark.parametrize("text", TRICKY)
def test_entry_text_that_looks_like_the_files_structure_reads_back_as_written(
    tmp_path: Path, text: str
) -> None:
    doc = mfile.new_doc(tmp_path / "REPOMEM.md")
    doc.add(Fact(id="f-1", kind="fact", text=text, topic="t", source="person"))
    doc.add(Fact(id="f-2", kind="fact", text="The next fact.", source="person"))
    doc.add(Session(id="s-1", title="One", summary=f"Did things.\n{text}", started=model.now_iso()))
    history = model.HistoryEntry(id="h-1", label="old", summary=f"{text}\n- refactor: x", by="m")
    doc.add(history)
    doc.set_next_steps([model.NextStep("ship it")])
    again = mfile.parse(doc.render(), tmp_path / "REPOMEM.md")
    assert [(f.id, f.text, f.topic) for f in again.facts()] == [
        ("f-1", text, "t"),
        ("f-2", "The next fact.", ""),
    ]
    assert again.sessions()[0].summary == f"Did things.\n{text}"
    assert again.history()[0].summary == f"{text}\n- refactor: x"
    assert [s.text for s in again.next_steps()] == ["ship it"]
    assert again.render() == doc.render()


def test_session_file_lists_keep_names_with_commas_and_percent_signs(tmp_path: Path) -> None:
    doc = mfile.new_doc(tmp_path / "REPOMEM.md")
    names = ["a, b.py", "100%2C.txt", "plain.py"]
    doc.add(Session(id="s-1", title="T", started=model.now_iso(), added=names))
    again = mfile.parse(doc.render(), tmp_path / "REPOMEM.md")
    assert again.sessions()[0].added == names
