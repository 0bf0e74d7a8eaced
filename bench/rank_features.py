"""Per-candidate ranking features of one task, for fitting and ablating weights offline.

`pack_retriever.py --features FILE` appends one JSON line per task: every candidate file the
ranking considered, with each signal (the full-text signals also split into the whole text's
and the focus query's), its penalty kinds and static facts about it (lines, symbols, global
PageRank, in-degree), plus experimental signals computed here rather than in repomem:

- `chunk_full` / `chunk_focus` (with `BM25S_CHUNKS`): BM25 (bm25s) over function-sized chunks
  of every file's text (each function or method, the rest in 80-line windows), a file scoring
  its best chunk. This experiment led to repomem's own `chunks` table and `bm25_chunk` signal,
  which is logged (split like the other full-text signals) even while its weight is 0.

Fit and score them with `bench/fit_rank.py`.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Any

BM25S_CHUNKS = False  # the bm25s chunk experiment (repomem now has its own chunk index)


def chunk_scores(store: Any, queries: dict[str, str]) -> dict[str, dict[str, float]]:
    """{query name: {path: best chunk's BM25 / best of all}} over every indexed file."""
    import bm25s

    from repomem.index import chunks
    from repomem.index import tokens as tok

    syms = store.column("symbols", ["path", "kind", "start_line", "end_line"])
    spans: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for path, kind, s, e in zip(
        syms["path"], syms["kind"], syms["start_line"], syms["end_line"], strict=True
    ):
        if kind in chunks.KINDS:
            spans[path].append((int(s), int(e)))
    files = store.column("files", ["path", "text", "skip"])
    owners: list[str] = []
    corpus: list[list[str]] = []
    for path, text, skip in zip(files["path"], files["text"], files["skip"], strict=True):
        if skip or not text:
            continue
        for _start, _end, chunk in chunks.split(text, spans.get(path, [])):
            words = tok.tokens(chunk)
            if words:
                owners.append(path)
                corpus.append(words)
    retriever = bm25s.BM25()
    retriever.index(corpus, show_progress=False)
    out: dict[str, dict[str, float]] = {}
    for name, q in queries.items():
        words = [w for w in q.split() if w]
        best: dict[str, float] = {}
        if words:
            k = min(2000, len(corpus))
            docs, scores = retriever.retrieve([words], k=k, show_progress=False)
            for d, s in zip(docs[0].tolist(), scores[0].tolist(), strict=True):
                if s > 0 and s > best.get(owners[d], 0.0):
                    best[owners[d]] = s
        top = max(best.values(), default=0.0) or 1.0
        out[name] = {p: v / top for p, v in best.items()}
    return out


def features(cfg: Any, task: str, rank_with: Any) -> dict[str, dict[str, float]]:
    """{path: {feature: value}} for every candidate; `rank_with(settings)` runs the ranking."""
    from repomem.index import graph as graphs
    from repomem.index import indexer
    from repomem.index import tokens as tok
    from repomem.pack import penalties, rank
    from repomem.pack import task as tasks

    # bm25_chunk is computed only when weighted: a weight too small to reorder logs it
    on = {"WEIGHTS": {"bm25_chunk": max(rank.WEIGHTS["bm25_chunk"], 1e-6)}}
    base = rank_with(on)
    full = {c.path: c for c in rank_with({**on, "FOCUS_SHARE": 0.0})}
    focus = {c.path: c for c in rank_with({**on, "FOCUS_SHARE": 1.0})}
    store = indexer.open_store(cfg)
    cache = graphs.cached(store, indexer.state_dir(cfg))
    top_pr = max(cache.ranks.values(), default=0.0) or 1.0
    indeg = cache.indegree
    files = store.column("files", ["path", "lines", "symbols"])
    facts = {
        p: (int(n), int(s))
        for p, n, s in zip(files["path"], files["lines"], files["symbols"], strict=True)
    }
    signals = tasks.analyse(task)
    query = " ".join(tok.query(signals.text).split()[: rank.MAX_QUERY_TOKENS])
    focus_q = tok.query(" ".join([signals.title, *signals.identifiers[:20], *signals.dotted]))
    chunks = (
        chunk_scores(store, {"chunk_full": query, "chunk_focus": focus_q}) if BM25S_CHUNKS else {}
    )
    paths = {c.path for c in base}
    for scores in chunks.values():
        paths |= {p for p, _ in sorted(scores.items(), key=lambda kv: -kv[1])[:300]}
    by_path = {c.path: c for c in base}
    named = {c.path for c in base if c.signals.get("mention", 0) >= rank.NAMED}
    out: dict[str, dict[str, float]] = {}
    for path in paths:
        c = by_path.get(path)
        row: dict[str, float] = dict(c.signals) if c else {}
        row["score"] = c.score if c else 0.0
        for key in ("bm25_file", "bm25_symbol", "bm25_chunk"):
            row[key + "_full"] = full[path].signals.get(key, 0.0) if path in full else 0.0
            row[key + "_focus"] = focus[path].signals.get(key, 0.0) if path in focus else 0.0
        for name, scores in chunks.items():
            row[name] = scores.get(path, 0.0)
        vendored, test, doc, text = penalties._kind(path)
        row.update(
            vendored=float(vendored), test=float(test), doc=float(doc), text=float(text),
            named=float(path in named), penalty=penalties.penalty(path),
            log_lines=math.log1p(facts.get(path, (0, 0))[0]),
            log_symbols=math.log1p(facts.get(path, (0, 0))[1]),
            global_pr=cache.ranks.get(path, 0.0) / top_pr,
            log_indeg=math.log1p(indeg.get(path, 0)),
        )  # fmt: skip
        out[path] = {k: round(v, 5) for k, v in row.items() if v}
    return out
