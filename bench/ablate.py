#!/usr/bin/env python3
"""Score the ranking variants that `pack_retriever.py --variants` logged, side by side.

    python bench/ablate.py --tasks TASKS.jsonl RANK_LOG.jsonl [--by-repo] [--misses VARIANT]

Every variant was ranked on the same index in the same process, so the rows differ only by
the constants they override. Scored like ../shared/eval/run_eval.py: Recall@k is the share of
a task's gold files in the first k, MRR the reciprocal rank of the first gold file. Tasks that
some variant lacks (an interrupted run) are left out of every row. Run ablations on a
development split (SWE-bench Verified minus Lite), never on the tasks you report.
"""

from __future__ import annotations

import argparse
import json
from collections import defaultdict

from pack_retriever import task_key

KS = (1, 3, 5, 10)


def score(ranked: list[str], gold: list[str]) -> dict[str, float]:
    gold_set = set(gold)
    m = {f"R@{k}": len(gold_set & set(ranked[:k])) / len(gold_set) for k in KS}
    m["MRR"] = next((1.0 / i for i, p in enumerate(ranked, 1) if p in gold_set), 0.0)
    return m


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--by-repo", action="store_true", help="a row per variant and repository")
    ap.add_argument("--misses", metavar="VARIANT", help="list tasks whose gold is not in its top 5")
    a = ap.parse_args()
    tasks: dict[str, dict[str, object]] = {}
    with open(a.tasks, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            tasks[task_key(row)] = row
    rankings: dict[str, dict[str, list[str]]] = defaultdict(dict)
    with open(a.log, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            rankings[row["variant"]][row["task_id"]] = row["ranking"]
    common = set.intersection(*(set(r) for r in rankings.values())) & set(tasks)
    print(f"{len(common)} tasks ranked by all {len(rankings)} variants\n")
    print("| variant | set | n | R@1 | R@3 | R@5 | R@10 | MRR |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for name, ranked in rankings.items():
        groups: dict[str, list[dict[str, float]]] = defaultdict(list)
        for tid in sorted(common):
            gold = list(tasks[tid]["gold_files"])  # type: ignore[call-overload]
            m = score(ranked[tid], gold)
            groups["all"].append(m)
            if a.by_repo:
                groups[str(tasks[tid]["repo"]).split("/")[1]].append(m)
        for group, ms in groups.items():
            cells = " | ".join(
                f"{sum(m[k] for m in ms) / len(ms):.3f}" for k in [*(f"R@{k}" for k in KS), "MRR"]
            )
            print(f"| {name} | {group} | {len(ms)} | {cells} |")
    if a.misses:
        print()
        for tid in sorted(common):
            gold = list(tasks[tid]["gold_files"])  # type: ignore[call-overload]
            ranked = rankings[a.misses][tid]
            if score(ranked, gold)["R@5"] < 1:
                where = [ranked.index(g) + 1 if g in ranked else None for g in gold]
                print(f"{tid}: gold {gold} at {where}; top 5 {ranked[:5]}")


if __name__ == "__main__":
    main()
