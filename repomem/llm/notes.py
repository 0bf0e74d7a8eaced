"""Per-file notes: what a file is for, its entry points and its gotchas, in a few lines.

Notes live in the store's `notes` table; the `source` column says who wrote each one:

    human, assistant     written with `repomem note PATH TEXT` (or MCP `write_note`); never
                         replaced by generated notes, and listed before them
    generated-llm        written by the model (`repomem notes --llm`)
    generated-offline    deterministic: the module docstring or leading comment, the main
                         symbols (entry points) and TODO/FIXME markers

A path has at most one generated note. Every note stores the content hash of the file it
describes, so it is *stale* once the file's hash in the work tree differs (an edit is seen
before the next index run).

This module reads notes and stores people's notes; `repomem.llm.generation` plans and runs the
generated ones.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from repomem import fsutil, paths, secrets
from repomem.config import Config
from repomem.errors import InputError, NotFoundError

HUMAN = "human"
ASSISTANT = "assistant"
GENERATED_LLM = "generated-llm"
GENERATED_OFFLINE = "generated-offline"
WRITTEN = (HUMAN, ASSISTANT)
GENERATED = (GENERATED_LLM, GENERATED_OFFLINE)
SOURCES = (*WRITTEN, *GENERATED)  # precedence order
MAX_NOTE_CHARS = 20_000  # a note on a file, not a copy of it (packs and MCP show it whole)


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Note:
    """One note about a file (or folder)."""

    path: str
    source: str
    text: str
    file_hash: str
    updated_at: float
    stale: bool = False

    def as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def as_row(self) -> dict[str, Any]:
        """The row of the store's `notes` table (every field but `stale`, which is derived)."""
        return {
            "path": self.path,
            "source": self.source,
            "text": self.text,
            "file_hash": self.file_hash,
            "updated_at": self.updated_at,
        }


# --------------------------------------------------------------------------- reading


def read_rows(store: Any, paths: Sequence[str] | None = None) -> list[dict[str, Any]]:
    """The stored rows of every note (or of these paths' notes)."""
    if paths is not None:
        return list(store.rows_for_paths("notes", list(paths)))
    cols = store.column("notes", ["path", "source", "text", "file_hash", "updated_at"])
    return [dict(zip(cols, values, strict=True)) for values in zip(*cols.values(), strict=True)]


def _current(
    cfg: Config, store: Any, paths: Sequence[str] | None, noted: Collection[str]
) -> dict[str, str | None]:
    """{path: the content hash it has in the work tree now} of the `noted` files the index has
    (not skipped), looked up among `paths` (all with None); None for a file gone since. The
    work tree's, not the index's: a file edited since the last index run has a stale note
    already. Only noted files are looked at: each costs a stat, a read when it changed."""
    from repomem.index import discovery

    cols = store.column("files", ["path", "size", "mtime_ns", "hash", "skip"], paths)
    return {
        p: discovery.work_tree_hash(cfg, p, (size, mtime, h))
        for p, size, mtime, h, skip in zip(
            cols["path"], cols["size"], cols["mtime_ns"], cols["hash"], cols["skip"],
            strict=True,
        )
        if not skip and h and p in noted
    }  # fmt: skip


def _to_note(row: dict[str, Any], current: dict[str, str | None]) -> Note:
    now = current.get(row["path"])
    stale = now is None or now != row["file_hash"]
    if row["path"] not in current and row["source"] in WRITTEN and not row["file_hash"]:
        stale = False  # a note on a folder or unindexed file has nothing to go stale against
    text = row["text"]
    if len(text) > MAX_NOTE_CHARS:  # stored before the limit: shown cut, as a new one would be
        text = f"{text[:MAX_NOTE_CHARS]} [cut: {len(text) - MAX_NOTE_CHARS:,} more characters]"
    return Note(row["path"], row["source"], text, row["file_hash"], float(row["updated_at"]), stale)


def _order(note: Note) -> tuple[str, int, bool, float]:
    return (note.path, SOURCES.index(note.source), note.stale, -note.updated_at)


def list_notes(
    cfg: Config, paths: Sequence[str] | None = None, *, store: Any | None = None
) -> list[Note]:
    """Every note (of these repository-relative paths, or all), people's notes first.

    Pass `store` to reuse an open `Store`.

    Raises:
        StoreError: if there is no index yet.
    """
    from repomem.index import query

    if store is None:
        store = query.require_store(cfg)
    rows = read_rows(store, paths)
    current = _current(cfg, store, paths, {r["path"] for r in rows})
    return sorted((_to_note(r, current) for r in rows), key=_order)


def best_notes(cfg: Config, paths: Sequence[str], *, store: Any | None = None) -> dict[str, Note]:
    """The one note to show per path: human, then assistant, then model, then offline notes;
    fresh before stale within a source. Paths without notes are left out (for context packs;
    check `Note.stale` before trusting one).

    Raises:
        StoreError: if there is no index yet.
    """
    best: dict[str, Note] = {}
    for note in list_notes(cfg, paths, store=store):
        best.setdefault(note.path, note)
    return best


def why_no_notes(cfg: Config, rel: str, *, store: Any | None = None) -> str:
    """Why the repository path `rel` has no notes, as a sentence saying what to do.

    Raises:
        NotFoundError: if the path does not exist.
        StoreError: if there is no index yet.
    """
    from repomem.index import query

    why = query.why_not_indexed(cfg, store or query.require_store(cfg), rel)
    if why == query.MISSING:
        raise NotFoundError(f"`{rel}` does not exist in `{cfg.root}`; check the path.")
    if why is None:
        return f"No notes on `{rel}`; run `repomem notes {rel}` to generate one."
    if why == query.DIRECTORY:
        return f"No notes on the folder `{rel}`; write one with `repomem note {rel} TEXT`."
    if why == query.NEW:
        return (
            f"No notes on `{rel}`: it is {why}; run `repomem notes {rel}` to index it and "
            f"generate one."
        )
    return f"No notes on `{rel}`: it is not indexed, {why}."


# --------------------------------------------------------------------------- writing by people


def repo_path(cfg: Config, raw: str | Path) -> str:
    """A file or folder given by a user as a repository-relative POSIX path.

    Absolute paths must lie inside the repository; relative ones are taken from its root.

    Raises:
        InputError: if the path is outside the repository, or names a credential file.
    """
    return paths.confine(cfg, str(raw), allow_absolute=True)


def write_note(
    cfg: Config, path: str | Path, text: str, *, source: str = HUMAN, replace: bool = False
) -> tuple[Note, int]:
    """Store a note written by a person or an assistant; returns it and how many secrets were
    redacted from it. `replace` drops this source's earlier notes on the path first.

    Raises:
        InputError: empty text, unknown source, a path outside the repository.
        NotFoundError: the path does not exist.
        StoreError: no index yet, or the store is locked too long.
    """
    from repomem.index import query

    if source not in WRITTEN:
        raise InputError(f"Unknown note source `{source}`; use one of {', '.join(WRITTEN)}.")
    body = fsutil.valid_text(text).strip()
    if not body:
        raise InputError("The note is empty; give its text.")
    if len(body) > MAX_NOTE_CHARS:
        raise InputError(
            f"The note is {len(body):,} characters long; keep it under {MAX_NOTE_CHARS:,}."
        )
    rel = repo_path(cfg, path)
    full = cfg.root / rel
    if not full.exists():
        raise NotFoundError(f"`{rel}` does not exist in `{cfg.root}`; check the path.")
    store = query.require_store(cfg)
    # config_like, as for memory facts: `password=x` in prose counts too
    body, redacted = secrets.redact(
        body, config_like=True, extra_patterns=cfg.secrets.extra_patterns
    )
    # The file as it is now (the index may be behind), and only a file the index has: a
    # note on a file it skips has nothing to go stale against.
    file_hash = _current(cfg, store, [rel], {rel}).get(rel) or ""
    note = Note(rel, source, body, file_hash, time.time())
    with store.writing():
        if replace:
            store.delete_notes([rel], [source])
        store.add("notes", [note.as_row()])
    return note, redacted
