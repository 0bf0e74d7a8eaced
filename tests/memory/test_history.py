"""Versions of the memory file: `log` from its counter and git history, `diff` between two."""

from __future__ import annotations

import pytest

from repomem.errors import InputError
from repomem.memory import history, ops
from tests.conftest import Repo


def test_log_lists_committed_versions_and_the_working_copy(repo: Repo) -> None:
    cfg = repo.config()
    a = ops.remember(cfg, "First fact about parsing.").fact
    repo.commit("memory v1")
    b = ops.remember(cfg, "Second fact about storage.").fact
    ops.check(cfg)
    repo.commit("memory v2")
    ops.forget(cfg, a.id)
    rows = history.log(cfg)
    assert [v.version for v, _ in rows] == [3, 2, 1]
    assert rows[0][0].rev == history.WORKING
    assert rows[0][1].changed == [f"{a.id}: valid -> forgotten"]
    assert rows[1][0].subject == "memory v2" and rows[1][1].added == [b.id]
    assert rows[2][1].added == [a.id]


def test_diff_compares_versions_by_number_or_revision(repo: Repo) -> None:
    cfg = repo.config()
    a = ops.remember(cfg, "First fact about parsing.").fact
    repo.commit("v1")
    b = ops.supersede(cfg, a.id, "Parsing is incremental.", why="rewrite").fact
    repo.commit("v2")
    va, vb, d = history.diff(cfg, "1", "2")
    assert (va.version, vb.version) == (1, 2)
    assert d.added == [b.id] and d.changed == [f"{a.id}: valid -> superseded"]
    va, vb, same = history.diff(cfg)  # HEAD vs the working copy
    assert not (same.added or same.changed or same.removed)
    assert (vb.version, vb.subject) == (2, "working copy")  # not "v0 ((working copy))"
    _, _, by_rev = history.diff(cfg, "HEAD~1", "HEAD")
    assert by_rev.added == [b.id]
    with pytest.raises(InputError, match="No version 9"):
        history.diff(cfg, "9")
    with pytest.raises(InputError, match="neither a memory version nor a git revision"):
        history.diff(cfg, "no-such-branch")


def test_diff_before_any_commit_shows_the_whole_file_as_new(folder: Repo) -> None:
    cfg = folder.config()  # no git: there is no HEAD to compare with
    a = ops.remember(cfg, "First fact about parsing.").fact
    va, vb, d = history.diff(cfg)
    assert va.subject == "nothing committed yet" and vb.version == 1
    assert d.added == [a.id]
    with pytest.raises(InputError, match="`HEAD~1` is neither"):
        history.diff(cfg, "HEAD~1")  # named by the user: still an error


def test_log_after_a_merge_lists_the_merge_and_no_uncommitted_copy(repo: Repo) -> None:
    import subprocess

    def git(*args: str) -> None:
        subprocess.run(["git", *args], cwd=repo.root, check=True, capture_output=True)

    cfg = repo.config()
    ops.remember(cfg, "First fact about parsing.")
    repo.commit("base")
    git("checkout", "-q", "-b", "feat")
    b = ops.remember(cfg, "Second fact about storage.").fact
    repo.commit("feat")
    git("checkout", "-q", "-")
    repo.write("other.py", "x = 1\n")
    repo.commit("main work")
    git("merge", "-q", "--no-ff", "feat", "-m", "merge feat")
    rows = history.log(cfg)
    assert [v.subject for v, _ in rows] == ["merge feat", "base"]
    assert rows[0][1].added == [b.id] and not rows[0][1].removed


def test_sessions_compacted_between_two_versions_are_not_shown_as_removed(repo: Repo) -> None:
    from repomem.memory import session

    cfg = repo.config(**{"memory.keep_sessions": 0, "memory.compact_after_bytes": 100_000})
    session.start(cfg, "one")
    s = session.end(cfg, summary="Did one.").session
    repo.commit("v1")
    small = repo.config(**{"memory.keep_sessions": 0, "memory.compact_after_bytes": 1})
    session.start(small, "two")
    session.end(small, summary="Did two.")  # folds both
    _, new, d = history.diff(cfg, "HEAD")
    assert new.doc is not None
    (h,) = new.doc.history()
    assert d.removed == []
    assert f"{s.id}: session -> compacted into {h.id}" in d.changed
