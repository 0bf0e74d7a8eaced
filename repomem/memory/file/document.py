"""The parsed memory file (`MemoryDoc`): its prose kept verbatim, its entries parsed, with the
lookups and edits the rest of repomem makes, and `render`, which gives back the original text of
every entry that did not change."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from repomem.memory.file.rendering import render_item
from repomem.memory.file.syntax import _STEP, HEADER, KIND_SECTION, SECTION_TITLES, Item
from repomem.memory.model import Fact, HistoryEntry, NextStep, Session


def start(item: Item) -> str:
    """When a session or the sessions a History entry folds started ("" if not known)."""
    if isinstance(item, Session):
        return item.started
    if isinstance(item, HistoryEntry):
        return item.span.partition(" .. ")[0].strip()
    return ""


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

    def add(self, item: Item, *, in_order: bool = False) -> None:
        """Append a new entry to the section it belongs in (created when missing); with
        `in_order`, a session or History entry goes before the first entry that started later
        (`start`) instead, the others staying where they are: a merge of two logs each in time
        order gives one in time order. One without a start is appended."""
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
        when = start(item) if in_order else ""
        if not when:
            return
        for i, e in enumerate(sec.entries[:-1]):
            if start(e.item) > when:
                new = sec.entries.pop()
                sec.entries[-1].trail = new.trail  # the section's last keeps the gap after it
                new.trail = nl
                sec.entries.insert(i, new)
                return

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
