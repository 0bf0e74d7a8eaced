"""The repository's own git settings: keys of `.git/config`, the folder git runs hooks from, and
paths ignored in this clone only (`info/exclude`)."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from repomem.vcs.gitpython import _repo, _translate_public, git_error

log = logging.getLogger(__name__)


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


def config_scope(root: Path, key: str) -> str | None:
    """Which git config file gives `key` its value for this repository ("local", "worktree",
    "global", "system" or "command"; None when unset or without git)."""
    repo = _repo(root)
    if repo is None:
        return None
    try:
        out: str = repo.git.config("--show-scope", "--get", key)
    except git_error():
        return None
    return out.partition("\t")[0] or None


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


_translate_public(globals(), __name__)
