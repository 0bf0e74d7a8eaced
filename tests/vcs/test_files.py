"""Listing a work tree's files, the uncommitted ones and submodules' files, on real repositories."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from repomem import vcs
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
