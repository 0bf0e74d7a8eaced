"""The open session's record (`<state dir>/session.json`): where it lives, how it is read, and
the one lock over it.

Apart from `repomem.memory.session`, which imports what opening and ending a session need (the
secret filter, the parser, git): a Claude Code hook reads the record on every prompt that reads
like a task, and most of those prompts change nothing in it.

The lock (`session.lock`) is held from the read of the record to the last write that follows
from it: by `session` start, note, set_aside, discard and end, and by the Claude Code hooks
(`repomem.server.claude_sessions`) around their whole decision, which calls those. One lock,
taken again at once by the thread that holds it (`ReentrantFileLock`), so that a hook that read
the record cannot write after a `session end` in another process or thread changed it, and
no call waits for a lock its own caller holds. Its name is the one `session` start and end
have always taken: a repomem from before the hooks took it too (an MCP server started before
an upgrade, still answering `session_end`) keeps out of the way of this one, and this one out
of its way.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from repomem import fsutil
from repomem.config import Config
from repomem.fsutil import ReentrantFileLock

LOCK = "session.lock"


def record_path(cfg: Config) -> Path:
    """Where the open session's record is (local to the clone, or to the worktree)."""
    from repomem.index.state import state_dir

    return state_dir(cfg) / "session.json"


def lock(cfg: Config, timeout: float | None = None) -> ReentrantFileLock:
    """The lock over the open session's record (see the module's doc), waited for up to
    `timeout` seconds (the configured lock timeout by default; a hook, which the prompt waits
    for, waits less)."""
    wait = cfg.index.lock_timeout if timeout is None else timeout
    return ReentrantFileLock(record_path(cfg).with_name(LOCK), wait)


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
    for key in ("title", "agent"):
        # an older repomem kept half a UTF-16 pair sent over MCP, which the file cannot hold
        if isinstance(data.get(key), str):
            data[key] = fsutil.valid_text(data[key])
    return data
