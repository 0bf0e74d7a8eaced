#!/usr/bin/env python3
"""repomem as a retriever for ../shared/eval/run_eval.py, recording pack coverage on the side.

    pack_retriever.py REPO QUERY_FILE TASK_ID --tasks TASKS.jsonl --log COVERAGE.jsonl
        [--budgets 8000,27000]

Builds repomem's pack in process (the library) at each budget and prints the first pack's JSON
for the harness, which scores its `ranking`. Appends to COVERAGE.jsonl whether each gold file's
code is inside each pack (a whole-file item, or at least one symbol item of that file).
Timings go to stderr in the harness's `#timing` form. Gold files are read from the tasks
file, which only the benchmark sees; repomem never does.
"""

from __future__ import annotations

import argparse
import json
import sys
import time


def gold_files(tasks: str, task_id: str) -> list[str]:
    with open(tasks, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if row.get("instance_id", row.get("id")) == task_id:
                return list(row["gold_files"])
    return []


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("repo")
    ap.add_argument("query_file")
    ap.add_argument("task_id")
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--log", required=True)
    ap.add_argument("--budgets", default="8000,27000")
    ap.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="ablation: override a constant of repomem.pack.rank, e.g. FOCUS_SHARE=0",
    )
    a = ap.parse_args()
    budgets = [int(b) for b in a.budgets.split(",")]
    gold = gold_files(a.tasks, a.task_id)
    first: str | None = None
    record: dict[str, object] = {"task_id": a.task_id, "gold": gold}
    from repomem import config
    from repomem.index import indexer
    from repomem.pack import builder, rank

    for setting in a.set:
        name, _, value = setting.partition("=")
        if name == "WEIGHTS":
            rank.WEIGHTS.update(json.loads(value))
        else:
            setattr(rank, name, type(getattr(rank, name))(value))

    t_index = time.perf_counter()
    cfg = config.load(a.repo)
    indexer.run(cfg)
    index_s = time.perf_counter() - t_index
    with open(a.query_file, encoding="utf-8", errors="replace") as fh:
        task = fh.read()
    query_s = 0.0
    for budget in budgets:
        t0 = time.perf_counter()
        pack = builder.build(cfg, task, budget=budget, fmt="json", refresh=False)
        query_s += time.perf_counter() - t0
        inside = {i.path for i in pack.items if i.kind in ("file", "symbol")}
        record[f"in_pack_{budget}"] = [g in inside for g in gold]
        record[f"tokens_{budget}"] = pack.tokens
        record[f"seconds_{budget}"] = round(pack.seconds, 3)
        if first is None:
            first = pack.render("json")
    with open(a.log, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")
    print(f'#timing {{"index_s": {index_s:.3f}, "query_s": {query_s:.3f}}}', file=sys.stderr)
    sys.stdout.write(first or "{}")


if __name__ == "__main__":
    main()
