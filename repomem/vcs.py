"""Git access (the only module importing GitPython).

File enumeration uses `git ls-files` through GitPython's command wrapper (milliseconds for
thousands of files); commits and status use GitPython's object model. A git command that
fails where a function does not expect it leaves the function as `GitError` (one line, in
git's words), so callers handle it as any other `RepomemError`.
"""

from __future__ import annotations

import codecs
import functools
import logging
import os
import re
import shutil
import stat
import sys
import threading
import types
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ParamSpec, TypeVar

from repomem.errors import GitError, NotARepoError

log = logging.getLogger(__name__)
_P = ParamSpec("_P")
_R = TypeVar("_R")


@dataclass(frozen=True)
class GitInfo:
    """Where a repository's git data lives, and its HEAD."""

    root: Path
    git_dir: Path
    head: str | None  # None in a repository with no commits yet
    branch: str | None


_local = threading.local()


# Where git finds a repository, when set in the environment. repomem works on the repository
# it finds from `-C` or the current folder, as `git -C` in a fresh shell does (the hooks'
# launcher, `hooks._launcher`, unsets most of them in shell before it starts repomem).
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


def git_error() -> type[Exception]:
    import git

    return git.GitCommandError


def list_files(
    root: Path,
    *,
    untracked: bool = True,
    paths: Sequence[str] | None = None,
    submodules: bool = False,
) -> list[str]:
    """Tracked files plus (by default) untracked files that .gitignore does not exclude.

    Paths are repo-relative with '/'. Files deleted from the work tree but still tracked are
    left out. With `paths`, only those paths (files or folders, taken literally) are listed.
    With `submodules`, each initialised submodule (checked out, as `git submodule update
    --init` leaves it) stands for its files, listed by its own repository in the same way
    (nested ones too); a submodule not checked out stays one entry, its folder.
    """
    repo = _repo(root)
    if repo is None:
        return []
    wanted = None if paths is None else list(paths)
    return _list_tree(repo, root, "", untracked, wanted, _nesting(submodules))


MAX_SUBMODULE_DEPTH = 8  # submodules within submodules, at most this deep


def _nesting(submodules: bool) -> int:
    """How many levels of submodules to look into."""
    return MAX_SUBMODULE_DEPTH if submodules else 0


def _list_tree(
    repo: Any, root: Path, where: str, untracked: bool, paths: list[str] | None, nesting: int
) -> list[str]:
    """The files of the work tree at `where` ("" for the repository, else a submodule's
    folder), relative to `root`; with `paths` (relative to `where`), only those; its
    submodules' files `nesting` levels deep."""
    subs = _submodules_at(repo, root, where, nesting)
    inner: dict[str, list[str] | None] = {}  # submodule -> its paths (None: all)
    own: list[str] = []
    for path in paths or []:
        sub = next((s for s in subs if path == s or path.startswith(s + "/")), None)
        if sub is None:
            own.append(path)
        elif path == sub:
            inner[sub] = None
        else:
            wanted = inner.setdefault(sub, [])
            if wanted is not None:
                wanted.append(path[len(sub) + 1 :])
    listed: list[str] = []
    if paths is None or own:
        listed = _ls(repo, untracked, [f":(literal){p}" for p in own], where)
    if paths is None:  # a submodule counts once its superproject tracks it (a gitlink)
        tracked = set(listed)
        inner = {s: None for s in subs if s in tracked}
    prefix = f"{where}/" if where else ""
    out = [prefix + p for p in listed if p not in inner]
    for sub, sub_paths in inner.items():
        out += _list_tree(repo, root, prefix + sub, untracked, sub_paths, nesting - 1)
    return out


def _submodules_at(repo: Any, root: Path, where: str, nesting: int) -> list[str]:
    """The checked-out submodules of the work tree at `where`, relative to it: the paths its
    `.gitmodules` names whose folder holds a repository (`<path>/.git`); none at `nesting` 0."""
    base = root / where
    gitmodules = base / ".gitmodules"
    if nesting <= 0 or not gitmodules.is_file():
        return []
    try:
        out: str = repo.git.execute(
            ["git", "config", "-z", "--file", str(gitmodules), "--get-regexp",
             r"^submodule\..*\.path$"]
        )  # fmt: skip
    except git_error():  # none named (status 1), or a file git cannot read
        return []
    found: list[str] = []
    for entry in out.split("\0"):
        _, _, value = entry.partition("\n")
        rel = value.strip().strip("/")
        parts = rel.split("/")
        if not rel or ".." in parts or "." in parts or "" in parts or "\\" in rel:
            continue  # never a folder outside this work tree
        folder = base / rel
        if folder.is_dir() and not folder.is_symlink() and os.path.lexists(folder / ".git"):
            found.append(rel)
    return found


def _ls(repo: Any, untracked: bool, specs: list[str], where: str = "") -> list[str]:
    # One git call: with -t each entry is tagged, and files deleted from the work tree come
    # twice, as tracked ("H", or "S"/"M" for skip-worktree and unmerged) and as removed ("R").
    args = ["-z", "-t", "--cached", "--deleted"]
    if untracked:
        args += ["--others", "--exclude-standard"]
    git = ["git", "-C", where] if where else ["git"]
    seen: dict[str, None] = {}  # a file named twice (itself and its folder) is listed once
    for start in range(0, max(len(specs), 1), 500):  # a command line holds 500 paths
        tail = ["--", *specs[start : start + 500]] if specs else []
        out: str = repo.git.execute([*git, "ls-files", *args, *tail])
        entries = [e for e in out.split("\0") if len(e) > 2]
        gone = {e[2:] for e in entries if e[0] == "R"}
        for entry in entries:
            path = entry[2:]
            if entry[0] != "R" and path not in gone:
                seen.setdefault(path, None)
    return list(seen)


def head(root: Path) -> str | None:
    """The commit HEAD points to, or None (no git, or no commits)."""
    info = open_repo(root)
    return info.head if info else None


def dirty_paths(root: Path, *, submodules: bool = False) -> list[str]:
    """Paths with uncommitted changes (modified, staged, untracked-not-ignored, deleted; a
    rename's source counts as deleted). With `submodules`, a checked-out submodule with
    changes stands for its own changed paths (as `list_files` lists its files)."""
    repo = _repo(root)
    if repo is None:
        return []
    return _dirty(repo, root, "", _nesting(submodules))


def _dirty(repo: Any, root: Path, where: str, nesting: int) -> list[str]:
    # Without optional locks: git status otherwise rewrites the index to refresh its stat
    # data, and a `git commit` made meanwhile fails on the lock (a pack runs beside the user).
    git = ["git", "-C", where] if where else ["git"]
    out: str = repo.git.execute(
        [*git, "--no-optional-locks", "status", "--porcelain=v1", "-z", "--untracked-files=all"]
    )
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
            # the source follows; a rename's is gone from the work tree, a copy's is not
            if "R" in status and i < len(entries) and entries[i]:
                paths.append(entries[i])
            i += 1
    subs = _submodules_at(repo, root, where, nesting)
    prefix = f"{where}/" if where else ""
    out_paths: list[str] = []
    for path in paths:
        if path.rstrip("/") in subs:
            out_paths += _dirty(repo, root, prefix + path.rstrip("/"), nesting - 1)
        else:
            out_paths.append(prefix + path)
    return out_paths


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


def config_unset(root: Path, key: str) -> None:
    """Remove a key from `.git/config`, and its section when that is left empty (nothing
    happens when it was not set)."""
    repo = _repo(root)
    if repo is None:
        return
    try:
        repo.git.config("--local", "--unset-all", key)
    except git_error():
        return
    section = key.rsplit(".", 1)[0]
    try:
        repo.git.config("--local", "--get-regexp", "^" + re.escape(section) + r"\.")
    except git_error():  # nothing left in it (git may already have dropped the header)
        config_remove_section(root, section)


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


def ignore_locally(root: Path, path: str) -> bool:
    """Make git ignore `path` (relative to `root`) in this clone only, through
    `info/exclude`, unless git ignores it already; True when a line was added."""
    repo = _repo(root)
    if repo is None:
        return False
    status, _, _ = repo.git.execute(
        ["git", "check-ignore", "-q", "--no-index", "--", path],
        with_extended_output=True, with_exceptions=False,
    )  # fmt: skip
    if status != 1:  # 0: ignored already; 128: git could not tell
        return False
    try:
        exclude = Path(root, repo.git.rev_parse("--git-path", "info/exclude"))
        before = exclude.read_text(encoding="utf-8") if exclude.exists() else ""
        sep = "" if not before or before.endswith("\n") else "\n"
        exclude.parent.mkdir(parents=True, exist_ok=True)
        with exclude.open("a", encoding="utf-8") as out:
            out.write(f"{sep}/{path}\n")
    except (OSError, UnicodeDecodeError, git_error()) as exc:
        log.info("could not add %s to git's info/exclude: %s", path, exc)
        return False
    return True


def commits_since(
    root: Path, since: str | None, *, until: str = "HEAD", limit: int = 200
) -> list[tuple[str, str]]:
    """(short sha, subject) of commits reachable from `until` (HEAD) but not from `since`,
    oldest first."""
    repo = _repo(root)
    if repo is None or head(root) is None:
        return []
    rng = f"{since}..{until}" if since else until
    try:
        out: str = repo.git.log("--format=%h%x00%s", f"-n{limit}", rng)
    except git_error() as exc:  # `since` no longer exists (history rewritten)
        log.debug("git log %s failed: %s", rng, exc)
        return []
    pairs = [tuple(line.split("\0", 1)) for line in out.splitlines() if "\0" in line]
    return [(p[0], p[1]) for p in reversed(pairs)]


def _name_status(out: str) -> list[tuple[str, str, str]]:
    """`git diff --name-status -z` output as (A/M/D/R, path, new path for renames)."""
    changes: list[tuple[str, str, str]] = []
    parts = out.split("\0")
    i = 0
    while i < len(parts):
        status = parts[i]
        i += 1
        if not status:
            continue
        letter = status[0]
        if letter in "RC":
            changes.append(("R" if letter == "R" else "A", parts[i], parts[i + 1]))
            i += 2
        else:
            changes.append((letter if letter in "AMD" else "M", parts[i], ""))
            i += 1
    return changes


def reflog_size(root: Path) -> int | None:
    """How many entries HEAD's reflog holds (None without git or a reflog)."""
    repo = _repo(root)
    if repo is None or head(root) is None:
        return None
    try:
        out: str = repo.git.reflog("show", "--format=%H", "HEAD")
    except git_error():
        return None
    return len(out.split())


def reflog_at(root: Path, when: float) -> tuple[int, str | None] | None:
    """How many entries HEAD's reflog held at `when` (seconds since the epoch), and the commit
    HEAD then pointed to (None before the first entry); None without git or a reflog.

    An entry's time is its committer's (`GIT_COMMITTER_DATE` sets it: a rebase told to keep
    the authors' dates writes past times), so the entries are counted oldest first up to the
    first one made after `when`."""
    repo = _repo(root)
    if repo is None or head(root) is None:
        return None
    try:
        out: str = repo.git.reflog("show", "--format=%H %gd", "--date=unix", "HEAD")
    except git_error():
        return None
    count, sha = 0, None
    for line in reversed(out.splitlines()):
        found = _REFLOG_TIME.search(line)
        if found is None or int(found.group(1)) > when:
            break
        count, sha = count + 1, line.split(" ", 1)[0]
    return count, sha


_REFLOG_TIME = re.compile(r"@\{(\d+)\}$")


# Reflog actions that create a commit of one's own (not a checkout, reset, pull or fast-forward).
_MAKES_COMMIT = re.compile(r"^(?:commit\b|cherry-pick\b|revert\b|rebase[^:]*\((?:pick|reword|"
                           r"edit|squash|fixup)\)|merge [^:]+: Merge made)")  # fmt: skip


def commits_made(
    root: Path, since_size: int, until_size: int | None = None
) -> list[tuple[str, str]] | None:
    """(sha, subject) of the commits made in this checkout since HEAD's reflog held
    `since_size` entries (and until it held `until_size`), oldest first, on whatever branch; a
    commit amended later is left out. None when the reflog cannot tell (absent, or expired
    below that size)."""
    repo = _repo(root)
    if repo is None:
        return None
    try:
        out: str = repo.git.reflog("show", "--format=%H%x00%gs", "HEAD")
    except git_error():
        return None
    entries = [tuple(line.split("\0", 1)) for line in out.splitlines() if "\0" in line]
    if len(entries) < max(since_size, until_size or 0):
        return None
    made: list[str] = []
    previous = ""
    later = 0 if until_size is None else len(entries) - until_size  # made after `until_size`
    for sha, action in reversed(entries[later : len(entries) - since_size]):
        if action.startswith("commit (amend)") and previous in made:
            made.remove(previous)
        if _MAKES_COMMIT.match(action) and sha not in made:
            made.append(sha)
        previous = sha
    if not made:
        return []
    subjects: str = repo.git.log("--no-walk=unsorted", "--format=%H%x00%s", *made)
    by_sha = dict(line.split("\0", 1) for line in subjects.splitlines() if "\0" in line)
    return [(sha, by_sha.get(sha, "")) for sha in made]


def commit_changes(root: Path, sha: str) -> list[tuple[str, str, str]]:
    """(status A/M/D/R, path, new path for renames) that commit `sha` made against its first
    parent (against nothing for a root commit)."""
    repo = _repo(root)
    if repo is None:
        return []
    try:
        out: str = repo.git.diff_tree("-r", "-M", "-z", "--name-status", "--root", "-m",
                                      "--first-parent", "--no-commit-id", sha)  # fmt: skip
    except git_error():
        return []
    return _name_status(out)


def changes_since(root: Path, rev: str | None, to: str | None = None) -> list[tuple[str, str, str]]:
    """(status letter A/M/D/R, path, new path for renames) between `rev` and the work tree
    (or commit `to`).

    Untracked files that .gitignore does not exclude count as added (not with `to`). With
    `rev` None (no commit at the start) every listed file is added.
    """
    repo = _repo(root)
    if repo is None:
        return []
    changes: list[tuple[str, str, str]] = []
    if to is not None:
        try:
            if rev is None:
                names: str = repo.git.ls_tree("-r", "-z", "--name-only", to)
                return [("A", p, "") for p in names.split("\0") if p]
            return _name_status(repo.git.diff("--name-status", "-M", "-z", rev, to, "--"))
        except git_error() as exc:
            log.debug("git diff %s %s failed: %s", rev, to, exc)
            return []
    if rev is None:
        return [("A", p, "") for p in list_files(root)]
    try:
        out: str = repo.git.diff("--name-status", "-M", "-z", rev, "--")
    except git_error() as exc:
        log.debug("git diff %s failed: %s", rev, exc)
        return []
    changes += _name_status(out)
    others: str = repo.git.ls_files("-z", "--others", "--exclude-standard")
    changes += [("A", p, "") for p in others.split("\0") if p]
    return changes


def show_file(root: Path, rev: str, path: str) -> bytes | None:
    """The bytes of `path` at commit `rev`, or None if it did not exist there."""
    repo = _repo(root)
    if repo is None:
        return None
    try:
        data: bytes = repo.git.show(
            f"{rev}:{path}", stdout_as_string=False, strip_newline_in_stdout=False
        )
    except git_error():
        return None
    return data


def file_history(root: Path, path: str, *, limit: int = 100) -> list[tuple[str, str, str]]:
    """(sha, ISO date, subject) of the commits of this branch's first-parent line that changed
    `path`, newest first: a merge is one version (what it brought in, against the branch
    before it); the merged branch's own commits are not listed between this branch's."""
    repo = _repo(root)
    if repo is None or head(root) is None:
        return []
    try:
        out: str = repo.git.log(
            "--format=%H%x00%cI%x00%s", f"-n{limit}", "--first-parent", "-m", "--", path
        )
    except git_error():
        return []
    rows = [line.split("\0", 2) for line in out.splitlines() if line.count("\0") == 2]
    return [(r[0], r[1], r[2]) for r in rows]


def resolve_rev(root: Path, rev: str) -> str | None:
    """The full sha `rev` names, or None."""
    repo = _repo(root)
    if repo is None:
        return None
    try:
        out: str = repo.git.rev_parse("--verify", "-q", f"{rev}^{{commit}}")
    except git_error():
        return None
    return out.strip() or None


def renamed_to(root: Path, path: str, *, depth: int = 200) -> str | None:
    """Where `path` went if git saw it renamed: in the work tree or the last `depth` commits."""
    repo = _repo(root)
    if repo is None:
        return None
    current = path
    try:
        if head(root) is not None:
            status: str = repo.git.diff("--name-status", "-M", "-z", "HEAD", "--")
            parts = status.split("\0")
            for i, part in enumerate(parts):
                if part.startswith("R") and i + 2 < len(parts) and parts[i + 1] == current:
                    return parts[i + 2]
            out: str = repo.git.log(
                "-M", "--diff-filter=R", "--name-status", "--format=", f"-n{depth}"
            )
            # newest first: follow the chain backwards from the oldest rename of `path`
            moves = [ln.split("\t") for ln in out.splitlines() if ln.startswith("R")]
            for fields in reversed(moves):
                if len(fields) == 3 and fields[1] == current:
                    current = fields[2]
    except git_error() as exc:
        log.debug("rename lookup failed: %s", exc)
        return None
    return current if current != path and (root / current).exists() else None


@dataclass(frozen=True)
class Commit:
    """A commit's message and the files it changed."""

    sha: str
    when: int  # commit time, seconds since the epoch
    message: str
    files: tuple[str, ...]


def commit_log(root: Path, *, since: str | None = None, limit: int = 20000) -> list[Commit]:
    """The last `limit` non-merge commits on HEAD (not reachable from `since`), newest first.

    A history cut short (a shallow clone, objects missing from a partial one) gives the commits
    git could read before it stopped. Messages are decoded as UTF-8 with replacement characters.
    """
    repo = _repo(root)
    if repo is None or head(root) is None or limit <= 0:
        return []
    rng = f"{since}..HEAD" if since else "HEAD"
    return _read_log(repo, ["--no-merges", f"-n{limit}", rng])


SHAS_PER_CALL = 500  # command lines stay short (Windows allows 32,767 characters)


def commits_named(root: Path, shas: Sequence[str]) -> list[Commit]:
    """The commits `shas` (full ids that git knows, from `commit_ids`), as `commit_log` reads
    them, in the order given."""
    repo = _repo(root)
    if repo is None:
        return []
    out: list[Commit] = []
    for i in range(0, len(shas), SHAS_PER_CALL):
        out += _read_log(repo, ["--no-walk=unsorted", *shas[i : i + SHAS_PER_CALL]])
    return out


def commit_ids(root: Path, rev: str, *, limit: int) -> list[str] | None:
    """The ids of the last `limit` non-merge commits reachable from `rev`, newest first (None
    when git cannot list them)."""
    repo = _repo(root)
    if repo is None or limit <= 0:
        return None
    try:
        status, out, _ = repo.git.execute(
            ["git", "rev-list", "--no-merges", f"-n{limit}", rev, "--"],
            with_extended_output=True, with_exceptions=False,
        )  # fmt: skip
    except (OSError, git_error()) as exc:
        log.debug("git rev-list failed: %s", exc)
        return None
    return None if status else out.split()


def _read_log(repo: Any, args: list[str]) -> list[Commit]:
    cmd = ["git", "-c", "core.quotepath=off", "log", "--no-renames", "--name-only",
           "--format=%x00%H %ct%n%B%x01", *args, "--"]  # fmt: skip
    try:
        status, out, err = repo.git.execute(
            cmd, with_extended_output=True, with_exceptions=False, stdout_as_string=False
        )
    except (OSError, git_error()) as exc:
        log.debug("git log failed: %s", exc)
        return []
    if status:
        log.info("git log stopped early (%s)", err.decode("utf-8", "replace").strip()[:200])
    commits: list[Commit] = []
    for block in out.decode("utf-8", "replace").split("\0")[1:]:
        first, _, rest = block.partition("\n")
        message, sep, names = rest.partition("\x01")
        parts = first.split(" ")
        if not sep or len(parts) != 2 or not parts[1].isdigit():
            continue  # cut off mid-record
        files = tuple(_unquote(n) for n in names.split("\n") if n)
        commits.append(Commit(parts[0], int(parts[1]), message.strip(), files))
    return commits


def _unquote(name: str) -> str:
    """A path as git prints it in a listing: C-quoted when it holds a tab, line break, quote
    or backslash (`core.quotepath=off` leaves other characters alone)."""
    if len(name) < 2 or name[0] != '"' or name[-1] != '"':
        return name
    raw = codecs.escape_decode(name[1:-1].encode("utf-8"))[0]
    return raw.decode("utf-8", "replace") if isinstance(raw, bytes) else name


def is_ancestor(root: Path, older: str, newer: str) -> bool:
    """Whether commit `older` is reachable from `newer` (False when either is unknown)."""
    repo = _repo(root)
    if repo is None:
        return False
    try:
        status = repo.git.execute(
            ["git", "merge-base", "--is-ancestor", older, newer],
            with_extended_output=True, with_exceptions=False,
        )[0]  # fmt: skip
    except (OSError, git_error()):
        return False
    return bool(status == 0)


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


for _name, _fn in list(globals().items()):
    if (
        not _name.startswith("_")
        and _name != "git_error"
        and isinstance(_fn, types.FunctionType)
        and _fn.__module__ == __name__
    ):
        globals()[_name] = _translated(_fn)
