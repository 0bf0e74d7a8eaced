"""Opening a session and changing its open record: `start`, `retitle`, `note`, `set_aside`
(the record moved away, with where the session ended) and `discard`, each under the record's
lock."""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.errors import InputError
from repomem.fsutil import ReentrantFileLock, atomic_write, cannot_write
from repomem.memory import model, ops
from repomem.memory.cite import Resolver
from repomem.memory.session.diff import _hash_now
from repomem.memory.session_record import lock as session_lock
from repomem.memory.session_record import open_session
from repomem.memory.session_record import record_path as _state_path


def start(
    cfg: Config,
    title: str = "",
    *,
    agent: str = "",
    owner: str = "",
    notes: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Open a session (`owner`: the client's session it is kept for, see the module's doc;
    `notes`: what the client keeps in the record besides).

    Raises:
        InputError: when one is already open (end or discard it first).
        LockTimeoutError: when another start or end holds the record's lock too long.
    """
    with _lock(cfg):
        return _start(cfg, title, agent, owner, notes)


def _start(
    cfg: Config, title: str, agent: str, owner: str, notes: Mapping[str, Any] | None
) -> dict[str, Any]:
    current = open_session(cfg)
    if current is not None and current.get("owner"):
        # opened by a client's hooks: a model told to start a session should not drop it
        raise InputError(
            f"Session `{current['id']}` is open already, recording {current.get('agent') or 'a'}"
            f" session `{current['owner']}` until it ends; work on, no other session is needed "
            f"(`session end` with a summary ends it now)."
        )
    if current is not None:
        raise InputError(
            f"Session `{current['id']}` ({current.get('title') or 'untitled'}, started "
            f"{current.get('started') or 'at an unknown time'}) is still open; end it with "
            f"`repomem session end` or drop it with `repomem session discard`."
        )
    title = ops.entry_text(cfg, title, "The title")
    agent = ops.entry_text(cfg, agent, "The agent") if agent else agent
    info = vcs.open_repo(cfg.root)
    dirty: dict[str, dict[str, Any]] = {}
    files = Resolver(cfg)
    for rel in vcs.dirty_paths(cfg.root) if info else []:
        dirty[rel] = {"hash": _hash_now(files, rel), "symbols": files.symbol_hashes(rel)}
    now = time.time()  # one time for both: the id names the minute the session started
    record = {
        "id": model.new_session_id(now),
        "title": title,
        "agent": agent,
        "started": model.now_iso(now),
        "head": info.head if info else None,
        "reflog": vcs.reflog_size(cfg.root) if info else None,  # commits made after it are ours
        "branch": (info.branch or "") if info else "",
        "dirty": dirty,
        "pid": os.getpid(),
        **({"owner": owner} if owner else {}),
        **(notes or {}),
    }
    path = _state_path(cfg)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise cannot_write(path.parent, exc) from exc
    atomic_write(path, json.dumps(record, indent=1))
    return record


def _lock(cfg: Config) -> ReentrantFileLock:
    """The lock under which the open session's record is read, changed and written: two
    clients starting (or ending) a session at once would both succeed, one of them on a
    session the other then overwrote (or recorded twice). Taken again at once by a caller
    that holds it already (the Claude Code hooks: `session_record.lock`)."""
    return session_lock(cfg)


def retitle(cfg: Config, title: str) -> dict[str, Any]:
    """Give the open session `title`.

    Raises:
        InputError: when none is open (or its record is unreadable), or `title` holds a secret.
    """
    return note(cfg, title=ops.entry_text(cfg, title, "The title"))


def note(cfg: Config, **fields: Any) -> dict[str, Any]:
    """Add `fields` to the open session's record (a client's notes, see `start`).

    Raises:
        InputError: when none is open (or its record is unreadable).
    """
    with _lock(cfg):
        record = _updated(cfg, "start one with `repomem session start`", fields)
        atomic_write(_state_path(cfg), json.dumps(record, indent=1))
    return record


def _updated(cfg: Config, otherwise: str, fields: dict[str, Any]) -> dict[str, Any]:
    """The open session's record with `fields` added (not written yet).

    Raises:
        InputError: when none is open (or its record is unreadable), saying `otherwise`.
    """
    record = open_session(cfg)
    if record is None or record.get("corrupt"):
        raise InputError(f"No session is open; {otherwise}.")
    record.update(fields)
    return record


def set_aside(
    cfg: Config, dest: Path, *, ended: float | None = None, **fields: Any
) -> dict[str, Any]:
    """Move the open session's record to `dest`, with where it ended (now, or at `ended`
    seconds since the epoch: its time, and HEAD's reflog then) and `fields` added: no session
    is open then, and `end(cfg, record=...)` records this one later, up to its end.

    Raises:
        InputError: when none is open (or its record is unreadable).
    """
    with _lock(cfg):
        record = _updated(cfg, "nothing to set aside", {**fields, **_end_of(cfg.root, ended)})
        path = _state_path(cfg)
        atomic_write(path, json.dumps(record, indent=1))  # then moved whole: never half of it
        try:
            os.replace(path, dest)
        except OSError as exc:
            raise cannot_write(dest, exc) from exc
    return record


def _end_of(root: Path, when: float | None) -> dict[str, Any]:
    """The fields that say where a session ended: `ended` (its time), and `end_reflog` and
    `end_head` (HEAD's reflog size then, and its commit; None without a reflog)."""
    size: int | None = None
    sha: str | None = None
    if when is None:
        size = vcs.reflog_size(root)
        sha = vcs.head(root) if size is not None else None
    else:
        at = vcs.reflog_at(root, when)
        size, sha = at if at is not None else (None, None)
    return {"ended": model.now_iso(when), "end_reflog": size, "end_head": sha}


def discard(cfg: Config) -> dict[str, Any]:
    """Drop the open session without recording it.

    Raises:
        InputError: when none is open.
    """
    with _lock(cfg):
        current = open_session(cfg)
        if current is None:
            raise InputError("No session is open; nothing to discard.")
        with contextlib.suppress(FileNotFoundError):
            _state_path(cfg).unlink()
    return current
