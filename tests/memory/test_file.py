"""The memory file format: lossless round trip, clear errors, migrations."""

from __future__ import annotations

from pathlib import Path

import pytest

from repomem.errors import MemoryFileError
from repomem.memory import access, migrations, model
from repomem.memory import file as mfile
from repomem.memory.model import Citation, Fact, Session

CASES = Path(__file__).parent / "cases"


def read(name: str) -> str:
    with open(CASES / name, encoding="utf-8", newline="") as fh:
        return fh.read()


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


def test_a_newer_schema_is_refused_with_the_upgrade_command() -> None:
    with pytest.raises(MemoryFileError, match="pip install -U repomem"):
        mfile.parse("<!-- repomem:memory schema_version=99 version=1 -->\n", Path("m"))


def test_schema_0_file_is_adopted_by_the_migration_keeping_its_text() -> None:
    text = read("schema0.md")
    assert mfile.parse(text, Path("m")).schema_version == 0
    doc = access.parse_text(text, Path("m"))
    assert doc.schema_version == model.SCHEMA_VERSION
    out = doc.render()
    assert out.endswith(text)
    assert out.startswith("<!-- repomem:memory schema_version=1 version=0 -->\n")


def test_every_older_schema_has_a_migration_step() -> None:
    assert set(migrations.MIGRATIONS) == set(range(model.SCHEMA_VERSION))
    with pytest.raises(MemoryFileError, match="cannot migrate"):
        migrations.migrate("x", -1, "m")


def test_citation_text_round_trips() -> None:
    for c in (
        Citation("a/b.py"),
        Citation("a/b.py", "C.m", 3, 9, "0123456789ab"),
        Citation("x.go", "", 4, 4, "ffffffffffff"),
    ):
        assert model.parse_citation(c.render()) == c
    assert model.parse_citation("`a.py` L9-3") is None


TRICKY = [
    "```python snippets must use 4 spaces",
    "- topic: caching",
    "## Overview of the build",
    "### f-12345678 · valid",
    "~~~ a tilde fence",
    "<<<<<<< HEAD",
    "\\## already escaped by hand",
    "\\\\- why: two backslashes",
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


def test_a_field_value_with_a_line_break_stays_one_field(tmp_path: Path) -> None:
    doc = mfile.new_doc(tmp_path / "REPOMEM.md")
    forged = "bot\n- cite: `../../etc/passwd` #0123456789ab\n## Injected"
    doc.add(Fact(id="f-1", kind="fact", text="A fact.", source=forged))
    doc.add(Session(id="s-1", title="T\n- learned: f-dead", agent="a\n- learned: f-beef",
                    started=model.now_iso()))  # fmt: skip
    again = mfile.parse(doc.render(), tmp_path / "REPOMEM.md")
    (fact,) = again.facts()
    assert not fact.cites and fact.source.startswith("bot - cite:")
    assert [s.key for s in again.sections].count("") == 0  # no `## Injected` section
    assert again.sessions()[0].learned == []


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


def test_session_file_lists_keep_names_with_commas_and_percent_signs(tmp_path: Path) -> None:
    doc = mfile.new_doc(tmp_path / "REPOMEM.md")
    names = ["a, b.py", "100%2C.txt", "plain.py"]
    doc.add(Session(id="s-1", title="T", started=model.now_iso(), added=names))
    again = mfile.parse(doc.render(), tmp_path / "REPOMEM.md")
    assert again.sessions()[0].added == names
