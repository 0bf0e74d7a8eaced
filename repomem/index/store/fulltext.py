"""Full-text search over the tables' code-aware tokens (BM25, LanceDB's native index): symbols
and whole files for `search`, any indexed table for `full_text`, and whether a table has its
index yet."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repomem.index import tokens as tok
from repomem.index.store.schemas import FTS_COLUMNS, WRITER_FTS, in_list, quote
from repomem.index.store.tables import _Tables


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


# A query that is one identifier (`iter_commits`, `mergeConfig()`) asks for that definition
_ONE_NAME = re.compile(r"\s*([A-Za-z_$][\w$]*)(?:\(\))?\s*")
_SYMBOL_COLUMNS = (
    "path", "name", "qualname", "kind", "signature", "doc", "start_line", "end_line",
)  # fmt: skip


def _symbol_hit(r: dict[str, Any], score: float) -> Hit:
    return Hit(
        "symbol", r["path"], r["name"], r["qualname"], r["kind"], r["signature"], r["doc"],
        r["start_line"], r["end_line"], score,
    )  # fmt: skip


class _FullText(_Tables):
    """Full-text search and its indexes' presence."""

    def search(
        self,
        query: str,
        *,
        kind: str | None = None,
        path_glob: str | None = None,
        limit: int = 20,
        files: bool = True,
    ) -> list[Hit]:
        """Full-text search over symbols (and whole files), best first.

        A name the index holds no token for (`tok.unindexed`: `f`, `x`, `T`) is matched by
        exact definition name: alone, it lists the definitions so named (score 1, 0.5 in
        another case); beside other words, it lifts the hits that are its definitions above
        the rest, and adds none the other words do not match (`a` in "add a button" brings
        in no definition of `a`). A query of one name of any length lifts its definitions
        likewise: a longer symbol row (a doc comment, a long qualified name) would otherwise
        score below short ones that share a word of the name (`Source` for `Sources`)."""
        q = tok.query(query)
        short = tok.unindexed(query) if kind != "file" else []
        one = _ONE_NAME.fullmatch(query)
        if one and not short and kind != "file":
            short = [one.group(1)]
        if not q and not short:
            return []
        hits: list[Hit] = []
        fetch = max(limit * 4, 50) if path_glob else limit
        where = f"kind = {quote(kind)}" if kind and kind != "file" else None
        if q and kind != "file" and self.has_fts("symbols"):
            req = self.table("symbols").search(q, query_type="fts")
            if where:
                req = req.where(where, prefilter=True)
            for r in req.select([*_SYMBOL_COLUMNS, "_score"]).limit(fetch).to_list():
                hits.append(_symbol_hit(r, float(r["_score"])))
        if q and files and (kind is None or kind == "file") and self.has_fts("files"):
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
        if short:
            named = self._named(short, q, where, fetch, max((h.score for h in hits), default=0))
            lifted = {(h.path, h.start_line, h.name) for h in named}
            hits = named + [h for h in hits if (h.path, h.start_line, h.name) not in lifted]
        if path_glob:
            from fnmatch import fnmatchcase

            hits = [
                h
                for h in hits
                if fnmatchcase(h.path, path_glob) or fnmatchcase(Path(h.path).name, path_glob)
            ]
        hits.sort(key=lambda h: -h.score)
        return hits[:limit]

    def _named(
        self, names: list[str], q: str, where: str | None, fetch: int, best: float
    ) -> list[Hit]:
        """The definitions named as one of `names` (in any case): all of them when the query
        has no tokens (`q` empty), else those its tokens match, scored above `best`."""
        spellings = sorted({v for n in names for v in (n, n.lower(), n.upper())})
        cond = in_list("name", spellings) + (f" AND {where}" if where else "")
        if not q:
            rows = (self.table("symbols").search().where(cond).select(list(_SYMBOL_COLUMNS))
                    .limit(fetch).to_list())  # fmt: skip
            rows.sort(key=lambda r: (r["name"] not in names, r["path"], r["start_line"]))
            return [_symbol_hit(r, 1.0 if r["name"] in names else 0.5) for r in rows]
        if not self.has_fts("symbols"):
            return []
        req = self.table("symbols").search(q, query_type="fts").where(cond, prefilter=True)
        rows = req.select([*_SYMBOL_COLUMNS, "_score"]).limit(fetch).to_list()
        return [_symbol_hit(r, best + float(r["_score"])) for r in rows]

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
