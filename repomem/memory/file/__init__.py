"""Read and write the project memory file (Markdown) without losing a byte.

Layout (see `TEMPLATE`): a header comment `<!-- repomem:memory schema_version=1 version=N -->`,
then `## ` sections. Entry sections (Conventions, Decisions, Facts, Sessions, History) hold
entries, each a block:

    ### f-1a2b3c4d · valid
    The text, one or more lines.
    - topic: io
    - cite: `repomem/fsutil.py:atomic_write` L10-22 #3f9a1c2b7d4e
    - source: session s-20261122-0310-ab12
    - recorded: 2026-11-22T03:10:00Z

The trailing `- key: value` lines are the entry's fields. Any other text (the title, the
Overview, Next steps, sections we don't know) is prose, kept as written. Parsing keeps every
entry's original text; writing re-renders only the entries that changed, so `parse` then
`render` gives the file back byte for byte, hand edits included.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from repomem import fsutil
from repomem.errors import MemoryFileError
from repomem.memory import model
from repomem.memory.model import Fact, HistoryEntry, NextStep, Session

Item = Fact | Session | HistoryEntry

HEADER = re.compile(r"<!--\s*repomem:memory\s+schema_version=(\d+)\s+version=(\d+)\s*-->")

# Canonical section keys, their headings, and the order new sections are created in.
SECTION_TITLES = {
    "overview": "Overview",
    "conventions": "Conventions",
    "decisions": "Decisions",
    "facts": "Facts",
    "next": "Next steps",
    "sessions": "Sessions",
    "history": "History",
}
_ALIASES = {
    "overview": "overview",
    "project overview": "overview",
    "conventions": "conventions",
    "decisions": "decisions",
    "facts": "facts",
    "next steps": "next",
    "open questions": "next",
    "open questions and next steps": "next",
    "sessions": "sessions",
    "history": "history",
    "compacted history": "history",
}
ENTRY_SECTIONS = ("conventions", "decisions", "facts", "sessions", "history")
KIND_SECTION = {"convention": "conventions", "decision": "decisions", "fact": "facts"}

TEMPLATE = """<!-- repomem:memory schema_version={schema} version=0 -->
# Project memory

What people and coding assistants learned, decided and changed in this repository, kept by
repomem (`repomem memory --help`). Edit freely: keep each entry's `### id · status` heading
and its `- key: value` lines. A **stale** fact cites code that changed since it was recorded:
check it before relying on it.

## Overview

## Conventions

## Decisions

## Facts

## Next steps

## Sessions

## History
"""

_FIELD = re.compile(r"^- ([a-z_]+):(?:[ \t]+(.*?))?[ \t]*$")
_ENTRY_HEAD = re.compile(r"^###[ \t]+(\S+)(?:[ \t]+(?:·|-|—|\|)[ \t]*(.*?))?[ \t]*$")
# git's conflict markers (`|||||||` and `=======` only count between these two)
CONFLICT_OPEN = re.compile(r"^<{7}(?: |$)")
CONFLICT_CLOSE = re.compile(r"^>{7}(?: |$)")
# A next step's line, in parts so that ticking its box keeps the rest as written.
_STEP = re.compile(r"^(\s*[-*][ \t]+\[)([ xX])(\][ \t]+)(.*)$")

FACT_FIELDS = frozenset(
    {
        "topic",
        "cite",
        "source",
        "recorded",
        "confidence",
        "confirmed",
        "stale",
        "superseded",
        "why",
        "forgotten",
    }
)
SESSION_FIELDS = frozenset(
    {
        "started",
        "ended",
        "agent",
        "commit",
        "added",
        "modified",
        "deleted",
        "renamed",
        "symbols",
        "learned",
    }
)
HISTORY_FIELDS = frozenset({"sessions", "facts", "span", "by"})
_REPEATED = frozenset({"cite", "commit"})


@dataclass
class Entry:
    """One `###` block: the parsed item, its original text (None once changed) and the gap after."""

    item: Item
    raw: str | None
    trail: str = ""


@dataclass
class Section:
    key: str  # a SECTION_TITLES key, or "" for a section we don't know (kept as prose)
    heading: str  # the raw heading line, newline included
    preamble: str = ""  # raw text before the first entry (all of it for prose sections)
    entries: list[Entry] = field(default_factory=list)


@dataclass
class MemoryDoc:
    """The whole memory file: prose kept verbatim, entries parsed."""

    path: Path
    prefix: str
    schema_version: int
    version: int
    sections: list[Section]
    newline: str = "\n"
    changed: bool = False

    # ----------------------------------------------------------------- lookups
    def section(self, key: str, *, create: bool = False) -> Section | None:
        for s in self.sections:
            if s.key == key:
                return s
        if not create:
            return None
        return self._create_section(key)

    def _create_section(self, key: str) -> Section:
        order = list(SECTION_TITLES)
        sec = Section(key=key, heading=f"## {SECTION_TITLES[key]}{self.newline}")
        sec.preamble = self.newline
        # after the last existing section that comes before it in canonical order
        pos = 0
        for i, s in enumerate(self.sections):
            if s.key in order and order.index(s.key) < order.index(key):
                pos = i + 1
        self._ensure_gap_before(pos)
        self.sections.insert(pos, sec)
        return sec

    def _ensure_gap_before(self, pos: int) -> None:
        nl = self.newline
        if pos == 0:
            if self.prefix and not self.prefix.endswith(nl * 2):
                self.prefix = self.prefix.rstrip("\r\n") + nl * 2
            return
        prev = self.sections[pos - 1]
        if prev.entries:
            last = prev.entries[-1]
            if not last.trail:
                last.trail = nl
        elif not prev.preamble.endswith(nl * 2) and prev.preamble.strip():
            prev.preamble = prev.preamble.rstrip("\r\n") + nl * 2

    def entries(self, *keys: str) -> Iterator[Entry]:
        for s in self.sections:
            if s.key in keys:
                yield from s.entries

    def facts(self) -> list[Fact]:
        """Every fact, convention and decision (any status), in file order."""
        return [
            e.item
            for e in self.entries("conventions", "decisions", "facts")
            if isinstance(e.item, Fact)
        ]

    def sessions(self) -> list[Session]:
        return [e.item for e in self.entries("sessions") if isinstance(e.item, Session)]

    def history(self) -> list[HistoryEntry]:
        return [e.item for e in self.entries("history") if isinstance(e.item, HistoryEntry)]

    def find(self, item_id: str) -> Entry | None:
        for s in self.sections:
            for e in s.entries:
                if e.item.id == item_id:
                    return e
        return None

    def fact(self, fact_id: str) -> Fact | None:
        entry = self.find(fact_id)
        return entry.item if entry is not None and isinstance(entry.item, Fact) else None

    def overview(self) -> str:
        sec = self.section("overview")
        return sec.preamble.strip() if sec else ""

    def next_steps(self) -> list[NextStep]:
        sec = self.section("next")
        if sec is None:
            return []
        steps = []
        for line in sec.preamble.splitlines():
            m = _STEP.match(line)
            if m:
                steps.append(NextStep(text=m.group(4).strip(), done=m.group(2) != " "))
        return steps

    # ----------------------------------------------------------------- edits
    def touch(self, item: Item) -> None:
        """Mark an item as changed so it is rendered anew."""
        for s in self.sections:
            for e in s.entries:
                if e.item is item:
                    e.raw = None
                    self.changed = True
                    return
        raise KeyError(item.id)

    def add(self, item: Item) -> None:
        """Append a new entry to the section it belongs in (created when missing)."""
        if isinstance(item, Fact):
            key = KIND_SECTION[item.kind]
        elif isinstance(item, Session):
            key = "sessions"
        else:
            key = "history"
        sec = self.section(key, create=True)
        assert sec is not None
        nl = self.newline
        if sec.entries:
            if not sec.entries[-1].trail:
                sec.entries[-1].trail = nl
            trail = sec.entries[-1].trail
            sec.entries[-1].trail = nl
        else:
            body = sec.preamble.rstrip("\r\n")
            sec.preamble = (body + nl * 2) if body else nl
            trail = nl
        sec.entries.append(Entry(item=item, raw=None, trail=trail))
        self.changed = True

    def remove(self, item: Item) -> None:
        for s in self.sections:
            for i, e in enumerate(s.entries):
                if e.item is item:
                    trail = e.trail
                    del s.entries[i]
                    if i == len(s.entries) and s.entries:
                        s.entries[-1].trail = trail
                    self.changed = True
                    return
        raise KeyError(item.id)

    def set_next_steps(self, steps: list[NextStep]) -> None:
        """Make the checkbox lines of Next steps say `steps`, changing only the lines that
        differ: a step's box ticked or cleared in place, steps no longer listed removed, new
        ones added after the last step. Headings, prose, blank lines and indentation stay."""
        sec = self.section("next", create=True)
        assert sec is not None
        nl = self.newline
        todo = list(steps)
        out: list[str] = []
        last = -1
        for line in sec.preamble.splitlines():
            m = _STEP.match(line)
            if m is None:
                out.append(line)
                continue
            step = next((s for s in todo if s.text == m.group(4).strip()), None)
            if step is None:
                continue
            todo.remove(step)
            if (m.group(2) != " ") != step.done:
                line = f"{m.group(1)}{'x' if step.done else ' '}{m.group(3)}{m.group(4)}"
            out.append(line)
            last = len(out) - 1
        new = [f"- [{'x' if s.done else ' '}] {s.text}" for s in todo]
        if new and last >= 0:
            out[last + 1 : last + 1] = new
        elif new:
            end = len(out)
            while end and not out[end - 1].strip():
                end -= 1
            out = [*out[:end], "", *new, "", *out[end + 1 :]]
        text = nl.join(out) + nl if out else nl
        if text != sec.preamble:
            sec.preamble = text
            self.changed = True

    # ----------------------------------------------------------------- output
    def render(self) -> str:
        nl = self.newline
        out = [self._header_prefix()]
        for s in self.sections:
            out.append(s.heading)
            out.append(s.preamble)
            for e in s.entries:
                out.append(e.raw if e.raw is not None else render_item(e.item, nl))
                out.append(e.trail)
        return "".join(out)

    def _header_prefix(self) -> str:
        line = (
            f"<!-- repomem:memory schema_version={self.schema_version} version={self.version} -->"
        )
        if HEADER.search(self.prefix):
            return HEADER.sub(line, self.prefix, count=1)
        if self.schema_version == 0:  # a file we never wrote stays as it is until migrated
            return self.prefix
        return line + self.newline + self.prefix


# --------------------------------------------------------------------- rendering
def _structural(line: str) -> bool:
    """Whether a line of prose would be read as the file's structure: a section or entry
    heading, a code fence, a `- key: value` field or a git conflict marker."""
    return (
        line.startswith(("## ", "### ", "```", "~~~"))
        or _FIELD.match(line) is not None
        or CONFLICT_OPEN.match(line) is not None
        or CONFLICT_CLOSE.match(line) is not None
    )


def _prose(text: str) -> list[str]:
    """An entry's text as lines of the file: a line that would read as structure is escaped
    with a backslash, as Markdown does (`\\## x` shows `## x`), and read back without it."""
    return [f"\\{ln}" if _structural(ln.lstrip("\\")) else ln for ln in text.splitlines()]


def _unprose(line: str) -> str:
    return line[1:] if line.startswith("\\") and _structural(line.lstrip("\\")) else line


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


# --------------------------------------------------------------------- parsing
def new_doc(path: Path) -> MemoryDoc:
    return parse(TEMPLATE.format(schema=model.SCHEMA_VERSION), path)


def parse(text: str, path: Path) -> MemoryDoc:
    """Parse the memory file's text.

    Raises:
        MemoryFileError: naming the line, for conflict markers, a broken entry, a duplicate id,
            or a schema newer than this repomem.
    """
    name = path.name
    lines = text.splitlines(keepends=True)
    for n, line in enumerate(lines, 1):
        if CONFLICT_OPEN.match(line) or CONFLICT_CLOSE.match(line):
            raise MemoryFileError(
                f"`{name}` line {n}: git conflict markers; run `repomem memory merge` to union "
                f"both sides, then commit."
            )
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    # split into the prefix and `## ` sections (outside fenced code blocks)
    starts: list[int] = []
    fenced = False
    for i, line in enumerate(lines):
        stripped = line.rstrip("\r\n")
        if stripped.startswith(("```", "~~~")):
            fenced = not fenced
        elif not fenced and stripped.startswith("## "):
            starts.append(i)
    prefix = "".join(lines[: starts[0] if starts else len(lines)])
    m = HEADER.search(prefix)
    if m is None:
        # A file without our header is schema 0 (see migrations); ours always has one.
        if HEADER.search(text):
            raise MemoryFileError(
                f"`{name}`: the repomem header comment must come before the first `## ` "
                f"section; move it to the top."
            )
        schema, version = 0, 0
    else:
        schema, version = int(m.group(1)), int(m.group(2))
    if schema > model.SCHEMA_VERSION:
        raise MemoryFileError(
            f"`{name}` has memory schema {schema}, newer than this repomem understands "
            f"({model.SCHEMA_VERSION}); upgrade with `pip install -U repomem`."
        )
    doc = MemoryDoc(
        path=path,
        prefix=prefix,
        schema_version=schema,
        version=version,
        sections=[],
        newline=newline,
    )
    seen: dict[str, int] = {}
    bounds = [*starts, len(lines)]
    for si in range(len(starts)):
        a, b = bounds[si], bounds[si + 1]
        title = lines[a].rstrip("\r\n")[3:].strip()
        key = _ALIASES.get(title.lower().rstrip(":"), "")
        if key and doc.section(key) is not None:
            raise MemoryFileError(
                f"`{name}` line {a + 1}: a second `## {title}` section; merge it into the first."
            )
        sec = Section(key=key, heading=lines[a])
        body = lines[a + 1 : b]
        if key in ENTRY_SECTIONS:
            _parse_entries(sec, body, a + 2, name, seen)
        else:
            sec.preamble = "".join(body)
        doc.sections.append(sec)
    return doc


def _parse_entries(
    sec: Section, body: list[str], first_line: int, name: str, seen: dict[str, int]
) -> None:
    heads = [i for i, ln in enumerate(body) if ln.startswith("### ")]
    sec.preamble = "".join(body[: heads[0] if heads else len(body)])
    bounds = [*heads, len(body)]
    for hi in range(len(heads)):
        block = body[bounds[hi] : bounds[hi + 1]]
        end = len(block)
        while end > 1 and not block[end - 1].strip():
            end -= 1
        raw = "".join(block[:end])
        trail = "".join(block[end:])
        line_no = first_line + bounds[hi]
        item = _parse_item(sec.key, [ln.rstrip("\r\n") for ln in block[:end]], line_no, name)
        if item.id in seen:
            raise MemoryFileError(
                f"`{name}` line {line_no}: id `{item.id}` is used twice (also line "
                f"{seen[item.id]}); give one of them a new id."
            )
        seen[item.id] = line_no
        sec.entries.append(Entry(item=item, raw=raw, trail=trail))


def _parse_item(key: str, block: list[str], line_no: int, name: str) -> Item:
    head = _ENTRY_HEAD.match(block[0])
    if head is None:
        raise MemoryFileError(
            f"`{name}` line {line_no}: an entry heading must be `### <id> · <label>`."
        )
    item_id, label = head.group(1), (head.group(2) or "").strip()
    # the trailing run of `- key: value` lines holds the fields
    start = len(block)
    while start > 1 and _FIELD.match(block[start - 1]):
        start -= 1
    text = "\n".join(_unprose(ln) for ln in block[1:start]).strip("\n")
    fields: list[tuple[str, str, int]] = []
    allowed = (
        FACT_FIELDS
        if key in KIND_SECTION.values()
        else SESSION_FIELDS
        if key == "sessions"
        else HISTORY_FIELDS
    )
    for offset, ln in enumerate(block[start:]):
        m = _FIELD.match(ln)
        assert m is not None
        fkey, value = m.group(1), (m.group(2) or "").strip()
        n = line_no + start + offset
        if fkey not in allowed:
            raise MemoryFileError(
                f"`{name}` line {n}: unknown field `{fkey}` in entry `{item_id}`; known: "
                f"{', '.join(sorted(allowed))}."
            )
        if fkey not in _REPEATED and any(f[0] == fkey for f in fields):
            raise MemoryFileError(
                f"`{name}` line {n}: field `{fkey}` given twice in entry `{item_id}`; keep one."
            )
        fields.append((fkey, value, n))
    if key == "sessions":
        return _session(item_id, label, text, fields, name)
    if key == "history":
        return _history(item_id, label, text, fields)
    kind = {v: k for k, v in KIND_SECTION.items()}[key]
    return _fact(item_id, kind, label, text, fields, line_no, name)


def _fact(
    item_id: str,
    kind: str,
    label: str,
    text: str,
    fields: list[tuple[str, str, int]],
    line_no: int,
    name: str,
) -> Fact:
    status = label.lower() or "valid"
    if status not in model.STATUSES:
        raise MemoryFileError(
            f"`{name}` line {line_no}: unknown status `{label}` for `{item_id}`; use one of "
            f"{', '.join(model.STATUSES)}."
        )
    if not text.strip() and status != "forgotten":  # a forgotten fact keeps no text
        raise MemoryFileError(
            f"`{name}` line {line_no}: entry `{item_id}` has no text (was the file cut "
            f"short?); write the fact below its heading, or remove the entry."
        )
    f = Fact(id=item_id, kind=kind, text=text, status=status, source="person")
    for fkey, value, n in fields:
        if fkey == "cite":
            cite = model.parse_citation(value)
            if cite is None:
                raise MemoryFileError(
                    f"`{name}` line {n}: cannot read citation `{value}`; write it as "
                    f"`path[:symbol] [Lstart-end] [#hash]`."
                )
            f.cites.append(cite)
        elif fkey == "confidence":
            if value not in model.CONFIDENCES:
                raise MemoryFileError(
                    f"`{name}` line {n}: confidence `{value}` of `{item_id}` must be one of "
                    f"{', '.join(model.CONFIDENCES)}."
                )
            f.confidence = value
        elif fkey == "superseded":
            by, _, at = value.partition(" at ")
            f.superseded_by, f.superseded_at = by.strip(), at.strip()
        elif (
            fkey in ("recorded", "confirmed", "forgotten")
            and value
            and not model.is_timestamp(value)
        ):
            raise MemoryFileError(
                f"`{name}` line {n}: `{fkey}` of `{item_id}` must be a time like "
                f"2026-11-22T03:10:00Z, not `{value}`."
            )
        else:
            setattr(f, fkey, value)
    if f.status == "superseded" and not f.superseded_by:
        raise MemoryFileError(
            f"`{name}` line {line_no}: superseded fact `{item_id}` needs a "
            f"`- superseded: <new id>` line."
        )
    return f


# A list field's items are comma-separated: a comma, line break or `%` inside one (a file
# named `a, b.py`) is percent-encoded, and decoded when read.
_LISTED = {"%": "%25", ",": "%2C", "\n": "%0A", "\r": "%0D"}
_UNLISTED = re.compile("|".join(re.escape(v) for v in _LISTED.values()))


def _listed(item: str) -> str:
    return "".join(_LISTED.get(c, c) for c in item) if any(c in item for c in _LISTED) else item


def _split(value: str) -> list[str]:
    decode = {v: k for k, v in _LISTED.items()}
    return [
        _UNLISTED.sub(lambda m: decode[m.group(0)], v.strip())
        for v in value.split(",")
        if v.strip()
    ]


def _session(
    item_id: str, label: str, text: str, fields: list[tuple[str, str, int]], name: str
) -> Session:
    s = Session(id=item_id, title=label, summary=text)
    for fkey, value, n in fields:
        if fkey == "started":
            m = re.match(r"^(\S+)(?: at (\S+))?(?: \((.*)\))?$", value)
            if m is None or not model.is_timestamp(m.group(1)):
                raise MemoryFileError(
                    f"`{name}` line {n}: `started` must read `<time> at <commit> (<branch>)`."
                )
            s.started, s.start_head, s.branch = m.group(1), m.group(2) or "", m.group(3) or ""
        elif fkey == "ended":
            when, _, head = value.partition(" at ")
            s.ended, s.end_head = when.strip(), head.strip()
        elif fkey == "agent":
            s.agent = value
        elif fkey == "commit":
            s.commits.append(value)
        elif fkey == "symbols":
            s.symbols = value.split()
        else:
            setattr(s, fkey, _split(value))
    return s


def _history(
    item_id: str, label: str, text: str, fields: list[tuple[str, str, int]]
) -> HistoryEntry:
    h = HistoryEntry(id=item_id, label=label, summary=text)
    for fkey, value, _n in fields:
        if fkey in ("sessions", "facts"):
            setattr(h, fkey, _split(value))
        else:
            setattr(h, fkey, value)
    return h
