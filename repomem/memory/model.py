"""The project memory's value types: facts, citations, sessions, compacted history.

These are plain data; `repomem.memory.file` reads and writes them as Markdown, and keeps each
entry's original text so that unchanged entries are written back byte for byte.
"""

from __future__ import annotations

import hashlib
import os
import re
import time
from dataclasses import dataclass, field
from datetime import datetime, timezone

SCHEMA_VERSION = 1

# Fact kinds and the section each lives in.
KINDS = ("convention", "decision", "fact")
KIND_PREFIX = {"convention": "c", "decision": "d", "fact": "f"}
STATUSES = ("valid", "stale", "superseded", "forgotten")
CONFIDENCES = ("high", "medium", "low")


_STAMP = "%Y-%m-%dT%H:%M:%SZ"


def now_iso(when: float | None = None) -> str:
    """The current UTC time (or `when`, seconds since the epoch) as `2026-11-22T03:10:00Z`."""
    if when is None:
        return datetime.now(timezone.utc).strftime(_STAMP)
    return datetime.fromtimestamp(when, timezone.utc).strftime(_STAMP)


def epoch(stamp: object) -> float | None:
    """A `now_iso` stamp as seconds since the epoch (None: not such a stamp)."""
    if not isinstance(stamp, str):
        return None
    try:
        return datetime.strptime(stamp, _STAMP).replace(tzinfo=timezone.utc).timestamp()
    except ValueError:
        return None


_ISO = re.compile(r"^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2})?Z?)?$")


def is_timestamp(value: str) -> bool:
    return bool(_ISO.match(value))


def new_id(prefix: str, seed: str = "") -> str:
    """A short id unlikely to collide across clones (merged later by `repomem memory merge`)."""
    raw = f"{seed}\0{time.time_ns()}\0{os.getpid()}\0{os.urandom(8).hex()}"
    return f"{prefix}-{hashlib.blake2b(raw.encode(), digest_size=4).hexdigest()}"


def new_session_id(when: float | None = None, seed: str = "") -> str:
    """`s-<the minute it started, UTC>-<4 hex digits>`: random, or drawn from `seed` (the same
    seed, the same id)."""
    moment = (
        datetime.now(timezone.utc) if when is None else datetime.fromtimestamp(when, timezone.utc)
    )
    tail = (
        hashlib.blake2b(seed.encode(), digest_size=2).hexdigest() if seed else os.urandom(2).hex()
    )
    return f"s-{moment.strftime('%Y%m%d-%H%M')}-{tail}"


_SESSION_ID = re.compile(r"^s-(\d{8})-(\d{4})-")


def session_id_names(sid: str, started: str) -> bool | None:
    """Whether `sid`, made by `new_session_id`, names the minute of the start stamp `started`
    (None: an id not made so, which names no time)."""
    m = _SESSION_ID.match(sid)
    if m is None:
        return None
    return f"{m[1]}-{m[2]}" == started[:16].replace("-", "").replace("T", "-").replace(":", "")


@dataclass
class Citation:
    """Code a fact rests on: a file, a symbol in it, or a line range, with its content hash."""

    path: str
    symbol: str = ""
    start_line: int = 0
    end_line: int = 0
    hash: str = ""

    @property
    def target(self) -> str:
        return f"{self.path}:{self.symbol}" if self.symbol else self.path

    @property
    def spec(self) -> str:
        """What `Resolver.resolve` takes to cite the same code afresh."""
        if self.symbol:
            return f"{self.path}:{self.symbol}"
        if self.start_line:
            return f"{self.path}:{self.start_line}-{self.end_line}"
        return self.path

    def render(self) -> str:
        out = f"`{self.target}`"
        if self.start_line:
            out += f" L{self.start_line}-{self.end_line}"
        if self.hash:
            out += f" #{self.hash}"
        return out


_CITE = re.compile(
    r"^`?(?P<target>[^`]+?)`?(?:\s+L(?P<start>\d+)-(?P<end>\d+))?(?:\s+#(?P<hash>[0-9a-f]+))?\s*$"
)


def parse_citation(text: str) -> Citation | None:
    """Parse `path[:symbol] [Lstart-end] [#hash]` (backticks optional); None if malformed."""
    text = text.strip()
    m = _CITE.match(text)
    if not m or text.count("`") not in (0, 2):
        return None  # an unclosed backtick: a line cut short (`src/fl)
    target = m.group("target").strip()
    # a space only inside backticks (`my file.py:f`): bare, it would end the target
    if not target or (" " in target and not text.startswith("`")):
        return None
    path, _, symbol = target.partition(":")
    if not path:
        return None
    start = int(m.group("start") or 0)
    end = int(m.group("end") or 0)
    if end < start:
        return None
    return Citation(
        path=path, symbol=symbol, start_line=start, end_line=end, hash=m.group("hash") or ""
    )


@dataclass
class Fact:
    """A fact, convention or decision, with where it came from and whether it still holds."""

    id: str
    kind: str = "fact"
    text: str = ""
    status: str = "valid"
    topic: str = ""
    cites: list[Citation] = field(default_factory=list)
    source: str = "person"
    recorded: str = ""
    confidence: str = "medium"
    confirmed: str = ""
    # status == "stale": why, and since when
    stale: str = ""
    # status == "superseded": the replacing fact, the commit and time of the change, and why
    superseded_by: str = ""
    superseded_at: str = ""
    why: str = ""
    # status == "forgotten": when (the text and everything else are gone)
    forgotten: str = ""

    def summary_line(self) -> str:
        """One line for listings: id, status unless valid, first line of text, cited code."""
        mark = {"stale": "STALE ", "superseded": "superseded ", "forgotten": "forgotten "}
        text = self.text.splitlines()[0] if self.text else ""
        cites = ", ".join(c.target for c in self.cites)
        return f"{self.id}  {mark.get(self.status, '')}{text}" + (f"  [{cites}]" if cites else "")


@dataclass
class Session:
    """One working session: what it set out to do, what it learned and what it changed."""

    id: str
    title: str = ""
    summary: str = ""
    started: str = ""
    start_head: str = ""
    branch: str = ""
    ended: str = ""
    end_head: str = ""
    agent: str = ""
    commits: list[str] = field(default_factory=list)  # "abc1234 subject"
    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    renamed: list[str] = field(default_factory=list)  # "old -> new"
    symbols: list[str] = field(default_factory=list)  # "+name", "~name", "-name"
    learned: list[str] = field(default_factory=list)  # fact ids


@dataclass
class HistoryEntry:
    """Older sessions compacted into one summary that keeps their facts and decisions."""

    id: str
    label: str = ""
    summary: str = ""
    sessions: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    span: str = ""  # "2026-10-01 .. 2026-11-01"
    by: str = "repomem"  # "repomem" (deterministic) or the model's name


@dataclass
class NextStep:
    text: str
    done: bool = False
