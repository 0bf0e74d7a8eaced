"""Full-text rankings after incremental path updates, against a fresh build of the same tree.

    python bench/fts_drift.py                      # the Python standard library as the corpus
    python bench/fts_drift.py --repo PATH          # a copy of a git work tree instead
    python bench/fts_drift.py --checkpoints 1,3,10,30 --files 5

What one run measures (see bench/README.md):

1. The corpus is indexed, then edited in rounds: each round appends a function (its docstring
   words drawn from the queries) to `--files` random Python files and brings the index up to
   date with `indexer.update(paths, optimize=False)`, as the watcher does per save.
2. At each checkpoint the same queries (40 symbol names of the corpus, 30 pairs of words) are
   searched (`Store.search`, top 10) in the updated store and in a store built from scratch
   over the same tree, side by side. Printed: the rows the full-text indexes lack, the share
   of queries ranked alike (items in the same order, ties in any order), alike at the top, the
   top-10 overlap, and the largest relative score difference of an item found by both.
3. Last, the updated store is compacted (`indexer.compact`, what `optimize_if_due` runs) and
   compared again, with the compaction's time.
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.watch_bench import git, make_corpus  # noqa: E402
from repomem import config  # noqa: E402
from repomem.index import indexer  # noqa: E402

WORDS = [
    "store", "index", "memory", "pack", "token", "budget", "watcher", "commit", "stale",
    "secret", "hook", "session", "notes", "lock", "search", "rank", "graph", "config", "parse",
    "symbol", "file", "path", "error", "value", "list", "name", "text", "line", "read", "write",
]  # fmt: skip
Ranked = dict[str, list[tuple[tuple[str, str, str], float]]]


def ranked(store: Any, queries: list[str]) -> Ranked:
    return {
        q: [((h.kind, h.path, h.qualname), round(h.score, 3)) for h in store.search(q, limit=10)]
        for q in queries
    }


def positions(got: list[Any], fresh: list[Any]) -> tuple[list[int], list[int]]:
    """Each item's tie group in the fresh ranking (-1: not there), for both lists: equal lists
    mean the same ranking, items of equal fresh score in any order."""
    group: dict[Any, int] = {}
    last, k = None, -1
    for item, score in fresh:
        if score != last:
            k, last = k + 1, score
        group[item] = k
    return [group.get(i, -1) for i, _ in got], [group[i] for i, _ in fresh]


def lagging(store: Any) -> str:
    backlog = store.fts_backlog()
    return ", ".join(f"{n} {u}/{t}" for n in ("symbols", "files") for u, t in backlog.get(n, []))


def compare(label: str, got: Ranked, fresh: Ranked, store: Any) -> None:
    n = len(fresh)
    pairs = [positions(got[q], fresh[q]) for q in fresh]
    alike = sum(a == b for a, b in pairs)
    top = sum(a[:1] == b[:1] for a, b in pairs)
    overlap = sum(
        len({i for i, _ in got[q]} & {i for i, _ in fresh[q]}) / max(1, len(fresh[q]))
        for q in fresh
    )
    diff = 0.0
    for q in fresh:
        scores = dict(fresh[q])
        for item, score in got[q]:
            if scores.get(item):
                diff = max(diff, abs(score - scores[item]) / scores[item])
    print(
        f"{label}: rows not in the full-text indexes: {lagging(store)}; ranked alike "
        f"{alike}/{n}, same top hit {top}/{n}, top-10 overlap {overlap / n:.3f}, largest score "
        f"difference {diff:.1%}",
        flush=True,
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", type=Path, help="a git work tree to copy (default: the stdlib)")
    ap.add_argument("--checkpoints", default="1,3,10,30", help="compare after these rounds")
    ap.add_argument("--files", type=int, default=5, help="files edited per round")
    ap.add_argument("--seed", type=int, default=11)
    args = ap.parse_args()
    checkpoints = sorted(int(x) for x in args.checkpoints.split(","))
    with tempfile.TemporaryDirectory(prefix="fts-drift-") as tmp:
        work = Path(tmp) / "work"
        work.mkdir()
        make_corpus(work, args.repo)
        cfg = config.load(work, overrides={"index.workers": 1})
        fresh_cfg = config.load(
            work, overrides={"index.workers": 1, "store.path": str(Path(tmp) / "fresh")}
        )
        indexer.run(cfg)
        rng = random.Random(args.seed)
        py = sorted(p for p in git(work, "ls-files", "*.py").split())
        names = sorted(set(indexer.open_store(cfg).column("symbols", ["name"])["name"]))
        queries = rng.sample([n for n in names if len(n) > 4], 40)
        queries += [" ".join(rng.sample(WORDS, 2)) for _ in range(30)]
        vocabulary = WORDS + queries[:40]

        def fresh() -> Ranked:
            shutil.rmtree(Path(tmp) / "fresh", ignore_errors=True)
            indexer.run(fresh_cfg, full=True)
            return ranked(indexer.open_store(fresh_cfg), queries)

        done = 0
        for checkpoint in checkpoints:
            while done < checkpoint:
                paths = rng.sample(py, args.files)
                for rel in paths:
                    f = work / rel
                    doc = " ".join(rng.sample(vocabulary, 4))
                    f.write_text(
                        f.read_text(encoding="utf-8")
                        + f'\n\ndef added_{done}_{rng.randrange(10**6)}():\n    """{doc}."""\n',
                        encoding="utf-8",
                    )
                indexer.update(cfg, paths, optimize=False)
                done += 1
            store = indexer.open_store(cfg)
            label = f"after {done} update(s) of {args.files} files"
            compare(label, ranked(store, queries), fresh(), store)
        store = indexer.open_store(cfg)
        with store.writing():
            t0 = time.monotonic()
            store.publish(indexer.compact(store))
            took = time.monotonic() - t0
        store = indexer.open_store(cfg)
        compare(f"compacted ({took:.2f}s)", ranked(store, queries), fresh(), store)


if __name__ == "__main__":
    main()
