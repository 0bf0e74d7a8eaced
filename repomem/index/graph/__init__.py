"""The definition/reference graph over files, and PageRank on it.

An edge runs from a file that uses a name to each file that defines it (weighted by how often
the name is used and shared among the files defining it), and from a file to the files its
imports resolve to. Ranking (the context pack) runs personalized PageRank over this graph.
`cached` keeps it on disk with what it was built from, and after a change of a few files
updates it from their rows alone.

The package, by concern: `modules` (module names and import paths resolved to files),
`edges` (the rows read from the store and the edges built from them), `rank` (the arrays
PageRank walks, and PageRank) and `cache` (the graph packs reuse, on disk and in memory, and
its update in place). This module holds the public names. A test that patches a name (a
constant, the in-memory `_MEMO`) patches it in the module that reads it, not here.
"""

from __future__ import annotations

from repomem.index.graph.cache import (
    CACHE_VERSION,
    PLAIN_ITERATIONS,
    REBUILD_FLOOR,
    REBUILD_SHARE,
    Cached,
    cached,
    compute,
)
from repomem.index.graph.edges import (
    IMPORT_WEIGHT,
    MAX_DEFINERS,
    Coded,
    Edges,
    Graph,
    Inputs,
    build,
)
from repomem.index.graph.modules import ModuleIndex, resolve_import
from repomem.index.graph.rank import Compiled, compile_edges, compile_graph, pagerank

__all__ = [
    "CACHE_VERSION",
    "IMPORT_WEIGHT",
    "MAX_DEFINERS",
    "PLAIN_ITERATIONS",
    "REBUILD_FLOOR",
    "REBUILD_SHARE",
    "Cached",
    "Coded",
    "Compiled",
    "Edges",
    "Graph",
    "Inputs",
    "ModuleIndex",
    "build",
    "cached",
    "compile_edges",
    "compile_graph",
    "compute",
    "pagerank",
    "resolve_import",
]
