"""One connection and its open tables: which version of each table a reader sees (the last
published update) and how a writer publishes, the write lock, the `meta` table and the crash
journal. The base of `Store`; the other modules add its jobs."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import lancedb
import pyarrow as pa

from repomem.errors import StoreError
from repomem.index.store.guard import WriteLock, _await_writer
from repomem.index.store.schemas import DERIVED, META, quote

log = logging.getLogger(__name__)


class _Tables:
    """The connection, its open tables and their versions (see the package docstring)."""

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
            _await_writer(self)  # type: ignore[arg-type]  # `self` is a Store
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
        try:
            return {str(k): int(v) for k, v in data.items()}, stamp
        except (TypeError, ValueError):  # damaged: read the latest versions, as with none
            return {}, stamp

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
