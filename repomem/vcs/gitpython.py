"""The GitPython boundary (the only module importing `git`): a GitPython Repo per thread, read
at its path literally, and a git command's failure turned into `GitError`.

GitPython is imported on first use, never when `repomem.vcs` is imported: its import alone runs
`git version`, which the Claude Code hook's cheap path must not pay for.
"""

from __future__ import annotations

import functools
import logging
import threading
import types
from collections.abc import Callable
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from repomem.errors import GitError, NotARepoError

log = logging.getLogger(__name__)
_P = ParamSpec("_P")
_R = TypeVar("_R")


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
    except ImportError as exc:  # the git executable is missing: GitPython refuses to import
        if (root / ".git").exists():
            # Going on as a plain folder would build a second index and lose sight of the
            # sessions and hooks of this one (an editor may start `repomem serve` with a
            # minimal PATH).
            raise NotARepoError(
                f"`{root}` is a git repository but the `git` command is not on PATH; install "
                f"git or add its folder to PATH (for an editor, in the server's configuration)."
            ) from exc
        log.warning("git is not installed; git features are off")
        return None
    try:
        return _literal_repo_type()(root, search_parent_directories=False, expand_vars=False)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        return None


@functools.cache
def _literal_repo_type() -> Any:
    """GitPython's Repo reading its path literally: by default it expands `$NAME` in it (and
    warns on every call), and its command runner does so even when told not to, so git ran
    in another folder for a repository at `/src/a$HOME`."""
    import git

    class _Git(git.Git):
        def __init__(self, working_dir: Any = None) -> None:
            # a Path is resolved, never expanded (a str goes through os.path.expandvars)
            super().__init__(None if working_dir is None else Path(working_dir))

    class _Repo(git.Repo):
        GitCommandWrapperType = _Git

    return _Repo


def git_error() -> type[Exception]:
    import git

    return git.GitCommandError


def _git_failure(exc: BaseException) -> GitError:
    """The one-line error for a git command that failed (a broken `.git/config`, a corrupt
    object): the repository's trouble, in git's words."""
    said = " ".join(str(getattr(exc, "stderr", "") or exc).split())
    said = said.removeprefix("stderr:").strip().strip("'")[:300]
    return GitError(
        f"git failed ({said}); repair the repository (`git status` shows the same error) and "
        f"run the command again."
    )


def _translated(fn: Callable[_P, _R]) -> Callable[_P, _R]:
    """`fn` with a git command's failure that it does not handle raised as `GitError`, so
    every caller (the CLI, the watcher, the MCP server) reports it like any other error."""

    @functools.wraps(fn)
    def call(*args: _P.args, **kwargs: _P.kwargs) -> _R:
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            if type(exc).__name__ == "GitCommandError":  # without importing git to ask
                raise _git_failure(exc) from exc
            raise

    return call


def _translate_public(namespace: dict[str, Any], module: str) -> None:
    """Wrap every public function that `module` defines (`namespace` is its globals) with
    `_translated`, in place: callers, and the module's own calls between its functions, then
    meet `GitError`. Each module of the package calls it last, except this one (`git_error`
    hands out GitPython's class, the rest is private)."""
    for name, fn in list(namespace.items()):
        if (
            not name.startswith("_")
            and isinstance(fn, types.FunctionType)
            and fn.__module__ == module
        ):
            namespace[name] = _translated(fn)
