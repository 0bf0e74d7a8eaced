"""Numbered migrations of the memory file's text, from each older schema to the next.

Schema 0 is a Markdown file at the memory path without our header (a file people started by
hand, or a CLAUDE.md-style notes file): it is adopted as it is, its text kept as prose.
"""

from __future__ import annotations

from collections.abc import Callable

from repomem.errors import MemoryFileError
from repomem.memory import model
from repomem.memory.file.syntax import HEADER


def _from_0(text: str) -> str:
    head = HEADER.search(text)
    if head is not None:
        # a header that says schema 0 (an edit set the number back): replaced, not doubled
        new = f"<!-- repomem:memory schema_version=1 version={head.group(2)} -->"
        return text[: head.start()] + new + text[head.end() :]
    newline = "\r\n" if "\r\n" in text.split("\n", 1)[0] + "\n" else "\n"
    return f"<!-- repomem:memory schema_version=1 version=0 -->{newline}{text}"


# {from_version: function(text) -> text at from_version + 1}
MIGRATIONS: dict[int, Callable[[str], str]] = {0: _from_0}


def migrate(text: str, schema: int, name: str) -> str:
    """Bring `text` from `schema` up to the current schema.

    Raises:
        MemoryFileError: when a step is missing (a file from an unreleased version).
    """
    while schema < model.SCHEMA_VERSION:
        step = MIGRATIONS.get(schema)
        if step is None:
            raise MemoryFileError(
                f"`{name}` has memory schema {schema}, which this repomem cannot migrate; "
                f"upgrade repomem or restore the file from git."
            )
        text = step(text)
        schema += 1
    return text
