"""The project memory's part of a pack: overview, conventions, relevant facts, next steps,
recent sessions.

Facts are found by BM25 over the memory's derived rows in the store (kept in sync with the
file) and by citing files the task points at. Every fact that goes into a pack has its
citations checked against the working tree on the spot: one whose code changed is shown as
stale, with the reason, never as current truth. Superseded and forgotten facts stay out.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from typing import Any

from repomem.config import Config
from repomem.errors import MemoryFileError
from repomem.memory import access, derived
from repomem.memory.cite import Resolver
from repomem.memory.file import MemoryDoc
from repomem.memory.model import Fact, HistoryEntry, Session

log = logging.getLogger(__name__)

MAX_FACTS = 30
RECENT_SESSIONS = 2


@dataclass
class Entry:
    """A memory item before packing: what the builder turns into an `Item`."""

    symbol: str  # "overview", "conventions", "fact f-…", "next steps", "session s-…", ...
    score: float
    reason: str
    text: str


@dataclass
class Selection:
    entries: list[Entry] = field(default_factory=list)
    cited: dict[str, float] = field(default_factory=dict)  # path -> strength, for ranking
    path: str = "REPOMEM.md"
    facts: dict[str, Fact] = field(default_factory=dict)
    relevance: dict[str, float] = field(default_factory=dict)
    doc: MemoryDoc | None = None  # None when the file could not be read


def _fact_line(f: Fact, stale_reason: str) -> str:
    cites = ", ".join(f"`{c.target}`" for c in f.cites)
    kind = "" if f.kind in ("fact", "convention") else f"{f.kind}, "
    meta = f" ({kind}cites {cites})" if cites else (f" ({f.kind})" if kind else "")
    text = " ".join(f.text.split())
    if stale_reason:
        return (
            f"- [{f.id}] STALE, do not rely on it without checking ({stale_reason}): {text}{meta}"
        )
    return f"- [{f.id}] {text}{meta}"


def _session_text(s: Session) -> str:
    head = f"{s.started[:10]} {s.title or s.id}"
    lines = [f"- {head}: {' '.join(s.summary.split())}"]
    files = s.added + s.modified + s.deleted + [r.split(" -> ")[-1] for r in s.renamed]
    if files:
        shown = ", ".join(files[:8]) + (" …" if len(files) > 8 else "")
        lines.append(f"  files: {shown}")
    if s.learned:
        lines.append(f"  learned: {', '.join(s.learned)}")
    return "\n".join(lines)


def _history_text(h: HistoryEntry) -> str:
    return f"- Earlier ({h.label}): " + " ".join(h.summary.split())


def select(cfg: Config, store: Any, task: str) -> Selection:
    """Memory entries worth packing for `task`, with the files their facts cite.

    A malformed memory file does not stop the pack: it becomes one entry saying so.
    """
    sel = Selection()
    try:
        path = access.memory_path(cfg)
        sel.path = path.relative_to(cfg.root.resolve()).as_posix()
        text = access.read_text(path)
        doc = sel.doc = access.doc_from_text(text, path)
    except MemoryFileError as exc:
        sel.entries.append(Entry("error", 5.0, "the memory file could not be read", f"{exc}"))
        return sel
    facts = [f for f in doc.facts() if f.status in ("valid", "stale")]
    if not facts and not doc.sessions() and not doc.overview() and not doc.next_steps():
        return sel
    sel.facts = {f.id: f for f in facts}
    if doc.overview():
        sel.entries.append(Entry("overview", 3.0, "project overview", doc.overview()))
    if store is not None and facts:
        derived.ensure_synced(cfg, store, text=text, doc=doc)
        hits = store.search_memory(task, limit=60)
        top = max((score for _row, score in hits), default=0.0)
        for row, score in hits:
            if row["id"] in sel.facts and top > 0:
                sel.relevance[row["id"]] = score / top
    for fid, rel in sel.relevance.items():
        for c in sel.facts[fid].cites:
            sel.cited[c.path] = max(sel.cited.get(c.path, 0.0), rel)
    return sel


def finish(cfg: Config, sel: Selection, top_paths: list[str]) -> list[Entry]:
    """Complete the selection once files are ranked: facts citing the top files join in, and
    every chosen fact's citations are checked against the working tree."""
    if not sel.facts and not sel.entries:
        return sel.entries
    doc_facts = list(sel.facts.values())
    top = {p: 1.0 - i / max(len(top_paths), 1) for i, p in enumerate(top_paths)}
    scores: dict[str, float] = dict(sel.relevance)
    for f in doc_facts:
        near = max((top.get(c.path, 0.0) for c in f.cites), default=0.0)
        if near > 0:
            scores[f.id] = max(scores.get(f.id, 0.0), 0.5 * near)
    resolver = Resolver(cfg)
    conventions: list[str] = []
    chosen: list[tuple[float, Fact, str]] = []
    for f in doc_facts:
        if f.kind == "convention":
            conventions.append(_fact_line(f, _stale_reason(resolver, f)))
        elif f.id in scores:
            chosen.append((scores[f.id], f, _stale_reason(resolver, f)))
    entries = list(sel.entries)
    if conventions:
        entries.append(
            Entry("conventions", 2.5, "the project's conventions", "\n".join(conventions))
        )
    chosen.sort(key=lambda t: (-t[0], t[1].id))
    for score, f, stale in chosen[:MAX_FACTS]:
        why = "relevant to the task" if f.id in sel.relevance else "cites a top-ranked file"
        if stale:
            why += "; stale: cited code changed"
        entries.append(Entry(f"{f.kind} {f.id}", 1.0 + score, why, _fact_line(f, stale)))
    return entries


def _stale_reason(resolver: Resolver, f: Fact) -> str:
    reasons, _ = resolver.check_all(f.cites)
    if reasons:
        return "; ".join(reasons)
    return f.stale.split(" (found")[0] if f.status == "stale" and f.stale else ""


def recent(sel: Selection) -> list[Entry]:
    """Open next steps, the latest sessions verbatim and the latest compacted history."""
    doc = sel.doc
    if doc is None:
        return []  # the file could not be read: select() reported it
    out: list[Entry] = []
    steps = [s for s in doc.next_steps() if not s.done]
    if steps:
        out.append(Entry("next steps", 1.3, "open next steps",
                         "\n".join(f"- [ ] {s.text}" for s in steps[:15])))  # fmt: skip
    sessions = sorted(doc.sessions(), key=lambda s: s.started)[-RECENT_SESSIONS:]
    for i, s in enumerate(reversed(sessions)):
        out.append(Entry(f"session {s.id}", 1.2 - 0.1 * i, "a recent session", _session_text(s)))
    history = doc.history()
    if history:
        # the one whose sessions end last: the file's order is by their start (a merge places
        # theirs so) or by hand, and a long fold can end after a later short one (file order
        # breaks ties)
        h = max(reversed(history), key=lambda e: e.span.rpartition(" .. ")[2])
        out.append(Entry(f"history {h.id}", 0.9, "compacted older sessions", _history_text(h)))
    return out
