"""Value types shared across repomem's modules (plain frozen dataclasses, no I/O)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple


class Symbol(NamedTuple):
    """A definition found in a source file. Lines are 1-based and inclusive."""

    name: str
    kind: str
    qualname: str
    signature: str
    doc: str
    start_line: int
    end_line: int
    parent: str = ""


class Reference(NamedTuple):
    """An identifier used in a file (or an import), with the definition it appears in.

    `scope` is the qualified name of the innermost enclosing definition ("" at module level).
    `uses` is how many times the same (name, kind, scope) occurs in the file; `line` is the first.
    """

    name: str
    kind: str
    line: int
    scope: str = ""
    uses: int = 1


@dataclass(frozen=True)
class ParseResult:
    """Everything the parser extracts from one file."""

    symbols: tuple[Symbol, ...] = ()
    references: tuple[Reference, ...] = ()
    has_error: bool = False


@dataclass(frozen=True)
class FileInfo:
    """A file as stored in the index."""

    path: str
    language: str
    hash: str
    size: int
    mtime_ns: int
    tokens: int
    lines: int
    symbols: int
    redactions: int = 0


@dataclass
class IndexReport:
    """What one `repomem index` run did."""

    files_seen: int = 0  # files the index holds after a run (a path update: of its paths)
    added: list[str] = field(default_factory=list)
    modified: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)
    unchanged: int = 0
    parsed: int = 0
    skipped: dict[str, int] = field(default_factory=dict)
    skipped_paths: dict[str, list[str]] = field(default_factory=dict)
    parse_errors: list[str] = field(default_factory=list)
    redactions: int = 0
    recovered: int = 0
    seconds: float = 0.0
    git: bool = True
    full: bool = False
    embedded: int = 0  # files given a dense vector (`embed.enabled`)
    embed_seconds: float = 0.0
    seeded_from: str = ""  # the work tree whose index this one was copied from

    @property
    def changed(self) -> int:
        return len(self.added) + len(self.modified) + len(self.deleted) + len(self.renamed)
