"""Git listing and facts, on real repositories."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

from repomem import vcs
from repomem.vcs import location
from tests.conftest import Repo


def test_the_listing_has_tracked_and_untracked_files_but_not_ignored_or_deleted(
    repo: Repo,
) -> None:
    repo.write(".gitignore", "build/\n")
    repo.write("a.py", "a = 1\n")
    repo.write("gone.py", "b = 1\n")
    repo.write("removed.py", "c = 1\n")
    repo.write("dir with space/ünï.py", "d = 1\n")
    repo.write("kept.py", "e = 1\n")
    repo.commit()
    (repo.root / "gone.py").unlink()  # deleted from the work tree, still in the index
    repo.git("rm", "-q", "removed.py")  # deletion staged
    repo.git("update-index", "--skip-worktree", "kept.py")
    repo.write("new.py", "f = 1\n")
    repo.write("build/out.py", "g = 1\n")
    listed = vcs.list_files(repo.root)
    assert sorted(listed) == [".gitignore", "a.py", "dir with space/ünï.py", "kept.py", "new.py"]
    assert len(listed) == len(set(listed))
    assert sorted(vcs.list_files(repo.root, untracked=False)) == [
        ".gitignore", "a.py", "dir with space/ünï.py", "kept.py",
    ]  # fmt: skip


def test_the_listing_of_some_paths_takes_them_literally(repo: Repo) -> None:
    repo.write("a.py", "a = 1\n")
    repo.write("b.py", "b = 1\n")
    repo.write("sub/c.py", "c = 1\n")
    repo.write("[x].py", "x = 1\n")
    repo.commit()
    (repo.root / "b.py").unlink()
    assert sorted(vcs.list_files(repo.root, paths=["a.py", "b.py", "sub", "[x].py"])) == [
        "[x].py", "a.py", "sub/c.py",
    ]  # fmt: skip


def test_a_folder_outside_git_lists_nothing_and_has_no_facts(folder: Repo) -> None:
    folder.write("a.py", "a = 1\n")
    assert vcs.list_files(folder.root) == []
    assert vcs.open_repo(folder.root) is None


def test_the_facts_name_head_and_branch(repo: Repo) -> None:
    info = vcs.open_repo(repo.root)
    assert info is not None and info.head is None  # no commit yet
    repo.write("a.py", "a = 1\n")
    head = repo.commit()
    info = vcs.open_repo(repo.root)
    assert info is not None
    assert (info.head, info.branch) == (head, "main")


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


def test_a_bare_repository_is_refused_in_one_line(tmp_path: Path) -> None:
    import pytest

    from repomem import config
    from repomem.errors import NotARepoError
    from repomem.index import indexer

    bare = tmp_path / "shared.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    with pytest.raises(NotARepoError, match="bare git repository"):
        indexer.run(config.load(bare))


def test_a_git_repository_without_git_on_path_is_refused_not_indexed_as_a_folder(
    repo: Repo,
) -> None:
    import os
    import sys

    repo.write("a.py", "x = 1\n")
    repo.commit()
    env = {**os.environ, "PATH": "/nonexistent", "PYTHONPATH": str(Path(__file__).parents[1])}
    env.pop("GIT_PYTHON_GIT_EXECUTABLE", None)
    out = subprocess.run(
        [sys.executable, "-m", "repomem", "-C", str(repo.root), "index"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "`git` command is not on PATH" in out.stderr
    # no second index was built anywhere (a plain folder's store goes under REPOMEM_HOME)
    assert not (repo.root / ".git" / "repomem").exists()
    assert not (Path(os.environ["REPOMEM_HOME"]) / "stores").exists()


def test_a_git_command_git_refuses_is_a_repomem_error_naming_gits_words(repo: Repo) -> None:
    import pytest

    from repomem.errors import GitError

    repo.write("a.py", "x = 1\n")
    repo.commit()
    with open(repo.root / ".git" / "config", "a", encoding="utf-8") as fh:
        fh.write("garbage [[[\n")
    with pytest.raises(GitError) as err:
        vcs.list_files(repo.root)  # every public function, whoever calls it
    assert str(err.value).startswith("git failed (fatal: bad config line")
    assert "\n" not in str(err.value)


def test_forgetting_the_location_variables_removes_only_those() -> None:
    env = {"GIT_DIR": "../.git", "GIT_WORK_TREE": "..", "GIT_AUTHOR_NAME": "a", "PATH": "/bin"}
    assert vcs.forget_location_env(env) == {"GIT_DIR": "../.git", "GIT_WORK_TREE": ".."}
    assert env == {"GIT_AUTHOR_NAME": "a", "PATH": "/bin"}
    assert vcs.forget_location_env(env) == {}


def test_listing_uncommitted_changes_leaves_gits_index_file_alone(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "a.py").write_text("x = 1\n", encoding="utf-8")
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "a.py"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    index = root / ".git" / "index"
    os.utime(root / "a.py", ns=(10**18, 10**18))  # touched, not changed: stale stat data
    before = index.stat().st_mtime_ns, index.read_bytes()
    (root / "b.py").write_text("y = 2\n", encoding="utf-8")
    assert vcs.dirty_paths(root) == ["b.py"]
    # a plain `git status` would rewrite the index here, taking its lock beside the user
    assert (index.stat().st_mtime_ns, index.read_bytes()) == before


def test_a_staged_renames_source_is_listed_as_uncommitted(tmp_path: Path) -> None:
    root = tmp_path / "r"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / "a.py").write_text("x = 1\n" * 20, encoding="utf-8")
    git = ["git", "-C", str(root), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run([*git, "add", "a.py"], check=True)
    subprocess.run([*git, "commit", "-qm", "one"], check=True)
    subprocess.run([*git, "mv", "a.py", "b.py"], check=True)
    assert sorted(vcs.dirty_paths(root)) == ["a.py", "b.py"]


def test_a_repository_whose_path_holds_a_dollar_is_opened_at_that_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitPython expands `$NAME` in a path (and warns on every call) unless told not to."""
    monkeypatch.setenv("HUNT_DIR", "elsewhere")
    root = tmp_path / "a$HUNT_DIR b"
    (tmp_path / "aelsewhere b").mkdir()  # where an expanded path would lead
    root.mkdir()
    repo = Repo(root)
    repo.write("a.py", "a = 1\n")
    head = repo.commit()
    info = vcs.open_repo(root)  # filterwarnings = error: a warning fails here
    assert info is not None and info.head == head
    assert vcs.list_files(root) == ["a.py"]


def test_ignore_locally_adds_a_path_once_and_never_one_already_ignored(repo: Repo) -> None:
    exclude = repo.root / ".git" / "info" / "exclude"
    exclude.write_text("# local rules", encoding="utf-8")  # no final line break
    (repo.root / ".gitignore").write_text("*.log\n", encoding="utf-8")
    assert vcs.ignore_locally(repo.root, "notes/mine.json")
    assert not vcs.ignore_locally(repo.root, "notes/mine.json")  # ignored now
    assert not vcs.ignore_locally(repo.root, "build.log")  # ignored by .gitignore
    assert exclude.read_text(encoding="utf-8") == "# local rules\n/notes/mine.json\n"
    (repo.root / "notes").mkdir()
    (repo.root / "notes" / "mine.json").write_text("{}", encoding="utf-8")
    assert "mine.json" not in repo.git("status", "--porcelain", "--untracked-files=all")


def test_ignore_locally_without_git_does_nothing(folder: Repo) -> None:
    assert not vcs.ignore_locally(folder.root, "a.json")
    assert not (folder.root / ".git").exists()


def test_checked_out_submodules_are_listed_file_by_file_nested_ones_too(
    superproject: Repo,
) -> None:
    root = superproject.root
    superproject.write("libs/core/new.py", "x = 1\n")  # untracked in the submodule
    superproject.write("libs/core/debug.log", "ignored by the submodule's .gitignore\n")
    (root / "libs/core/pkg/old.py").unlink()
    listed = vcs.list_files(root, submodules=True)
    assert sorted(listed) == [
        ".gitmodules", "libs/core/.gitignore", "libs/core/.gitmodules", "libs/core/deep/deep.py",
        "libs/core/new.py", "libs/core/pkg/core.py", "main.py",
    ]  # fmt: skip
    assert sorted(vcs.list_files(root)) == [".gitmodules", "libs/core", "main.py"]
    some = ["main.py", "libs/core/pkg/core.py", "libs/core/pkg/old.py", "libs/core/deep"]
    assert sorted(vcs.list_files(root, submodules=True, paths=some)) == [
        "libs/core/deep/deep.py", "libs/core/pkg/core.py", "main.py",
    ]  # fmt: skip
    assert sorted(vcs.dirty_paths(root, submodules=True)) == [
        "libs/core/new.py", "libs/core/pkg/old.py",
    ]  # fmt: skip
    assert vcs.dirty_paths(root) == ["libs/core"]


def test_a_submodule_not_checked_out_stays_one_entry(superproject: Repo, tmp_path: Path) -> None:
    clone = tmp_path / "clone"
    subprocess.run(["git", "clone", "-q", str(superproject.root), str(clone)], check=True)
    assert (clone / "libs/core").is_dir()  # empty: never initialised
    assert sorted(vcs.list_files(clone, submodules=True)) == [".gitmodules", "libs/core", "main.py"]
    assert vcs.dirty_paths(clone, submodules=True) == []


def test_the_git_directory_is_read_from_the_files_as_gitpython_finds_it(
    repo: Repo, superproject: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("a.py", "a = 1\n")
    repo.commit()

    def made(name: str, *git: str, cwd: Path | None = None) -> Path:
        subprocess.run(["git", *git], cwd=cwd or tmp_path, check=True, capture_output=True)
        return tmp_path / name

    def clone(name: str) -> Path:
        return made(name, "clone", "-q", str(repo.root), name)

    linked = made("linked", "worktree", "add", "-q", str(tmp_path / "linked"), cwd=repo.root)
    detached = clone("detached")
    made("", "checkout", "-q", "--detach", cwd=detached)
    moved = clone("moved")  # its `.git` a link to the folder moved elsewhere
    (moved / ".git").rename(tmp_path / "moved.git")
    (moved / ".git").symlink_to(tmp_path / "moved.git")
    made("shared.git", "clone", "-q", "--bare", str(repo.root), "shared.git")
    of_bare = made("of-bare", "worktree", "add", "-q", str(tmp_path / "of-bare"),
                   cwd=tmp_path / "shared.git")  # fmt: skip
    separate = made("separate", "init", "-q", "--separate-git-dir", str(tmp_path / "sep.git"),
                    "separate")  # fmt: skip
    elsewhere = clone("elsewhere")
    made("", "config", "core.worktree", str(tmp_path), cwd=elsewhere)
    marked_bare = clone("marked-bare")
    made("", "config", "core.bare", "true", cwd=marked_bare)
    including = clone("including")
    made("", "config", "include.path", str(tmp_path / "more.gitconfig"), cwd=including)
    relative = made("relative", "worktree", "add", "-q", str(tmp_path / "relative"),
                    cwd=repo.root)  # fmt: skip
    (relative / ".git").write_text("gitdir: ../repo/.git/worktrees/relative\n", "utf-8")
    broken = made("broken", "worktree", "add", "-q", str(tmp_path / "broken"), cwd=repo.root)
    made("", "worktree", "remove", "-f", str(broken), cwd=repo.root)
    broken.mkdir()
    (broken / ".git").write_text(f"gitdir: {repo.root}/.git/worktrees/broken\n", "utf-8")
    headed = clone("headed")
    (headed / "HEAD").write_text("a file named HEAD\n", "utf-8")
    plain = tmp_path / "plain"
    plain.mkdir()
    # (folder, whether read from the files; else GitPython's to judge)
    cases = [
        (repo.root, True), (linked, True), (detached, True), (moved, True), (of_bare, False),
        (separate, False), (elsewhere, False), (marked_bare, False), (including, False),
        (relative, False), (broken, False), (headed, False), (plain, False),
        (superproject.root / "libs" / "core", False),
    ]  # fmt: skip
    for root, read in cases:
        assert (location._plain_git_dir(root) is not None) == read, root
        assert vcs.git_dir(root) == location._git_dir_by_gitpython(root), root
    assert vcs.git_dir(linked) == (repo.root / ".git" / "worktrees" / "linked").resolve()
    assert vcs.git_dir(moved) == (tmp_path / "moved.git").resolve()
    assert vcs.git_dir(marked_bare) is None and vcs.git_dir(broken) is None
    monkeypatch.setenv("GIT_DIR", str(repo.root / ".git"))  # git's variables: GitPython's
    assert location._plain_git_dir(clone("with-git-dir")) is None
    monkeypatch.delenv("GIT_DIR")
    without_git = clone("without-git")
    monkeypatch.setenv("PATH", str(tmp_path / "no-git-here"))  # GitPython's to say what is wrong
    assert location._plain_git_dir(without_git) is None


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
