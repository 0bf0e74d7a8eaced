"""Ranking signals from searching the index with the task's text.

`bm25_file`, `bm25_symbol` and `bm25_chunk` (full-text over whole files, symbols and
function-sized chunks, the functions of the best chunks becoming relevant symbols), `commits`
(files changed by past commits whose messages match the task) and `dense` (files similar in
meaning by embeddings, when an embedder is passed). Each is scaled to 0..1 and added to the
candidates' signals for `rank` to weigh.
"""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Mapping
from typing import Any

from repomem.fsutil import nfc
from repomem.index import chunks
from repomem.pack.candidates import WEIGHTS, _add_symbol, file_symbols
from repomem.pack.task import TaskSignals

FTS_FILES = 400
FTS_SYMBOLS = 600
FTS_CHUNKS = 300  # the best chunks (1000 take 2.5x as long on sympy: 63 against 24 ms)
CHUNK_SYMBOLS = 20  # the functions of this many best chunks become the files' relevant symbols
# English function words left out of the queries (they make up a third of a task's terms and
# half of the full-text search time).
DROP_STOPWORDS = True
STOPWORDS = frozenset(
    "a an and are as at be but by for from has have i if in into is it its of on or that the "
    "their then there these this those to was were will with we you your can not do does did "
    "which what when how should would could also just so than some any all one been being".split()
)
DENSE_FILES = 50
DENSE_QUERY_CHARS = 1500  # the title and the text's head: the model reads 256 tokens at most
COMMITS = 30  # the best matching commit messages vote for the files they changed
COMMITS_SUM = False  # True: a file's votes add up; False: its best commit's vote alone


def _terms(query: str) -> list[str]:
    terms = query.split()
    if DROP_STOPWORDS:
        terms = [t for t in terms if t not in STOPWORDS]
    return terms


def _dense(store: Any, signals: TaskSignals, cand: Any, embedder: Any) -> None:
    """Cosine of the task's vector to each file's card vector, the best files scaled to 0..1
    between the lowest and highest of them."""
    if embedder is None or WEIGHTS.get("dense", 0) <= 0:
        return
    from repomem.index import dense

    query = f"{signals.title}\n{signals.text}"[:DENSE_QUERY_CHARS]
    sims = dense.similar_files(store, embedder, query, DENSE_FILES)
    if not sims:
        return
    low, high = min(sims.values()), max(sims.values())
    for path, cos in sims.items():
        cand(path).signals["dense"] = (cos - low) / (high - low) if high > low else 1.0


def _past_commits(
    store: Any, query: str, cand: Any, share: float, known: Mapping[str, str]
) -> None:
    """Files changed by the commits whose messages best match the task: each commit's BM25
    score spread over its files (by the square root of their number, so a sweep over many
    files says little about each), a file keeping its best commit's vote, scaled to 0..1.
    Keeping the best rather than the sum stops files that change often from winning by
    their number of commits (dev split: R@5 0.837 summed, 0.840 best; MRR 0.719, 0.726).
    `known`: the indexed files, by their path in normal form C (`names._name_index`)."""
    if not WEIGHTS.get("commits"):
        return
    votes: dict[str, float] = defaultdict(float)
    best: dict[str, tuple[float, str]] = {}
    for row, score in store.search_commits(query, COMMITS):
        files = [known[nfc(f)] for f in row["files"] if nfc(f) in known]
        for f in files:
            vote = score / math.sqrt(len(files))
            votes[f] = votes[f] + vote if COMMITS_SUM else max(votes[f], vote)
            if vote > best.get(f, (0.0, ""))[0]:  # the commit that gave the (best) vote
                best[f] = (vote, f"{row['sha'][:10]} “{row['subject'][:80]}”")
    for path in _add_scaled(cand, "commits", votes, share):
        c = cand(path)
        if not c.commit:
            c.commit = best[path][1]


def _add_scaled(cand: Any, signal: str, scores: dict[str, float], share: float) -> list[str]:
    """Add each file's score, scaled to the best of them (0..1) and weighted by the query's
    `share`, to `signal`; returns the files (none when nothing scored above zero)."""
    top = max(scores.values(), default=0.0)
    if top <= 0:
        return []
    for path, value in scores.items():
        c = cand(path)
        c.signals[signal] = c.signals.get(signal, 0.0) + share * value / top
    return list(scores)


def _search(store: Any, table: str, query: str, columns: list[str], limit: int) -> list[Any]:
    """The best rows of a table for a full-text query, with `_score` ([] without an index)."""
    if not store.has_fts(table):
        return []
    return list(store.full_text(table, query, columns, limit))


def _bm25_files(store: Any, query: str, cand: Any, share: float) -> None:
    rows = _search(store, "files", query, ["path"], FTS_FILES)
    _add_scaled(cand, "bm25_file", {r["path"]: float(r["_score"]) for r in rows}, share)


def _bm25_chunks(store: Any, query: str, cand: Any, share: float, best: dict[Any, float]) -> None:
    """Each file's best chunk, relative to the best chunk of all; `best` collects the
    (path, first line) of the best chunks with their relative scores."""
    if not WEIGHTS.get("bm25_chunk"):
        return
    rows = _search(store, "chunks", query, ["path", "start_line"], FTS_CHUNKS)
    per_file: dict[str, float] = {}
    for r in rows:
        per_file[r["path"]] = max(per_file.get(r["path"], 0.0), float(r["_score"]))
    if not _add_scaled(cand, "bm25_chunk", per_file, share):
        return
    top = max(per_file.values())
    rows.sort(key=lambda r: -float(r["_score"]))
    for r in rows[:CHUNK_SYMBOLS]:
        key = (r["path"], int(r["start_line"]))
        best[key] = max(best.get(key, 0.0), float(r["_score"]) / top)


def _chunk_symbols(
    store: Any, best: dict[Any, float], cand: Any, symbols: dict[str, list[dict[str, Any]]]
) -> None:
    """The functions of the best chunks are relevant symbols: their bodies match the task."""
    if not best:
        return
    for path, syms in file_symbols(store, sorted({p for p, _ in best}), symbols).items():
        for sym in syms:
            score = best.get((path, int(sym["start_line"])))
            if score is not None and sym["kind"] in chunks.KINDS:
                _add_symbol(cand(path), sym, score, "has a body that matches the task")


def _bm25_symbols(store: Any, query: str, cand: Any, share: float) -> None:
    cols = ["path", "name", "qualname", "kind", "signature", "start_line", "end_line"]
    rows = _search(store, "symbols", query, cols, FTS_SYMBOLS)
    top = max((r["_score"] for r in rows), default=0.0)
    if top <= 0:
        return
    per_file: dict[str, list[float]] = defaultdict(list)
    for r in rows:
        s = float(r["_score"]) / top
        per_file[r["path"]].append(s)
        c = cand(r["path"])
        _add_symbol(c, r, s, "matches the task text")
    for path, scores in per_file.items():
        scores.sort(reverse=True)
        # the best symbol, plus a little for more matching symbols in the same file
        c = cand(path)
        value = share * min(1.0, scores[0] + 0.1 * sum(scores[1:4]))
        c.signals["bm25_symbol"] = c.signals.get("bm25_symbol", 0.0) + value
