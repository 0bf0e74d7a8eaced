"""Dense vectors: the optional `vectors` table of file-card embeddings (`embed.enabled`), a
cache keyed by model, card version, path and content, created on first use, searched by
exact cosine distance (see `repomem.index.dense`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pyarrow as pa

from repomem.index.store.schemas import VECTORS, in_list
from repomem.index.store.tables import _Tables


class _Vectors(_Tables):
    """The `vectors` table."""

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
