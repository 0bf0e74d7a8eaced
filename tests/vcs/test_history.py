"""The commit log and HEAD's reflog, on real repositories."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from repomem import vcs
from tests.conftest import Repo


def test_the_commit_log_has_messages_and_files_newest_first_without_merges(repo: Repo) -> None:
    repo.write("a.py", "a = 1\n")
    first = repo.commit("Add a\n\nThe body says why.")
    repo.git("checkout", "-q", "-b", "side")
    repo.write("dir with space/ünï.py", "b = 1\n")
    repo.write('tab\there "quoted" back\\slash.py', "q = 1\n")  # git C-quotes this name
    side = repo.commit("Add the odd name")
    repo.git("checkout", "-q", "main")
    repo.write("a.py", "a = 2\n")
    repo.write("c.py", "c = 1\n")
    third = repo.commit("Change a, add c")
    repo.git("merge", "-q", "--no-ff", "-m", "Merge side", "side")
    log = vcs.commit_log(repo.root)
    assert [c.message for c in log] == [
        "Change a, add c",
        "Add the odd name",
        "Add a\n\nThe body says why.",
    ]
    assert {c.sha: c.files for c in log} == {
        third: ("a.py", "c.py"),
        side: ("dir with space/ünï.py", 'tab\there "quoted" back\\slash.py'),
        first: ("a.py",),
    }  # fmt: skip
    assert all(c.when > 0 for c in log)
    assert [c.sha for c in vcs.commit_log(repo.root, limit=1)] == [third]
    assert {c.sha for c in vcs.commit_log(repo.root, since=first)} == {side, third}
    assert vcs.is_ancestor(repo.root, first, third)
    assert not vcs.is_ancestor(repo.root, third, first)
    assert not vcs.is_ancestor(repo.root, "0" * 40, third)


def test_the_commit_log_is_empty_without_commits_or_git(repo: Repo, folder: Repo) -> None:
    assert vcs.commit_log(repo.root) == []
    assert vcs.commit_log(folder.root) == []
    assert not vcs.is_ancestor(folder.root, "HEAD", "HEAD")


def test_the_commit_log_of_a_shallow_clone_has_what_it_holds(repo: Repo, tmp_path: Path) -> None:
    for i in range(3):
        repo.write(f"f{i}.py", f"x = {i}\n")
        repo.commit(f"Commit {i}")
    clone = tmp_path / "clone"
    subprocess.run(
        ["git", "clone", "-q", "--depth", "2", f"file://{repo.root}", str(clone)], check=True
    )
    assert [c.message for c in vcs.commit_log(clone)] == ["Commit 2", "Commit 1"]


def test_the_reflog_at_a_time_counts_the_entries_made_until_then(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GIT_COMMITTER_DATE", "@1700000000 +0000")
    first = repo.commit("first")
    monkeypatch.setenv("GIT_COMMITTER_DATE", "@1700000100 +0000")
    second = repo.commit("second")
    repo.git("checkout", "-q", "-b", "topic")  # an entry, at the same time
    monkeypatch.setenv("GIT_COMMITTER_DATE", "@1700000200 +0000")
    repo.commit("third")
    assert vcs.reflog_at(repo.root, 1699999999) == (0, None)
    assert vcs.reflog_at(repo.root, 1700000000) == (1, first)
    assert vcs.reflog_at(repo.root, 1700000150) == (3, second)
    assert vcs.reflog_at(repo.root, 1800000000) == (4, vcs.head(repo.root))
    assert vcs.reflog_size(repo.root) == 4


def test_the_commits_made_between_two_reflog_sizes_and_the_files_between_two_commits(
    repo: Repo,
) -> None:
    repo.write("a.py", "a = 1\n")
    start = repo.commit("start")
    repo.write("b.py", "b = 1\n")
    mine = repo.commit("mine")
    size = vcs.reflog_size(repo.root)
    assert size == 2
    repo.write("c.py", "c = 1\n")
    repo.commit("theirs")
    made = vcs.commits_made(repo.root, 1, size)
    assert made == [(mine, "mine")]
    assert vcs.commits_made(repo.root, 1, 9) is None  # the reflog never held that many
    assert vcs.commits_since(repo.root, start, until=mine) == [(mine[:7], "mine")]
    repo.write("d.py", "d = 1\n")  # in the work tree only
    assert vcs.changes_since(repo.root, start, to=mine) == [("A", "b.py", "")]
    assert vcs.changes_since(repo.root, None, to=mine) == [("A", "a.py", ""), ("A", "b.py", "")]


def test_a_commit_made_then_reset_away_is_not_among_the_commits_made(repo: Repo) -> None:
    repo.write("a.py", "a = 1\n")
    repo.commit("start")
    size = vcs.reflog_size(repo.root)
    assert size is not None
    repo.write("b.py", "b = 1\n")
    kept = repo.commit("kept")
    repo.write("c.py", "c = 1\n")
    repo.commit("undone")
    repo.git("reset", "-q", "--hard", "HEAD~1")  # the session threw it away
    repo.git("checkout", "-q", "-b", "side")
    repo.write("d.py", "d = 1\n")
    side = repo.commit("on a branch")
    repo.git("checkout", "-q", "-")  # a branch's commit stays made, whichever is checked out
    assert vcs.commits_made(repo.root, size) == [(kept, "kept"), (side, "on a branch")]
