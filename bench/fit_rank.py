#!/usr/bin/env python3
"""Fit the ranking weights offline on features logged by `pack_retriever.py --features`.

    python bench/fit_rank.py FEATURES.jsonl [--cv] [--eval OTHER.jsonl] [--show PARAMS.json]

Rescores every task's logged candidates with repomem's formula (a weighted sum of signals,
times the penalty of tests, docs, text and vendored files unless the task names them) and
reports Recall@1/3/5/10 and MRR like ../shared/eval/run_eval.py. PageRank stays as logged
(its seeds came from the shipped weights), so the rescoring is an approximation that the
first row (repomem's current weights, read from `repomem.pack.rank` and `penalties`) matches
the logged order when the log was written with those weights.

- default: coordinate search over the weights, maximising mean R@5 + MRR on all tasks;
- `--cv`: leave one repository out: fit on the others, score the held-out one, so the gain
  is measured on tasks the fit never saw;
- `--eval FILE`: score the shipped and the fitted weights on another split (report this, fit
  only on a development split).
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict
from typing import Any

import numpy as np

SIGNALS = [
    "bm25_file_full", "bm25_file_focus", "bm25_symbol_full", "bm25_symbol_focus", "mention",
    "identifier", "path", "pagerank", "memory", "cochange", "recent", "dense", "bm25_chunk_full",
    "bm25_chunk_focus", "chunk_full",
    "chunk_focus", "global_pr", "log_lines", "log_indeg",
]  # fmt: skip
PENALTIES = ["test", "doc", "text", "vendor"]


def shipped() -> dict[str, float]:
    """repomem's own weights in this file's terms: the full-text signals split by query."""
    from repomem.pack import penalties, rank

    w = rank.WEIGHTS
    out = dict.fromkeys(SIGNALS, 0.0)
    out.update({k: v for k, v in w.items() if k in out})
    for key in ("bm25_file", "bm25_symbol", "bm25_chunk"):
        out[f"{key}_full"] = w[key] * (1 - rank.FOCUS_SHARE)
        out[f"{key}_focus"] = w[key] * rank.FOCUS_SHARE
    out["log_indeg"] = -rank.HUB_WEIGHT  # the hub damping, clamped at 0 like repomem's
    out.update(test=penalties.TEST_PENALTY, doc=penalties.DOC_PENALTY,
               text=penalties.TEXT_PENALTY, vendor=penalties.VENDOR_PENALTY)  # fmt: skip
    return out


SHIPPED = shipped()
KS = (1, 3, 5, 10)


class Task:
    def __init__(self, row: dict[str, Any]) -> None:
        self.id = row["task_id"]
        self.repo = self.id.rsplit("-", 1)[0]
        cands = row["cands"]
        self.paths = sorted(cands)
        self.x = np.array([[cands[p].get(f, 0.0) for f in SIGNALS] for p in self.paths])
        self.kinds = np.array([[cands[p].get(k, 0.0) for k in ("test", "doc", "text", "vendored")]
                               for p in self.paths]).astype(bool)  # fmt: skip
        self.named = np.array([cands[p].get("named", 0.0) > 0 for p in self.paths])
        gold = set(row["gold"])
        self.gold = np.array([p in gold for p in self.paths])
        self.n_gold = len(gold)


def scores(task: Task, params: dict[str, float]) -> np.ndarray:
    w = np.array([params.get(f, 0.0) for f in SIGNALS])
    s = np.maximum(task.x @ w, 0.0)
    test, doc, text, vendor = task.kinds.T
    factor = np.where(test, params["test"], np.where(doc, params["doc"], 1.0))
    factor = factor * np.where(text, params["text"], 1.0)
    factor = np.where(vendor, params["vendor"], factor)
    return np.where(task.named, s, s * factor)


def metrics(task: Task, params: dict[str, float]) -> dict[str, float]:
    s = scores(task, params)
    order = np.lexsort((np.arange(len(s)), -s))  # paths are sorted: ties by path
    hits = task.gold[order]
    m = {f"R@{k}": hits[:k].sum() / task.n_gold for k in KS}
    first = np.flatnonzero(hits)
    m["MRR"] = 1.0 / (first[0] + 1) if len(first) else 0.0
    return m


def mean(tasks: list[Task], params: dict[str, float]) -> dict[str, float]:
    ms = [metrics(t, params) for t in tasks]
    return {k: sum(m[k] for m in ms) / len(ms) for k in ms[0]}


def objective(tasks: list[Task], params: dict[str, float]) -> float:
    m = mean(tasks, params)
    return m["R@5"] + m["MRR"]


def fit(tasks: list[Task], start: dict[str, float], free: list[str]) -> dict[str, float]:
    params = dict(start)
    best = objective(tasks, params)
    for _ in range(6):
        improved = False
        for name in free:
            v = params[name]
            if name in PENALTIES:
                trials = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
            elif name in ("global_pr", "log_lines", "log_indeg"):
                trials = [v + d for d in (-0.2, -0.1, -0.05, -0.02, 0.02, 0.05, 0.1, 0.2)]
            else:
                trials = [v * f for f in (0, 0.5, 0.75, 1.25, 1.5, 2)] + [v + 0.1, v + 0.3]
            for t in trials:
                cand = {**params, name: round(t, 4)}
                value = objective(tasks, cand)
                if value > best + 1e-6:
                    best, params, improved = value, cand, True
        if not improved:
            break
    return params


def row(label: str, m: dict[str, float], n: int) -> str:
    cells = " | ".join(f"{m[k]:.3f}" for k in ("R@1", "R@3", "R@5", "R@10", "MRR"))
    return f"| {label} | {n} | {cells} |"


def load(path: str) -> list[Task]:
    seen: dict[str, Task] = {}
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            seen[r["task_id"]] = Task(r)
    return list(seen.values())


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("features")
    ap.add_argument("--cv", action="store_true")
    ap.add_argument("--eval")
    ap.add_argument("--free", default=",".join(SIGNALS + PENALTIES),
                    help="the parameters to fit (comma separated)")  # fmt: skip
    ap.add_argument("--show", help="score these parameters (JSON) instead of fitting")
    ap.add_argument("--save", help="write the fitted parameters here (JSON)")
    a = ap.parse_args()
    tasks = load(a.features)
    free = [f for f in a.free.split(",") if f]
    print("| weights | n | R@1 | R@3 | R@5 | R@10 | MRR |\n|---|---:|---:|---:|---:|---:|---:|")
    print(row("shipped", mean(tasks, SHIPPED), len(tasks)))
    if a.show:
        with open(a.show, encoding="utf-8") as fh:
            fitted = {**SHIPPED, **json.load(fh)}
        print(row("given", mean(tasks, fitted), len(tasks)))
    else:
        fitted = fit(tasks, SHIPPED, free)
        print(row("fitted (in sample)", mean(tasks, fitted), len(tasks)))
    if a.cv:
        by_repo: dict[str, list[Task]] = defaultdict(list)
        for t in tasks:
            by_repo[t.repo].append(t)
        held: list[dict[str, float]] = []
        base: list[dict[str, float]] = []
        for repo, group in sorted(by_repo.items()):
            rest = [t for t in tasks if t.repo != repo]
            p = fit(rest, SHIPPED, free)
            held += [metrics(t, p) for t in group]
            base += [metrics(t, SHIPPED) for t in group]
            hm = {k: sum(m[k] for m in held[-len(group) :]) / len(group) for k in held[-1]}
            bm = {k: sum(m[k] for m in base[-len(group) :]) / len(group) for k in base[-1]}
            print(row(f"{repo}: shipped", bm, len(group)))
            print(row(f"{repo}: fitted without it", hm, len(group)))
        avg = {k: sum(m[k] for m in held) / len(held) for k in held[0]}
        print(row("leave-one-repo-out, all", avg, len(held)))
    if a.eval:
        other = load(a.eval)
        print(row(f"{a.eval}: shipped", mean(other, SHIPPED), len(other)))
        print(row(f"{a.eval}: fitted", mean(other, fitted), len(other)))
    changed = {k: v for k, v in fitted.items() if v != SHIPPED[k]}
    print("\nfitted:", json.dumps(changed))
    if a.save:
        with open(a.save, "w", encoding="utf-8") as fh:
            json.dump(fitted, fh, indent=1)


if __name__ == "__main__":
    main()
