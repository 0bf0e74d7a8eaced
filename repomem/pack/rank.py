"""Rank the repository's files and symbols for a task, combining several signals.

Signals (each normalised to 0..1, then weighted and summed):

- `bm25_file`: full-text (BM25) over whole files with code-aware tokens;
- `bm25_symbol`: full-text over symbols (names, qualified names, signatures, docs, paths);
- `bm25_chunk`: full-text over function-sized chunks of the files' text, a file scoring its best
  chunk (a long file matches through one function, which whole-file BM25 dilutes);
- `mention`: a file path, module path or stack-trace frame quoted in the task points at the file;
- `identifier`: an identifier quoted in the task is defined in the file (shared among definers);
- `path`: words of the task name the file or its folders (`typehints.py` for a task about
  `autodoc_typehints`), weighted by how rare each word is among the repository's paths;
- `commits`: the file was changed by past commits whose messages match the task (the best
  such commit's BM25 score, spread over the files it changed); an issue or pull request the
  task refers to (`#8164`, `gh-12`, `.../pull/338`) matches the commits naming it;
- `pagerank`: personalized PageRank over the def/ref graph, seeded with the signals above, so
  files the hits depend on rise too. Seeds keep their own scores: a file named in the task never
  loses its rank to what it references (aider's repo map does);
- `memory`, `cochange`, `recent`, `dense`: files cited by relevant memory facts, files that
  change together with the best matches, recently changed files, similar files by embeddings;
- `work`: the file has uncommitted changes (a prior: it seeds nothing).

The files that are rarely the code to change (tests, docs, examples, text, vendored copies) are
damped unless the task names them (`penalties`).

The signals are computed by sibling modules: `search` (full-text, commit messages,
embeddings), `names` (mentions, stack frames, identifiers, path words) and `penalties`;
`candidates` holds `Candidate`, `SymbolHit` and `WEIGHTS`. This module combines them: two
queries (the whole text and its focus), the seeds of PageRank and co-change, the weighted sum,
the hub damping and the penalties. A constant is patched in the module that reads it (this
one's, `search.COMMITS_SUM`, `names.FRAME_OUTER`, ...); `WEIGHTS` is one dict, changed in place.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Iterable
from typing import Any

from repomem.index import graph as graphs
from repomem.index import tokens as tok
from repomem.pack.candidates import WEIGHTS, Candidate, SymbolHit
from repomem.pack.history import History
from repomem.pack.names import _identifiers, _mentions, _name_index, _path_words
from repomem.pack.penalties import penalty
from repomem.pack.search import (
    _bm25_chunks,
    _bm25_files,
    _bm25_symbols,
    _chunk_symbols,
    _dense,
    _past_commits,
    _terms,
)
from repomem.pack.task import TaskSignals

__all__ = ["WEIGHTS", "Candidate", "SymbolHit", "penalty", "rank"]


log = logging.getLogger(__name__)
FOCUS_SHARE = 0.5
WORK_FILES = 20  # more files with uncommitted changes than this share the `work` prior
# A mention this strong (the path itself, not one of many same-named files) lifts the penalties.
NAMED = 0.5
MAX_QUERY_TOKENS = 3000  # distinct tokens; BM25's IDF sorts out noise such as pasted logs
MIN_RANKED = 30
# Hub files (referenced by many: `application.py`, `core/dataset.py`) match most tasks a little
# and crowded out the module a fix was in. A file loses this times log(1 + the number of files
# referencing it) before the penalties. Chosen on the dev split (169 tasks, with stop words
# out: R@5 0.824 at 0, 0.830 at 0.05, 0.823 at 0.08, 0.810 at 0.12; see bench/README.md).
HUB_WEIGHT = 0.05
COCHANGE_SEEDS = 5
MAX_REFERENCES = 20  # issue and pull request numbers of the task looked up in commit messages


def rank(
    store: Any, signals: TaskSignals, *, graph_cache: Any = None, history: History | None = None,
    embedder: Any = None, symbols: dict[str, list[dict[str, Any]]] | None = None,
    uncommitted: Iterable[str] = (),
) -> list[Candidate]:  # fmt: skip
    """Files ranked for the task, best first, with their relevant symbols.

    `history` (git) adds co-change with the best direct matches and a small recency signal;
    `embedder` (`repomem.index.embed.Embedder`) the similarity of file vectors to the task.
    `symbols` keeps the symbols of the files read while ranking (`store.file_symbols`), for
    the caller to reuse. `uncommitted` (paths with uncommitted changes) adds the `work` prior.
    """
    cands: dict[str, Candidate] = {}

    def cand(path: str) -> Candidate:
        c = cands.get(path)
        if c is None:
            c = cands[path] = Candidate(path)
        return c

    # Two queries: the whole text, and its focus (the title and the code it quotes), which a
    # long text full of logs or listings would otherwise drown.
    query = " ".join(_terms(tok.query(signals.text))[:MAX_QUERY_TOKENS])
    focus = " ".join(
        _terms(tok.query(" ".join([signals.title, *signals.identifiers[:20], *signals.dotted])))
    )
    cache = graphs.cached(store, graph_cache) if graph_cache is not None else graphs.compute(store)
    indexed = cache.nodes
    global_rank = cache.ranks
    by_name, known = _name_index(tuple(indexed))
    best_chunks: dict[tuple[str, int], float] = {}
    # issues and pull requests the task refers to (`#8164`) meet the commits that name them
    refs = signals.references[:MAX_REFERENCES]
    for q, share, extra in ((query, 1 - FOCUS_SHARE, refs), (focus, FOCUS_SHARE, [])):
        if q:
            _bm25_files(store, q, cand, share)
            _bm25_symbols(store, q, cand, share)
            _bm25_chunks(store, q, cand, share, best_chunks)
            _past_commits(store, " ".join([q, *extra]), cand, share, known)
    _chunk_symbols(store, best_chunks, cand, {} if symbols is None else symbols)
    _mentions(store, signals, by_name, known, cand, cache.modules)
    _identifiers(store, signals, cand)
    _path_words(signals, indexed, cand)
    _dense(store, signals, cand, embedder)
    for path, strength in signals.cited.items():
        if path in known:
            cand(path).signals["memory"] = max(cand(path).signals.get("memory", 0.0), strength)
    work = [p for p in uncommitted if p in known]
    for path in work:  # a sweeping change (a reformat of 5,000 files) says little of each
        cand(path).signals["work"] = min(1.0, WORK_FILES / len(work))
    seeds = {p: v for p, c in cands.items() if (v := _direct(c)) > 0}
    if history is not None:
        strongest = sorted(seeds.items(), key=lambda kv: -kv[1])[:COCHANGE_SEEDS]
        top_seed = strongest[0][1] if strongest else 1.0
        partners = history.cochanged({p: v / top_seed for p, v in strongest})
        for path, value in partners.items():
            if path in known:
                cand(path).signals["cochange"] = value
        for path, value in history.recency.items():
            if path in cands and path in known:
                cands[path].signals["recent"] = value
    if seeds:
        pr = graphs.pagerank(personalization=seeds, compiled=cache.compiled)
        top = max(pr.values(), default=0.0)
        if top > 0:
            for path, value in pr.items():
                if value / top > 0.01:
                    cand(path).signals["pagerank"] = value / top
    named = {c.path for c in cands.values() if c.signals.get("mention", 0) >= NAMED}
    indegree = cache.indegree
    for c in cands.values():
        c.score = sum(WEIGHTS[k] * v for k, v in c.signals.items())
        if HUB_WEIGHT:
            c.score = max(0.0, c.score - HUB_WEIGHT * math.log1p(indegree.get(c.path, 0)))
        if c.path not in named:
            c.score *= penalty(c.path)
    ranked = sorted(cands.values(), key=lambda c: (-c.score, c.path))
    if len(ranked) < MIN_RANKED:
        # Too few files match: the rest follow by plain PageRank (importance in the repo).
        top = max(global_rank.values(), default=0.0) or 1.0
        rest = sorted((p for p in indexed if p not in cands), key=lambda p: -global_rank.get(p, 0))
        for path in rest[: MIN_RANKED - len(ranked)]:
            ranked.append(
                Candidate(path, 0.01 * global_rank.get(path, 0.0) / top, {"pagerank": 0.0})
            )
    return ranked


_PRIORS = frozenset({"pagerank", "work"})  # not evidence about the task: never seeds


def _direct(c: Candidate) -> float:
    return sum(WEIGHTS[k] * v for k, v in c.signals.items() if k not in _PRIORS)
