"""The graph packs reuse (`Cached`: plain PageRank, compiled arrays, module index), kept on
disk and in memory per version of the tables read, and updated in place from the rows of the
files changed since (`_update`) instead of built again from every row."""

from __future__ import annotations

import contextlib
import logging
import os
import posixpath
import threading
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from repomem.index.graph.edges import (
    Edges,
    Inputs,
    _distinct,
    _edges,
    _files,
    _read,
    _resolved,
    _with_rows,
)
from repomem.index.graph.modules import ModuleIndex, _module_entry
from repomem.index.graph.rank import Compiled, compile_edges, pagerank
from repomem.index.schema import SCHEMA_VERSION

log = logging.getLogger(__name__)


@dataclass
class Cached:
    """What packs reuse until the index changes."""

    ranks: dict[str, float]
    compiled: Compiled
    modules: ModuleIndex
    nodes: list[str]
    indegree: dict[str, int]  # how many files reference each file


# Past this share of changed files (a branch switch) the graph is built again from scratch:
# reading a fifth of the files' rows by path took 1.1 s of the 3 s to read every row (47,000
# files), and most edges are built again then. A few files are updated in any repository.
REBUILD_SHARE = 0.2
REBUILD_FLOOR = 100
# Plain PageRank runs to its tolerance (97 steps on 47,000 files), so that a graph updated
# from the ranks before, in a few steps, ranks as a graph built from scratch.
PLAIN_ITERATIONS = 300
CACHE_VERSION = 7
_MEMO: dict[str, tuple[Any, Cached, Inputs | None]] = {}


def compute(store: Any) -> Cached:
    """The def/ref graph of the indexed files, its plain PageRank, arrays and module index."""
    return _build(store)[0]


def _build(store: Any) -> tuple[Cached, Inputs]:
    """The graph from every row of the index, and its inputs (for `_update`)."""
    order, inputs = _read(store)
    modules = ModuleIndex(order)
    inputs.edges = _edges(inputs, modules)
    return _finish(inputs.edges, order, modules), inputs


def _finish(
    edges: Edges, order: list[str], modules: ModuleIndex, start: Mapping[str, float] | None = None
) -> Cached:
    """The graph's arrays, plain PageRank (from `start`) and in-degrees."""
    import numpy as np

    compiled = compile_edges(edges)
    ranks = pagerank(compiled=compiled, iterations=PLAIN_ITERATIONS, start=start)
    referenced = np.bincount(edges.dst, minlength=len(edges.names))
    indegree = {edges.names[i]: int(referenced[i]) for i in np.flatnonzero(referenced).tolist()}
    return Cached(ranks, compiled, modules, order, indegree)


def cached(store: Any, cache_dir: Any) -> Cached:
    """`build(store)`, its plain PageRank, compiled arrays and module index, cached per version
    of the tables read: on disk (for the CLI) and in memory (for long-running servers).

    Building the graph reads every reference; after a change of a few files, the graph kept
    is updated from their rows only (`_update`).
    """
    import pickle
    from pathlib import Path

    versions = "-".join(str(store.table(n).version) for n in ("files", "symbols", "refs"))
    key = (CACHE_VERSION, SCHEMA_VERSION, versions)
    path = Path(cache_dir) / "graph.pickle"
    memo = _MEMO.get(str(path))
    if memo is not None and memo[0] == key:
        return memo[1]
    base = memo if memo is not None and memo[2] is not None else _load(path, key)
    if base is not None and base[0] == key:
        _MEMO[str(path)] = base
        return base[1]
    update = None
    if base is not None and base[2] is not None and base[2].edges is not None:
        update = _update(store, base[1], base[2], base[2].edges)
    value, inputs = update if update is not None else _build(store)
    # The graph, then its inputs (sharing its paths), replaced at once: a reader of the same
    # version loads only the first.
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}.tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            pickler = pickle.Pickler(fh, protocol=pickle.HIGHEST_PROTOCOL)
            pickler.dump((key, value))
            pickler.dump(inputs)
        tmp.replace(path)
    except OSError as exc:  # a cache: packs go on without it
        log.info("cannot write %s: %s", path, exc)
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()  # gone after the replace; a partial file after a failed write
    _MEMO[str(path)] = (key, value, inputs)
    return value


def _load(path: Any, key: tuple[int, int, str]) -> tuple[Any, Cached, Inputs | None] | None:
    """The graph cached in `path`, with its inputs unless it is of version `key` (only the
    first pickle is read then); None when missing, corrupt or of another format."""
    import pickle

    try:
        with open(path, "rb") as fh:
            unpickler = pickle.Unpickler(fh)
            found, value = unpickler.load()
            if not isinstance(value, Cached) or tuple(found[:2]) != key[:2]:
                return None
            inputs = None if found == key else unpickler.load()
    except (OSError, EOFError, pickle.UnpicklingError, ValueError, TypeError, AttributeError,
            IndexError, KeyError, ImportError):  # fmt: skip
        return None
    if inputs is not None and not isinstance(inputs, Inputs):
        return None
    return found, value, inputs


def _update(store: Any, old: Cached, inputs: Inputs, edges: Edges) -> tuple[Cached, Inputs] | None:
    """The graph of the index, from `old`, its `inputs` and `edges` (of an earlier version of
    the index) and the rows of the files changed since; None when too many changed.

    Only the edges out of files that may have changed are built again: the changed files,
    the users of names whose set of definers changed, and when files came or went, the
    importers of modules that now resolve otherwise.
    """
    import numpy as np

    order, names, hashes, stamps = _files(store)
    n = len(names)
    if names == inputs.names:  # files edited, none came or went
        moved = np.arange(n, dtype=np.int32)
    else:
        node = {p: i for i, p in enumerate(names)}
        moved = np.array([node.get(p, -1) for p in inputs.names], dtype=np.int32)  # old -> new
    same = moved >= 0
    olds = np.flatnonzero(same)
    to = moved.tolist()
    same[olds] = (stamps[moved[olds]] == inputs.stamps[olds]) & np.array(
        [hashes[to[j]] == inputs.hashes[j] for j in olds.tolist()], dtype=bool
    )
    fresh = np.ones(n, dtype=bool)
    fresh[moved[same]] = False
    changed = [names[i] for i in np.flatnonzero(fresh).tolist()]
    gone = ~same  # old nodes whose rows are dropped: changed or removed
    if len(changed) + int((moved < 0).sum()) > max(REBUILD_SHARE * n, REBUILD_FLOOR):
        log.debug("graph: %d files changed, building it again", len(changed))
        return None
    modules = old.modules if order == old.nodes else old.modules.reordered(old.nodes, order)
    if not changed and not gone.any():
        return replace(old, nodes=order, modules=modules), replace(inputs, stamps=stamps)
    kept = replace(inputs, names=names, hashes=hashes, stamps=stamps, words=list(inputs.words),
                   imports=dict(inputs.imports))  # fmt: skip
    sym, ref = ~gone[inputs.sym_path], ~gone[inputs.ref_path]
    kept.sym_path, kept.ref_path = moved[inputs.sym_path[sym]], moved[inputs.ref_path[ref]]
    kept.sym_word, kept.ref_word = inputs.sym_word[sym], inputs.ref_word[ref]
    kept.ref_import, kept.ref_count = inputs.ref_import[ref], inputs.ref_count[ref]
    new = _with_rows(kept, store, changed)

    # names defined anew or no more (by a changed or removed file): their users' edges change
    v, added = len(new.words), slice(len(kept.sym_path), None)
    path_of = np.where(moved >= 0, moved, n + np.arange(len(moved)))  # a removed file: past n
    was = path_of[inputs.sym_path[~sym]].astype(np.int64) * v + inputs.sym_word[~sym]
    now = new.sym_path[added].astype(np.int64) * v + new.sym_word[added]
    redefined = _distinct(np.setxor1d(was, now) % v)
    dirty = fresh.copy()
    dirty[new.ref_path[~new.ref_import & np.isin(new.ref_word, redefined)]] = True
    if len(names) != len(inputs.names) or (moved < 0).any():
        came_or_went = set(names).symmetric_difference(inputs.names)
        new.imports = _moved_imports(new, modules, came_or_went, dirty)

    src, dst = moved[edges.src], moved[edges.dst]
    keep = (src >= 0) & ~dirty[src]
    if (dst[keep] < 0).any():  # an edge into a removed file from a file not built again
        log.warning("graph: the update missed an edge into a removed file; building it again")
        return None
    built = _edges(new, modules, dirty)
    new.edges = Edges(
        names,
        np.concatenate([src[keep], built.src]),
        np.concatenate([dst[keep], built.dst]),
        np.concatenate([edges.weights[keep], built.weights]),
    )
    log.debug(
        "graph updated: %d files changed or added, %d removed, edges of %d built again",
        len(changed), int((moved < 0).sum()), int(dirty.sum()),
    )  # fmt: skip
    return _finish(new.edges, order, modules, old.ranks), new


def _moved_imports(
    inputs: Inputs, modules: ModuleIndex, came_or_went: set[str], dirty: Any
) -> dict[tuple[Any, str], list[str]]:
    """The imports of `inputs` resolved again now that these files came or went (`modules`:
    the files now indexed); files importing a module that resolves otherwise now are marked in
    `dirty`.

    Only imports that may name one of those files are resolved again: a file is found by the
    last part of its path (`ModuleIndex`), which is then part of the module or of the
    importer's folder (resolving every import took 0.4 s on 47,000 files).
    """
    import numpy as np

    lasts = {last for last, entry in map(_module_entry, came_or_went) if entry}
    fresh: dict[tuple[Any, str], list[str]] = {}
    moved: set[tuple[Any, str]] = set()
    for (module, folder), found in inputs.imports.items():
        text = str(module).replace("::", ".").replace("\\", ".")
        if not any(last in text or last in folder for last in lasts):
            fresh[module, folder] = found
        elif _resolved(fresh, module, folder, modules) != found:
            moved.add((module, folder))
    if not moved:
        return fresh
    # an absolute import, or a relative one from the top folder: every importer of the module
    word = {w: i for i, w in enumerate(inputs.words)}
    rows = inputs.ref_import & np.isin(inputs.ref_word, [word[m] for m, _ in moved if m in word])
    anywhere = [word[m] for m, folder in moved if not folder and m in word]
    dirty[inputs.ref_path[rows & np.isin(inputs.ref_word, anywhere)]] = True
    for i in np.flatnonzero(rows).tolist():
        module, path = inputs.words[inputs.ref_word[i]], inputs.names[inputs.ref_path[i]]
        if (module, posixpath.dirname(path)) in moved:
            dirty[inputs.ref_path[i]] = True
    return fresh
