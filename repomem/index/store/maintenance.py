"""Keeping the store in shape: tables created, migrated, rebuilt or emptied for a full build,
the full-text and path indexes built and kept current, compaction with the cleanup of old
versions, and the disk the store uses."""

from __future__ import annotations

import contextlib
import logging
import os
from typing import Any

from lancedb.index import BTree

from repomem.errors import StoreError
from repomem.index import schema as _schema
from repomem.index.store.schemas import (
    DERIVED,
    FTS_COLUMNS,
    MIGRATIONS,
    PATH_INDEXED,
    TABLES,
    WRITER_FTS,
    _fts_config,
)
from repomem.index.store.stats import _Stats

log = logging.getLogger(__name__)


class _Maintenance(_Stats):
    """Schema, indexes and compaction."""

    def ensure_schema(self) -> bool:
        """Create missing tables, migrate or rebuild old ones. Must hold the write lock.

        Returns True when the derived tables were (re)created empty and need a full build.

        Raises:
            StoreError: if the store was written by a newer repomem.
        """
        names = set(self._names())
        rebuilt = False
        if "meta" in names:
            raw = self.get_meta("schema_version")
            version = int(raw) if raw and raw.isdigit() else 0
            if version > _schema.SCHEMA_VERSION:
                raise StoreError(
                    f"The index at `{self.uri}` has schema version {version}, newer than this "
                    f"repomem ({_schema.SCHEMA_VERSION}); upgrade repomem "
                    f"(`pip install -U repomem`)."
                )
            while 0 < version < _schema.SCHEMA_VERSION and version in MIGRATIONS:
                MIGRATIONS[version](self)
                version += 1
            if version != _schema.SCHEMA_VERSION:
                log.info("index schema %s is outdated; rebuilding the derived tables", version)
                for name in DERIVED:
                    if name in names:
                        self._db.drop_table(name)
                        names.discard(name)
                self._tables.clear()
                self._fts_ready.clear()  # the new tables have no index yet
                rebuilt = True
        for name, schema in TABLES.items():
            if name not in names:
                self._tables[name] = self._db.create_table(name, schema=schema)
                rebuilt = rebuilt or name in DERIVED
        self.set_meta({"schema_version": str(_schema.SCHEMA_VERSION)})
        return rebuilt

    def clear_derived(self) -> None:
        """Empty the tables built from the working tree (for `--full`). Hold the write lock.

        The stat cache stays: its entries are facts about the work tree, which the build
        checks as it writes each file's row (`_Stats.record_stats`); another store of the same
        tree (a configured `store.path`) still reads them.

        The rows are deleted, not the tables: readers stay on the last published versions
        (their files stay until a cleanup) and see the rebuild only when it is published. A
        table that cannot be emptied (damaged, or missing) is dropped and created again.
        """
        self._fts_ready.clear()
        names = self._names()
        for name in DERIVED:
            self._tables.pop(name, None)
            if name in names:
                try:
                    tbl = self._db.open_table(name)
                    tbl.delete("true")
                    for ix in tbl.list_indices():
                        tbl.drop_index(ix.name)  # built again over the new rows
                    self._tables[name] = tbl
                    continue
                except (OSError, ValueError, RuntimeError) as exc:
                    log.info("cannot empty %s (%s); creating it again", name, exc)
                    self._db.drop_table(name)
            self._tables[name] = self._db.create_table(name, schema=TABLES[name])

    def ensure_indexes(self) -> None:
        """Create the full-text and path indexes if missing (cheap when they exist).

        The builds for different tables run in parallel threads (LanceDB builds in Rust).
        """
        jobs: list[tuple[Any, str, Any]] = []
        for name in PATH_INDEXED:
            tbl = self.table(name)
            if tbl.count_rows() == 0:
                continue
            present = {tuple(ix.columns) for ix in tbl.list_indices()}
            if ("path",) not in present:
                jobs.append((tbl, "path", BTree()))
            column = FTS_COLUMNS.get(name)
            if column and (column,) not in present:
                jobs.append((tbl, column, _fts_config()))
        if len(jobs) <= 1:
            for tbl, column, config in jobs:
                tbl.create_index(column, config=config)
            return
        from concurrent.futures import ThreadPoolExecutor

        # Largest first, so the long full-text builds start together.
        jobs.sort(key=lambda j: isinstance(j[2], BTree))
        with ThreadPoolExecutor(max_workers=min(3, len(jobs))) as pool:
            for future in [pool.submit(t.create_index, c, config=cf) for t, c, cf in jobs]:
                future.result()

    def indexes_lagging(self, share: float = 0.1, floor: int = 1000) -> bool:
        """True when many rows were added since the full-text indexes were built.

        LanceDB searches such rows by brute force, and they skew BM25 statistics: folding
        them in (`optimize`) keeps searches fast after many incremental runs.
        """
        return any(
            unindexed > max(floor, share * total)
            for backlog in self.fts_backlog().values()
            for unindexed, total in backlog
        )

    def fts_backlog(self) -> dict[str, list[tuple[int, int]]]:
        """{table: [(rows its full-text index lacks, rows), ...]} of the searched tables."""
        searched = {**FTS_COLUMNS, **{n: c for n, c in WRITER_FTS.items() if self._has_table(n)}}
        out: dict[str, list[tuple[int, int]]] = {}
        for name, column in searched.items():
            tbl = self.table(name)
            for ix in tbl.list_indices():
                stats = tbl.index_stats(ix.name) if tuple(ix.columns) == (column,) else None
                if stats is not None:
                    unindexed = stats.num_unindexed_rows
                    total = stats.num_indexed_rows + unindexed
                    out.setdefault(name, []).append((unindexed, total))
        return out

    def optimize(self, cleanup_seconds: float = 300.0) -> None:
        """Compact the tables, fold new rows into indexes, and drop old versions.

        Publishes first: readers then move on to the latest versions before the ones they
        were pinned to are cleaned up. Hold the write lock.
        """
        from datetime import timedelta

        self.publish()
        names = self._names()
        for name in [*TABLES, "vectors"]:
            if name in names:
                self.table(name).optimize(cleanup_older_than=timedelta(seconds=cleanup_seconds))

    def size_bytes(self) -> int | None:
        """Disk use of a local store (a path or a `file://` URI), None for remote URIs."""
        local = self.uri.removeprefix("file://")
        if "://" in local:
            return None
        total = 0
        for dirpath, _dirs, names in os.walk(local):
            for n in names:
                with contextlib.suppress(OSError):
                    total += os.path.getsize(os.path.join(dirpath, n))
        return total
