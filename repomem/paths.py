"""The one check for a path someone hands repomem: it must stay inside the repository.

Used for MCP clients (untrusted: relative paths only), citations and note paths from the CLI
(an absolute path inside the repository is fine there). A path must not climb out with `..` or
reach outside through a symlink, and credential files are refused, since repomem never reads
them. Also the other way round: a repository path as a gitignore/gitattributes pattern.
"""

from __future__ import annotations

import os
import posixpath
import re
from pathlib import Path, PurePosixPath

from repomem import secrets
from repomem.config import Config
from repomem.errors import InputError
from repomem.fsutil import echo, nfc, utf8_name

_DRIVE = re.compile(r"^[A-Za-z]:")


def confine(cfg: Config, raw: str, *, what: str = "path", allow_absolute: bool = False) -> str:
    """`raw` as a repository-relative POSIX path that stays inside the repository.

    With `allow_absolute` (people on the command line), an absolute path inside the
    repository is taken as the path relative to its root.

    Raises:
        InputError: for an empty, absolute (unless allowed) or `..` path, a path inside `.git`,
            a symlink that points outside the repository, or a credential file.
    """
    text = raw.strip()
    if not text:
        raise InputError(f"The {what} is empty; give a path relative to the repository root.")
    if "\x00" in text:
        raise InputError(
            f"The {what} `{echo(repr(raw))}` contains a NUL byte; give a plain relative path."
        )
    if not utf8_name(text):
        raise InputError(
            f"The {what} {echo(ascii(raw))} is not a UTF-8 name; rename the file to cite or "
            "read it."
        )
    if allow_absolute and Path(text).expanduser().is_absolute():
        text = _inside(cfg, Path(text).expanduser(), raw, what)
    unified = text.replace("\\", "/")
    if unified.startswith(("/", "~")) or _DRIVE.match(unified):
        raise InputError(
            f"The {what} `{echo(raw)}` is absolute; give a path relative to the repository root."
        )
    parts = PurePosixPath(unified).parts
    if ".." in parts:
        raise InputError(
            f"The {what} `{echo(raw)}` climbs out with `..`; give a path inside the repository."
        )
    rel = posixpath.normpath(unified)
    if len(rel.encode()) > 4096 or any(len(p.encode()) > 255 for p in parts):
        raise InputError(
            f"The {what} `{echo(raw)}` is longer than a file system allows; give a path "
            f"inside the repository."
        )
    if rel in (".", ""):
        raise InputError(f"The {what} `{echo(raw)}` names the repository root; give a file in it.")
    root = cfg.root.resolve()
    try:
        full = (root / rel).resolve()
    except (OSError, RuntimeError) as exc:  # a symlink loop, a folder that cannot be read
        why = getattr(exc, "strerror", None) or exc
        raise InputError(
            f"The {what} `{echo(raw)}` cannot be resolved ({why}); give a path inside the "
            f"repository."
        ) from exc
    if full != root and root not in full.parents:
        raise InputError(
            f"The {what} `{echo(raw)}` leads outside the repository (through a symlink); "
            f"give a path inside it."
        )
    if ".git" in PurePosixPath(rel).parts or ".git" in full.relative_to(root).parts:
        raise InputError(
            f"The {what} `{echo(raw)}` is inside `.git` (git's own data, also through a symlink); "
            f"give a file of the work tree."
        )
    rel = on_disk(root, rel)
    target = full.relative_to(root).as_posix() if full != root else rel
    if secrets.is_secret_file(rel) or secrets.is_secret_file(target):
        # `src/settings.py -> ../.env`: the link's target decides
        raise InputError(f"`{echo(rel)}` is a credential file; repomem never reads or shows it.")
    return rel


def on_disk(root: Path, rel: str) -> str:
    """`rel` as the work tree spells it: a component that is not in its folder is replaced by
    the one that is the same name in another Unicode normal form (`café.py` typed composed,
    written decomposed). Unchanged when nothing there matches."""
    if rel.isascii() or os.path.lexists(root / rel):
        return rel
    parts = rel.split("/")
    for i, part in enumerate(parts):
        folder = root.joinpath(*parts[:i])
        if part.isascii() or os.path.lexists(folder / part):
            continue
        try:
            names = os.listdir(folder)
        except OSError:  # not a folder, or not readable: the rest cannot be matched either
            return rel
        same = [n for n in names if nfc(n) == nfc(part)]
        if len(same) != 1:
            return rel
        parts[i] = same[0]
    return "/".join(parts)


def _inside(cfg: Config, path: Path, raw: str, what: str) -> str:
    """An absolute path as relative to the repository root (the root's own symlinks allowed)."""
    for root in (cfg.root, cfg.root.resolve()):
        try:
            return path.relative_to(root).as_posix()
        except ValueError:
            continue
    try:
        return path.resolve().relative_to(cfg.root.resolve()).as_posix()
    except (ValueError, OSError, RuntimeError):
        raise InputError(
            f"The {what} `{echo(raw)}` is outside the repository `{cfg.root}`; give a path "
            "inside it."
        ) from None


def confine_glob(pattern: str) -> str:
    """A path glob that cannot name anything outside the repository.

    Raises:
        InputError: for an absolute glob, one with `..` or a NUL byte.
    """
    if "\x00" in pattern:
        raise InputError(
            f"The path glob `{echo(repr(pattern))}` contains a NUL byte; give a plain glob like "
            f"`src/**/*.py`."
        )
    unified = pattern.strip().replace("\\", "/")
    if unified.startswith("/") or _DRIVE.match(unified) or ".." in unified.split("/"):
        raise InputError(
            f"The path glob `{echo(pattern)}` is absolute or climbs out with `..`; use a glob "
            f"relative to the repository root, like `src/**/*.py`."
        )
    return unified


def check_glob(pattern: str) -> str:
    """`pattern`, a path glob (`fnmatch`), if every `[` in it opens a set that is closed.

    `fnmatch` takes an unclosed `[` as a literal bracket, so `[[` or `src/[ab.py` would
    silently match nothing a user meant.

    Raises:
        InputError: for a `[` that is never closed.
    """
    i, n = 0, len(pattern)
    while i < n:
        i += 1
        if pattern[i - 1] != "[":
            continue
        j = i  # as fnmatch scans: a `!` first negates, and a `]` first is a member
        if j < n and pattern[j] == "!":
            j += 1
        if j < n and pattern[j] == "]":
            j += 1
        end = pattern.find("]", j)
        if end < 0:
            raise InputError(
                f"The path glob `{echo(pattern)}` has a `[` that is never closed; close the set "
                f"(`[ab]`), or write `[[]` for a literal `[`."
            )
        i = end + 1
    return pattern


def root_pattern(rel: str) -> str:
    """A gitignore/gitattributes pattern for exactly `rel` (relative to the root): anchored
    with `/`, its wildmatch characters (`*?[]\\`) escaped."""
    return "/" + re.sub(r"([*?\[\]\\])", r"\\\1", rel)
