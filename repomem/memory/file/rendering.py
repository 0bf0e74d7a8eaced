"""Rendering an entry (fact, session, history) as the lines of the file: prose escaped, each
field on one line; `MemoryDoc.render` uses it for the entries that changed."""

from __future__ import annotations

from repomem import fsutil
from repomem.memory.file.syntax import Item, _listed, _prose
from repomem.memory.model import Fact, HistoryEntry, Session


def _value(value: str) -> str:
    """A field's value on the one line it has (a line break would start a field of its own)."""
    return value if value.splitlines() == [value] else fsutil.one_line(value)


def _fields(lines: list[str]) -> list[str]:
    """The entry's lines with its heading and each field on one line; the prose between them
    was escaped by `_prose`. Text given to the file passes `ops.entry_text` first; this keeps
    the file's structure even when a value comes from elsewhere (a commit, a model, a client's
    name)."""
    head, *rest = lines
    n = len(rest)
    while n and rest[n - 1].startswith("- "):
        n -= 1
    return [_value(head), *rest[:n], *(_value(ln) for ln in rest[n:])]


def render_item(item: Item, nl: str = "\n") -> str:
    if isinstance(item, Fact):
        lines = _render_fact(item)
    elif isinstance(item, Session):
        lines = _render_session(item)
    else:
        lines = _render_history(item)
    return nl.join(lines) + nl


def _render_fact(f: Fact) -> list[str]:
    lines = [f"### {f.id} · {f.status}"]
    if f.status == "forgotten":
        return _fields([*lines, f"- forgotten: {f.forgotten}"])
    lines += _prose(f.text) or [""]
    if f.topic:
        lines.append(f"- topic: {f.topic}")
    lines += [f"- cite: {c.render()}" for c in f.cites]
    lines.append(f"- source: {f.source}")
    if f.recorded:
        lines.append(f"- recorded: {f.recorded}")
    lines.append(f"- confidence: {f.confidence}")
    if f.confirmed:
        lines.append(f"- confirmed: {f.confirmed}")
    if f.stale:
        lines.append(f"- stale: {f.stale}")
    if f.superseded_by:
        at = f" at {f.superseded_at}" if f.superseded_at else ""
        lines.append(f"- superseded: {f.superseded_by}{at}")
    if f.why:
        lines.append(f"- why: {f.why}")
    return _fields(lines)


def _render_session(s: Session) -> list[str]:
    lines = [f"### {s.id} · {s.title}" if s.title else f"### {s.id}"]
    lines += _prose(s.summary)
    started = s.started + (f" at {s.start_head}" if s.start_head else "")
    started += f" ({s.branch})" if s.branch else ""
    lines.append(f"- started: {started}")
    if s.ended:
        lines.append(f"- ended: {s.ended}" + (f" at {s.end_head}" if s.end_head else ""))
    if s.agent:
        lines.append(f"- agent: {s.agent}")
    lines += [f"- commit: {c}" for c in s.commits]
    for key in ("added", "modified", "deleted", "renamed", "learned"):
        values: list[str] = getattr(s, key)
        if values:
            lines.append(f"- {key}: {', '.join(_listed(v) for v in values)}")
    if s.symbols:
        lines.append(f"- symbols: {' '.join(s.symbols)}")
    return _fields(lines)


def _render_history(h: HistoryEntry) -> list[str]:
    lines = [f"### {h.id} · {h.label}" if h.label else f"### {h.id}"]
    lines += _prose(h.summary)
    if h.span:
        lines.append(f"- span: {h.span}")
    if h.sessions:
        lines.append(f"- sessions: {', '.join(h.sessions)}")
    if h.facts:
        lines.append(f"- facts: {', '.join(h.facts)}")
    lines.append(f"- by: {h.by}")
    return _fields(lines)
