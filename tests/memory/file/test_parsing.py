"""Parsing the memory file (repomem/memory/file/parsing.py): a lossless round trip, hand
edits understood, errors that name the line."""

from __future__ import annotations

from pathlib import Path

import pytest

from repomem.errors import MemoryFileError
from repomem.memory import file as mfile
from repomem.memory.model import Citation
from tests.memory.file.samples import CASES, read


@pytest.mark.parametrize("name", sorted(p.name for p in CASES.glob("*.md")))
def test_parse_then_render_gives_the_file_back_byte_for_byte(name: str) -> None:
    text = read(name)
    doc = mfile.parse(text, Path(name))
    assert doc.render() == text


def test_hand_edited_file_is_understood() -> None:
    doc = mfile.parse(read("hand_edited.md"), Path("REPOMEM.md"))
    assert doc.version == 7 and doc.schema_version == 1
    facts = {f.id: f for f in doc.facts()}
    assert set(facts) == {"c-style", "f-1a2b3c4d", "my-own-fact", "f-99", "f-gone"}
    key = facts["f-1a2b3c4d"]
    assert key.text == "The cache key is the content hash,\nnot the path."
    assert key.cites[0] == Citation("src/cache.py", "key_for", 10, 22, "3f9a1c2b7d4e")
    assert key.cites[1] == Citation("src/cache.py")
    assert facts["c-style"].kind == "convention" and facts["c-style"].confidence == "high"
    assert facts["my-own-fact"].status == "valid" and facts["my-own-fact"].source == "person"
    assert facts["f-99"].superseded_by == "f-1a2b3c4d" and facts["f-99"].why == "the key changed"
    assert facts["f-gone"].status == "forgotten" and facts["f-gone"].text == ""
    (s,) = doc.sessions()
    assert s.title == "Cache rework" and s.summary == "Reworked the cache.\n\nSecond paragraph."
    assert s.commits == ["2b3c4d5 Rework cache keys", "3c4d5e6 Add test"]
    assert s.start_head == "1a2b3c4d5e6f" and s.branch == "main"
    assert s.renamed == ["src/old.py -> src/new.py"]
    assert s.symbols == ["+key_for", "~Cache.get", "-old_key"]
    (h,) = doc.history()
    assert h.sessions == ["s-a", "s-b", "s-c"] and h.facts == ["f-99"]
    assert [(n.text, n.done) for n in doc.next_steps()] == [
        ("Shard the cache", False),
        ("Write the migration", True),
    ]
    assert "code fence" in doc.overview()


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("## Facts\n### f-1 · maybe\nx\n", 2, "unknown status `maybe`"),
        ("## Facts\n### f-1\nx\n- colour: red\n", 4, "unknown field `colour`"),
        ("## Facts\n### f-1\nx\n- cite: a b c\n", 4, "cannot read citation"),
        ("## Facts\n### f-1\nx\n- recorded: yesterday\n", 4, "must be a time"),
        ("## Facts\n### f-1\nx\n\n### f-1\ny\n", 5, "used twice (also line 3)"),
        ("## Facts\n### f-1 · superseded\nx\n", 2, "needs a `- superseded:"),
        ("## Facts\n### f-1\nx\n- topic: a\n- topic: b\n", 5, "given twice"),
        ("## Sessions\n### s-1 · t\n- started: soon\n", 3, "`started` must read"),
        ("## Facts\n\n## Facts\n", 3, "second `## Facts`"),
        ("## Facts\n### f-1\n<<<<<<< HEAD\nx\n=======\ny\n>>>>>>> other\n", 3, "conflict"),
        # a file cut short: mid-citation, after a heading
        ("## Facts\n### f-1\nx\n- cite: `src/fl", 4, "cannot read citation"),
        ("## Facts\n### f-1\nx\n\n### f-c74", 5, "has no text"),
        # a heading typed with one `#` too many or too few swallows the entry under it
        ("## Facts\n### f-1\nx\n- source: person\n\n#### f-2 · valid\ny\n", 6, "`### f-2"),
        ("## Facts\n### f-1\nx\n\n##f-2 · valid\ny\n- source: person\n", 5, "`### f-2"),
        # entries under a section repomem does not read would silently leave the memory
        ("## Fact\n\n### f-1a2b3c4d · valid\nx\n", 3, "under `## Fact`"),
        ("## Overview\n\n### s-20261101-0900-ab12 · Rework\nx\n", 3, "under `## Overview`"),
        # a field among the text would be lost in it, as would its citation
        ("## Facts\n### f-1\n- topic: cache\nx\n- source: person\n", 3, "`- topic:` line"),
    ],
)
def test_a_broken_file_gets_an_error_naming_the_line(text: str, line: int, words: str) -> None:
    header = "<!-- repomem:memory schema_version=1 version=1 -->\n"
    with pytest.raises(MemoryFileError) as err:
        mfile.parse(header + text, Path("REPOMEM.md"))
    msg = str(err.value)
    assert f"line {line + 1}" in msg
    assert words in msg
    assert "\n" not in msg


def test_a_blank_line_between_an_entrys_fields_keeps_them_fields() -> None:
    text = (
        "<!-- repomem:memory schema_version=1 version=1 -->\n## Facts\n### f-1 · valid\n"
        "x\n- cite: `src/a.py` L1-2 #abc\n\n- source: person\n\n### f-2\ny\n"
    )
    doc = mfile.parse(text, Path("REPOMEM.md"))
    fact = doc.fact("f-1")
    assert fact is not None and fact.text == "x"
    assert fact.cites == [Citation("src/a.py", "", 1, 2, "abc")]
    assert fact.source == "person"
    assert doc.render() == text


def test_a_newer_schema_is_refused_with_the_upgrade_command() -> None:
    with pytest.raises(MemoryFileError, match="pip install -U repomem"):
        mfile.parse("<!-- repomem:memory schema_version=99 version=1 -->\n", Path("m"))
