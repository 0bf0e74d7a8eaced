"""Where a repository's local state lives: its index store (by default), locks, journals and the
hooks' records. Apart from the indexer, so that asking (a Claude Code hook on every prompt, the
memory's sessions) imports neither the indexer nor what it needs."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from repomem import vcs
from repomem.config import Config


def home_dir() -> Path:
    """Per-user state directory (`REPOMEM_HOME`, else the XDG cache dir)."""
    env = os.environ.get("REPOMEM_HOME")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "repomem"


def state_dir(cfg: Config) -> Path:
    """Local directory for the store (by default), its lock and its journal."""
    git_dir = vcs.git_dir(cfg.root)  # no git command: this is asked often
    if git_dir is not None:
        return git_dir / "repomem"
    digest = hashlib.sha1(str(cfg.root.resolve()).encode()).hexdigest()[:12]
    return home_dir() / "stores" / f"{cfg.root.name}-{digest}"
