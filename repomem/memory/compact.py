"""Buffer + summary memory: the newest sessions stay verbatim, older ones become one summary.

When the Sessions section grows past `memory.compact_after_bytes`, every session but the newest
`memory.keep_sessions` is folded into a History entry that keeps the ids of the facts they
learned (the facts themselves stay in Facts). The summary is written by a `Summarizer` (the
Anthropic API when configured) or, offline, deterministically from titles, summaries, commit
subjects and the files touched.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

from repomem import secrets
from repomem.config import Config
from repomem.errors import RepomemError
from repomem.memory import file as mfile
from repomem.memory.file import MemoryDoc
from repomem.memory.model import HistoryEntry, Session
from repomem.plural import counted

log = logging.getLogger(__name__)

MAX_SUMMARY_CHARS = 4000  # a model's summary of old sessions, at most (it is committed)

SYSTEM = (
    "You compact the session log of a software project's memory file. Write a faithful summary "
    "of the sessions below for a coding assistant joining the project: what was done and why, "
    "decisions taken, the areas and files changed, and which fact ids were learned. Plain prose "
    "and short bullet lines, at most 200 words, no headings, no invented details."
)


SUMMARY_TOKENS = 600


@dataclass
class Summary:
    text: str
    by: str  # "repomem" for the deterministic fallback, else the model's name


# A summarizer gets the sessions' rendered text and returns a Summary (or raises LLMError).
Summarizer = Callable[[str], Summary]


def sessions_bytes(doc: MemoryDoc) -> int:
    return sum(len(mfile.render_item(s).encode()) for s in doc.sessions())


def deterministic(sessions: list[Session]) -> str:
    """A summary built from the sessions' own fields, nothing invented."""
    lines: list[str] = []
    for s in sessions:
        day = s.started[:10] or "?"
        first = s.summary.strip().split("\n")[0]
        if len(first) > 160:
            first = first[:157].rstrip() + "…"
        subjects = "; ".join(c.split(" ", 1)[1] if " " in c else c for c in s.commits[:3])
        line = f"- {day} {s.title or s.id}: {first}"
        if subjects:
            line += f" Commits: {subjects}" + (" …" if len(s.commits) > 3 else "") + "."
        lines.append(line)
    touched: Counter[str] = Counter()
    for s in sessions:
        touched.update(p for p in s.added + s.modified + s.deleted if not p.startswith("…"))
        touched.update(r.split(" -> ")[-1] for r in s.renamed)
    if touched:
        top = ", ".join(f"{p} ({n})" for p, n in touched.most_common(8))
        lines.append(f"Files touched most: {top}.")
    return "\n".join(lines)


def maybe_compact(cfg: Config, doc: MemoryDoc, summarizer: Summarizer | None = None) -> int:
    """Compact old sessions if the log is over its threshold; returns how many were folded."""
    sessions = doc.sessions()
    keep = max(cfg.memory.keep_sessions, 0)
    if len(sessions) <= keep:
        return 0
    if sessions_bytes(doc) <= cfg.memory.compact_after_bytes:
        return 0
    # stable sort: sessions started in the same second keep their file order
    old = sorted(sessions, key=lambda s: s.started)[: len(sessions) - keep]
    text = deterministic(old)
    by = "repomem"
    if summarizer is not None:
        rendered = "\n".join(mfile.render_item(s) for s in old)
        rendered, _ = secrets.redact(
            rendered, config_like=True, extra_patterns=cfg.secrets.extra_patterns
        )
        try:
            result = summarizer(rendered)
        except RepomemError as exc:  # the API failed: the offline summary stands in
            log.warning("model summary failed, using the offline summary: %s", exc)
        else:
            cleaned, _ = secrets.redact(result.text.strip(), config_like=True)
            if len(cleaned) > MAX_SUMMARY_CHARS:  # a summary, not a transcript
                cleaned = cleaned[:MAX_SUMMARY_CHARS].rstrip() + " …"
            if cleaned:
                text, by = cleaned, result.by
    facts = list(dict.fromkeys(f for s in old for f in s.learned))
    days = sorted(s.started[:10] for s in old if s.started)
    span = f"{days[0]} .. {days[-1]}" if days else ""
    # the id is drawn from what the entry says: two branches folding the same sessions alike
    # (offline, deterministic) write one entry, which their merge then keeps once
    content = "\0".join([",".join(s.id for s in old), text, by])
    entry = HistoryEntry(
        id=f"h-{hashlib.blake2b(content.encode(), digest_size=4).hexdigest()}",
        label=counted(len(old), "session") + (f", {span}" if span else ""),
        summary=text,
        sessions=[s.id for s in old],
        facts=facts,
        span=span,
        by=by,
    )
    for s in old:
        doc.remove(s)
    doc.add(entry)
    return len(old)


def default_summarizer(cfg: Config) -> Summarizer | None:
    """The model when the Anthropic API is configured (`ANTHROPIC_API_KEY`, `llm.enabled`),
    else None: the offline summary."""
    from repomem.llm import client as llm

    api = llm.from_config(cfg)
    if api is None:
        return None
    model = cfg.llm.model

    def summarize(text: str) -> Summary:
        try:
            answer = api.complete(SYSTEM, text, max_tokens=SUMMARY_TOKENS)
        finally:
            api.close()  # one call per compaction: don't leave its connection open
        return Summary(answer.text, model)

    return summarize
