"""The definition/reference graph over files, and PageRank on it.

An edge runs from a file that uses a name to each file that defines it (weighted by how often
the name is used and shared among the files defining it), and from a file to the files its
imports resolve to. Ranking (the context pack) runs personalized PageRank over this graph.
"""

from __future__ import annotations

import math
import os
import posixpath
from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

Graph = dict[str, dict[str, float]]

# Names defined in more files than this say little about which file is meant (`get`, `run`).
MAX_DEFINERS = 25
IMPORT_WEIGHT = 2.0
_SOURCE_EXTS = (
    ".py",
    ".pyi",
    ".js",
    ".jsx",
    ".mjs",
    ".cjs",
    ".ts",
    ".tsx",
    ".go",
    ".rs",
    ".java",
    ".c",
    ".h",
    ".cc",
    ".cpp",
    ".hpp",
    ".cs",
    ".rb",
    ".php",
)


def build(store: Any) -> Graph:
    """The file graph of an index: {source path: {target path: weight}}."""
    return _read(store)[0]


def _read(store: Any) -> tuple[Graph, list[str]]:
    """The graph and the indexed paths, in one read."""
    symbols = store.column("symbols", ["path", "name"])
    refs = store.column("refs", ["path", "name", "kind", "count"])
    files = store.column("files", ["path", "skip"])
    paths = [p for p, skip in zip(files["path"], files["skip"], strict=True) if not skip]
    graph = from_rows(
        zip(symbols["path"], symbols["name"], strict=True),
        zip(refs["path"], refs["name"], refs["kind"], refs["count"], strict=True),
        paths,
    )
    return graph, paths


def from_rows(
    defs: Iterable[tuple[str, str]],
    refs: Iterable[tuple[str, str, str, int]],
    paths: Iterable[str],
) -> Graph:
    """Build the graph from (path, name) definitions and (path, name, kind, count) uses."""
    definers: dict[str, set[str]] = defaultdict(set)
    for path, name in defs:
        definers[name].add(path)
    modules = module_index(paths)
    graph: Graph = defaultdict(dict)
    for path, name, kind, count in refs:
        if kind == "import":
            for target in resolve_import(name, path, modules):
                if target != path:
                    graph[path][target] = graph[path].get(target, 0.0) + IMPORT_WEIGHT
            continue
        targets = definers.get(name)
        if not targets or len(targets) > MAX_DEFINERS:
            continue
        # sqrt damps files that call one helper a hundred times (aider does the same)
        weight = math.sqrt(count) / len(targets)
        for target in targets:
            if target != path:
                graph[path][target] = graph[path].get(target, 0.0) + weight
    return dict(graph)


def module_index(paths: Iterable[str]) -> dict[str, list[str]]:
    """Dotted module names and path stems (every suffix) -> files."""
    index: dict[str, list[str]] = defaultdict(list)
    for path in paths:
        stem, ext = posixpath.splitext(path)
        if ext not in _SOURCE_EXTS:
            continue
        if stem.endswith(("/__init__", "/index", "/mod")):
            stem = stem.rsplit("/", 1)[0]
        parts = stem.split("/")
        for i in range(len(parts)):
            for key in {".".join(parts[i:]), "/".join(parts[i:])}:
                index[key].append(path)
    return index


def resolve_import(module: str, importer: str, index: Mapping[str, list[str]]) -> list[str]:
    """Files an import may refer to (empty for third-party modules)."""
    module = module.strip()
    if not module:
        return []
    base = posixpath.dirname(importer)
    if module.startswith("."):
        if module.startswith(("./", "../")):  # JS/TS/C relative path
            key = posixpath.normpath(posixpath.join(base, module))
        else:  # Python relative import: one dot per level up
            level = len(module) - len(module.lstrip("."))
            rest = module[level:]
            up = base
            for _ in range(level - 1):
                up = posixpath.dirname(up)
            key = posixpath.join(up, rest.replace(".", "/")) if rest else up
        key = posixpath.splitext(key)[0] if posixpath.splitext(key)[1] in _SOURCE_EXTS else key
        return list(index.get(key.strip("/"), []))
    for sep in ("::", "\\"):
        module = module.replace(sep, ".")
    module = module.strip("./")
    stem = (
        posixpath.splitext(module)[0] if posixpath.splitext(module)[1] in _SOURCE_EXTS else module
    )
    found = index.get(stem) or index.get(stem.replace(".", "/"))
    if found:
        return list(found) if len(found) <= 3 else []
    return []


@dataclass
class Compiled:
    """A graph as arrays for fast repeated PageRank (nodes sorted by name)."""

    names: list[str]
    index: dict[str, int]
    src: Any
    dst: Any
    weights: Any
    has_out: Any


def compile_graph(graph: Mapping[str, Mapping[str, float]], nodes: Iterable[str] = ()) -> Compiled:
    import numpy as np

    names = sorted(set(nodes) | set(graph) | {t for e in graph.values() for t in e})
    index = {name: i for i, name in enumerate(names)}
    src: list[int] = []
    dst: list[int] = []
    wts: list[float] = []
    for s, edges in graph.items():
        total = sum(edges.values())
        if total <= 0:
            continue
        i = index[s]
        for t, w in edges.items():
            src.append(i)
            dst.append(index[t])
            wts.append(w / total)
    src_a = np.asarray(src, dtype=np.int64)
    has_out = np.zeros(len(names), dtype=bool)
    has_out[src_a] = True
    return Compiled(names, index, src_a, np.asarray(dst, dtype=np.int64),
                    np.asarray(wts, dtype=np.float64), has_out)  # fmt: skip


def pagerank(
    graph: Mapping[str, Mapping[str, float]],
    personalization: Mapping[str, float] | None = None,
    *,
    damping: float = 0.85,
    iterations: int = 60,
    tolerance: float = 1e-9,
    nodes: Iterable[str] = (),
    compiled: Compiled | None = None,
) -> dict[str, float]:
    """Weighted (personalized) PageRank by power iteration (numpy); scores sum to 1.

    Pass `compiled` (from `compile_graph(graph, nodes)`) to skip rebuilding the arrays.
    """
    import numpy as np

    c = compiled if compiled is not None else compile_graph(graph, nodes)
    n = len(c.names)
    if not n:
        return {}
    teleport = np.zeros(n)
    if personalization:
        for k, v in personalization.items():
            i = c.index.get(k)
            if i is not None and v > 0:
                teleport[i] = v
    if teleport.sum() <= 0:
        teleport[:] = 1.0
    teleport /= teleport.sum()
    rank = teleport.copy()
    for _ in range(iterations):
        spread = np.bincount(c.dst, weights=rank[c.src] * c.weights, minlength=n) * damping
        dangling = rank[~c.has_out].sum()
        nxt = spread + ((1.0 - damping) + damping * dangling) * teleport
        delta = float(np.abs(nxt - rank).sum())
        rank = nxt
        if delta < tolerance:
            break
    return dict(zip(c.names, rank.tolist(), strict=True))


@dataclass
class Cached:
    """What packs reuse until the index changes."""

    graph: Graph
    ranks: dict[str, float]
    compiled: Compiled
    modules: dict[str, list[str]]
    nodes: list[str]
    indegree: dict[str, int]  # how many files reference each file


_MEMO: dict[str, tuple[str, Cached]] = {}
CACHE_VERSION = 5


def compute(store: Any) -> Cached:
    """The def/ref graph of the indexed files, its plain PageRank, arrays and module index."""
    graph, nodes = _read(store)
    compiled = compile_graph(graph, nodes)
    ranks = pagerank(graph, compiled=compiled)
    indegree: dict[str, int] = {}
    for src, edges in graph.items():
        for target in edges:
            if target != src:
                indegree[target] = indegree.get(target, 0) + 1
    return Cached(graph, ranks, compiled, dict(module_index(nodes)), nodes, indegree)


def cached(store: Any, cache_dir: Any) -> Cached:
    """`build(store)`, its plain PageRank, compiled arrays and module index, cached per version
    of the tables read: on disk (for the CLI) and in memory (for long-running servers).

    Building the graph reads every reference; packs reuse it until the index changes.
    """
    import pickle
    from pathlib import Path

    versions = f"{CACHE_VERSION}:" + "-".join(
        str(store.table(n).version) for n in ("files", "symbols", "refs")
    )
    path = Path(cache_dir) / "graph.pickle"
    memo = _MEMO.get(str(path))
    if memo is not None and memo[0] == versions:
        return memo[1]
    try:
        with open(path, "rb") as fh:
            key, value = pickle.load(fh)
        if key == versions and isinstance(value, Cached):
            _MEMO[str(path)] = (versions, value)
            return value
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError):
        pass
    value = compute(store)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            pickle.dump((versions, value), fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)
    except OSError:
        pass
    _MEMO[str(path)] = (versions, value)
    return value
