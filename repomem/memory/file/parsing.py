"""Parsing the memory file's text into a `MemoryDoc`: sections found outside code fences,
entries read into facts, sessions and history with their fields checked, and every error named
by its line."""

from __future__ import annotations

import re
from pathlib import Path

from repomem.errors import MemoryFileError
from repomem.memory import model
from repomem.memory.file.document import Entry, MemoryDoc, Section
from repomem.memory.file.syntax import (
    _ALIASES,
    _ENTRY_HEAD,
    _FIELD,
    _NEAR_HEAD,
    _REPEATED,
    CONFLICT_CLOSE,
    CONFLICT_OPEN,
    ENTRY_SECTIONS,
    FACT_FIELDS,
    HEADER,
    HISTORY_FIELDS,
    KIND_SECTION,
    SESSION_FIELDS,
    TEMPLATE,
    Item,
    _split,
    _unprose,
)
from repomem.memory.model import Fact, HistoryEntry, Session


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
            _check_prose(body, a + 2, lines[a].rstrip("\r\n"), name)
            sec.preamble = "".join(body)
        doc.sections.append(sec)
    return doc


# an entry as repomem writes it (a fact's id and status, a session's or history's id), which a
# section read as prose (a renamed `## Facts`, the Overview) would hide from the memory
_OWN_ENTRY = re.compile(
    r"^### ((?:[cdfh]-[0-9a-f]{8})[ \t]+·[ \t]*(?:valid|stale|superseded|forgotten)"
    r"|s-\d{8}-\d{4}-[0-9a-f]{4}[ \t]+·.*)[ \t]*$"
)
_HOME = {"c": "Conventions", "d": "Decisions", "f": "Facts", "h": "History", "s": "Sessions"}


def _check_prose(body: list[str], first_line: int, heading: str, name: str) -> None:
    """Refuse an entry of repomem's under a section read as prose (outside code fences).

    Raises:
        MemoryFileError: naming the line and the section the entry belongs in.
    """
    fenced = False
    for offset, line in enumerate(body):
        if line.startswith(("```", "~~~")):
            fenced = not fenced
            continue
        m = None if fenced else _OWN_ENTRY.match(line.rstrip("\r\n"))
        if m is not None:
            home = _HOME[m.group(1)[0]]
            raise MemoryFileError(
                f"`{name}` line {first_line + offset}: entry `{m.group(1).split()[0]}` is under "
                f"`{heading}`, which repomem reads as prose; move it under `## {home}` (or "
                f"rename the section back)."
            )


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
    # the trailing run of `- key: value` lines holds the fields (a blank line between two
    # of them, easily left by a hand edit, does not end the run)
    start = len(block)
    while start > 1 and (
        _FIELD.match(block[start - 1])
        or (not block[start - 1].strip() and start > 2 and _FIELD.match(block[start - 2]))
    ):
        start -= 1
    allowed = (
        FACT_FIELDS
        if key in KIND_SECTION.values()
        else SESSION_FIELDS
        if key == "sessions"
        else HISTORY_FIELDS
    )
    _check_text(block, start, allowed, item_id, line_no, name)
    text = "\n".join(_unprose(ln) for ln in block[1:start]).strip("\n")
    fields: list[tuple[str, str, int]] = []
    for offset, ln in enumerate(block[start:]):
        m = _FIELD.match(ln)
        if m is None:  # a blank line between fields
            continue
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


def _check_text(
    block: list[str], start: int, allowed: frozenset[str], item_id: str, line_no: int, name: str
) -> None:
    """Refuse an entry whose text holds a line of the file's structure that a hand edit left
    unescaped: a mistyped entry heading or a field (its value, a citation say, would be lost
    in the text, and the entry under the heading merged into this one).

    Raises:
        MemoryFileError: naming the line.
    """
    for offset, ln in enumerate(block[1:start], 1):
        head = _NEAR_HEAD.match(ln)
        if head is not None and not ln.startswith("\\"):
            raise MemoryFileError(
                f"`{name}` line {line_no + offset}: `{ln.strip()}` reads as an entry heading "
                f"inside `{item_id}`; write it as `### {head.group(1)} · {head.group(2)}`."
            )
    # only then the fields: a mistyped heading is the cause of the fields above it in the text
    for offset, ln in enumerate(block[1:start], 1):
        field = _FIELD.match(ln)
        if field is not None and field.group(1) in allowed:
            raise MemoryFileError(
                f"`{name}` line {line_no + offset}: a `- {field.group(1)}:` line inside the text "
                f"of `{item_id}`; put the entry's `- key: value` lines after its text (write "
                f"`\\- {field.group(1)}:` if it is meant as text)."
            )


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
