"""The graph's edges from the index's rows: each file's definitions and references read from
the store as arrays (`Inputs`, also what the cache keeps), and the edges they make (`Edges`),
from uses to definers and from imports to the files they resolve to."""

from __future__ import annotations

import posixpath
from collections import defaultdict
from dataclasses import dataclass, replace
from typing import Any

from repomem.index.graph.modules import ModuleIndex, _resolve

Graph = dict[str, dict[str, float]]

# Names defined in more files than this say little about which file is meant (`get`, `run`).
MAX_DEFINERS = 25
IMPORT_WEIGHT = 2.0


def build(store: Any) -> Graph:
    """The file graph of an index: {source path: {target path: weight}}."""
    _, inputs = _read(store)
    return _edges(inputs, ModuleIndex(inputs.names)).as_graph()


@dataclass
class Edges:
    """The graph as arrays: edge i runs from `names[src[i]]` to `names[dst[i]]` (names sorted),
    its weight the sum of the uses and imports behind it."""

    names: list[str]
    src: Any
    dst: Any
    weights: Any

    def as_graph(self) -> Graph:
        """{source path: {target path: weight}}."""
        graph: Graph = defaultdict(dict)
        names, pairs = self.names, zip(self.src.tolist(), self.dst.tolist(), strict=True)
        for (s, t), w in zip(pairs, self.weights.tolist(), strict=True):
            graph[names[s]][names[t]] = w
        return dict(graph)


Coded = tuple[Any, list[Any]]  # a column as (numpy codes, distinct values)


@dataclass
class Inputs:
    """What the graph is built from, as arrays of node and word ids: kept with the cached graph,
    so that a change of a few files reads only their rows again (reading every reference took
    3.2 s of the 6.4 s build on 47,000 files)."""

    names: list[str]  # the nodes: indexed paths, sorted
    hashes: list[str]  # per node, what identifies the rows read: the content's hash and
    stamps: Any  # `indexed_at` (rows written again, as by a rebuild, get a new one)
    words: list[Any]  # defined and referenced names, imported modules
    sym_path: Any  # a definition per row (node, word; int32)
    sym_word: Any
    ref_path: Any  # a reference per row (node, word, is an import, count)
    ref_word: Any
    ref_import: Any
    ref_count: Any
    # (module, importer's folder; "" for an absolute import) -> the files it resolves to
    imports: dict[tuple[Any, str], list[str]]
    edges: Edges | None = None  # the edges built from these inputs


def _read(store: Any) -> tuple[list[str], Inputs]:
    """The indexed paths (in the store's order) and every file's definitions and references."""
    import numpy as np

    order, names, hashes, stamps = _files(store)
    empty = np.zeros(0, dtype=np.int32)
    inputs = Inputs(names, hashes, stamps, [], empty, empty, empty, empty, empty.astype(bool),
                    empty, {})  # fmt: skip
    return order, _with_rows(inputs, store, None)


def _files(store: Any) -> tuple[list[str], list[str], list[str], Any]:
    """The indexed paths in the store's order; sorted, with their hashes and stamps."""
    import numpy as np

    cols = store.column("files", ["path", "skip", "hash", "indexed_at"])
    paths = cols["path"]
    rows = [i for i, skip in enumerate(cols["skip"]) if not skip]
    order = [paths[i] for i in rows]
    rows.sort(key=paths.__getitem__)
    stamps = np.array([cols["indexed_at"][i] for i in rows], dtype=np.float64)
    return order, [paths[i] for i in rows], [cols["hash"][i] for i in rows], stamps


def _with_rows(inputs: Inputs, store: Any, paths: list[str] | None) -> Inputs:
    """`inputs` with the definitions and references of these paths (all: None) appended;
    rows of paths that are not nodes are left out. The word list grows in place."""
    import numpy as np

    node = {p: i for i, p in enumerate(inputs.names)}
    word = {w: i for i, w in enumerate(inputs.words)}

    def lookup(column: Coded, ids: dict[Any, int], grow: bool = False) -> Any:  # -1: unknown
        codes, values = column
        if grow:  # a word met first is added to `word` and then to the word list
            table = np.array([ids.setdefault(v, len(ids)) for v in values], dtype=np.int32)
            inputs.words.extend(list(ids)[len(inputs.words) :])
        else:
            table = np.array([ids.get(v, -1) for v in values], dtype=np.int32)
        return table[codes] if len(codes) else np.zeros(0, dtype=np.int32)

    symbols = store.coded_columns("symbols", ["path", "name"], paths)
    refs = store.coded_columns("refs", ["path", "name", "kind", "count"], paths)
    sym_path = lookup(symbols["path"], node)
    sym_word = lookup(symbols["name"], word, grow=True)
    ref_path = lookup(refs["path"], node)
    ref_word = lookup(refs["name"], word, grow=True)
    kind_codes, kinds = refs["kind"]
    imports = np.asarray(kind_codes) == (kinds.index("import") if "import" in kinds else -1)
    count = np.asarray(refs["count"][1], dtype=np.float64)[refs["count"][0]]
    s, r = sym_path >= 0, ref_path >= 0
    return replace(
        inputs,
        sym_path=np.concatenate([inputs.sym_path, sym_path[s]]),
        sym_word=np.concatenate([inputs.sym_word, sym_word[s]]),
        ref_path=np.concatenate([inputs.ref_path, ref_path[r]]),
        ref_word=np.concatenate([inputs.ref_word, ref_word[r]]),
        ref_import=np.concatenate([inputs.ref_import, imports[r]]),
        ref_count=np.concatenate([inputs.ref_count, count[r].astype(np.int32)]),
    )


def _edges(inputs: Inputs, modules: ModuleIndex, sources: Any = None) -> Edges:
    """The edges out of the files `sources` marks (a bool per node; None: all). Each use of a
    name points at every file defining it (`sqrt(count)` shared among them, none when more
    than `MAX_DEFINERS` do), each import at the files it resolves to (`inputs.imports`, filled
    in as needed from `modules`).

    Built with numpy: a loop over every reference in Python took 1.8 s for 490,000 references
    (12,000 Java files).
    """
    import numpy as np

    names, words = inputs.names, inputs.words
    n = len(names)
    # (name, definer) pairs, grouped by name: definers of name k are def_path[first[k]:...]
    pairs = _distinct(inputs.sym_word.astype(np.int64) * n + inputs.sym_path)
    def_path = pairs % n
    definers = np.bincount(pairs // n, minlength=len(words))
    first = np.cumsum(definers) - definers

    rows = slice(None) if sources is None else sources[inputs.ref_path]
    ref_path, ref_word = inputs.ref_path[rows].astype(np.int64), inputs.ref_word[rows]
    imports, count = inputs.ref_import[rows], inputs.ref_count[rows]
    src, name, uses = ref_path[~imports], ref_word[~imports], count[~imports]
    k = definers[name]
    fits = (k >= 1) & (k <= MAX_DEFINERS)
    src, name, uses, k = src[fits], name[fits], uses[fits], k[fits]
    # one row per (use, definer); sqrt damps files that call one helper a hundred times
    # (aider does the same)
    use_src = np.repeat(src, k)
    use_dst = _gather(def_path, first[name], k)
    use_w = np.repeat(np.sqrt(uses) / k, k)

    # imports: an absolute one resolves alike from every file (once per module, then spread
    # like the uses), a relative one from the importer's folder
    node = {p: i for i, p in enumerate(names)}
    importer, module = ref_path[imports], ref_word[imports]
    used = _distinct(module)
    relative = np.array([str(words[m]).strip().startswith(".") for m in used.tolist()], bool)
    targets = [
        [] if rel else [node[t] for t in _resolved(inputs.imports, words[m], "", modules)]
        for m, rel in zip(used.tolist(), relative.tolist(), strict=True)
    ]
    spread = np.array([len(t) for t in targets], dtype=np.int64)
    flat = np.array([t for ts in targets for t in ts], dtype=np.int64)
    at = np.searchsorted(used, module)  # the row's module among `used`
    k = spread[at]
    imp_src = [np.repeat(importer, k)]
    imp_dst = [_gather(flat, (np.cumsum(spread) - spread)[at], k)]
    for i in np.flatnonzero(relative[at]).tolist():
        folder = posixpath.dirname(names[importer[i]])
        found = _resolved(inputs.imports, words[module[i]], folder, modules)
        imp_src.append(np.full(len(found), importer[i], dtype=np.int64))
        imp_dst.append(np.array([node[t] for t in found], dtype=np.int64))

    all_src = np.concatenate([use_src, *imp_src])
    all_dst = np.concatenate([use_dst, *imp_dst])
    all_w = np.concatenate([use_w, np.full(len(all_src) - len(use_src), IMPORT_WEIGHT)])
    other = all_src != all_dst
    pair, inverse = np.unique(all_src[other] * n + all_dst[other], return_inverse=True)
    weights = np.bincount(inverse, weights=all_w[other], minlength=len(pair))
    return Edges(names, (pair // n).astype(np.int32), (pair % n).astype(np.int32), weights)


def _resolved(
    known: dict[tuple[Any, str], list[str]], module: Any, folder: str, modules: ModuleIndex
) -> list[str]:
    """`resolve_import` from a file in `folder` ("" for an absolute import: the same from
    every folder), remembered in `known`."""
    key = (module, folder)
    found = known.get(key)
    if found is None:
        found = known[key] = _resolve(module, folder, modules) if isinstance(module, str) else []
    return found


def _distinct(values: Any) -> Any:
    """`np.unique(values)` by sorting: numpy 2.4 hashes instead, 20 times slower for 300,000
    integers."""
    import numpy as np

    ordered = np.sort(values)
    first = np.ones(len(ordered), dtype=bool)
    first[1:] = ordered[1:] != ordered[:-1]
    return ordered[first]


def _gather(values: Any, starts: Any, counts: Any) -> Any:
    """`values[starts[i] : starts[i] + counts[i]]` for every i, concatenated."""
    import numpy as np

    within = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
    return values[np.repeat(starts, counts) + within]
