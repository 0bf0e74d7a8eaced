"""PageRank over the graph: its edges compiled into the arrays the power iteration walks
(`Compiled`), and weighted, personalized PageRank on them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from repomem.index.graph.edges import Edges


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
    """`compile_edges` of a graph given as a dict."""
    import numpy as np

    names = sorted(set(nodes) | set(graph) | {t for e in graph.values() for t in e})
    index = {name: i for i, name in enumerate(names)}
    src = [index[s] for s, edges in graph.items() for _ in edges]
    dst = [index[t] for edges in graph.values() for t in edges]
    wts = [w for edges in graph.values() for w in edges.values()]
    return compile_edges(
        Edges(names, np.asarray(src, dtype=np.int64), np.asarray(dst, dtype=np.int64),
              np.asarray(wts, dtype=np.float64))
    )  # fmt: skip


def compile_edges(edges: Edges) -> Compiled:
    """The arrays PageRank walks: each source's weights scaled to sum to 1 (a source whose
    weights sum to 0 has no way out)."""
    import numpy as np

    n = len(edges.names)
    total = np.bincount(edges.src, weights=edges.weights, minlength=n)
    out = total[edges.src] > 0
    # every edge kept (weights are positive): the same arrays, pickled once with the edges
    src, dst = (edges.src, edges.dst) if out.all() else (edges.src[out], edges.dst[out])
    has_out = np.zeros(n, dtype=bool)
    has_out[src] = True
    index = {name: i for i, name in enumerate(edges.names)}
    return Compiled(edges.names, index, src, dst, edges.weights[out] / total[src], has_out)


def pagerank(
    graph: Mapping[str, Mapping[str, float]] | None = None,
    personalization: Mapping[str, float] | None = None,
    *,
    damping: float = 0.85,
    iterations: int = 60,
    tolerance: float = 1e-9,
    nodes: Iterable[str] = (),
    compiled: Compiled | None = None,
    start: Mapping[str, float] | None = None,
) -> dict[str, float]:
    """Weighted (personalized) PageRank by power iteration (numpy); scores sum to 1.

    Pass `compiled` (from `compile_graph(graph, nodes)`) to skip rebuilding the arrays, and
    `start` (the ranks of a graph that differs a little) to begin the iteration there.
    """
    import numpy as np

    c = compiled if compiled is not None else compile_graph(graph or {}, nodes)
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
    if start:
        given = np.array([start.get(name, -1.0) for name in c.names])
        rank = np.where(given >= 0, given, teleport)
        rank /= rank.sum()
    for _ in range(iterations):
        spread = np.bincount(c.dst, weights=rank[c.src] * c.weights, minlength=n) * damping
        dangling = rank[~c.has_out].sum()
        nxt = spread + ((1.0 - damping) + damping * dangling) * teleport
        delta = float(np.abs(nxt - rank).sum())
        rank = nxt
        if delta < tolerance:
            break
    return dict(zip(c.names, rank.tolist(), strict=True))
