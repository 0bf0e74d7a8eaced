"""What changed in the files: between two commits, a commit and the work tree, or one commit and
its parent; a file's bytes at a commit; where a renamed file went."""

from __future__ import annotations

import logging
from pathlib import Path

from repomem.vcs.files import list_files
from repomem.vcs.gitpython import _repo, _translate_public, git_error
from repomem.vcs.location import head

log = logging.getLogger(__name__)


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


_translate_public(globals(), __name__)
