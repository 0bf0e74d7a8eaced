"""The open session's record (`<state dir>/session.json`): where it lives and how it is read.

Apart from `repomem.memory.session`, which imports what opening and ending a session need (the
secret filter, the parser, git): a Claude Code hook reads the record on every prompt that reads
like a task, and most of those prompts change nothing in it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from repomem.config import Config


def record_path(cfg: Config) -> Path:
    """Where the open session's record is (local to the clone, or to the worktree)."""
    from repomem.index.state import state_dir

    return state_dir(cfg) / "session.json"


def open_session(cfg: Config) -> dict[str, Any] | None:
    """The open session's start record, or None."""
    path = record_path(cfg)
    try:
        data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError):
        # A torn record (crash mid-write is prevented by atomic_write, but a hand edit is not)
        return {
            "id": "s-unknown",
            "title": "(unreadable session record)",
            "started": "",
            "head": None,
            "branch": "",
            "dirty": {},
            "corrupt": True,
        }
    return data
