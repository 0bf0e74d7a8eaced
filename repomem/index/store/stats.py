"""The stat cache: the size and mtime a file had when its content was last found unchanged, kept
apart from the `files` table.

A run compares each file's size and mtime with the stored ones, then reads the files that
differ and compares content hashes. A file whose content did not change (`touch`, a checkout
that rewrote it, every file of a new worktree) keeps its rows, but its new size and mtime must
be recorded, or every later plan reads it again. Recorded in `files`, that rewrote the rows,
and the full-text index lacks rewritten rows until a compaction folds them in (a seeded sympy
worktree: all 2,058 rows, about two seconds). So they are recorded here instead, in a small
JSON file in the state directory: `{"version": 2, "files": {path: [size, mtime_ns, hash]},
"skipped": {path: [[size, mtime_ns, hash], ...]}}`.

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

A file skipped once read (binary, generated, minified: verdicts of its whole content) has a
`files` row with no hash. What the row was written for is recorded under "skipped": the file's
size, mtime and content hash when it was read, newest first (a few, so two stores of the tree
each find theirs). A skip row whose size and mtime are one of them holds that content: the
file's entry in "files" stands in for it when its hash is that content, and a run that finds
such a file touched compares its hash with that content instead of judging it anew and
writing its row again (`Store.skip_contents`). These facts are about rows, not this tree's
mtimes: a seeded worktree takes its donor's (`indexer.seed`), which name the copied rows.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.compute as pc

from repomem.errors import RepomemError
from repomem.fsutil import atomic_write
from repomem.index.store.tables import _Tables

log = logging.getLogger(__name__)

# Bump when the file's layout changes: a file of another version reads as empty (version 1,
# without "skipped", is read as it is).
STATS_VERSION = 2
READABLE = (1, 2)
SKIP_FACTS = 4  # the contents remembered per skipped path

Stat = tuple[int, int, str]  # size, mtime_ns, content hash


class _Recorded:
    """A stat cache as read: its entries, its skip facts, and (built once, for `_restat`)
    both as Arrow arrays. Shared with the memo: not to be changed."""

    def __init__(self, entries: dict[str, Stat], facts: dict[str, list[Stat]]) -> None:
        self.entries = entries
        self.facts = facts
        self._arrays: tuple[Any, ...] | None = None

    def arrays(self) -> tuple[Any, ...]:
        """(paths, hashes, sizes, mtimes) of the entries; (keys, contents) of the skip facts,
        each key the path, size and mtime_ns joined by NUL."""
        if self._arrays is None:
            e, f = self.entries, self.facts
            self._arrays = (
                pa.array(list(e), pa.string()),
                pa.array([v[2] for v in e.values()], pa.string()),
                pa.array([v[0] for v in e.values()], pa.int64()),
                pa.array([v[1] for v in e.values()], pa.int64()),
                pa.array([f"{p}\0{s}\0{m}" for p, fs in f.items() for s, m, _h in fs], pa.string()),
                pa.array([h for fs in f.values() for _s, _m, h in fs], pa.string()),
            )
        return self._arrays


_EMPTY = _Recorded({}, {})

# The last contents read or written of each stat cache, by its (mtime_ns, size, inode): a
# long-lived process (the server, the watcher) reads `files` again and again, and each read
# would parse the whole file again (2,026 entries: ~12 ms). Every write replaces the file
# (a new inode, a new mtime); a stale memo would need two writes of the same size in one
# clock tick onto a reused inode, and would cost at most a file read again: its entries are
# facts checked against each row.
_MEMO: dict[str, tuple[tuple[int, int, int], _Recorded]] = {}


class _Stats(_Tables):
    """The stat cache beside the tables (see the module docstring)."""

    @property
    def stats_path(self) -> Path:
        return self.state_dir / "stats.json"

    def recorded_stats(self) -> dict[str, Stat]:
        """{path: (size, mtime_ns, hash)} as recorded; empty when the file is missing, damaged
        or of another version (a cache: the files are then read again, never an error)."""
        return dict(self._recorded().entries)

    def recorded_skips(self) -> dict[str, list[Stat]]:
        """{path: [(size, mtime_ns, content hash), ...]}: what the skip rows of these sizes and
        mtimes were written for, newest first (see the module docstring)."""
        return {p: list(facts) for p, facts in self._recorded().facts.items()}

    def _recorded(self) -> _Recorded:
        """The entries and skip facts as recorded (shared with the memo: not to be changed)."""
        path = self.stats_path
        try:
            with open(path, encoding="utf-8") as fh:
                st = os.fstat(fh.fileno())
                key = (st.st_mtime_ns, st.st_size, st.st_ino)
                memo = _MEMO.get(str(path))
                if memo is not None and memo[0] == key:
                    return memo[1]
                text = fh.read()
        except FileNotFoundError:
            return _EMPTY
        except (OSError, ValueError) as exc:
            log.info("ignoring the stat cache %s: %s", path, exc)
            return _EMPTY
        recorded = _parse(text, path)
        _remember(path, key, recorded)
        return recorded

    def record_stats(
        self,
        seen: Mapping[str, Stat],
        written: Mapping[str, Stat | None] | None = None,
        skipped: Mapping[str, Sequence[Stat]] | None = None,
    ) -> None:
        """Record the size and mtime of files found with their stored content (`seen`), and
        check the entries of the paths whose rows were written or deleted (`written`: the
        state each row was written with, a skip row's with the content it was read with;
        None for a path left without a row). An entry that says what was written stays: it
        is still true of the work tree, and another store of the same tree may need it (a
        `--full` build of a store kept elsewhere writes every path). Any other entry of a
        written path is dropped: it describes a file that has changed since, or one the run
        found holds other content at that size and mtime. `skipped`: the skip rows written (or
        copied) with a known content, {path: [(size, mtime_ns, content hash), ...]}; a written
        path with none of them forgets what its skip rows were written for. Writes nothing
        when nothing changes. A failed write is logged, not raised: it costs reading those
        files again. Hold the write lock."""
        written, skipped = written or {}, skipped or {}
        if not seen and not written and not skipped:
            return
        read = self._recorded()
        entries, facts = read.entries, read.facts
        kept = {p: e for p, e in entries.items() if p not in written or written[p] == e}
        kept_facts = {p: f for p, f in facts.items() if p not in written or p in skipped}
        for path, new in skipped.items():
            old = [f for f in kept_facts.get(path, []) if f not in new]
            kept_facts[path] = [*new, *old][:SKIP_FACTS]
        if not seen and kept == entries and kept_facts == facts:
            return
        kept.update(seen)
        recorded = _Recorded(kept, kept_facts)
        data = {
            "version": STATS_VERSION,
            "files": {p: list(kept[p]) for p in sorted(kept)},
            "skipped": {p: [list(f) for f in kept_facts[p]] for p in sorted(kept_facts)},
        }
        try:
            self.state_dir.mkdir(parents=True, exist_ok=True)
            atomic_write(self.stats_path, json.dumps(data, separators=(",", ":")))
            st = os.stat(self.stats_path)  # no other writer: we hold the write lock
        except (OSError, RepomemError) as exc:
            log.warning("cannot record the stat cache %s: %s", self.stats_path, exc)
            return
        _remember(self.stats_path, (st.st_mtime_ns, st.st_size, st.st_ino), recorded)

    def skip_contents(self, states: Mapping[str, Stat]) -> dict[str, str]:
        """{path: content hash} for the skip rows among `states` (read through `_restat`:
        {path: (size, mtime_ns, hash)}, a skip row's hash empty) whose content is recorded."""
        if not states:
            return {}
        read = self._recorded()
        entries, facts = read.entries, read.facts
        out: dict[str, str] = {}
        for path, (size, mtime, stored) in states.items():
            if stored or path not in facts:
                continue
            now = entries.get(path)
            for f in facts[path]:
                # the row's own stat, or the file's later one that `_restat` put in its place
                if (size, mtime) == f[:2] or now == (size, mtime, f[2]):
                    out[path] = f[2]
                    break
        return out

    def _restat(self, tbl: Any) -> Any:
        """`tbl` (rows of `files` with their path, hash, size and mtime_ns) with each row's
        size and mtime taken from the cache where the entry's hash is the row's content: its
        hash, or for a skip row the content recorded for its size and mtime."""
        read = self._recorded()
        if not read.entries or tbl.num_rows == 0:
            return tbl
        paths, hashes, sizes, mtimes, keys, contents = read.arrays()
        content = tbl.column("hash")
        if read.facts:
            content = _skip_content(tbl, keys, contents)
        at = pc.index_in(tbl.column("path"), value_set=paths)  # null: no entry
        same = pc.fill_null(pc.equal(content, hashes.take(at)), False)
        for values, column in ((sizes, "size"), (mtimes, "mtime_ns")):
            merged = pc.if_else(same, values.take(at), tbl.column(column))
            tbl = tbl.set_column(tbl.schema.get_field_index(column), column, merged)
        return tbl


def _parse(text: str, path: Path) -> _Recorded:
    """The entries and skip facts of a stat cache's text; empty when it is damaged or of
    another version."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        log.info("ignoring the stat cache %s: %s", path, exc)
        return _EMPTY
    if not isinstance(data, dict) or data.get("version") not in READABLE:
        return _EMPTY
    files, skipped = data.get("files"), data.get("skipped", {})
    if not isinstance(files, dict) or not isinstance(skipped, dict):
        return _EMPTY
    seen = {p: (e[0], e[1], e[2]) for p, e in files.items() if _valid(e)}
    facts: dict[str, list[Stat]] = {}
    for name, entries in skipped.items():
        if isinstance(entries, list):
            kept = [(e[0], e[1], e[2]) for e in entries if _valid(e)]
            if kept:
                facts[name] = kept
    return _Recorded(seen, facts)


def _remember(path: Path, key: tuple[int, int, int], recorded: _Recorded) -> None:
    if len(_MEMO) >= 8 and str(path) not in _MEMO:
        _MEMO.clear()
    _MEMO[str(path)] = (key, recorded)


def _skip_content(tbl: Any, keys: Any, contents: Any) -> Any:
    """The `hash` column of `tbl` with each skip row's (empty) hash replaced by the content
    recorded for its path, size and mtime (`_Recorded.arrays`), where one is."""
    row_keys = pc.binary_join_element_wise(
        tbl.column("path"), pc.cast(tbl.column("size"), pa.string()),
        pc.cast(tbl.column("mtime_ns"), pa.string()), "\0",
    )  # fmt: skip
    found = contents.take(pc.index_in(row_keys, value_set=keys))
    hashes = tbl.column("hash")
    use = pc.fill_null(pc.and_(pc.equal(hashes, ""), pc.is_valid(found)), False)
    return pc.if_else(use, found, hashes)


def _valid(entry: Any) -> bool:
    return (
        isinstance(entry, list)
        and len(entry) == 3
        and all(isinstance(v, int) and not isinstance(v, bool) for v in entry[:2])
        and isinstance(entry[2], str)
    )
