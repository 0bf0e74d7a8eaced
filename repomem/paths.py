"""Confine the paths a client sends to the repository root.

A path from an MCP client is untrusted: it must be relative, must not climb out with `..`, and
must not reach outside the repository through a symlink. Credential files are refused too, since
repomem never reads them.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import PurePosixPath

from repomem import secrets
from repomem.config import Config
from repomem.errors import InputError

_DRIVE = re.compile(r"^[A-Za-z]:")


def confine(cfg: Config, raw: str, *, what: str = "path") -> str:
    """`raw` as a repository-relative POSIX path that stays inside the repository.

    Raises:
        InputError: for an empty, absolute or `..` path, a symlink that points outside the
            repository, or a credential file.
    """
    text = raw.strip()
    if not text:
        raise InputError(f"The {what} is empty; give a path relative to the repository root.")
    if "\x00" in text:
        raise InputError(f"The {what} `{raw!r}` contains a NUL byte; give a plain relative path.")
    unified = text.replace("\\", "/")
    if unified.startswith(("/", "~")) or _DRIVE.match(unified):
        raise InputError(
            f"The {what} `{raw}` is absolute; give a path relative to the repository root."
        )
    parts = PurePosixPath(unified).parts
    if ".." in parts:
        raise InputError(
            f"The {what} `{raw}` climbs out with `..`; give a path inside the repository."
        )
    rel = posixpath.normpath(unified)
    if rel in (".", ""):
        raise InputError(f"The {what} `{raw}` names the repository root; give a file in it.")
    root = cfg.root.resolve()
    full = (root / rel).resolve()
    if full != root and root not in full.parents:
        raise InputError(
            f"The {what} `{raw}` leads outside the repository (through a symlink); "
            f"give a path inside it."
        )
    if secrets.is_secret_file(rel):
        raise InputError(f"`{rel}` is a credential file; repomem never reads or shows it.")
    return rel


def confine_glob(pattern: str) -> str:
    """A path glob that cannot name anything outside the repository.

    Raises:
        InputError: for an absolute glob or one with `..`.
    """
    unified = pattern.strip().replace("\\", "/")
    if unified.startswith("/") or _DRIVE.match(unified) or ".." in unified.split("/"):
        raise InputError(
            f"The path glob `{pattern}` is absolute or climbs out with `..`; use a glob "
            f"relative to the repository root, like `src/**/*.py`."
        )
    return unified
