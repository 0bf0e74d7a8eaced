"""Git access (the only module importing GitPython).

File enumeration uses `git ls-files` through GitPython's command wrapper (milliseconds for
thousands of files); commits and status use GitPython's object model.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class GitInfo:
    """Where a repository's git data lives, and its HEAD."""

    root: Path
    git_dir: Path
    head: str | None  # None in a repository with no commits yet
    branch: str | None


_local = threading.local()


def _repo(root: Path) -> Any | None:
    """A GitPython Repo for `root`, cached per thread.

    GitPython's Repo keeps `git cat-file` helper processes that must not be shared between
    threads, so each thread gets its own (the MCP server and the watcher run several).
    """
    cache: dict[Path, Any] = _local.__dict__.setdefault("repos", {})
    if root not in cache:
        if len(cache) >= 8:
            for old in cache.values():
                if old is not None:
                    old.close()
            cache.clear()
        cache[root] = _open(root)
    return cache[root]


def _open(root: Path) -> Any | None:
    try:
        import git
    except ImportError:  # the git executable is missing: GitPython refuses to import
        log.warning("git is not installed; git features are off")
        return None
    try:
        return git.Repo(root, search_parent_directories=False)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None


def git_dir(root: Path) -> Path | None:
    """The git directory of the work tree at `root` (no git command is run), or None."""
    repo = _repo(root)
    if repo is None or repo.bare or repo.working_tree_dir is None:
        return None
    if Path(repo.working_tree_dir).resolve() != root.resolve():
        return None
    return Path(repo.git_dir).resolve()


def open_repo(root: Path) -> GitInfo | None:
    """Git facts for `root`, or None when it is not the top of a git work tree."""
    gdir = git_dir(root)
    repo = _repo(root)
    if gdir is None or repo is None:
        return None
    head: str | None
    try:
        head = repo.git.rev_parse("--verify", "-q", "HEAD") or None
    except git_error() as exc:  # no commits yet
        log.debug("no HEAD in %s: %s", root, exc)
        head = None
    branch = None
    if head is not None and not repo.head.is_detached:
        branch = repo.active_branch.name
    return GitInfo(root=root, git_dir=gdir, head=head, branch=branch)


def git_error() -> type[Exception]:
    import git

    return git.GitCommandError


def list_files(
    root: Path, *, untracked: bool = True, paths: Sequence[str] | None = None
) -> list[str]:
    """Tracked files plus (by default) untracked files that .gitignore does not exclude.

    Paths are repo-relative with '/'. Files deleted from the work tree but still tracked are
    left out. With `paths`, only those paths (files or folders, taken literally) are listed.
    """
    repo = _repo(root)
    if repo is None:
        return []
    if paths is not None:
        seen_some: dict[str, None] = {}
        for start in range(0, len(paths), 500):
            specs = [f":(literal){p}" for p in paths[start : start + 500]]
            for path in _ls(repo, untracked, specs):
                seen_some.setdefault(path, None)
        return list(seen_some)
    return _ls(repo, untracked, [])


def _ls(repo: Any, untracked: bool, specs: list[str]) -> list[str]:
    args = ["-z", "--cached"]
    if untracked:
        args += ["--others", "--exclude-standard"]
    tail = ["--", *specs] if specs else []
    out: str = repo.git.ls_files(*args, *tail)
    deleted: str = repo.git.ls_files("-z", "--deleted", *tail)
    gone = set(deleted.split("\0")) if deleted else set()
    seen: dict[str, None] = {}
    for path in out.split("\0"):
        if path and path not in gone:
            seen.setdefault(path, None)
    return list(seen)


def head(root: Path) -> str | None:
    """The commit HEAD points to, or None (no git, or no commits)."""
    info = open_repo(root)
    return info.head if info else None


def dirty_paths(root: Path) -> list[str]:
    """Paths with uncommitted changes (modified, staged, untracked-not-ignored, deleted)."""
    repo = _repo(root)
    if repo is None:
        return []
    out: str = repo.git.status("--porcelain=v1", "-z", "--untracked-files=all")
    paths: list[str] = []
    entries = out.split("\0")
    i = 0
    while i < len(entries):
        entry = entries[i]
        i += 1
        if len(entry) < 4:
            continue
        status, path = entry[:2], entry[3:]
        paths.append(path)
        if "R" in status or "C" in status:
            i += 1  # the rename's source follows
    return paths


def hooks_dir(root: Path) -> Path | None:
    """The folder git runs hooks from (`core.hooksPath` when set), or None without git."""
    repo = _repo(root)
    if repo is None:
        return None
    out: str = repo.git.rev_parse("--git-path", "hooks")
    path = Path(out.strip())
    return (path if path.is_absolute() else root / path).resolve()


def config_get(root: Path, key: str) -> str | None:
    """A value from the repository's git config (None when unset or without git)."""
    repo = _repo(root)
    if repo is None:
        return None
    try:
        out: str = repo.git.config("--get", key)
    except git_error():
        return None
    return out


def config_set(root: Path, key: str, value: str) -> None:
    """Set a key in the repository's own config (`.git/config`)."""
    repo = _repo(root)
    if repo is not None:
        repo.git.config("--local", key, value)


def config_remove_section(root: Path, section: str) -> bool:
    """Remove a section from `.git/config`; False when it was not there."""
    repo = _repo(root)
    if repo is None:
        return False
    try:
        repo.git.config("--local", "--remove-section", section)
    except git_error():
        return False
    return True
