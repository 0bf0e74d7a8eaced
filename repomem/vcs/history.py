"""The commits: ranges of the log, messages with the files each commit changed, a file's
history, ancestry, and HEAD's reflog (how many entries it held when, the commits made in this
checkout)."""

from __future__ import annotations

import codecs
import logging
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repomem.vcs.gitpython import _repo, _translate_public, git_error
from repomem.vcs.location import head

log = logging.getLogger(__name__)


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
    commit amended later, or that no branch, tag or HEAD reaches any more (reset away), is
    left out. None when the reflog cannot tell (absent, or expired
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
    logged: str = repo.git.log("--no-walk=unsorted", "--format=%H%x00%ct%x00%s", *made)
    rows = [ln.split("\0", 2) for ln in logged.splitlines()]
    by_sha = {sha: subject for sha, _, subject in rows}
    times = [int(when) for _, when, _ in rows]
    # a commit reset away (or left behind on a detached HEAD) is no longer in the history:
    # only those that a branch, a tag or HEAD still reaches count; walked back to the oldest
    # of them only (their commit times, not the whole history)
    reached = set(repo.git.rev_list("--all", f"--since={min(times, default=0) - 1}").split())
    return [(sha, by_sha.get(sha, "")) for sha in made if sha in reached]


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


@dataclass(frozen=True)
class Commit:
    """A commit's message and the files it changed."""

    sha: str
    when: int  # commit time, seconds since the epoch
    message: str
    files: tuple[str, ...]


def commit_log(
    root: Path, *, since: str | None = None, limit: int = 20000, files: bool = True
) -> list[Commit]:
    """The last `limit` non-merge commits on HEAD (not reachable from `since`), newest first;
    without `files`, their messages only (as `commits_named`).

    A history cut short (a shallow clone, objects missing from a partial one) gives the commits
    git could read before it stopped. Messages are decoded as UTF-8 with replacement characters.
    """
    repo = _repo(root)
    if repo is None or head(root) is None or limit <= 0:
        return []
    rng = f"{since}..HEAD" if since else "HEAD"
    return _read_log(repo, ["--no-merges", f"-n{limit}", rng], files)


SHAS_PER_CALL = 500  # command lines stay short (Windows allows 32,767 characters)


def commits_named(root: Path, shas: Sequence[str], *, files: bool = True) -> list[Commit]:
    """The commits `shas` (full ids that git knows, from `commit_ids`), as `commit_log` reads
    them, in the order given; without `files`, their messages only (no files listed: git
    then compares no trees, a tenth of the time)."""
    repo = _repo(root)
    if repo is None:
        return []
    out: list[Commit] = []
    for i in range(0, len(shas), SHAS_PER_CALL):
        out += _read_log(repo, ["--no-walk=unsorted", *shas[i : i + SHAS_PER_CALL]], files)
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


def _read_log(repo: Any, args: list[str], with_files: bool = True) -> list[Commit]:
    listing = ["--no-renames", "--name-only"] if with_files else []
    cmd = ["git", "-c", "core.quotepath=off", "log", *listing,
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


_translate_public(globals(), __name__)
