"""The index store: an embedded LanceDB database (the only module importing lancedb/pyarrow).

Tables
    files    one row per indexed file: path, language, content hash, size, mtime, tokens, text
    symbols  definitions: name, qualified name, kind, signature, doc, lines
    refs     uses of names (and imports), folded per (file, name, kind, enclosing definition)
    notes    per-file notes (generated or written by people/assistants), room for later issues
    memory   the project memory file's entries (search tokens in `text`, JSON in `data`)
    meta     key/value: schema version, indexed commit, timestamps
    vectors  optional dense embeddings of file cards (`embed.enabled`), keyed by a hash of the
             model, card version, path and file content: a cache kept across rebuilds and
             checkouts, created on first use (see `repomem.index.dense`)

Readers see whole updates only. A writer commits several versions per table while it works;
when it is done it *publishes* the versions of the derived tables in `meta` (key `published`).
A reading Store opens each derived table at its published version, so files, symbols and refs
always come from the same finished update (LanceDB keeps every version until `optimize` cleans
up versions older than a few minutes). A full rebuild (`--full`, a schema change) drops the
tables, so readers during one may see it half-built.

The database location is a URI (a local directory by default, under the git directory so it is
never committed; LanceDB also accepts object-store URIs). Only the write lock and the crash
journal are local files, kept beside the lock.

Full-text search uses LanceDB's native index over a `search` column that holds code-aware tokens
(see `repomem.index.tokens`), tokenized on whitespace with English stemming.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import importlib.util
import json
import logging
import os
import re
import sys
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repomem.errors import StoreError
from repomem.fsutil import FileLock, cannot_write, valid_text
from repomem.index import schema as _schema
from repomem.index import tokens as tok


def _defer_package_init(package: str) -> None:
    """Register `package` without running its `__init__` until one of its names is used.

    lancedb imports `lance_namespace`, which imports models from the REST client package
    `lance_namespace_urllib3_client`; that package's `__init__` builds some sixty API classes
    with pydantic validators (about 1.2 s of every CLI start on this machine) that a local
    store never calls. Its submodules still import normally (the package keeps its path), and
    the first use of a name defined in `__init__` runs it then.
    """
    if package in sys.modules:
        return
    try:
        spec = importlib.util.find_spec(package)
    except (ImportError, ValueError):
        return
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return
    module = importlib.util.module_from_spec(spec)
    loader = spec.loader
    ran: list[bool] = []

    def load_on_use(name: str) -> Any:
        if name.startswith("__") or ran:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        ran.append(True)
        loader.exec_module(module)
        return getattr(module, name)

    module.__getattr__ = load_on_use  # type: ignore[method-assign]
    sys.modules[package] = module


_defer_package_init("lance_namespace_urllib3_client")

import lancedb  # noqa: E402
import pyarrow as pa  # noqa: E402
from lancedb.index import FTS, BTree  # noqa: E402

log = logging.getLogger(__name__)


FILES = pa.schema(
    [
        pa.field("path", pa.string()),
        pa.field("language", pa.string()),
        pa.field("hash", pa.string()),
        pa.field("size", pa.int64()),
        pa.field("mtime_ns", pa.int64()),
        pa.field("tokens", pa.int32()),
        pa.field("lines", pa.int32()),
        pa.field("symbols", pa.int32()),
        pa.field("redactions", pa.int32()),
        pa.field("indexed_at", pa.float64()),
        pa.field("skip", pa.string()),  # why a listed file is not indexed ("" when it is)
        pa.field("text", pa.large_string()),
        pa.field("search", pa.large_string()),
    ]
)
SYMBOLS = pa.schema(
    [
        pa.field("id", pa.string()),
        pa.field("path", pa.string()),
        pa.field("language", pa.string()),
        pa.field("name", pa.string()),
        pa.field("qualname", pa.string()),
        pa.field("kind", pa.string()),
        pa.field("parent", pa.string()),
        pa.field("signature", pa.string()),
        pa.field("doc", pa.string()),
        pa.field("start_line", pa.int32()),
        pa.field("end_line", pa.int32()),
        pa.field("file_hash", pa.string()),
        pa.field("search", pa.string()),
    ]
)
CHUNKS = pa.schema(
    [
        pa.field("path", pa.string()),
        pa.field("start_line", pa.int32()),
        pa.field("end_line", pa.int32()),
        pa.field("file_hash", pa.string()),
        pa.field("search", pa.large_string()),
    ]
)
REFS = pa.schema(
    [
        pa.field("path", pa.string()),
        pa.field("name", pa.string()),
        pa.field("kind", pa.string()),
        pa.field("scope", pa.string()),
        pa.field("line", pa.int32()),
        pa.field("count", pa.int32()),
    ]
)
NOTES = pa.schema(
    [
        pa.field("path", pa.string()),
        pa.field("source", pa.string()),
        pa.field("text", pa.string()),
        pa.field("file_hash", pa.string()),
        pa.field("updated_at", pa.float64()),
    ]
)
MEMORY = pa.schema(
    [
        pa.field("id", pa.string()),
        pa.field("kind", pa.string()),
        pa.field("text", pa.string()),
        pa.field("data", pa.string()),
        pa.field("updated_at", pa.float64()),
    ]
)
COMMITS = pa.schema(
    [
        pa.field("sha", pa.string()),
        pa.field("when", pa.int64()),
        pa.field("subject", pa.string()),
        pa.field("text", pa.string()),  # search tokens of the (redacted) message
        pa.field("files", pa.list_(pa.string())),
    ]
)
META = pa.schema([pa.field("key", pa.string()), pa.field("value", pa.string())])
VECTOR_DIM = 384
VECTORS = pa.schema(
    [
        pa.field("key", pa.string()),
        pa.field("path", pa.string()),
        pa.field("hash", pa.string()),
        pa.field("vector", pa.list_(pa.float32(), VECTOR_DIM)),
    ]
)

TABLES: dict[str, pa.Schema] = {
    "files": FILES,
    "symbols": SYMBOLS,
    "chunks": CHUNKS,
    "refs": REFS,
    "notes": NOTES,
    "memory": MEMORY,
    "commits": COMMITS,
    "meta": META,
}
DERIVED = _schema.DERIVED
FTS_COLUMNS = {"files": "search", "symbols": "search", "chunks": "search"}
# Full-text indexes that their writers keep (`replace_memory`, `write_commits`); the tables may
# be empty (no memory yet, no git) or absent (a store from before commits were kept).
WRITER_FTS = {"memory": "text", "commits": "text"}
PATH_INDEXED = ("files", "symbols", "chunks", "refs", "notes")

# Upgrades from an older schema version: {from_version: function(store)}. A version without an
# entry is rebuilt from the working tree (the index is derived data).
MIGRATIONS: dict[int, Any] = {}


@dataclass(frozen=True)
class Hit:
    """A full-text search result."""

    kind: str  # "symbol" or "file"
    path: str
    name: str
    qualname: str
    symbol_kind: str
    signature: str
    doc: str
    start_line: int
    end_line: int
    score: float

    def as_dict(self) -> dict[str, Any]:
        return {
            "type": self.kind,
            "path": self.path,
            "name": self.name,
            "qualname": self.qualname,
            "kind": self.symbol_kind,
            "signature": self.signature,
            "doc": self.doc,
            "start_line": self.start_line,
            "end_line": self.end_line,
            "score": round(self.score, 4),
        }


def quote(value: str) -> str:
    """A SQL string literal for a LanceDB filter."""
    return "'" + valid_text(value).replace("'", "''") + "'"


def in_list(column: str, values: Iterable[str]) -> str:
    return f"{column} IN ({', '.join(quote(v) for v in values)})"


class WriteLock(FileLock):
    """The index's exclusive write lock (released by the OS if its holder dies)."""

    def timeout_message(self, holder: str) -> str:
        return (
            f"The index at `{self.path.parent}` is locked by another repomem process"
            f"{holder} for over {self.timeout:g}s; wait for it to finish or raise "
            f"`index.lock_timeout`."
        )


def _fts_config() -> Any:
    return FTS(
        base_tokenizer="whitespace", lower_case=True, stem=True, remove_stop_words=False,
        ascii_folding=True, with_position=False, max_token_length=tok.MAX_TOKEN,
    )  # fmt: skip


class Store:
    """One repository's index. Reads need no lock; writes happen inside `Store.writing()`."""

    def __init__(self, uri: str, state_dir: Path, *, lock_timeout: float = 120.0) -> None:
        self.uri = uri
        self.state_dir = state_dir
        self.lock_timeout = lock_timeout
        try:
            self._db = lancedb.connect(uri)
        except (OSError, ValueError, RuntimeError) as exc:
            raise StoreError(
                f"Cannot open the index store `{uri}` ({exc}); check `store.path`."
            ) from exc
        self._tables: dict[str, Any] = {}
        self._fts_ready: set[str] = set()
        self._writing = False
        self._wrote = False
        self._published: dict[str, int] | None = None
        self._stamp = ""

    # ----------------------------------------------------------------- lifecycle
    @property
    def lock_path(self) -> Path:
        return self.state_dir / "index.lock"

    @property
    def journal_path(self) -> Path:
        return self.state_dir / "journal.json"

    def exists(self) -> bool:
        """Whether an index has been built here (a schema version is recorded)."""
        return "meta" in self._names() and self.get_meta("schema_version") is not None

    def _has_table(self, name: str) -> bool:
        return name in self._tables or name in self._names()

    def _names(self) -> list[str]:
        result = self._db.list_tables()
        names = getattr(result, "tables", result)
        return list(names)

    def table(self, name: str) -> Any:
        tbl = self._tables.get(name)
        if tbl is None:
            try:
                tbl = self._open(name)
            except (ValueError, FileNotFoundError, OSError) as exc:
                raise StoreError(
                    f"The index store `{self.uri}` has no `{name}` table; run "
                    f"`repomem doctor --fix` (or `repomem index --full`)."
                ) from exc
            if not self._writing and name in DERIVED:
                self._pin(name, tbl)
            self._tables[name] = tbl
        return tbl

    def _open(self, name: str) -> Any:
        try:
            return self._db.open_table(name)
        except (ValueError, FileNotFoundError, OSError):
            if self._writing:
                raise
            # a schema rebuild drops and re-creates the tables: wait for it, then look again
            _await_writer(self)
            self._published = None
            return self._db.open_table(name)

    def _pin(self, name: str, tbl: Any) -> None:
        """Read a derived table at its published version (the last finished update)."""
        if self._published is None:
            self._published, self._stamp = self._publication()
        version = self._published.get(name)
        if version is None or version == tbl.version:
            return
        try:
            tbl.checkout(version)
        except ValueError as exc:  # cleaned up, or the table was rebuilt: read the latest
            log.info("cannot read %s at version %s (%s); reading the latest", name, version, exc)

    def published(self) -> dict[str, int]:
        """The versions of the derived tables that the last finished update published."""
        return self._publication()[0]

    def _publication(self) -> tuple[dict[str, int], str]:
        """The published versions, and when the last index run finished (versions alone do
        not tell a store deleted and built again from the one before)."""
        if "meta" not in self._names():
            return {}, ""
        meta = self.all_meta()
        raw, stamp = meta.get("published"), meta.get("indexed_at", "")
        try:
            data = json.loads(raw) if raw else {}
        except ValueError:
            return {}, stamp
        if not isinstance(data, dict):
            return {}, stamp
        return {k: int(v) for k, v in data.items()}, stamp

    def current_versions(self) -> dict[str, int]:
        """The latest versions of the derived tables."""
        return {name: int(self.table(name).version) for name in DERIVED}

    def publish(self, meta: dict[str, str] | None = None) -> None:
        """Make this writer's changes visible to readers (with `meta`, in one commit)."""
        values = dict(meta or {})
        values["published"] = json.dumps(self.current_versions(), sort_keys=True)
        self.set_meta(values)

    def refresh(self) -> None:
        """Forget open tables, so the next reads see the latest published update."""
        self._tables.clear()
        self._published = None
        self._fts_ready.clear()
        self._wrote = False

    def renew(self) -> None:
        """Catch up with what was published since the tables were opened, for a reader kept
        across calls: its open tables keep their full-text indexes loaded (the first search
        of a freshly opened table costs ~30 ms more on a large index), so they are kept
        while nothing changed, and forgotten when anything did."""
        if self._wrote or self._published is None:
            self.refresh()
            return
        for name, tbl in list(self._tables.items()):
            if name not in DERIVED:
                tbl.checkout_latest()  # meta, memory, notes: read at their latest
        if self._publication() != (self._published, self._stamp):
            self.refresh()

    @contextlib.contextmanager
    def writing(self) -> Iterator[WriteLock]:
        """The write lock; hold it for every write. Inside it, tables are read at their latest."""
        with WriteLock(self.lock_path, self.lock_timeout) as lock:
            self._writing = True
            for tbl in list(self._tables.values()):
                tbl.checkout_latest()  # a pinned or stale handle cannot be written
            try:
                yield lock
            finally:
                self._writing = False
                self._wrote = True

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
                rebuilt = True
        for name, schema in TABLES.items():
            if name not in names:
                self._tables[name] = self._db.create_table(name, schema=schema)
                rebuilt = rebuilt or name in DERIVED
        self.set_meta({"schema_version": str(_schema.SCHEMA_VERSION)})
        return rebuilt

    def clear_derived(self) -> None:
        """Empty the tables built from the working tree (for `--full`). Hold the write lock.

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
        searched = {**FTS_COLUMNS, **{n: c for n, c in WRITER_FTS.items() if self._has_table(n)}}
        for name, column in searched.items():
            tbl = self.table(name)
            for ix in tbl.list_indices():
                if tuple(ix.columns) != (column,):
                    continue
                stats = tbl.index_stats(ix.name)
                if stats is None:
                    continue
                unindexed = stats.num_unindexed_rows
                if unindexed > max(floor, share * (stats.num_indexed_rows + unindexed)):
                    return True
        return False

    def optimize(self, cleanup_seconds: float = 300.0) -> None:
        """Compact the tables, fold new rows into indexes, and drop old versions.

        Publishes first: readers then move on to the latest versions before the ones they
        were pinned to are cleaned up. Hold the write lock.
        """
        from datetime import timedelta

        self.publish()
        for name in [*TABLES, "vectors"]:
            if name in self._names():
                self.table(name).optimize(cleanup_older_than=timedelta(seconds=cleanup_seconds))

    # ----------------------------------------------------------------- meta and journal
    def get_meta(self, key: str) -> str | None:
        rows = self.table("meta").search().where(f"key = {quote(key)}").limit(1).to_list()
        return str(rows[0]["value"]) if rows else None

    def all_meta(self) -> dict[str, str]:
        return {r["key"]: r["value"] for r in self.table("meta").to_arrow().to_pylist()}

    def set_meta(self, values: dict[str, str]) -> None:
        data = pa.table({"key": list(values), "value": list(values.values())}, schema=META)
        (
            self.table("meta")
            .merge_insert("key")
            .when_matched_update_all()
            .when_not_matched_insert_all()
            .execute(data)
        )

    def read_journal(self) -> list[str]:
        try:
            data = json.loads(self.journal_path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return []
        except (OSError, ValueError):
            log.warning(
                "unreadable index journal %s; treating the whole index as suspect",
                self.journal_path,
            )
            return ["*"]
        return [str(p) for p in data.get("paths", [])]

    def write_journal(self, paths: Sequence[str]) -> None:
        self.state_dir.mkdir(parents=True, exist_ok=True)
        tmp = self.journal_path.with_suffix(".tmp")
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump({"paths": list(paths)}, fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, self.journal_path)

    def clear_journal(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.journal_path.unlink()

    # ----------------------------------------------------------------- writes
    def delete_paths(self, paths: Sequence[str]) -> None:
        """Remove every derived row of these paths."""
        for start in range(0, len(paths), 500):
            where = in_list("path", paths[start : start + 500])
            for name in DERIVED:
                self.table(name).delete(where)

    def delete_rows(self, name: str, paths: Sequence[str]) -> None:
        """Remove the rows of these paths from one table."""
        for start in range(0, len(paths), 500):
            self.table(name).delete(in_list("path", paths[start : start + 500]))

    def delete_notes(self, paths: Sequence[str], sources: Sequence[str]) -> None:
        """Remove the notes of these paths written by these sources (others are kept)."""
        for start in range(0, len(paths), 500):
            where = in_list("path", paths[start : start + 500])
            self.table("notes").delete(f"({where}) AND {in_list('source', sources)}")

    def add(self, name: str, rows: list[dict[str, Any]]) -> None:
        if rows:
            self.table(name).add(pa.Table.from_pylist(rows, schema=TABLES[name]))

    def add_columns(self, name: str, columns: dict[str, list[Any]]) -> None:
        """Append rows given as {column: values} (every column of the table)."""
        if any(columns.values()):
            self.table(name).add(pa.Table.from_pydict(columns, schema=TABLES[name]))

    def rows_for_path(self, name: str, path: str) -> list[dict[str, Any]]:
        return self.rows_for_paths(name, [path])

    def rows_for_paths(self, name: str, paths: Sequence[str]) -> list[dict[str, Any]]:
        """Every row of these paths in one table (one query per 500 paths)."""
        rows: list[dict[str, Any]] = []
        for start in range(0, len(paths), 500):
            where = in_list("path", paths[start : start + 500])
            rows.extend(self.table(name).search().where(where).limit(None).to_list())
        return rows

    # ----------------------------------------------------------------- reads
    def file_states(self, paths: Sequence[str] | None = None) -> dict[str, tuple[int, int, str]]:
        """{path: (size, mtime_ns, hash)} for every indexed file (or only these paths)."""
        cols = self.column("files", ["path", "size", "mtime_ns", "hash"], paths)
        return {
            p: (s, m, h)
            for p, s, m, h in zip(
                cols["path"], cols["size"], cols["mtime_ns"], cols["hash"], strict=True
            )
        }

    def column(
        self, name: str, columns: list[str], paths: Sequence[str] | None = None
    ) -> dict[str, list[Any]]:
        """Whole columns of a table (or of these paths' rows only), as lists."""
        return dict(self._select(name, columns, paths).to_pydict())

    def coded_columns(
        self, name: str, columns: list[str], paths: Sequence[str] | None = None
    ) -> dict[str, tuple[Any, list[Any]]]:
        """Whole columns of a table (or of these paths' rows only), each as (codes, values): a
        numpy array of row -> index into `values`, the column's distinct values. For numpy work
        over every row: no Python object per row (a third of the time of `column` for 490,000
        references)."""
        tbl = self._select(name, columns, paths)
        out: dict[str, tuple[Any, list[Any]]] = {}
        for c in columns:
            coded = tbl.column(c).combine_chunks().dictionary_encode()
            indices, values = coded.indices, coded.dictionary.to_pylist()
            if indices.null_count:  # a null is one more value
                indices = indices.fill_null(len(values))
                values.append(None)
            out[c] = (indices.to_numpy(zero_copy_only=False), values)
        return out

    def _select(self, name: str, columns: list[str], paths: Sequence[str] | None) -> Any:
        """Columns of a table as an Arrow table: every row, or these paths' rows (`IN` lists of
        500 paths, which the path index answers)."""
        tbl = self.table(name)
        if paths is None:
            return tbl.search().select(columns).limit(None).to_arrow()
        parts = [
            tbl.search().where(in_list("path", paths[start : start + 500])).select(columns)
            .limit(None).to_arrow()
            for start in range(0, len(paths), 500)
        ]  # fmt: skip
        if not parts:
            return TABLES[name].empty_table().select(columns)
        return pa.concat_tables(parts)

    def count(self, name: str, where: str | None = None) -> int:
        return int(self.table(name).count_rows(where))

    def file(self, path: str) -> dict[str, Any] | None:
        rows = self.rows_for_path("files", path)
        return rows[0] if rows else None

    def texts(self, paths: Sequence[str]) -> dict[str, str]:
        """The stored (redacted) text of these files."""
        out: dict[str, str] = {}
        for start in range(0, len(paths), 200):
            where = in_list("path", paths[start : start + 200])
            for r in (
                self.table("files")
                .search()
                .where(where)
                .select(["path", "text"])
                .limit(None)
                .to_list()
            ):
                out[r["path"]] = r["text"]
        return out

    def file_symbols(self, paths: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """Symbols of these files, in line order."""
        out: dict[str, list[dict[str, Any]]] = {p: [] for p in paths}
        cols = ["path", "name", "qualname", "kind", "parent", "signature", "start_line", "end_line"]
        for start in range(0, len(paths), 200):
            where = in_list("path", paths[start : start + 200])
            for r in self.table("symbols").search().where(where).select(cols).limit(None).to_list():
                out[r["path"]].append(r)
        for rows in out.values():
            rows.sort(key=lambda r: (r["start_line"], -r["end_line"]))
        return out

    def symbols_named(self, name: str, limit: int = 50) -> list[dict[str, Any]]:
        """Definitions whose name or qualified name equals `name` (case-sensitive)."""
        where = f"name = {quote(name)} OR qualname = {quote(name)}"
        cols = [
            "path",
            "name",
            "qualname",
            "kind",
            "parent",
            "signature",
            "doc",
            "start_line",
            "end_line",
            "language",
        ]
        return list(self.table("symbols").search().where(where).select(cols).limit(limit).to_list())

    def symbols_named_many(
        self, names: Sequence[str], limit: int = 2000
    ) -> dict[str, list[dict[str, Any]]]:
        """Definitions for several names at once: {name: rows}."""
        out: dict[str, list[dict[str, Any]]] = {n: [] for n in names}
        if not names:
            return out
        cols = ["path", "name", "qualname", "kind", "parent", "signature", "doc",
                "start_line", "end_line", "language"]  # fmt: skip
        rows = (self.table("symbols").search().where(in_list("name", names)).select(cols)
                .limit(limit).to_list())  # fmt: skip
        for r in rows:
            out[r["name"]].append(r)
        return out

    def references_to(self, name: str, limit: int = 500) -> list[dict[str, Any]]:
        return list(
            self.table("refs")
            .search()
            .where(f"name = {quote(name)}")
            .select(["path", "name", "kind", "scope", "line", "count"])
            .limit(limit)
            .to_list()
        )

    def search(
        self,
        query: str,
        *,
        kind: str | None = None,
        path_glob: str | None = None,
        limit: int = 20,
        files: bool = True,
    ) -> list[Hit]:
        """Full-text search over symbols (and whole files), best first."""
        q = tok.query(query)
        if not q:
            return []
        hits: list[Hit] = []
        fetch = max(limit * 4, 50) if path_glob else limit
        where = f"kind = {quote(kind)}" if kind and kind != "file" else None
        if kind != "file" and self.has_fts("symbols"):
            req = self.table("symbols").search(q, query_type="fts")
            if where:
                req = req.where(where, prefilter=True)
            cols = [
                "path",
                "name",
                "qualname",
                "kind",
                "signature",
                "doc",
                "start_line",
                "end_line",
                "_score",
            ]
            for r in req.select(cols).limit(fetch).to_list():
                hits.append(
                    Hit(
                        "symbol",
                        r["path"],
                        r["name"],
                        r["qualname"],
                        r["kind"],
                        r["signature"],
                        r["doc"],
                        r["start_line"],
                        r["end_line"],
                        float(r["_score"]),
                    )
                )
        if files and (kind is None or kind == "file") and self.has_fts("files"):
            req = self.table("files").search(q, query_type="fts")
            for r in req.select(["path", "lines", "_score"]).limit(fetch).to_list():
                hits.append(
                    Hit(
                        "file",
                        r["path"],
                        Path(r["path"]).name,
                        r["path"],
                        "file",
                        "",
                        "",
                        1,
                        int(r["lines"]),
                        float(r["_score"]),
                    )
                )
        if path_glob:
            from fnmatch import fnmatchcase

            hits = [
                h
                for h in hits
                if fnmatchcase(h.path, path_glob) or fnmatchcase(Path(h.path).name, path_glob)
            ]
        hits.sort(key=lambda h: -h.score)
        return hits[:limit]

    # ----------------------------------------------------------------- dense vectors
    def has_vectors(self) -> bool:
        """Whether the optional `vectors` table exists (embeddings were enabled once)."""
        return "vectors" in self._names()

    def vector_keys(self) -> set[str]:
        """The keys of every stored vector."""
        if not self.has_vectors():
            return set()
        return set(self.table("vectors").search().select(["key"]).limit(None).to_arrow()["key"]
                   .to_pylist())  # fmt: skip

    def add_vectors(self, rows: list[dict[str, Any]]) -> None:
        """Store vectors ({key, path, hash, vector}); a key already stored is kept. Hold the
        write lock."""
        if not rows:
            return
        data = pa.Table.from_pylist(rows, schema=VECTORS)
        if not self.has_vectors():
            self._tables["vectors"] = self._db.create_table("vectors", schema=VECTORS)
        self.table("vectors").merge_insert("key").when_not_matched_insert_all().execute(data)

    def delete_vectors(self, keys: Sequence[str]) -> None:
        """Remove these vectors. Hold the write lock."""
        if not keys or not self.has_vectors():
            return
        for start in range(0, len(keys), 500):
            self.table("vectors").delete(in_list("key", keys[start : start + 500]))

    def nearest(self, vector: Sequence[float], limit: int) -> list[tuple[str, str, float]]:
        """The stored vectors closest to a unit `vector`: (path, file hash, cosine), best first.

        A flat (exact) search: LanceDB needs no vector index below about 100k rows.
        """
        if not self.has_vectors():
            return []
        rows = (
            self.table("vectors")
            .search(list(vector), vector_column_name="vector")
            .distance_type("cosine")
            .select(["path", "hash", "_distance"])
            .limit(limit)
            .to_list()
        )
        return [(r["path"], r["hash"], 1.0 - float(r["_distance"])) for r in rows]

    # ----------------------------------------------------------------- project memory
    def replace_memory(self, rows: list[dict[str, Any]]) -> None:
        """Replace the derived copy of the project memory (rows of the `memory` schema).

        Its `text` column holds code-aware search tokens; `data` the entry as JSON.
        """
        from datetime import timedelta

        tbl = self.table("memory")
        tbl.delete("true")
        if rows:
            tbl.add(pa.Table.from_pylist(rows, schema=MEMORY))
            tbl.create_index(WRITER_FTS["memory"], config=_fts_config(), replace=True)
        # Older versions go at once: they may hold what the file no longer says (a fact
        # forgotten for its secret, rows written before their redaction). Readers read this
        # table at its latest, and one still on an older version reads again (`_guard`).
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", "optimize.cleanup_older_than=0", UserWarning)
            tbl.optimize(cleanup_older_than=timedelta(0))

    def memory_rows(self) -> list[dict[str, Any]]:
        rows: list[dict[str, Any]] = self.table("memory").to_arrow().to_pylist()
        return rows

    def search_memory(self, query: str, limit: int = 20) -> list[tuple[dict[str, Any], float]]:
        """Memory rows matching `query` by BM25 over their tokens, best first, with scores."""
        q = tok.query(query)
        # replace_memory builds the full-text index with the rows: none means no rows
        if not q or not self.has_fts("memory"):
            return []
        found = self.table("memory").search(q, query_type="fts").limit(limit).to_list()
        return [(r, float(r["_score"])) for r in found]

    # ----------------------------------------------------------------- commit messages
    def write_commits(
        self, rows: list[dict[str, Any]], *, append: bool, drop: Sequence[str] = ()
    ) -> None:
        """Store commit rows (of the `commits` schema), replacing all unless `append`; an
        append first removes the commits `drop` (by sha: those of another branch's history).

        A replacement rebuilds the messages' full-text index; an append leaves it: searches
        read the few new rows unindexed, and `optimize` folds them in once they are many
        (`indexes_lagging`), so a commit's hook does not rebuild 20,000 messages' index
        (0.4 s on sympy). Must hold the write lock."""
        tbl = self.table("commits")
        if not append:
            tbl.delete("true")
        else:  # an append cut short before its publication may be repeated
            gone = [*drop, *(r["sha"] for r in rows)]
            for start in range(0, len(gone), 500):
                tbl.delete(in_list("sha", gone[start : start + 500]))
        if rows:
            tbl.add(pa.Table.from_pylist(rows, schema=COMMITS))
        if tbl.count_rows() and (not append or not self.has_fts("commits")):
            tbl.create_index(WRITER_FTS["commits"], config=_fts_config(), replace=True)

    def commit_shas(self) -> set[str]:
        """The ids of the stored commits."""
        if not self._has_table("commits"):
            return set()
        return set(self.column("commits", ["sha"])["sha"])

    def count_commits(self) -> int:
        """Commit messages stored (0 in an index from before they were kept)."""
        return self.count("commits") if self._has_table("commits") else 0

    def search_commits(self, query: str, limit: int = 30) -> list[tuple[dict[str, Any], float]]:
        """Commits whose messages match `query` (search tokens) by BM25, best first."""
        # no table: an index from before commit messages were kept
        if not query or not self._has_table("commits") or not self.has_fts("commits"):
            return []
        found = (
            self.table("commits")
            .search(query, query_type="fts")
            .select(["sha", "subject", "files", "_score"])
            .limit(limit)
            .to_list()
        )
        return [(r, float(r["_score"])) for r in found]

    def full_text(
        self, name: str, query: str, columns: Sequence[str], limit: int
    ) -> list[dict[str, Any]]:
        """The best rows of table `name` for a full-text query, with `_score` (the table must
        have its index: `has_fts`)."""
        found = self.table(name).search(query, query_type="fts")
        return list(found.select([*columns, "_score"]).limit(limit).to_list())

    def fts_ready(self) -> bool:
        """Whether every table searched by full text has its index."""
        return all(self.has_fts(name) for name in FTS_COLUMNS)

    def has_fts(self, name: str) -> bool:
        """Whether a table has its full-text index (an empty table has none), on its column in
        `FTS_COLUMNS` or `WRITER_FTS`."""
        if name in self._fts_ready:
            return True
        column = FTS_COLUMNS.get(name) or WRITER_FTS[name]
        ready = any(tuple(ix.columns) == (column,) for ix in self.table(name).list_indices())
        if ready:
            self._fts_ready.add(name)
        return ready

    def size_bytes(self) -> int | None:
        """Disk use of a local store, None for remote URIs."""
        if "://" in self.uri:
            return None
        total = 0
        for dirpath, _dirs, names in os.walk(self.uri):
            for n in names:
                with contextlib.suppress(OSError):
                    total += os.path.getsize(os.path.join(dirpath, n))
        return total


# ----------------------------------------------------------------- damage and races
# What LanceDB raises when a table's files are damaged or vanish under a reader: a Rust
# error surfaced as RuntimeError/OSError/ValueError whose text names Lance.
_LANCE_ERROR = ("lance error", "lanceerror")
# What a reader meets when a writer changes the tables under it (a schema rebuild drops and
# re-creates them; a compaction's cleanup removes the files of old versions): files gone, or a
# table without its full-text index yet. It waits for that writer, then reads again.
_RACE = ("not found", "inverted index")


def _lance_failure(exc: BaseException) -> bool:
    text = str(exc).lower()
    return isinstance(exc, RuntimeError | OSError | ValueError) and any(
        marker in text for marker in (*_LANCE_ERROR, *_RACE)
    )


def _await_writer(store: Store) -> None:
    """Wait until no process holds the write lock (a reader cannot always take it: then it
    just reads again)."""
    with contextlib.suppress(StoreError), WriteLock(store.lock_path, store.lock_timeout):
        pass


# Writes the file system refused, as LanceDB reports them (the OS error's text): a full
# disk or a read-only store, not damage.
_REFUSED = (
    (re.compile(r"no space left on device|os error 28|disk quota exceeded", re.I), errno.ENOSPC),
    (re.compile(r"permission denied|os error 13", re.I), errno.EACCES),
    (re.compile(r"read-only file system|os error 30", re.I), errno.EROFS),
)


def _refused_write(exc: BaseException, *, writing: bool) -> OSError | None:
    """The OS error inside a LanceDB error when the file system refused a write (a full disk
    at any time; a denied write only while writing: a reader denied is not)."""
    if not isinstance(exc, OSError | RuntimeError):
        return None
    for pattern, code in _REFUSED:
        if (writing or code == errno.ENOSPC) and pattern.search(str(exc)):
            return OSError(code, os.strerror(code))
    return None


def _guard(name: str, method: Any) -> Any:
    """`method` with LanceDB's errors turned into one `StoreError` that says what to do. A
    reader whose files a concurrent writer removed (`_RACE`) waits for it and reads again."""

    @functools.wraps(method)
    def guarded(self: Store, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except StoreError:
            raise
        except Exception as exc:
            refused = _refused_write(exc, writing=self._writing)
            if refused is not None:  # the disk, not the store: the last update is kept
                raise cannot_write(self.uri, refused) from exc
            if not _lance_failure(exc):
                raise
            if not self._writing and any(m in str(exc).lower() for m in _RACE):
                log.info("%s: %s; reading again once the writer is done", name, exc)
                _await_writer(self)
                self.refresh()
                try:
                    return method(self, *args, **kwargs)
                except Exception as again:
                    if not _lance_failure(again):
                        raise
                    exc = again
            first = re.sub(r",?\s*/rustc/\S+", "", str(exc).strip().splitlines()[0])[:200]
            raise StoreError(
                f"The index store `{self.uri}` is damaged or was changed under this process "
                f"({first}); run `repomem doctor --fix` to repair it."
            ) from exc

    return guarded


for _name, _method in list(vars(Store).items()):
    if (
        callable(_method)
        and not _name.startswith("_")
        and _name not in ("writing", "refresh")
        and not isinstance(_method, (staticmethod, classmethod))
    ):
        setattr(Store, _name, _guard(_name, _method))
