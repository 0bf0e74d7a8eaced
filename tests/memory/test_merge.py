"""Union merge: as git's merge driver, from conflict markers, and entry by entry."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from repomem.config import Config
from repomem.errors import MemoryFileError
from repomem.memory import access, merge, ops, session
from repomem.memory import file as mfile
from repomem.memory.model import Fact, HistoryEntry, Session
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


def conflicted(repo: Repo, style: str = "merge") -> Config:
    """A memory file git left with conflict markers: each branch learned a fact."""
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
    return cfg


@pytest.mark.parametrize("style", ["merge", "diff3"])
def test_conflict_markers_are_detected_and_merged_away(repo: Repo, style: str) -> None:
    cfg = conflicted(repo, style)
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


def test_memory_merge_takes_the_memory_lock_so_a_concurrent_remember_is_kept(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One `memory merge` has read the conflicted file when a second resolves it and a
    `remember` adds a fact: the first must not then write its merge over that fact."""
    import threading

    from repomem import fsutil

    cfg = conflicted(repo)
    first_read, go = threading.Event(), threading.Event()
    merge_texts, try_lock = merge.merge_texts, fsutil._try_lock

    def paused(*args: object, **kwargs: object) -> str:
        if threading.current_thread() is not threading.main_thread():
            first_read.set()
            assert go.wait(60), "the other writer neither finished nor waited for the lock"
        return merge_texts(*args, **kwargs)  # type: ignore[arg-type]

    def waits_seen(fd: int) -> bool:
        took = try_lock(fd)
        if not took and threading.current_thread() is threading.main_thread():
            go.set()  # the other writer waits for the lock the paused merge holds
        return took

    monkeypatch.setattr(merge, "merge_texts", paused)
    monkeypatch.setattr(fsutil, "_try_lock", waits_seen)
    errors: list[BaseException] = []

    def first() -> None:
        try:
            merge.resolve(cfg)
        except BaseException as exc:  # reported below: the thread's own failure
            errors.append(exc)

    thread = threading.Thread(target=first)
    thread.start()
    assert first_read.wait(60)
    merge.resolve(cfg)  # a second `memory merge` (it does not pause: main thread)
    ops.remember(cfg, "Learned while the merge was resolved.")
    go.set()
    thread.join()
    assert errors == []
    texts = {f.text for f in access.load(cfg).facts()}
    assert "Learned while the merge was resolved." in texts
    assert "Their branch learned about the parser." in texts


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


CACHE = "The cache lives in one folder."


def edit_memory(repo: Repo, old: str, new: str) -> None:
    path = repo.root / "REPOMEM.md"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def branches_editing_one_fact(
    repo: Repo,
    ours: tuple[str, str],
    theirs: tuple[str, str],
    record: Callable[[Config], str] = lambda cfg: ops.remember(cfg, CACHE).fact.id,
) -> str:
    """`CACHE` (or the entry `record` makes) recorded on main, then changed by hand on both
    branches (each `(old, new)` replaced in the file), each branch also learning a fact of its
    own. Returns its id."""
    cfg = repo.config()
    fact_id = record(cfg)
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "theirs")
    edit_memory(repo, *theirs)
    ops.remember(cfg, "Their branch learned about the parser.")
    repo.commit("theirs")
    repo.git("checkout", "-q", "main")
    edit_memory(repo, *ours)
    ops.remember(cfg, "Our branch learned about the store.")
    repo.commit("ours")
    return fact_id


def git_merge(repo: Repo, *, driver: bool, style: str = "merge") -> int:
    if driver:
        from repomem import hooks

        command = f"{sys.executable} -m repomem memory merge %O %A %B"
        hooks.register_merge_driver(repo.config(), hooks.MERGE_DRIVER, command)
    repo.git("config", "merge.conflictstyle", style)
    done = subprocess.run(["git", "merge", "-q", "--no-edit", "theirs"], cwd=repo.root,
                          capture_output=True)  # fmt: skip
    return done.returncode


OUR_EDIT = (CACHE, "The cache lives in one folder, under XDG_CACHE_HOME.")
THEIR_EDIT = (CACHE, "The cache lives in one folder per user.")


def merged_with_one_conflict(repo: Repo, driver: bool, entry_id: str) -> tuple[str, str]:
    """Merge `theirs` (with the driver, or by `memory merge` from diff3 markers) into a file
    git reports conflicted, holding one conflict block: around `entry_id` alone, with both
    versions and the base, the facts each branch learned merged outside it. Returns the file's
    text and the block."""
    assert git_merge(repo, driver=driver, style="diff3") != 0
    # git reports the file as conflicted, as it does for text
    assert repo.git("diff", "--name-only", "--diff-filter=U").split() == ["REPOMEM.md"]
    if not driver:
        with pytest.raises(merge.MergeConflictError, match=f"`{entry_id}`") as err:
            merge.resolve(repo.config())
        assert "conflict markers" in str(err.value)
    left = (repo.root / "REPOMEM.md").read_text(encoding="utf-8")
    assert left.count("<<<<<<< ") == 1 and left.count(">>>>>>> ") == 1
    block = left[left.index("<<<<<<< ") : left.index(">>>>>>> ")]
    assert block.count(f"### {entry_id} ") == 3
    outside = left.replace(block, "")
    assert "Our branch learned about the store." in outside
    assert "Their branch learned about the parser." in outside
    return left, block


@pytest.mark.parametrize("driver", [True, False], ids=["driver", "memory-merge"])
def test_both_sides_editing_one_facts_text_is_a_conflict_with_the_rest_merged(
    repo: Repo, driver: bool
) -> None:
    fact_id = branches_editing_one_fact(repo, OUR_EDIT, THEIR_EDIT)
    cfg = repo.config()
    path = repo.root / "REPOMEM.md"
    left, block = merged_with_one_conflict(repo, driver, fact_id)
    assert OUR_EDIT[1] in block and THEIR_EDIT[1] in block and CACHE in block
    with pytest.raises(MemoryFileError, match="conflict markers"):
        access.load(cfg)
    # `memory merge` cannot decide it either: it says so again and leaves the file as it was
    with pytest.raises(MemoryFileError, match=f"`{fact_id}`"):
        merge.resolve(cfg)
    assert path.read_text(encoding="utf-8") == left
    # resolved by hand as git's text conflicts are: keep one version, drop the markers
    ours_part = block.split("|||||||")[0].split("\n", 1)[1]
    path.write_text(left.replace(block, ours_part).replace(">>>>>>> theirs\n", ""), "utf-8")
    doc = access.load(cfg)
    texts = {f.text for f in doc.facts()}
    assert OUR_EDIT[1] in texts and THEIR_EDIT[1] not in texts and CACHE not in texts
    assert {"Our branch learned about the store.", "Their branch learned about the parser."} <= (
        texts
    )


# the driver, and `memory merge` on git's markers without and with the base
MERGE_WAYS = pytest.mark.parametrize(
    ("driver", "style"),
    [(True, "merge"), (False, "merge"), (False, "diff3")],
    ids=["driver", "markers", "markers-with-base"],
)


def merged_without_conflict(repo: Repo, driver: bool, style: str) -> None:
    """Merge `theirs`: the driver leaves nothing to resolve, `memory merge` resolves git's
    markers."""
    exit_code = git_merge(repo, driver=driver, style=style)
    if driver:
        assert exit_code == 0
    else:
        assert exit_code != 0
        # one block or two: how git lines up the facts each side learned depends on their times
        assert merge.resolve(repo.config()) >= 1


@MERGE_WAYS
def test_one_sides_text_edit_and_the_others_status_change_are_both_kept(
    repo: Repo, driver: bool, style: str
) -> None:
    """Our text edit and their hand-marked `stale` touch neighbouring lines (one hunk for
    git): the status's rule (the further along) used to decide the whole entry, losing ours."""
    stale = ("· valid\n" + CACHE, "· stale\n" + CACHE)
    cfg = repo.config()
    fact_id = branches_editing_one_fact(repo, OUR_EDIT, stale)
    merged_without_conflict(repo, driver, style)
    fact = access.load(cfg).fact(fact_id)
    assert fact is not None
    assert (fact.text, fact.status) == (OUR_EDIT[1], "stale")


def test_status_only_differences_resolve_by_the_further_along_status_then_time() -> None:
    base = doc_with(Fact("f-1", text="x", recorded="2026-11-01T00:00:00Z"))
    stale = doc_with(Fact("f-1", text="x", status="stale", stale="code changed (found 2026-11-03)",
                          recorded="2026-11-01T00:00:00Z"))  # fmt: skip
    confirmed = doc_with(Fact("f-1", text="x", confirmed="2026-11-04T00:00:00Z",
                              recorded="2026-11-01T00:00:00Z"))  # fmt: skip
    for ours, theirs in ((stale, confirmed), (confirmed, stale)):
        f = merge.merge_docs(base, ours, theirs).fact("f-1")
        assert f is not None and f.status == "stale" and f.text == "x"


def test_merge_texts_raises_a_conflict_that_holds_the_merged_text() -> None:
    base = doc_with(Fact("f-1", text="x", recorded="2026-11-01T00:00:00Z"))
    ours = doc_with(Fact("f-1", text="x, ours", recorded="2026-11-01T00:00:00Z"),
                    Fact("f-2", text="y", recorded="2026-11-01T00:00:00Z"))  # fmt: skip
    theirs = doc_with(Fact("f-1", text="x, theirs", recorded="2026-11-01T00:00:00Z"))
    with pytest.raises(merge.MergeConflictError) as err:
        merge.merge_texts(base.render(), ours.render(), theirs.render(), Path("REPOMEM.md"))
    assert err.value.ids == ["f-1"]
    assert "x, ours" in err.value.text and "x, theirs" in err.value.text
    assert "### f-2 · valid\ny\n" in err.value.text
    # without a base nobody can tell who changed the text: a conflict too
    with pytest.raises(merge.MergeConflictError):
        merge.merge_texts(None, ours.render(), theirs.render(), Path("REPOMEM.md"))


TIDY = "Tidy the cache"
MOVED = "Moved the cache into one folder."


def a_session(cfg: Config) -> str:
    """A session recorded by repomem (title TIDY, summary MOVED); its id."""
    session.start(cfg, TIDY, agent="test")
    return session.end(cfg, summary=MOVED).session.id


def a_history_entry(cfg: Config) -> str:
    """A session folded into History as it ends (its summary names MOVED); the entry's id."""
    folding = replace(cfg.memory, keep_sessions=0, compact_after_bytes=1)
    session.start(cfg, TIDY)
    session.end(replace(cfg, memory=folding), summary=MOVED)
    (h,) = access.load(cfg).history()
    return h.id


@pytest.mark.parametrize("driver", [True, False], ids=["driver", "memory-merge"])
@pytest.mark.parametrize("entry", [a_session, a_history_entry], ids=["session", "history"])
def test_both_sides_editing_a_session_or_history_summary_is_a_conflict_with_the_rest_merged(
    repo: Repo, driver: bool, entry: Callable[[Config], str]
) -> None:
    """Repomem writes a session's or History entry once and never changes it again: a change
    on a branch is a person's, and two that differ are for a person to decide, as for facts."""
    ours, theirs = MOVED.replace(".", ", ours."), MOVED.replace(".", ", theirs.")
    entry_id = branches_editing_one_fact(repo, (MOVED, ours), (MOVED, theirs), entry)
    cfg = repo.config()
    path = repo.root / "REPOMEM.md"
    left, block = merged_with_one_conflict(repo, driver, entry_id)
    assert ours in block and theirs in block and MOVED in block
    # resolved by hand: keep theirs, drop the markers
    theirs_part = block.split("=======\n")[1]
    path.write_text(left.replace(block, theirs_part).replace(">>>>>>> theirs\n", ""), "utf-8")
    doc = access.load(cfg)
    found = doc.find(entry_id)
    assert found is not None and isinstance(found.item, Session | HistoryEntry)
    assert theirs in found.item.summary and ours not in found.item.summary


@MERGE_WAYS
def test_one_side_retitling_a_session_and_the_other_editing_its_summary_keeps_both(
    repo: Repo, driver: bool, style: str
) -> None:
    """The heading and the summary's first line are neighbours: one hunk for git, which kept
    ours whole (their summary lost) when the entry was not a fact."""
    retitled = f"{TIDY} for good"
    summary = MOVED.replace(".", " under XDG_CACHE_HOME.")
    sid = branches_editing_one_fact(repo, (TIDY, retitled), (MOVED, summary), a_session)
    merged_without_conflict(repo, driver, style)
    s = access.load(repo.config()).find(sid)
    assert s is not None and isinstance(s.item, Session)
    assert (s.item.title, s.item.summary) == (retitled, summary)


def test_a_session_edited_on_one_side_and_compacted_on_the_other_stays_compacted() -> None:
    s1 = Session("s-1", title="one", summary="x", started="2026-11-01T00:00:00Z")
    base = doc_with(sessions=(s1,))
    edited = doc_with(sessions=(Session("s-1", title="one", summary="x, edited",
                                       started="2026-11-01T00:00:00Z"),))  # fmt: skip
    compacted = mfile.parse(doc_with().render(), Path("REPOMEM.md"))
    compacted.add(HistoryEntry("h-1", label="1 sessions", summary="one", sessions=["s-1"]))
    for ours, theirs in ((edited, compacted), (compacted, edited)):
        merged = merge.merge_docs(base, mfile.parse(ours.render(), Path("REPOMEM.md")), theirs)
        assert merged.sessions() == [] and [h.id for h in merged.history()] == ["h-1"]


def test_both_sides_compacting_the_same_sessions_keep_both_history_entries() -> None:
    s1 = Session("s-1", title="one", summary="x", started="2026-11-01T00:00:00Z")
    base = doc_with(sessions=(s1,))
    sides = [mfile.parse(doc_with().render(), Path("REPOMEM.md")) for _ in range(2)]
    for side, hid in zip(sides, ("h-1", "h-2"), strict=True):
        side.add(HistoryEntry(hid, label="1 sessions", summary=hid, sessions=["s-1"]))
    merged = merge.merge_docs(base, *sides)
    assert merged.sessions() == [] and [h.id for h in merged.history()] == ["h-1", "h-2"]


def test_both_branches_compacting_the_same_sessions_alike_merge_into_one_history_entry(
    repo: Repo,
) -> None:
    """Offline compaction is deterministic: two branches folding the same sessions write the
    same entry, which a merge must not keep twice (each merge of such branches doubled it)."""
    from repomem.memory import compact

    cfg = repo.config(**{"memory.keep_sessions": 1})
    for title in ("one", "two", "three"):
        session.start(cfg, title)
        session.end(cfg, summary=f"Did {title}.")
    repo.commit("three sessions")
    small = repo.config(**{"memory.keep_sessions": 1, "memory.compact_after_bytes": 1})

    def compact_and_learn(fact: str) -> None:
        with access.editing(small) as doc:
            assert compact.maybe_compact(small, doc) == 2
        ops.remember(small, fact)
        repo.commit(fact)

    repo.git("checkout", "-q", "-b", "theirs")
    compact_and_learn("Their branch learned about the parser.")
    repo.git("checkout", "-q", "main")
    compact_and_learn("Our branch learned about the store.")
    assert git_merge(repo, driver=True) == 0
    doc = access.load(cfg)
    assert [s.title for s in doc.sessions()] == ["three"]
    assert [len(h.sessions) for h in doc.history()] == [2] and len(doc.facts()) == 2


def test_torn_session_records_ended_on_two_branches_merge_without_a_conflict(repo: Repo) -> None:
    """A torn record's session was recorded as `s-unknown`: one on each branch were one entry
    written two ways, a conflict to resolve by hand."""
    from repomem.memory.session_record import record_path

    cfg = repo.config()
    ops.remember(cfg, "Shared fact from before the branches.")
    repo.commit("base")
    for branch in ("theirs", "main"):
        if branch == "theirs":
            repo.git("checkout", "-q", "-b", "theirs")
        else:
            repo.git("checkout", "-q", "main")
        session.start(cfg, branch)
        record_path(cfg).write_text("{torn", encoding="utf-8")
        session.end(cfg, summary=f"Ended on {branch} after a crash.")
        repo.commit(branch)
    assert git_merge(repo, driver=True) == 0
    summaries = sorted(s.summary for s in access.load(cfg).sessions())
    assert summaries == ["Ended on main after a crash.", "Ended on theirs after a crash."]


def test_sessions_or_history_entries_differing_without_a_base_are_a_conflict() -> None:
    ours = doc_with(sessions=(Session("s-1", summary="ours", started="2026-11-01T00:00:00Z"),))
    theirs = doc_with(sessions=(Session("s-1", summary="theirs",
                                        started="2026-11-01T00:00:00Z"),))  # fmt: skip
    with pytest.raises(merge.MergeConflictError) as err:
        merge.merge_texts(None, ours.render(), theirs.render(), Path("REPOMEM.md"))
    assert err.value.ids == ["s-1"]
    # the same entry written alike on both sides (line ends aside) merges quietly
    crlf = ours.render().replace("\n", "\r\n")
    assert "s-1" in merge.merge_texts(None, ours.render(), crlf, Path("REPOMEM.md"))


def _on(day: int, sid: str) -> Session:
    return Session(sid, title=sid, summary=f"{sid}.", started=f"2026-11-{day:02d}T09:00:00Z")


def _folded(hid: str, first: int, last: int) -> HistoryEntry:
    span = f"2026-10-{first:02d} .. 2026-10-{last:02d}"
    return HistoryEntry(hid, label=f"2 sessions, {span}", summary=hid, span=span)


def test_their_sessions_and_history_entries_are_merged_in_order_of_their_start() -> None:
    def side(days: tuple[int, ...], folds: tuple[tuple[str, int, int], ...]) -> str:
        doc = doc_with(sessions=tuple(_on(d, f"s-{d}") for d in days))
        for hid, first, last in folds:
            doc.add(_folded(hid, first, last))
        return doc.render()

    base = side((1,), (("h-1", 1, 2),))
    ours = side((1, 3, 5), (("h-1", 1, 2), ("h-5", 5, 6)))
    theirs = side((1, 2, 4, 6), (("h-1", 1, 2), ("h-3", 3, 4), ("h-7", 7, 8)))
    merged = merge.merge_texts(base, ours, theirs, Path("REPOMEM.md"))
    doc = mfile.parse(merged, Path("REPOMEM.md"))
    assert [s.id for s in doc.sessions()] == ["s-1", "s-2", "s-3", "s-4", "s-5", "s-6"]
    assert [h.id for h in doc.history()] == ["h-1", "h-3", "h-5", "h-7"]
    # nothing else moved: the file is the one written in that order, but for its version
    whole = side((1, 2, 3, 4, 5, 6), (("h-1", 1, 2), ("h-3", 3, 4), ("h-5", 5, 6), ("h-7", 7, 8)))
    assert mfile.HEADER.sub("", merged) == mfile.HEADER.sub("", whole)


def test_a_merge_keeps_our_order_and_puts_entries_without_a_start_last() -> None:
    # ours out of order by hand: left as it is; their history entry without a span: last
    ours = doc_with(sessions=(_on(4, "s-4"), _on(2, "s-2")))
    ours.add(_folded("h-3", 3, 4))
    theirs = doc_with(sessions=(_on(4, "s-4"), _on(2, "s-2"), _on(5, "s-5")))
    theirs.add(HistoryEntry("h-x", label="by hand", summary="x"))
    theirs.add(_folded("h-3", 3, 4))
    merged = merge.merge_texts(None, ours.render(), theirs.render(), Path("REPOMEM.md"))
    doc = mfile.parse(merged, Path("REPOMEM.md"))
    assert [s.id for s in doc.sessions()] == ["s-4", "s-2", "s-5"]
    assert [h.id for h in doc.history()] == ["h-3", "h-x"]
