"""The sessions packed, and those told to run `repomem init` (`claude-sessions.json` in the
index's state folder, a week): read, changed and written under its lock, since the hooks of
two sessions (or two hooks of one) run at once."""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from repomem.errors import RepomemError
from repomem.fsutil import FileLock, atomic_write
from repomem.server.claude_hooks.settings import TIMEOUT_SECONDS

log = logging.getLogger(__name__)

SESSIONS_FILE = "claude-sessions.json"
# 2: the sessions told to run `repomem init` too (1: {session: when} of those packed)
SESSIONS_VERSION = 2
# `STARTED`: sessions whose start printed the digest (a kind an older repomem reads past)
PACKED, HINTED, STARTED = "packed", "hinted", "started"
KINDS = (PACKED, HINTED, STARTED)
SESSIONS_LOCK = "claude-sessions.lock"
LOCK_SECONDS = 5.0
KEEP_SECONDS = 7 * 24 * 3600


Sessions = dict[str, dict[str, float]]  # what happened (`PACKED`, `HINTED`): session -> when


def _read(state: Path) -> Sessions:
    """The sessions' record; empty when missing, damaged or a later repomem's."""
    out: Sessions = {kind: {} for kind in KINDS}
    try:
        data = json.loads((state / SESSIONS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return out
    if not isinstance(data, dict):
        return out
    if "version" not in data:  # version 1: {session: when} of the sessions packed
        data = {"version": SESSIONS_VERSION, PACKED: data}
    if data["version"] != SESSIONS_VERSION:
        return out
    for kind in KINDS:
        times = data.get(kind)
        if isinstance(times, dict):
            out[kind] = {k: float(v) for k, v in times.items() if isinstance(v, int | float)}
    return out


def _write(state: Path, sessions: Sessions) -> None:
    now = time.time()
    data: dict[str, Any] = {"version": SESSIONS_VERSION}
    for kind in KINDS:
        data[kind] = {k: v for k, v in sessions[kind].items() if now - v < KEEP_SECONDS}
    state.mkdir(parents=True, exist_ok=True)
    atomic_write(state / SESSIONS_FILE, json.dumps(data, sort_keys=True) + "\n")


def _remember(state: Path, session: str, kind: str = PACKED) -> bool:
    """Record that `session` was packed (or hinted at); whether it was not yet (True too when
    the record cannot be updated: a hint said twice beats one never said)."""
    first = True

    def add(sessions: Sessions) -> bool:
        nonlocal first
        first = session not in sessions[kind]
        sessions[kind][session] = time.time()
        return first  # else nothing to write

    _update(state, add)
    return first


def _started(state: Path, session: str) -> bool:
    """A session's conversation starts over: its next task gets a pack (or the hint) again;
    whether this hook prints the digest (False when another hook of the same start claimed it:
    Claude Code starts the hooks of one event together, and ends each after `TIMEOUT_SECONDS`,
    so an older claim is an earlier start's, a compaction's say)."""
    first = True

    def start(sessions: Sessions) -> bool:
        nonlocal first
        now = time.time()
        claimed = sessions[STARTED].get(session)
        first = not session or claimed is None or not 0 <= now - claimed < TIMEOUT_SECONDS
        dropped = [sessions[kind].pop(session, None) for kind in (PACKED, HINTED)]
        if first and session:
            sessions[STARTED][session] = now
        return (first and bool(session)) or any(when is not None for when in dropped)

    _update(state, start)
    return first


def _forget(state: Path, session: str, kinds: Sequence[str]) -> None:
    """A claim given back: `kinds` of what happened to `session` are forgotten."""

    def drop(sessions: Sessions) -> bool:
        dropped = [sessions[kind].pop(session, None) for kind in kinds]
        return any(when is not None for when in dropped)

    if any(session in _read(state)[kind] for kind in kinds):  # else nothing to write
        _update(state, drop)


def _update(state: Path, change: Callable[[Sessions], bool]) -> None:
    """Read, `change` and write the sessions' record under its lock (hooks of two sessions
    run at once). A record that cannot be written costs a second pack later, so it is
    logged, and the hook's output is printed all the same."""
    try:
        with FileLock(state / SESSIONS_LOCK, LOCK_SECONDS):
            sessions = _read(state)
            if change(sessions):
                _write(state, sessions)
    except RepomemError as exc:
        log.warning("the Claude sessions' record was not updated: %s", exc)
