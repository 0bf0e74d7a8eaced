"""The stat cache: the size and mtime a file had when its content was last found unchanged, kept
apart from the `files` table.

A run compares each file's size and mtime with the stored ones, then reads the files that
differ and compares content hashes. A file whose content did not change (`touch`, a checkout
that rewrote it, every file of a new worktree) keeps its rows, but its new size and mtime must
be recorded, or every later plan reads it again. Recorded in `files`, that rewrote the rows,
and the full-text index lacks rewritten rows until a compaction folds them in (a seeded sympy
worktree: all 2,058 rows, about two seconds). So they are recorded here instead, in a small
JSON file in the state directory: `{"version": 1, "files": {path: [size, mtime_ns, hash]}}`.

An entry stands in for its `files` row's size and mtime only while its hash is the row's hash
(`_Stats._restat`, applied to every read of `files`). Each entry is a fact about the work tree,
"a file of this size and mtime held this content", true whichever version of the tables a
reader sees, and whichever store reads it: so the file needs no publication, a crash between
it and the tables' writes leaves nothing wrong (an entry whose row changed is ignored), and one
write replaces the whole file (temp file, `os.replace`), under the write lock. A run that
writes a path's rows drops its entry unless the entry says what was written (the file changed
since, or holds other content at that size and mtime); nothing else forgets entries: a full
build keeps those its rows agree with, so a `--full` build of another store of the same tree
(a configured `store.path`) leaves this store's files unread.

The file is per work tree, as the state directory is: a store shared by two checkouts, or
copied into a new worktree (`indexer.seed`), brings no other tree's mtimes. A missing, damaged
or other-version file reads as empty, so every file is compared with its `files` row, as in
stores from before the cache (which need no migration: their first run that finds files only
touched fills it).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from repomem.errors import RepomemError
from repomem.fsutil import atomic_write
from repomem.index.store.tables import _Tables

log = logging.getLogger(__name__)

# Bump when the file's layout changes: a file of another version reads as empty.
STATS_VERSION = 1

Stat = tuple[int, int, str]  # size, mtime_ns, content hash


class _Stats(_Tables):
    """The stat cache beside the tables (see the module docstring)."""

    @property
    def stats_path(self) -> Path:
        return self.state_dir / "stats.json"

    def recorded_stats(self) -> dict[str, Stat]:
        """{path: (size, mtime_ns, hash)} as recorded; empty when the file is missing, damaged
        or of another version (a cache: the files are then read again, never an error)."""
        try:
            data = json.loads(self.stats_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.info("ignoring the stat cache %s: %s", self.stats_path, exc)
            return {}
        if not isinstance(data, dict) or data.get("version") != STATS_VERSION:
            return {}
        files = data.get("files")
        if not isinstance(files, dict):
            return {}
        out: dict[str, Stat] = {}
        for path, entry in files.items():
            if _valid(entry):
                out[path] = (entry[0], entry[1], entry[2])
        return out

    def record_stats(
        self, seen: Mapping[str, Stat], written: Mapping[str, Stat | None] | None = None
    ) -> None:
        """Record the size and mtime of files found with their stored content (`seen`), and
        check the entries of the paths whose rows were written or deleted (`written`: the
        state each row was written with, None for a path left without a row). An entry that
        says what was written stays: it is still true of the work tree, and another store of
        the same tree may need it (a `--full` build of a store kept elsewhere writes every
        path). Any other entry of a written path is dropped: it describes a file that has
        changed since, or one the run found holds other content at that size and mtime.
        Writes nothing when nothing changes. A failed write is logged, not raised: it costs
        reading those files again. Hold the write lock."""
        written = written or {}
        if not seen and not written:
            return
        entries = self.recorded_stats()
        kept = {p: e for p, e in entries.items() if p not in written or written[p] == e}
        if not seen and len(kept) == len(entries):
            return
        kept.update(seen)
        files = {p: list(kept[p]) for p in sorted(kept)}
        text = json.dumps({"version": STATS_VERSION, "files": files}, separators=(",", ":"))
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            atomic_write(self.stats_path, text)
        except (OSError, RepomemError) as exc:
            log.warning("cannot record the stat cache %s: %s", self.stats_path, exc)

    def _restat(self, tbl: Any) -> Any:
        """`tbl` (rows of `files` with their path, hash, size and mtime_ns) with each row's
        size and mtime taken from the cache where the entry's hash is the row's."""
        entries = self.recorded_stats()
        if not entries or tbl.num_rows == 0:
            return tbl
        paths = pa.array(list(entries), pa.string())
        at = pc.index_in(tbl.column("path"), value_set=paths)  # null: no entry
        hashes = pa.array([e[2] for e in entries.values()], pa.string()).take(at)
        same = pc.fill_null(pc.equal(tbl.column("hash"), hashes), False)
        for i, column in ((0, "size"), (1, "mtime_ns")):
            values = pa.array([e[i] for e in entries.values()], pa.int64()).take(at)
            merged = pc.if_else(same, values, tbl.column(column))
            tbl = tbl.set_column(tbl.schema.get_field_index(column), column, merged)
        return tbl


def _valid(entry: Any) -> bool:
    return (
        isinstance(entry, list)
        and len(entry) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) for v in entry[:2])
        and isinstance(entry[2], str)
    )
