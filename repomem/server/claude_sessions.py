"""Claude Code sessions recorded in the project memory (`repomem claude-hook --record-sessions`).

A repomem session (`repomem.memory.session`) records what one stretch of work changed; these
hooks open and close one for each Claude Code session, so that no one has to call `repomem
session start/end`:

- `SessionStart` after a start, `/clear` or a compaction (not a resume or fork): when no session
  is open in this work tree, one is opened with agent `claude-code`, its record naming the
  Claude session (`owner`), its transcript and the process that ran the hook
  (`claude_liveness.notes`). A session open already, opened by hand or for another Claude
  session (two in one work tree), is left alone: only its owner ends it, unless that Claude
  session is evidently gone (`_take_over`, below).
- A prompt that reads like a task: the session this Claude session owns gets its title from the
  prompt if it has none; and when none is open (the other Claude session has ended since, a
  resumed conversation, a session ended by hand), one is opened for this Claude session.
- Either of the two, from another Claude session than the owner of the open session: when
  Claude Code fired no `SessionEnd` for the owner (the VS Code extension's `/clear`, a crash),
  and it is evidently gone (`claude_liveness.gone`: its process exited, its transcript has been
  idle for half an hour, or it never did anything), its session is set aside as at its
  `SessionEnd`, ending where the owner was last seen, and `finish`ed; then this Claude
  session's opens.
- `SessionEnd` (an exit, `/clear`, a logout): the session this Claude session owns is set aside
  at once (so the `SessionStart` of `/clear`, which follows, opens the next one) and `finish`ed
  in the background: Claude Code gives `SessionEnd` hooks 1.5 s unless configured otherwise,
  and has exited without waiting for them. A session that changed nothing (no commit, no file,
  no fact credited to it) is dropped; else its entry is added to the memory file, summarised by
  the last message the assistant wrote (`summary_from`, redacted) or, failing that, by its
  commits and files.
"""

from __future__ import annotations

import json
import logging
import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from repomem import fsutil
from repomem.config import Config
from repomem.fsutil import FileLock, ReentrantFileLock
from repomem.memory import session_record
from repomem.memory.session_record import open_session
from repomem.server import claude_liveness

if TYPE_CHECKING:
    from repomem.memory import compact
    from repomem.memory.model import Session
    from repomem.server.claude_hooks import HookInput

# `repomem.memory.session` and `ops` (the secret filter, the parser, GitPython when a session
# opens) are imported where a session is opened, titled or ended: a prompt in a session that
# has its title reads the record only, on every task-like prompt

log = logging.getLogger(__name__)

AGENT = "claude-code"
# SessionStart sources that open a session (a resume or fork continues a conversation)
OPENING = ("startup", "clear", "compact", "")
ENDED_PREFIX = "claude-ended-"  # <state dir>/claude-ended-<session id>.json: set aside, to finish
FINISH_LOCK = "claude-finish.lock"
# a hook waits this long for the open session's lock (the prompt waits for the hook), then
# gives up: the session it would open, title or set aside is left to a later hook
LOCK_SECONDS = 5.0
FINISH_LOCK_SECONDS = 120.0
# a set-aside session older than this was not finished (its process died): the next start
# finishes it (a younger one is likely still being finished)
RETRY_SECONDS = 120.0
TITLE_CHARS = 80
SUMMARY_CHARS = 800
TAIL_BYTES = 4 << 20  # of the transcript, where its last messages are
# of a prompt, redacted for its title (a secret's end may be needed to find it: a PEM block)
TASK_CHARS = 20_000


def _state(cfg: Config) -> Path:
    from repomem.index.state import state_dir

    return state_dir(cfg)


def _lock(cfg: Config) -> ReentrantFileLock:
    """The lock under which the hooks read, change and write the open session's record: the
    one `session` start, note, set_aside and end take, taken again at once when they do it
    under this (`session_record.lock`). With a lock of their own, a hook read a session that a
    `session end` in another process then recorded, and titled, noted or set aside a session
    that was gone (or one opened by hand since)."""
    return session_record.lock(cfg, LOCK_SECONDS)


def _owned(record: dict[str, Any] | None, claude: str) -> bool:
    return bool(claude) and record is not None and record.get("owner") == claude


@dataclass(frozen=True)
class Recorded:
    """What a start or a task prompt did to the open session: `record`, the session this
    Claude session owns (None: a resume, or another Claude session's is open); `set_aside`,
    where the session of an owner evidently gone was put, to be `finish`ed (else None)."""

    record: dict[str, Any] | None
    set_aside: Path | None = None


def started(cfg: Config, hook: HookInput) -> Recorded:
    """At `SessionStart`: the session opened for this Claude session (none for a resume; one
    open already is left alone unless its owner is gone: `_take_over`).

    Raises:
        RepomemError: when the record cannot be written or its lock is held too long.
    """
    if not hook.session:
        return Recorded(None)
    with _lock(cfg):
        record = open_session(cfg)
        aside = _take_over(cfg, record, hook)
        if aside is not None:
            record = None
        if hook.source not in OPENING:
            return Recorded(None, aside)
        if record is not None:
            owned = _seen_again(cfg, record, hook) if _owned(record, hook.session) else None
            return Recorded(owned, aside)
        return Recorded(_open(cfg, hook, ""), aside)


def prompted(cfg: Config, hook: HookInput, task: str) -> Recorded:
    """At a prompt that reads like a task (`task`, its text): the session this Claude session
    owns, titled from it if untitled, or opened with that title when none is open (or its
    owner is gone: `_take_over`); no record when another owns the open one.

    Raises:
        RepomemError: when the record cannot be written or its lock is held too long.
    """
    if not hook.session:
        return Recorded(None)
    with _lock(cfg):
        record = open_session(cfg)
        aside = _take_over(cfg, record, hook)
        if record is None or aside is not None:
            return Recorded(_open(cfg, hook, title_from(cfg, task)), aside)
        if not _owned(record, hook.session):
            return Recorded(None)
        record = _seen_again(cfg, record, hook)
        title = "" if record.get("title") else title_from(cfg, task)
        if not title:
            return Recorded(record)
        from repomem.memory import session

        return Recorded(session.retitle(cfg, title))


def _open(cfg: Config, hook: HookInput, title: str) -> dict[str, Any]:
    from repomem.memory import session

    notes = claude_liveness.notes(hook)
    record = session.start(cfg, title, agent=AGENT, owner=hook.session, notes=notes)
    log.info("opened session %s for Claude session %s", record["id"], hook.session)
    return record


def _seen_again(cfg: Config, record: dict[str, Any], hook: HookInput) -> dict[str, Any]:
    """The owner's record, with what another of its hooks tells (`claude_liveness.seen_again`)."""
    fields = claude_liveness.seen_again(record, hook)
    if not fields:
        return record
    from repomem.memory import session

    return session.note(cfg, **fields)


def ended(cfg: Config, hook: HookInput) -> Path | None:
    """At `SessionEnd`: set the session this Claude session owns aside, to be `finish`ed;
    where it was put, or None (none owned).

    Raises:
        RepomemError: when the record cannot be moved or its lock is held too long.
    """
    if not hook.session:
        return None
    with _lock(cfg):
        record = open_session(cfg)
        if not _owned(record, hook.session):
            return None
        assert record is not None
        return _set_aside(cfg, record, transcript=hook.transcript, end_reason=hook.reason)


def _take_over(cfg: Config, record: dict[str, Any] | None, hook: HookInput) -> Path | None:
    """The open session (`record`, read under the lock) of another Claude session than this
    one (`hook`'s), set aside to be `finish`ed when its owner is evidently gone
    (`claude_liveness.gone`), ending where the owner was last seen; where it was put, or None
    (left alone)."""
    owner = record.get("owner") if record is not None and not record.get("corrupt") else ""
    if record is None or not owner or owner == hook.session:
        return None
    gone = claude_liveness.gone(record, hook, task=hook.event == "UserPromptSubmit")
    if gone is None:
        return None
    log.info("Claude session %s is gone (%s): its session %s ends", owner, gone.why,
             record["id"])  # fmt: skip
    path, _ = claude_liveness.transcript_of(record, hook)
    return _set_aside(cfg, record, ended=gone.since, transcript=str(path or ""),
                      end_reason=f"gone: {gone.why}")  # fmt: skip


def _set_aside(cfg: Config, record: dict[str, Any], **fields: Any) -> Path:
    """Set the open session (`record`) aside, where `finish` finds it (the lock held)."""
    from repomem.memory import session

    dest = _state(cfg) / f"{ENDED_PREFIX}{record['id']}.json"
    session.set_aside(cfg, dest, **fields)
    return dest


def pending(cfg: Config, older_than: float = 0.0) -> list[Path]:
    """The sessions set aside and not finished yet (those older than `older_than` seconds)."""
    now = time.time()
    out = []
    for path in sorted(_state(cfg).glob(f"{ENDED_PREFIX}*.json")):
        try:
            if now - path.stat().st_mtime >= older_than:
                out.append(path)
        except OSError:
            continue  # finished meanwhile
    return out


@dataclass(frozen=True)
class Finished:
    """One set-aside session finished: recorded (`entry`), or dropped (None)."""

    id: str
    entry: Session | None


def finish(cfg: Config, summarizer: compact.Summarizer | None = None) -> list[Finished]:
    """Record the sessions set aside (one that changed nothing is dropped), oldest first.

    Raises:
        RepomemError: when the memory file cannot be written (what is left stays set aside,
        for the next start to finish).
    """
    from repomem.memory import access, session

    out: list[Finished] = []
    with FileLock(_state(cfg) / FINISH_LOCK, FINISH_LOCK_SECONDS):
        for path in pending(cfg):
            try:
                record = json.loads(path.read_text(encoding="utf-8"))
                if not isinstance(record, dict) or not isinstance(record.get("id"), str):
                    raise ValueError("not a session record")
            except FileNotFoundError:
                continue  # finished by another
            except (OSError, ValueError) as exc:
                log.warning("dropped the unreadable session record `%s`: %s", path, exc)
                path.unlink(missing_ok=True)
                continue
            changed = session.changes(cfg, record)
            source = f"session {record['id']}"
            learned = any(f.source == source for f in access.load(cfg).facts())
            if changed.empty and not learned:
                path.unlink(missing_ok=True)
                out.append(Finished(record["id"], None))
                continue
            summary = summary_from(cfg, Path(record.get("transcript") or ""))
            res = session.end(
                cfg, record=record, changed=changed, summary=summary, summarizer=summarizer
            )
            path.unlink(missing_ok=True)
            out.append(Finished(record["id"], res.session))
    return out


def finish_later(cfg: Config) -> None:
    """Start `finish` in a process of its own, which outlives the hook (Claude Code kills a
    `SessionEnd` hook that runs long, and may exit first); its output goes to the hooks' log.

    Raises:
        OSError: when the process cannot start or the log cannot be written.
    """
    from repomem import hooks

    what = "claude-hook: recording the sessions that ended"
    hooks.start_background(cfg, ["claude-hook", "--finish-sessions"], what)


# ------------------------------------------------------------------- titles and summaries


def _cut(text: str, limit: int) -> str:
    """`text` (one line) within `limit` characters, cut at a word, `…` marking the cut."""
    if len(text) <= limit:
        return text
    head = text[: limit - 1]
    space = head.rfind(" ")
    if space > limit // 2:
        head = head[:space]
    return head.rstrip(" ,;:-") + "…"


def title_from(cfg: Config, task: str) -> str:
    """A session's title from its task: one line, redacted, within `TITLE_CHARS`."""
    from repomem.memory import ops

    return _cut(fsutil.one_line(ops.redacted(cfg, task[:TASK_CHARS], prose=True)), TITLE_CHARS)


_FENCE = re.compile(r"^\s*(```|~~~)")
_HEADING = re.compile(r"^\s*#{1,6}\s+")
_END = re.compile(r"(?<=[.!?])\s|\n")  # where a sentence or a line ends


def summary_from(cfg: Config, transcript: Path) -> str:
    """The last message the assistant wrote in `transcript`, redacted, its code blocks and the
    marks of its Markdown headings left out, within `SUMMARY_CHARS` (cut where a sentence or
    line ends); "" when there is none."""
    from repomem.memory import ops

    lines: list[str] = []
    fenced = False
    for line in ops.redacted(cfg, last_message(transcript), prose=True).splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and line.strip():
            lines.append(_HEADING.sub("", line))
    text = "\n".join(lines).strip()
    if len(text) > SUMMARY_CHARS:
        ends = [m.start() for m in _END.finditer(text, 0, SUMMARY_CHARS)]
        cut = max((e for e in ends if e >= SUMMARY_CHARS // 3), default=0)
        text = text[: cut + 1] if cut else _cut(fsutil.one_line(text), SUMMARY_CHARS)
    return fsutil.one_line(text)


def last_message(transcript: Path) -> str:
    """The text of the last message the assistant wrote in a Claude Code transcript ("" when
    there is none or it cannot be read).

    The transcript is JSON Lines; an assistant message is a line `{"type": "assistant",
    "message": {"id": ..., "content": [{"type": "text", "text": ...}, ...]}}` (its content blocks
    may come one a line, with one `message.id`). Left out: a subagent's (`isSidechain`), an API
    error (`isApiErrorMessage`) and what Claude Code writes itself (model `<synthetic>`).
    """
    try:
        with transcript.open("rb") as f:
            size = f.seek(0, 2)
            f.seek(max(0, size - TAIL_BYTES))
            tail = f.read()
    except (OSError, ValueError):
        return ""
    lines = tail.split(b"\n")
    if len(tail) < size:
        lines = lines[1:]  # the first is cut
    parts: list[str] = []
    wanted: object = None  # the id of the message whose blocks are gathered
    for raw in reversed(lines):
        message = _assistant_message(raw)
        if message is None:
            if parts:
                break
            continue
        if parts and message.get("id") != wanted:
            break
        text = _text_of(message.get("content"))
        if text:
            parts.append(text)
            wanted = message.get("id")
            if wanted is None:
                break  # no id to gather more blocks by
    return "\n".join(reversed(parts)).strip()


def _assistant_message(raw: bytes) -> dict[str, Any] | None:
    try:
        entry = json.loads(raw)
    except ValueError:
        return None
    if not isinstance(entry, dict) or entry.get("type") != "assistant":
        return None
    if entry.get("isSidechain") or entry.get("isApiErrorMessage"):
        return None
    message = entry.get("message")
    if not isinstance(message, dict) or message.get("model") == "<synthetic>":
        return None
    return message


def _text_of(content: object) -> str:
    if isinstance(content, str):
        return content.strip()
    if not isinstance(content, list):
        return ""
    texts = [
        b["text"].strip()
        for b in content
        if isinstance(b, dict) and b.get("type") == "text" and isinstance(b.get("text"), str)
    ]
    return "\n".join(t for t in texts if t)
