"""Where a repository is: its git directory (read from the files where git's two plain layouts
allow, without GitPython), the other work trees of the same repository, HEAD and branch, and
git's location variables that would point elsewhere."""

from __future__ import annotations

import logging
import os
import re
import shutil
import stat
import sys
import threading
from collections.abc import MutableMapping
from dataclasses import dataclass
from pathlib import Path

from repomem.vcs.gitpython import _repo, _translate_public, git_error

log = logging.getLogger(__name__)


_local = threading.local()


@dataclass(frozen=True)
class GitInfo:
    """Where a repository's git data lives, and its HEAD."""

    root: Path
    git_dir: Path
    head: str | None  # None in a repository with no commits yet
    branch: str | None


# Where git finds a repository, when set in the environment. repomem works on the repository
# it finds from `-C` or the current folder, as `git -C` in a fresh shell does (the hooks'
# launcher, `hooks.scripts._launcher`, unsets most of them in shell before it starts repomem).
LOCATION_VARS = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_PREFIX", "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
)  # fmt: skip


def forget_location_env(environ: MutableMapping[str, str] | None = None) -> dict[str, str]:
    """Remove git's repository-location variables from `environ` (the process's environment
    by default); returns those removed.

    Inherited from a surrounding git process (a hook run by a hook manager, `git rebase
    --exec`, `git bisect run`) or set for another repository, they would point repomem's git
    commands at another git directory or work tree, or at paths relative to another folder
    (every file then looked uncommitted). Call before any thread starts.
    """
    env = os.environ if environ is None else environ
    removed = {name: env[name] for name in LOCATION_VARS if name in env}
    for name in removed:
        del env[name]
    if removed:
        log.info("ignoring %s: repomem uses -C or the current folder", ", ".join(removed))
    return removed


def git_dir(root: Path) -> Path | None:
    """The git directory of the work tree at `root` (no git command is run), or None."""
    cache: dict[Path, Path] = _local.__dict__.setdefault("git_dirs", {})
    if root not in cache:
        found = _plain_git_dir(root)
        if found is None:
            return _git_dir_by_gitpython(root)
        if len(cache) >= 8:
            cache.clear()
        cache[root] = found
    return cache[root]


def _git_dir_by_gitpython(root: Path) -> Path | None:
    repo = _repo(root)
    if repo is None or repo.bare or repo.working_tree_dir is None:
        return None
    if Path(repo.working_tree_dir).resolve() != root.resolve():
        return None
    return Path(repo.git_dir).resolve()


# `git_dir` without GitPython, whose import alone runs `git version` (a Claude Code hook asks on
# every prompt the user sends): the two layouts git makes, a clone's `.git` folder and a linked
# worktree's `.git` file naming its folder in the main one, read as GitPython reads them (its
# versions since 3.1.40 agree on these). Anything else (a submodule's relative `.git` file, a
# bare main repository, `core.worktree`, config includes, git's location variables, Windows)
# is GitPython's to judge.
_PLAIN_ENV = (
    "GIT_DIR", "GIT_WORK_TREE", "GIT_COMMON_DIR", "GIT_OBJECT_DIRECTORY",
    "GIT_PYTHON_GIT_EXECUTABLE", "GIT_PYTHON_REFRESH",
)  # fmt: skip


_PLAIN_HEAD = re.compile(rb"ref: refs/|[0-9a-f]{40}(?:[0-9a-f]{24})?\n")


_PLAIN_LINK = re.compile(r"gitdir: (/[ -~]*[!-~])\r?\n?")  # printable, one line


_PLAIN_BARE = re.compile(r"\s*bare\s*=\s*false\s*")


_PLAIN_MAX_BYTES = 1 << 16


def _plain_git_dir(root: Path) -> Path | None:
    """`root`'s git directory as GitPython finds it, read from the files; None when this is not
    sure (GitPython then decides)."""
    if os.name != "posix" or sys.platform == "cygwin" or any(v in os.environ for v in _PLAIN_ENV):
        return None
    top = str(root)
    if not root.is_absolute() or os.path.normpath(top) != top:
        return None
    if os.path.lexists(os.path.join(top, "HEAD")):
        return None  # the folder may be a git directory itself
    dotgit = os.path.join(top, ".git")
    try:
        mode = os.stat(dotgit).st_mode
    except (OSError, ValueError):
        return None
    if stat.S_ISDIR(mode):
        found = _plain_main(dotgit)
    elif stat.S_ISREG(mode):
        found = _plain_linked(dotgit)
    else:
        return None
    if found is None or shutil.which("git") is None:
        return None  # without git, GitPython says what is wrong
    return Path(found).resolve()


def _plain_main(dotgit: str) -> str | None:
    if os.path.lexists(os.path.join(dotgit, "commondir")) or not _plain_repository(dotgit):
        return None
    return dotgit if _plain_not_bare(dotgit) else None


def _plain_linked(dotgit: str) -> str | None:
    """The worktree's folder in the main repository, from its `.git` file."""
    text = _plain_read(dotgit)
    link = _PLAIN_LINK.fullmatch(text or "")
    if link is None:
        return None
    admin = link[1]
    if ": " in admin or os.path.normpath(admin) != admin or not os.path.isdir(admin):
        return None
    if any(os.path.lexists(os.path.join(admin, n)) for n in ("config", "gitfile", "objects")):
        return None
    common = (_plain_read(os.path.join(admin, "commondir")) or "").rstrip("\r\n")
    if not common or "\n" in common or "\r" in common or not _plain_head(admin):
        return None
    common = os.path.realpath(os.path.join(admin, common))
    if not _plain_repository(common, head=False) or not _plain_not_bare(common):
        return None
    return admin


def _plain_repository(folder: str, head: bool = True) -> bool:
    """`folder` holds a repository's objects and refs (and a HEAD, with `head`)."""
    if head and not _plain_head(folder):
        return False
    return all(os.path.isdir(os.path.join(folder, n)) for n in ("objects", "refs"))


def _plain_head(folder: str) -> bool:
    """`folder`'s HEAD is a plain file naming a branch or a commit."""
    path = os.path.join(folder, "HEAD")
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return False
        with open(path, "rb") as f:
            return _PLAIN_HEAD.match(f.read(256)) is not None
    except OSError:
        return False


def _plain_not_bare(folder: str) -> bool:
    """`folder`'s config surely does not make the repository bare, nor include other files."""
    text = _plain_read(os.path.join(folder, "config"))
    if text is None:
        return False
    lowered = text.lower()
    if "include" in lowered or "worktree" in lowered:
        return False
    return all(_PLAIN_BARE.fullmatch(line) for line in lowered.splitlines() if "bare" in line)


def _plain_read(path: str) -> str | None:
    """A small ASCII file's text (None: missing, large, or not ASCII)."""
    try:
        with open(path, "rb") as f:
            data = f.read(_PLAIN_MAX_BYTES + 1)
    except OSError:
        return None
    if len(data) > _PLAIN_MAX_BYTES or not data.isascii():
        return None
    return data.decode("ascii")


def sibling_git_dirs(root: Path) -> list[Path]:
    """The git directories of the other work trees of the repository at `root`: its main work
    tree's and its linked worktrees' (`git worktree add`), whether or not their folders still
    exist; none for a repository without worktrees or a folder that is not a work tree's top.
    No git command is run."""
    own = git_dir(root)
    repo = _repo(root)
    if own is None or repo is None:
        return []
    common = Path(repo.common_dir).resolve()
    linked = common / "worktrees"
    found = [common, *(sorted(linked.iterdir()) if linked.is_dir() else [])]
    return [d for d in found if d.is_dir() and d.resolve() != own]


def work_tree_of(git_dir: Path) -> Path:
    """The work tree folder of a git directory from `sibling_git_dirs` (a linked worktree's
    `gitdir` file names its `.git`; the main work tree holds the common directory)."""
    try:
        link = (git_dir / "gitdir").read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return git_dir.parent
    return Path(link).parent if link else git_dir.parent


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


def head(root: Path) -> str | None:
    """The commit HEAD points to, or None (no git, or no commits)."""
    info = open_repo(root)
    return info.head if info else None


_translate_public(globals(), __name__)
