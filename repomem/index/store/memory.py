"""The derived copy of the project memory file (the `memory` table): replaced whole with its
full-text index, read, and searched by BM25 (see `repomem.memory`)."""

from __future__ import annotations

import warnings
from typing import Any

import pyarrow as pa

from repomem.index import tokens as tok
from repomem.index.store.fulltext import _FullText
from repomem.index.store.schemas import MEMORY, WRITER_FTS, _fts_config


class _Memory(_FullText):
    """The `memory` table."""

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
