"""Rows of the tables built from the working tree: added and deleted by path, and read by
path, by column (whole columns as lists or as numpy codes) and by name (definitions,
references). A `files` row is read with the size and mtime the stat cache recorded for it
(`repomem.index.store.stats`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from repomem.index.store.schemas import DERIVED, TABLES, in_list, quote
from repomem.index.store.stats import _Stats

# What a row of `files` needs for the stat cache to stand in for its size and mtime.
_STAT_KEYS = ("path", "hash", "size", "mtime_ns")


class _Rows(_Stats):
    """Writes and reads of rows by path, column and name."""

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
        return list(self._select(name, None, paths).to_pylist()) if paths else []

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

    def _select(self, name: str, columns: list[str] | None, paths: Sequence[str] | None) -> Any:
        """Columns of a table (all with None) as an Arrow table: every row, or these paths'
        rows (`IN` lists of 500 paths, which the path index answers). The size and mtime of
        `files` rows are the recorded ones (`_Stats._restat`)."""
        restat = name == "files" and (
            columns is None or not {"size", "mtime_ns"}.isdisjoint(columns)
        )
        wanted = columns
        if restat and columns is not None:
            columns = [*columns, *(k for k in _STAT_KEYS if k not in columns)]
        tbl = self.table(name)

        def query(where: str | None) -> Any:
            q = tbl.search()
            if where is not None:
                q = q.where(where)
            if columns is not None:
                q = q.select(columns)
            return q.limit(None).to_arrow()

        if paths is None:
            out = query(None)
        elif paths:
            out = pa.concat_tables(
                [query(in_list("path", paths[i : i + 500])) for i in range(0, len(paths), 500)]
            )
        else:
            out = TABLES[name].empty_table()
            out = out if columns is None else out.select(columns)
        if restat:
            out = self._restat(out)
        return out if wanted is None or wanted == columns else out.select(wanted)

    def count(self, name: str, where: str | None = None) -> int:
        return int(self.table(name).count_rows(where))

    def file(self, path: str) -> dict[str, Any] | None:
        rows = self.rows_for_path("files", path)
        return rows[0] if rows else None

    def texts(self, paths: Sequence[str]) -> dict[str, str]:
        """The stored (redacted) text of these files."""
        cols = self._select("files", ["path", "text"], paths).to_pydict()
        return dict(zip(cols["path"], cols["text"], strict=True))

    def file_symbols(self, paths: Sequence[str]) -> dict[str, list[dict[str, Any]]]:
        """Symbols of these files, in line order."""
        out: dict[str, list[dict[str, Any]]] = {p: [] for p in paths}
        cols = ["path", "name", "qualname", "kind", "parent", "signature", "start_line", "end_line"]
        for r in self._select("symbols", cols, paths).to_pylist():
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
