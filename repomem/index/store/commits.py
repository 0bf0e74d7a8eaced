"""Commit messages (the `commits` table): stored whole or appended with their full-text index,
listed, counted, and searched by BM25 (see `repomem.index.commits`, which makes the rows)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from repomem.index.store.fulltext import _FullText
from repomem.index.store.rows import _Rows
from repomem.index.store.schemas import COMMITS, WRITER_FTS, _fts_config, in_list


class _Commits(_Rows, _FullText):
    """The `commits` table."""

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
