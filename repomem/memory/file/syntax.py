"""The memory file's syntax: its header comment, section titles (and the older titles read as
them), the template of a new file, the fields each kind of entry may have, and the escapes that
keep an entry's text and a list field's items from reading as the file's structure (both ways:
`rendering` applies them, `parsing` reads them back).
"""

from __future__ import annotations

import re

from repomem.memory.model import Fact, HistoryEntry, Session

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


# an entry heading typed with the wrong number of `#` (or none, or no space): the parser
# refuses it inside an entry's text, where it would merge the entry under it into the one above
_NEAR_HEAD = re.compile(r"^#{0,6}[ \t]*([a-z]-[\w-]+)[ \t]+·[ \t]*(.*?)[ \t]*$")


def _structural(line: str) -> bool:
    """Whether a line of prose would be read as the file's structure: a section or entry
    heading (or one mistyped), a code fence, a `- key: value` field or a git conflict
    marker."""
    return (
        line.startswith(("## ", "### ", "```", "~~~"))
        or _NEAR_HEAD.match(line) is not None
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
