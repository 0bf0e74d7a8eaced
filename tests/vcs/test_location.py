"""Where a repository is: its git directory, HEAD and branch, git's location variables."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from repomem import vcs
from repomem.vcs import location
from tests.conftest import Repo


def test_the_facts_name_head_and_branch(repo: Repo) -> None:
    info = vcs.open_repo(repo.root)
    assert info is not None and info.head is None  # no commit yet
    repo.write("a.py", "a = 1\n")
    head = repo.commit()
    info = vcs.open_repo(repo.root)
    assert info is not None
    assert (info.head, info.branch) == (head, "main")


def test_a_bare_repository_is_refused_in_one_line(tmp_path: Path) -> None:
    import pytest

    from repomem import config
    from repomem.errors import NotARepoError
    from repomem.index import indexer

    bare = tmp_path / "shared.git"
    subprocess.run(["git", "init", "-q", "--bare", str(bare)], check=True)
    with pytest.raises(NotARepoError, match="bare git repository"):
        indexer.run(config.load(bare))


def test_forgetting_the_location_variables_removes_only_those() -> None:
    env = {"GIT_DIR": "../.git", "GIT_WORK_TREE": "..", "GIT_AUTHOR_NAME": "a", "PATH": "/bin"}
    assert vcs.forget_location_env(env) == {"GIT_DIR": "../.git", "GIT_WORK_TREE": ".."}
    assert env == {"GIT_AUTHOR_NAME": "a", "PATH": "/bin"}
    assert vcs.forget_location_env(env) == {}


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
