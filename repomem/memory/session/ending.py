"""Ending a session: its entry added to the memory file with the learned facts and next steps,
older sessions compacted; an end that finds the session recorded already (`recorded`) only
removes its record."""

from __future__ import annotations

import contextlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.errors import InputError
from repomem.memory import access, compact, model, ops
from repomem.memory.file import MemoryDoc
from repomem.memory.model import Session
from repomem.memory.session.diff import Changes, changes
from repomem.memory.session.opening import _lock
from repomem.memory.session_record import open_session
from repomem.memory.session_record import record_path as _state_path
from repomem.plural import counted


def _fallback_summary(ch: Changes) -> str:
    parts: list[str] = []
    if ch.commits:
        subjects = "; ".join(c.split(" ", 1)[1] if " " in c else c for c in ch.commits[:5])
        more = f" and {len(ch.commits) - 5} more" if len(ch.commits) > 5 else ""
        parts.append(f"{counted(len(ch.commits), 'commit')}: {subjects}{more}.")
    touched = len(ch.added) + len(ch.modified) + len(ch.deleted) + len(ch.renamed)
    if touched:
        parts.append(f"{counted(touched, 'file')} changed.")
    return " ".join(parts) or "No changes recorded."


@dataclass
class EndResult:
    session: Session
    learned: list[ops.Outcome]
    compacted: int
    version: int
    # where the memory held the session already (an end that stopped before removing its
    # record): "Sessions", or the id of the History entry it was folded into; "" if added now
    already: str = ""


def recorded(doc: MemoryDoc, record: Mapping[str, Any]) -> tuple[Session, str] | None:
    """The entry `doc` holds already for the session of `record`, and where (as
    `EndResult.already`); None when it holds none.

    It is held under the record's id, or under the id of its own (`own_id`) an end gave it
    when another session held that one. The same session is the same start: its time, agent
    and HEAD. One folded into History keeps its id alone there: an id made at the start
    (`model.new_session_id`) names the minute it started, which must be the record's (another
    session the same day is another minute); any other id, the day it started must lie within
    the entry's span. A torn record (no start to compare) is never recorded already: its id
    names no session.
    """
    sid, started = record.get("id"), record.get("started")
    if record.get("corrupt") or not isinstance(sid, str) or not isinstance(started, str):
        return None
    if not started:  # (a hand-made record): no start to compare
        return None
    start = (started, record.get("agent") or "", (record.get("head") or "")[:12])
    for candidate in dict.fromkeys(filter(None, (sid, own_id(record)))):
        entry = doc.find(candidate)
        if entry is not None:
            s = entry.item
            if isinstance(s, Session) and (s.started, s.agent, s.start_head) == start:
                return s, "Sessions"
            continue  # another session's entry under this id
        for h in doc.history():
            if candidate in h.sessions and _started_within(candidate, started, h.span):
                folded = _entry(record, Changes(), f"Folded into History `{h.id}`.", None)
                folded.id = candidate
                return folded, h.id
    return None


def _started_within(sid: str, started: str, span: str) -> bool:
    """Whether the session `sid` folded into a History entry spanning `span` can be the one
    that started at `started` (see `recorded`)."""
    names = model.session_id_names(sid, started)
    if names is not None:
        return names
    first, _, last = span.partition(" .. ")
    return not span or first <= started[:10] <= (last or first)


def own_id(record: Mapping[str, Any]) -> str | None:
    """The id of its own a session gets when another session holds its record's id: drawn
    from its start, so that an end run again finds it (None: a record without a start)."""
    when = model.epoch(record.get("started"))
    if when is None:
        return None
    seed = "\0".join(str(record.get(k) or "") for k in ("id", "started", "agent", "head"))
    return model.new_session_id(when, seed)


def already_note(res: EndResult, given: bool) -> str:
    """What to tell of an end that found its session recorded already (`res.already`);
    `given`: a summary, facts or next steps were given, which are not added then."""
    where = "in Sessions" if res.already == "Sessions" else f"in History `{res.already}`"
    text = (
        f"Session `{res.session.id}` was recorded already ({where}) by an end that stopped "
        f"before removing its record; the record is removed now and nothing was added"
    )
    if given:
        text += (
            ": the summary, facts and next steps given now are not recorded (add facts with "
            "`repomem remember`, steps with `repomem memory next`)"
        )
    return text + "."


def _entry(record: Mapping[str, Any], ch: Changes, summary: str, end_head: str | None) -> Session:
    """The entry of the session of `record` with its changes `ch`."""
    return Session(
        id=record["id"],
        title=record.get("title") or "",
        summary=summary or _fallback_summary(ch),
        started=record.get("started") or model.now_iso(),
        start_head=(record.get("head") or "")[:12],
        branch=record.get("branch") or "",
        ended=str(record.get("ended") or model.now_iso()),
        end_head=(end_head or "")[:12],
        agent=record.get("agent") or "",
        commits=ch.commits,
        added=ch.added,
        modified=ch.modified,
        deleted=ch.deleted,
        renamed=ch.renamed,
        symbols=ch.symbols,
    )


def end(
    cfg: Config,
    *,
    summary: str = "",
    learned: list[str] | None = None,
    next_steps: list[str] | None = None,
    summarizer: compact.Summarizer | None = None,
    record: dict[str, Any] | None = None,
    changed: Changes | None = None,
) -> EndResult:
    """Close the open session (or `record`, one `set_aside`, which leaves the open one
    alone): compute its changes (unless `changed` gives them), add its entry and learned
    facts, compact older sessions when the log is over its size threshold. A session the
    memory holds already (`recorded`) is not added again (see the module's doc).

    Raises:
        InputError: when no session is open, or a learned fact holds a secret.
    """
    args = (summary, learned, next_steps, summarizer, changed)
    if record is not None:  # set aside: the open session's record is not touched
        return _end(cfg, record, *args)
    with _lock(cfg):
        res = _end(cfg, open_session(cfg), *args)
        with contextlib.suppress(FileNotFoundError):
            _state_path(cfg).unlink()
    return res


def _end(
    cfg: Config,
    record: dict[str, Any] | None,
    summary: str,
    learned: list[str] | None,
    next_steps: list[str] | None,
    summarizer: compact.Summarizer | None,
    changed: Changes | None,
) -> EndResult:
    if record is None:
        raise InputError("No session is open; start one with `repomem session start`.")
    doc = access.load(cfg)
    done = recorded(doc, record)  # by an end that died before removing the record
    if done is not None:  # (checked before the work of computing the changes)
        return EndResult(done[0], [], 0, doc.version, already=done[1])
    summary = ops.entry_text(cfg, summary, "The summary")
    texts = [ops.entry_text(cfg, t) for t in (learned or []) if t.strip()]
    steps = [ops.entry_text(cfg, t, "The next step") for t in (next_steps or []) if t.strip()]
    ch = changed or (changes(cfg, record) if not record.get("corrupt") else Changes())
    info = vcs.open_repo(cfg.root)
    end_head = info.head if info else None
    if isinstance(record.get("end_reflog"), int):  # set aside: counted up to where it ended
        end_head = record.get("end_head")
    sess = _entry(record, ch, summary, end_head)
    outcomes: list[ops.Outcome] = []
    with access.editing(cfg) as doc:
        done = recorded(doc, record)  # and again under the memory's lock
        if done is not None:
            return EndResult(done[0], [], 0, doc.version, already=done[1])
        taken = access.entry_ids(doc)  # History's sessions too: a merge tells ids apart
        if record.get("corrupt"):  # `s-unknown`: each branch's would be one entry two ways
            sess.id = model.new_session_id()
        elif sess.id in taken:  # another session's id
            sess.id = own_id(record) or model.new_session_id()
        while sess.id in taken:
            sess.id = model.new_session_id()
        for text in texts:
            outcomes.append(ops.remember(cfg, text, source=f"session {sess.id}", doc=doc))
        # facts recorded during the session (`remember` credits the open session) count too
        during = _recorded_during(doc, record["id"])
        for f in during:
            if sess.id != record["id"]:  # recorded under an id of its own: they name it
                f.source = f"session {sess.id}"
                doc.touch(f)
        ids = [*(f.id for f in during), *(o.fact.id for o in outcomes)]
        sess.learned = list(dict.fromkeys(ids))
        doc.add(sess)
        if steps:
            current = doc.next_steps()
            for text in steps:  # as `memory next` adds one
                ops.merge_step(current, text)
            doc.set_next_steps(current)
        compacted = compact.maybe_compact(cfg, doc, summarizer)
    return EndResult(session=sess, learned=outcomes, compacted=compacted, version=doc.version)


def _recorded_during(doc: MemoryDoc, sid: object) -> list[model.Fact]:
    """The facts credited to the session `sid` while it was open: those of a session or
    History entry recorded before under the same id (one that gave this one an id of its
    own) are theirs."""
    claimed = {f for s in doc.sessions() for f in s.learned}
    claimed.update(f for h in doc.history() for f in h.facts)
    return [f for f in doc.facts() if f.source == f"session {sid}" and f.id not in claimed]


def listing(cfg: Config) -> dict[str, Any]:
    """The open session (if any), the recorded sessions newest first, and the history."""
    doc = access.load(cfg)
    return {
        "open": open_session(cfg),
        "sessions": list(reversed(doc.sessions())),
        "history": doc.history(),
    }
