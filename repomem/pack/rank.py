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

Test files, documentation and example code, and text files (docs, changelogs, config) get a
mild penalty unless the task names them: for a change request, the code to change is usually the
implementation, while tests and docs remain good context. Vendored copies of third-party
libraries (`jquery-3.5.1.js`, `*.min.js`) get a strong one: they match every query and are never
the code to change.
"""

from __future__ import annotations

import logging
import math
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from repomem.index import chunks, languages, parser
from repomem.index import graph as graphs
from repomem.index import tokens as tok
from repomem.pack.history import History
from repomem.pack.task import Frame, TaskSignals

log = logging.getLogger(__name__)

WEIGHTS = {
    "bm25_file": 1.0,
    "bm25_symbol": 0.6,
    "bm25_chunk": 1.0,
    "mention": 1.5,
    "identifier": 0.8,
    "path": 0.8,
    "pagerank": 0.2,
    "memory": 0.8,
    "cochange": 0.6,
    "recent": 0.2,
    "dense": 0.5,  # only with `embed.enabled` (an embedder passed to `rank`)
    "commits": 0.6,
    # A file with uncommitted changes is the work in progress: a new session most often goes
    # on with it. A prior, not a match: it seeds neither PageRank nor co-change, and a strong
    # match outranks it. Not measured by the benchmarks (their checkouts are clean).
    "work": 0.5,
}
FOCUS_SHARE = 0.5
WORK_FILES = 20  # more files with uncommitted changes than this share the `work` prior
TEST_PENALTY = 0.6
TEXT_PENALTY = 0.7  # docs, changelogs and config rank below code unless named
DOC_PENALTY = 0.6  # code under docs/ or examples/, and benchmarks
VENDOR_PENALTY = 0.1
# A mention this strong (the path itself, not one of many same-named files) lifts the penalties.
NAMED = 0.5
FTS_FILES = 400
FTS_SYMBOLS = 600
FTS_CHUNKS = 300  # the best chunks (1000 take 2.5x as long on sympy: 63 against 24 ms)
CHUNK_SYMBOLS = 20  # the functions of this many best chunks become the files' relevant symbols
MAX_QUERY_TOKENS = 3000  # distinct tokens; BM25's IDF sorts out noise such as pasted logs
MIN_RANKED = 30
# Hub files (referenced by many: `application.py`, `core/dataset.py`) match most tasks a little
# and crowded out the module a fix was in. A file loses this times log(1 + the number of files
# referencing it) before the penalties. Chosen on the dev split (169 tasks, with stop words
# out: R@5 0.824 at 0, 0.830 at 0.05, 0.823 at 0.08, 0.810 at 0.12; see bench/README.md).
HUB_WEIGHT = 0.05
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
COCHANGE_SEEDS = 5
COMMITS = 30  # the best matching commit messages vote for the files they changed
COMMITS_SUM = False  # True: a file's votes add up; False: its best commit's vote alone
PATH_COMPOUNDS = True  # "man page" names `manpage.py`: two adjacent words written as one
MAX_REFERENCES = 20  # issue and pull request numbers of the task looked up in commit messages
# A bare file name (`pyproject.toml`, `index.rst`) that matches docs or a text file names it at
# most this much, so their penalty stays (dev: 1 better, none worse; bench/README.md, run 11)
BARE_TEXT_MENTION = 0.4
# A traceback's frames other than its innermost (where the error was raised) name their files
# this much (dev: no change at 0.8, two tasks worse at 0.6; bench/README.md, run 11)
FRAME_OUTER = 0.8
MAX_MENTIONED = 5  # a mentioned file name shared by more files than this names none of them
# A long path (two folders or more) whose only match is by its bare file name names the user's
# own file (`/Users/me/code/bot/bot/logging.py` is not `src/_pytest/logging.py`), unless the
# match is at the repository's root (`/home/me/go/src/.../gin/errors.go` is `errors.go`).
BARE_NAME_FROM_LONG_PATH_ROOT_ONLY = True

_DOC_PATH = re.compile(r"(^|/)(docs?|documentation|examples?|samples?|demos?)/")
# Benchmark sources measure the code rather than being it (`benches/`, `asv_bench/`, gson's
# `*Benchmark.java`, `bench_*.py`). Damped like examples: of 509 dev, Lite and history tasks,
# 13 had one in their top 10 and none had one as gold; no gold file moved (bench/README.md, run 12).
_BENCH_PATH = re.compile(
    r"(^|/)(benchmarks?|benches|asv_bench|bench)/|(^|/)bench_[^/]*$|_bench\.\w+$"
    r"|Benchmarks?\.\w+$|\.bench\.\w+$"
)
# After GitHub linguist's vendor list: versioned or minified copies of web libraries.
_VENDORED_FILE = re.compile(
    r"[-.]v?\d+(\.\d+)+(\.min|\.slim)?\.(js|mjs|css)$|[.-]min\.(js|mjs|css)$"
    r"|(^|/)(jquery|underscore|backbone|bootstrap|modernizr|html5shiv|respond|mootools|lodash"
    r"|require|d3|angular|moment)([.-][^/]*)?\.(js|css)$"
)


@dataclass
class SymbolHit:
    """A symbol relevant to the task."""

    path: str
    name: str
    qualname: str
    kind: str
    signature: str
    start_line: int
    end_line: int
    score: float
    reason: str


@dataclass
class Candidate:
    """A ranked file with the evidence for it."""

    path: str
    score: float = 0.0
    signals: dict[str, float] = field(default_factory=dict)
    symbols: dict[str, SymbolHit] = field(default_factory=dict)
    commit: str = ""  # the best matching past commit that changed it: "sha subject"
    model_place: int = 0  # its place in the model's re-ranking (`pack.llm_rerank`), 0: none

    @property
    def reason(self) -> str:
        labels = {
            "bm25_file": "text matches the task",
            "bm25_symbol": "symbols match the task",
            "bm25_chunk": "a function of it matches the task",
            "mention": "named in the task",
            "identifier": "defines identifiers named in the task",
            "path": "its name matches words of the task",
            "pagerank": "central to the matches (def/ref graph)",
            "memory": "cited by a relevant memory fact",
            "cochange": "changes together with the matches (git history)",
            "recent": "changed recently",
            "dense": "similar in meaning to the task (embeddings)",
            "commits": "changed by past commits whose messages match the task",
            "work": "has uncommitted changes (work in progress)",
        }
        if self.commit:
            labels["commits"] = f"changed by a past commit like the task ({self.commit})"
        strong = sorted(self.signals.items(), key=lambda kv: -kv[1] * WEIGHTS.get(kv[0], 1))
        text = "; ".join(labels[k] for k, v in strong if v > 0.05)
        if self.model_place:
            text = f"placed {self.model_place} by the model; " + (text or "ranked")
        return (text if len(text) <= 200 else text[:199] + "…") or "ranked"


def penalty(path: str) -> float:
    """How much a file's score is damped when the task does not name it."""
    vendored, test, doc, text = _kind(path)
    if vendored:
        return VENDOR_PENALTY
    factor = 1.0
    if test:
        factor *= TEST_PENALTY
    elif doc:
        factor *= DOC_PENALTY
    if text:
        factor *= TEXT_PENALTY
    return factor


@lru_cache(maxsize=100_000)
def _kind(path: str) -> tuple[bool, bool, bool, bool]:
    """(vendored, test, docs, examples or benchmarks, text without a parser) for a path."""
    return (
        bool(_VENDORED_FILE.search(path)),
        languages.is_test_path(path),
        bool(_DOC_PATH.search(path) or _BENCH_PATH.search(path)),
        not parser.supports(languages.detect(path)),
    )


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
    seeds = {p: _direct(c) for p, c in cands.items() if _direct(c) > 0}
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


def _terms(query: str) -> list[str]:
    terms = query.split()
    if DROP_STOPWORDS:
        terms = [t for t in terms if t not in STOPWORDS]
    return terms


_PRIORS = frozenset({"pagerank", "work"})  # not evidence about the task: never seeds


def _direct(c: Candidate) -> float:
    return sum(WEIGHTS[k] * v for k, v in c.signals.items() if k not in _PRIORS)


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


def _past_commits(store: Any, query: str, cand: Any, share: float, known: frozenset[str]) -> None:
    """Files changed by the commits whose messages best match the task: each commit's BM25
    score spread over its files (by the square root of their number, so a sweep over many
    files says little about each), a file keeping its best commit's vote, scaled to 0..1.
    Keeping the best rather than the sum stops files that change often from winning by
    their number of commits (dev split: R@5 0.837 summed, 0.840 best; MRR 0.719, 0.726)."""
    if not WEIGHTS.get("commits"):
        return
    votes: dict[str, float] = defaultdict(float)
    best: dict[str, tuple[float, str]] = {}
    for row, score in store.search_commits(query, COMMITS):
        files = [f for f in row["files"] if f in known]
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


def file_symbols(
    store: Any, paths: list[str], known: dict[str, list[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    """`store.file_symbols(paths)`, reading only the paths not in `known` (which it extends)."""
    missing = [p for p in paths if p not in known]
    if missing:
        known.update(store.file_symbols(missing))
    return {p: known[p] for p in paths}


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


def _add_symbol(
    c: Candidate, r: dict[str, Any], score: float, reason: str, *, ties: bool = False
) -> None:
    """Record a relevant symbol of `c`, keeping the best score (and its reason); with `ties`,
    this reason wins an equal score (the more specific one: a stack frame)."""
    key = f"{r['qualname']}:{r['start_line']}"
    old = c.symbols.get(key)
    if old is None or old.score < score or (ties and old.score == score):
        c.symbols[key] = SymbolHit(
            r["path"],
            r["name"],
            r["qualname"],
            r["kind"],
            r["signature"],
            int(r["start_line"]),
            int(r["end_line"]),
            score,
            reason,
        )


@lru_cache(maxsize=4)
def _name_index(indexed: tuple[str, ...]) -> tuple[dict[str, list[str]], frozenset[str]]:
    """Each file name (`c.py`) -> the files so named, in index order; and the set of files.
    (Every suffix of every path, its first form, cost 0.4 s per process on 11,600 files.)"""
    by_name: dict[str, list[str]] = defaultdict(list)
    for path in indexed:
        by_name[path.rpartition("/")[2]].append(path)
    return dict(by_name), frozenset(indexed)


def _mentions(
    store: Any, signals: TaskSignals, by_name: dict[str, list[str]], known: frozenset[str],
    cand: Any, modules: graphs.ModuleIndex,
) -> None:  # fmt: skip
    """Files the task names: by path (its longest suffix that names any), by dotted module,
    and by the frames of a traceback (`by_name`, `known`: `_name_index` of the indexed files)."""
    in_frames = {f.path for f in signals.frames} | {f.path.lstrip("./") for f in signals.frames}
    for mentioned in signals.paths:
        if mentioned in in_frames:
            continue  # weighed by its place in the traceback below
        # the longest suffix of the mentioned path that names files in the repository
        parts = mentioned.strip("/").split("/")
        resolved = _suffix_hits(by_name, parts)
        if resolved and BARE_NAME_FROM_LONG_PATH_ROOT_ONLY and len(parts) >= 3:
            kept = [p for p in resolved[0] if "/" not in p or _suffix_len(p, parts) >= 2]
            resolved = (kept, resolved[1]) if kept else None
        if resolved:
            hits, strength = resolved
            for path in hits:
                value = strength / len(hits)
                _, _, doc, text = _kind(path)
                if len(parts) == 1 and (doc or text):
                    # `pyproject.toml`, `index.rst`: most likely the user's own file, which
                    # only shares its name with the repository's docs or examples
                    value = min(value, BARE_TEXT_MENTION)
                c = cand(path)
                c.signals["mention"] = max(c.signals.get("mention", 0.0), value)
    for dotted in signals.dotted:
        parts = dotted.split(".")
        for i in range(len(parts), 0, -1):
            found = modules.get(".".join(parts[:i]))
            if found and len(found) <= 3:
                for path in found:
                    c = cand(path)
                    c.signals["mention"] = max(c.signals.get("mention", 0.0), 0.8 / len(found))
                break
    # Each traceback's innermost frame in the repository (where the error was raised) names
    # its file in full, the calls that led there a little less (`FRAME_OUTER`).
    located: list[tuple[Frame, list[str], float]] = []
    for frame in signals.frames:
        parts = frame.path.replace("\\", "/").strip("/").split("/")
        # the indexed file the frame's path ends with (its longest such suffix)
        tail = next(("/".join(parts[i:]) for i in range(len(parts))
                     if "/".join(parts[i:]) in known), None)  # fmt: skip
        if tail is not None:
            located.append((frame, [tail], 1.0))
        elif resolved := _suffix_hits(by_name, parts):
            located.append((frame, *resolved))  # `site-packages/_pytest/x.py`: `src/_pytest/x.py`
    innermost: dict[int, int] = {}
    for i, (frame, _, _) in enumerate(located):
        if frame.trace not in innermost or not frame.innermost_first:
            innermost[frame.trace] = i
    for i, (frame, hits, strength) in enumerate(located):
        if innermost[frame.trace] != i:
            strength *= FRAME_OUTER
        for path in hits:
            c = cand(path)
            c.signals["mention"] = max(c.signals.get("mention", 0.0), strength / len(hits))
        if len(hits) == 1 and frame.function:
            for r in store.symbols_named(frame.function)[:20]:
                if r["path"] == hits[0]:
                    _add_symbol(
                        cand(hits[0]), r, 1.0,
                        f"in a stack frame quoted in the task (line {frame.line})", ties=True,
                    )  # fmt: skip


def _suffix_len(path: str, parts: list[str]) -> int:
    """How many trailing components `path` shares with the mentioned `parts`."""
    mine = path.split("/")
    n = 0
    while n < min(len(mine), len(parts)) and mine[-1 - n] == parts[-1 - n]:
        n += 1
    return n


def _suffix_hits(by_name: dict[str, list[str]], parts: list[str]) -> tuple[list[str], float] | None:
    """The files a mentioned path names by its longest suffix that names any (at most
    `MAX_MENTIONED`, else none), and how strongly: a whole path or a folder with the name
    fully, a bare file name less."""
    named = by_name.get(parts[-1]) if parts else None
    if not named:
        return None
    for i in range(len(parts)):
        suffix = "/".join(parts[i:])
        hits = [p for p in named if p == suffix or p.endswith("/" + suffix)]
        if hits:
            if len(hits) > MAX_MENTIONED:
                return None  # `__init__.py`, `conf.py`: names no file in particular
            return hits[:5], 1.0 if i == 0 or len(parts) - i > 1 else 0.6
    return None


def _identifiers(store: Any, signals: TaskSignals, cand: Any) -> None:
    names = signals.identifiers[:40]
    found = store.symbols_named_many(names)
    for rank_i, name in enumerate(names):
        rows = found.get(name, [])[:40]
        definers = {r["path"] for r in rows}
        if not definers or len(definers) > 12:
            continue
        weight = (1.0 if rank_i < 10 else 0.7) / len(definers) ** 0.5
        for r in rows:
            c = cand(r["path"])
            c.signals["identifier"] = min(1.0, c.signals.get("identifier", 0.0) + weight)
            _add_symbol(c, r, 0.9, f"defines `{name}`, named in the task")


_PLAIN_STEMS = frozenset({"__init__", "index", "mod", "main", "__main__"})


@lru_cache(maxsize=4)
def _path_index(
    indexed: tuple[str, ...],
) -> tuple[dict[str, list[str]], dict[str, list[str]], dict[str, int]]:
    """Each path's stem words and folder words, and in how many paths each word occurs."""
    stems: dict[str, list[str]] = {}
    folders: dict[str, list[str]] = {}
    df: dict[str, int] = defaultdict(int)
    folder_tokens: dict[str, list[str]] = {}  # files share folders: tokenize each once
    for path in indexed:
        if _VENDORED_FILE.search(path):
            continue
        folder, _, name = path.rpartition("/")
        stem = name.split(".", 1)[0]
        stem_words = [] if stem in _PLAIN_STEMS else tok.tokens(stem)
        folder_words = folder_tokens.get(folder)
        if folder_words is None:
            folder_words = folder_tokens[folder] = tok.tokens(folder.replace("/", " "))
        stems[path] = stem_words
        folders[path] = folder_words
        for w in set(stem_words) | set(folder_words):
            df[w] += 1
    return stems, folders, dict(df)


_WORD = re.compile(r"[a-z]{3,}")


def _compounds(text: str) -> set[str]:
    """Adjacent words joined ("man page" -> `manpage`), as file names often write them."""
    words = _WORD.findall(text.lower())
    return {a + b for a, b in zip(words, words[1:], strict=False)}


def _path_words(signals: TaskSignals, indexed: list[str], cand: Any) -> None:
    """Files whose name (or folders) are words of the task, by the words' rarity in paths."""
    if not WEIGHTS.get("path"):
        return
    focus = set(tok.tokens(" ".join([signals.title, *signals.identifiers[:20]])))
    words = set(tok.tokens(signals.text)) | focus
    if PATH_COMPOUNDS:
        focus |= _compounds(signals.title)
        words |= _compounds(signals.text) | focus
    stems, folders, df = _path_index(tuple(indexed))
    n = len(stems) or 1

    def weight(w: str) -> float:
        return math.log(n / df[w]) * (1.0 if w in focus else 0.5)

    scores: dict[str, float] = {}
    for path, stem_words in stems.items():
        # the whole stem must be named (all its parts), folders count half
        stem_score = (
            sum(weight(w) for w in set(stem_words)) / len(set(stem_words))
            if stem_words and all(w in words for w in stem_words)
            else 0.0
        )
        folder_score = 0.5 * max((weight(w) for w in folders[path] if w in words), default=0.0)
        value = stem_score + folder_score
        if value > 0:
            scores[path] = value
    top = max(scores.values(), default=0.0)
    if top <= 0:
        return
    for path, value in scores.items():
        if value / top > 0.2:
            cand(path).signals["path"] = value / top
