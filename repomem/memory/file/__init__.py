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

The package, by concern: `syntax` (the header, section titles, the template, the fields of each
kind of entry, and the escapes of prose and list items), `document` (`MemoryDoc`: lookups,
edits, `render`), `rendering` (an entry as the file's lines) and `parsing` (text to `MemoryDoc`,
errors naming the line). This module holds the public names. Reading and writing the file on
disk (lock, atomic replace) is `repomem.memory.access`; older schemas are migrated by
`repomem.memory.migrations`, concurrent edits merged by `repomem.memory.merge`.
"""

from __future__ import annotations

from repomem.memory.file.document import Entry, MemoryDoc, Section
from repomem.memory.file.parsing import new_doc, parse
from repomem.memory.file.rendering import render_item
from repomem.memory.file.syntax import (
    CONFLICT_CLOSE,
    CONFLICT_OPEN,
    ENTRY_SECTIONS,
    FACT_FIELDS,
    HEADER,
    HISTORY_FIELDS,
    KIND_SECTION,
    SECTION_TITLES,
    SESSION_FIELDS,
    TEMPLATE,
    Item,
)

__all__ = [
    "CONFLICT_CLOSE",
    "CONFLICT_OPEN",
    "ENTRY_SECTIONS",
    "FACT_FIELDS",
    "HEADER",
    "HISTORY_FIELDS",
    "KIND_SECTION",
    "SECTION_TITLES",
    "SESSION_FIELDS",
    "TEMPLATE",
    "Entry",
    "Item",
    "MemoryDoc",
    "Section",
    "new_doc",
    "parse",
    "render_item",
]
