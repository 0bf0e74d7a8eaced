"""Union merge: as git's merge driver, from conflict markers, and entry by entry."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from repomem.errors import MemoryFileError
from repomem.memory import access, merge, ops
from repomem.memory import file as mfile
from repomem.memory.model import Fact, Session
from tests.conftest import Repo


def two_branches(repo: Repo) -> tuple[Repo, str]:
    repo.write("a.py", "def a():\n    return 1\n")
    cfg = repo.config()
    shared = ops.remember(cfg, "Shared fact from before the branches.").fact
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "theirs")
    ops.remember(cfg, "Their branch learned about the parser.")
    ops.supersede(cfg, shared.id, "Shared fact, corrected on their side.", why="it was wrong")
    repo.commit("theirs")
    repo.git("checkout", "-q", "main")
    ops.remember(cfg, "Our branch learned about the store.")
    ops.add_next_step(cfg, "Ship it")
    repo.commit("ours")
    return repo, shared.id


def check_union(repo: Repo, shared_id: str) -> None:
    doc = access.load(repo.config())
    texts = {f.text for f in doc.facts()}
    assert "Their branch learned about the parser." in texts
    assert "Our branch learned about the store." in texts
    assert "Shared fact, corrected on their side." in texts
    old = doc.fact(shared_id)
    assert old is not None and old.status == "superseded"
    assert [s.text for s in doc.next_steps()] == ["Ship it"]
    assert doc.version == 4  # max(ours 3, theirs 3) + 1
    assert doc.render() == (repo.root / "REPOMEM.md").read_text(encoding="utf-8")


def test_git_merge_with_the_driver_unions_both_sides(repo: Repo) -> None:
    repo, shared = two_branches(repo)
    from repomem import hooks

    hooks.register_merge_driver(
        repo.config(), hooks.MERGE_DRIVER, f"{sys.executable} -m repomem memory merge %O %A %B"
    )
    assert "REPOMEM.md merge=repomem" in (repo.root / ".gitattributes").read_text()
    repo.commit("register the driver")
    repo.git("merge", "-q", "--no-edit", "theirs")
    assert "<<<<<<<" not in (repo.root / "REPOMEM.md").read_text(encoding="utf-8")
    check_union(repo, shared)


@pytest.mark.parametrize("style", ["merge", "diff3"])
def test_conflict_markers_are_detected_and_merged_away(repo: Repo, style: str) -> None:
    cfg = repo.config()
    ops.remember(cfg, "Shared fact from before the branches.")
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "theirs")
    ops.remember(cfg, "Their branch learned about the parser.")
    repo.commit("theirs")
    repo.git("checkout", "-q", "main")
    ops.remember(cfg, "Our branch learned about the store.")
    repo.commit("ours")
    repo.git("config", "merge.conflictstyle", style)
    result = subprocess.run(["git", "merge", "-q", "theirs"], cwd=repo.root, capture_output=True)
    assert result.returncode != 0
    with pytest.raises(MemoryFileError, match="conflict markers; run `repomem memory merge`"):
        access.load(cfg)
    assert merge.resolve_file(repo.root / "REPOMEM.md") == 1
    doc = access.load(cfg)
    assert [f.text for f in doc.facts()] == [
        "Shared fact from before the branches.",
        "Our branch learned about the store.",
        "Their branch learned about the parser.",
    ]
    assert doc.version == 3
    assert merge.resolve_file(repo.root / "REPOMEM.md") == 0


def doc_with(*facts: Fact, sessions: tuple[Session, ...] = ()) -> mfile.MemoryDoc:
    doc = mfile.new_doc(Path("REPOMEM.md"))
    for f in facts:
        doc.add(f)
    for s in sessions:
        doc.add(s)
    return mfile.parse(doc.render(), Path("REPOMEM.md"))


def test_both_sides_changing_one_fact_keep_the_further_along_status() -> None:
    base = doc_with(Fact("f-1", text="x", recorded="2026-11-01T00:00:00Z"))
    ours = doc_with(Fact("f-1", text="x edited", recorded="2026-11-01T00:00:00Z"))
    theirs = doc_with(Fact("f-1", status="forgotten", forgotten="2026-11-02T00:00:00Z"))
    merged = merge.merge_docs(base, ours, theirs)
    f = merged.fact("f-1")
    assert f is not None and f.status == "forgotten" and f.text == ""
    # the side that did not touch an entry yields to the one that did
    ours2 = doc_with(Fact("f-1", text="x", recorded="2026-11-01T00:00:00Z"))
    theirs2 = doc_with(Fact("f-1", text="x, clarified", recorded="2026-11-01T00:00:00Z"))
    f2 = merge.merge_docs(base, ours2, theirs2).fact("f-1")
    assert f2 is not None and f2.text == "x, clarified"


def test_sessions_compacted_on_one_side_leave_the_merged_log() -> None:
    from repomem.memory.model import HistoryEntry

    s1 = Session("s-1", title="one", started="2026-11-01T00:00:00Z")
    s2 = Session("s-2", title="two", started="2026-11-02T00:00:00Z")
    base = doc_with(sessions=(s1,))
    ours = doc_with(sessions=(s1, s2))
    theirs = mfile.parse(doc_with().render(), Path("REPOMEM.md"))
    theirs.add(HistoryEntry("h-1", label="1 sessions", summary="one", sessions=["s-1"]))
    merged = merge.merge_docs(base, ours, theirs)
    assert [s.id for s in merged.sessions()] == ["s-2"]
    assert [h.id for h in merged.history()] == ["h-1"]


def test_prose_changed_on_both_sides_keeps_both_lines() -> None:
    base = "<!-- repomem:memory schema_version=1 version=1 -->\n## Overview\n\nA.\n"
    ours = base.replace("A.\n", "A.\nOurs.\n").replace(" version=1 ", " version=2 ")
    theirs = base.replace("A.\n", "A.\nTheirs.\n").replace(" version=1 ", " version=5 ")
    out = merge.merge_texts(base, ours, theirs, Path("REPOMEM.md"))
    assert "Ours." in out and "Theirs." in out and "version=6" in out


def test_prose_written_under_an_entry_section_on_both_sides_keeps_both() -> None:
    """A paragraph under `## Conventions` (or Facts, Decisions...) before its entries: their
    side's was dropped, kept only where the section was missing on ours."""
    base = (
        "<!-- repomem:memory schema_version=1 version=1 -->\n## Conventions\n\n"
        "### c-1 · valid\nUse tabs.\n- source: person\n- confidence: medium\n"
    )
    ours = base.replace("## Conventions\n\n", "## Conventions\n\nOur team note.\n\n")
    theirs = base.replace("## Conventions\n\n", "## Conventions\n\nTheir team note.\n\n")
    out = merge.merge_texts(base, ours, theirs, Path("REPOMEM.md"))
    assert "Our team note." in out and "Their team note." in out
    assert "Use tabs." in out
    assert merge.merge_texts(base, base, theirs, Path("REPOMEM.md")).count("Their team note.") == 1


def test_a_malformed_side_is_an_error_not_a_silent_loss() -> None:
    good = doc_with(Fact("f-1", text="x")).render()
    with pytest.raises(MemoryFileError, match="their side is malformed"):
        merge.merge_texts(None, good, good + "### f-1\nagain\n", Path("REPOMEM.md"))


def test_a_merge_driver_that_cannot_merge_leaves_both_sides_in_conflict_markers(
    repo: Repo,
) -> None:
    repo, _ = two_branches(repo)
    path = repo.root / "REPOMEM.md"
    repo.git("checkout", "-q", "theirs")
    path.write_text(path.read_text(encoding="utf-8").replace("· valid", "· vald", 1), "utf-8")
    repo.commit("a hand edit gone wrong")
    repo.git("checkout", "-q", "main")
    base = repo.root.parent / "base.md"
    theirs = repo.root.parent / "theirs.md"
    base.write_bytes(repo.git("show", "main~1:REPOMEM.md").encode())
    theirs.write_bytes(repo.git("show", "theirs:REPOMEM.md").encode())
    with pytest.raises(MemoryFileError, match="their side is malformed") as err:
        merge.merge_driver(base, path, theirs)
    assert "conflict markers" in str(err.value)
    left = path.read_text(encoding="utf-8")
    # git reports the conflict; what it leaves must hold both sides, marked, not ours alone
    assert left.startswith("<<<<<<< ") and "\n=======\n" in left and ">>>>>>> " in left
    assert "Our branch learned about the store." in left
    assert "Their branch learned about the parser." in left
    path.write_text(left.replace("· vald", "· valid"), encoding="utf-8")
    assert merge.resolve_file(path) == 1
    texts = {f.text for f in access.load(repo.config()).facts()}
    assert {"Our branch learned about the store.", "Their branch learned about the parser."} <= (
        texts
    )
