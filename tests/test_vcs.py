"""Git listing and facts, on real repositories."""

from __future__ import annotations

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


def test_the_facts_name_head_and_branch(repo: Repo) -> None:
    info = vcs.open_repo(repo.root)
    assert info is not None and info.head is None  # no commit yet
    repo.write("a.py", "a = 1\n")
    head = repo.commit()
    info = vcs.open_repo(repo.root)
    assert info is not None
    assert (info.head, info.branch) == (head, "main")
