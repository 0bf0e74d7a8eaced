#!/usr/bin/env python3
"""repomem as a retriever for ../shared/eval/run_eval.py, recording pack coverage on the side.

    pack_retriever.py REPO QUERY_FILE TASK_ID --tasks TASKS.jsonl --log COVERAGE.jsonl
        [--budgets 8000,27000]

Builds repomem's pack in process (the library) at each budget and prints the first pack's JSON
for the harness, which scores its `ranking`. Appends to COVERAGE.jsonl whether each gold file's
code is inside each pack (a whole-file item, or at least one symbol item of that file), and
whether each hunk of the gold patch is (every base line it changes inside such an item).
Timings go to stderr in the harness's `#timing` form. Gold files are read from the tasks
file, which only the benchmark sees; repomem never does.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import Any


def task_key(row: dict[str, Any]) -> str:
    """A task's id: SWE-bench's `instance_id`, or a history task's `id` (history_tasks.py)."""
    return str(row.get("instance_id") or row["id"])


def task_row(tasks: str, task_id: str) -> dict[str, Any]:
    with open(tasks, encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if task_key(row) == task_id:
                return dict(row)
    return {}


def gold_edits(patch: str) -> list[tuple[str, list[int]]]:
    """The gold patch's hunks as (path, lines of the base file they change): the removed
    lines, or for a pure insertion the two lines around it."""
    edits: list[tuple[str, list[int]]] = []
    path = ""
    old = 0
    current: list[int] | None = None
    for line in patch.splitlines():
        if line.startswith("--- "):
            current = None
        elif line.startswith("+++ "):
            path = line[4:].strip().removeprefix("b/")
        elif line.startswith("@@"):
            old = int(line.split()[1].lstrip("-").split(",")[0])
            current = []
            edits.append((path, current))
        elif current is None:
            continue
        elif line.startswith("-"):
            current.append(old)
            old += 1
        elif line.startswith("+"):
            if not current or current[-1] != old - 1:
                current.extend(n for n in (old - 1, old) if n > 0)
        elif not line.startswith("\\"):
            old += 1
    return [(p, sorted(set(lines))) for p, lines in edits if lines]


def edits_inside(edits: list[tuple[str, list[int]]], items: list[Any]) -> list[bool]:
    """For each gold hunk, whether every line it changes is inside a code item of the pack."""
    spans: dict[str, list[tuple[int, int]]] = {}
    for i in items:
        if i.kind in ("file", "symbol"):
            spans.setdefault(i.path, []).append((i.start_line, i.end_line))
    return [
        all(any(a <= n <= b for a, b in spans.get(path, [])) for n in lines)
        for path, lines in edits
    ]


def target(name: str) -> tuple[Any, str]:
    """The module and attribute a setting names: `task.NAME` is repomem.pack.task's, any
    other NAME the ranking module's that reads it (`FRAME_OUTER` is repomem.pack.names',
    `HUB_WEIGHT` repomem.pack.rank's); setting a name where it is only imported would not
    reach its reader."""
    from repomem.pack import candidates, names, penalties, rank, search, task

    if name.startswith("task."):
        return task, name.removeprefix("task.")
    # rank last: it imports WEIGHTS (the one name it shares) from candidates
    for module in (search, names, penalties, candidates):
        if name in vars(module):
            return module, name
    return rank, name


def apply(name: str, value: Any) -> None:
    """Override one ranking constant (WEIGHTS takes a dict of weights to update)."""
    module, attr = target(name)
    if attr == "WEIGHTS":
        module.WEIGHTS.update(value)
    else:
        setattr(module, attr, type(getattr(module, attr))(value))


def rank_only(cfg: Any, task: str, settings: dict[str, Any]) -> list[str]:
    """The file ranking (top 20) with `settings` applied, restored afterwards."""
    return [c.path for c in ranked_with(cfg, task, settings)[:20]]


def ranked_with(cfg: Any, task: str, settings: dict[str, Any]) -> list[Any]:
    """Every ranked candidate with `settings` applied, restored afterwards."""
    import copy

    from repomem.index import dense, indexer
    from repomem.pack import history, memory, rank
    from repomem.pack import task as tasks

    saved = {name: copy.deepcopy(getattr(*target(name))) for name in settings}
    try:
        for name, value in settings.items():
            apply(name, value)
        store = indexer.open_store(cfg)
        signals = tasks.analyse(task)
        signals.cited = memory.select(cfg, store, task).cited
        state = indexer.state_dir(cfg)
        ranked = rank.rank(
            store, signals, graph_cache=state, history=history.load(cfg.root, state),
            embedder=dense.embedder_for(cfg),
        )  # fmt: skip
        return list(ranked)
    finally:
        for name, value in saved.items():
            module, attr = target(name)
            if attr == "WEIGHTS":  # one dict read by several modules: restored in place
                module.WEIGHTS.clear()
                module.WEIGHTS.update(value)
            else:
                setattr(module, attr, value)


def log_pack_inputs(
    path: str, cfg: Any, task: str, task_id: str, edits: list[tuple[str, list[int]]],
    budget: int, rendered: str,
) -> None:  # fmt: skip
    """One JSON line: the packer's inputs after ranking (top files, their symbol hits, symbol
    tables and texts, zlib-compressed) and the items the real pack chose, for offline replays."""
    import base64
    import zlib
    from dataclasses import asdict

    from repomem.index import indexer
    from repomem.pack import builder

    ranked = ranked_with(cfg, task, {})
    top = [c for c in ranked[: builder.CODE_FILES] if c.score > 0]
    store = indexer.reader(cfg)
    paths = [c.path for c in top]
    texts = store.texts(paths)
    symbols = store.file_symbols(paths)
    blob = json.dumps({"texts": texts, "symbols": symbols})
    head = json.loads(rendered)
    row = {
        "task_id": task_id, "budget": budget, "edits": edits, "task": task,
        "header": {k: head.get(k) for k in ("repository", "commit", "indexed_at")},
        "ranking": [(c.path, c.score) for c in ranked[: builder.RANKING_SIZE]],
        "cands": [
            {"path": c.path, "score": c.score, "signals": c.signals,
             "symbols": [asdict(h) for h in c.symbols.values()]}
            for c in top
        ],
        "chosen": [
            {k: v for k, v in i.items() if k != "text"}
            for i in head.get("items", [])
        ],
        "blob": base64.b64encode(zlib.compress(blob.encode("utf-8"), 6)).decode("ascii"),
    }  # fmt: skip
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(row) + "\n")


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
        help="ablation: override a ranking constant (repomem.pack.rank, search, names, "
        "penalties, candidates; task.NAME for repomem.pack.task), e.g. FOCUS_SHARE=0",
    )
    ap.add_argument(
        "--variants",
        help="ablation: a JSON file {name: {NAME: VALUE, ...}}; each variant's ranking (top 20) "
        "is appended to --rank-log, computed on the same index in the same process",
    )
    ap.add_argument("--rank-log", help="where --variants rankings go (JSON lines)")
    ap.add_argument(
        "--pack-log",
        help="append what the packer chose from at the first budget to this file (JSON lines: "
        "the ranked files with their symbol hits, symbol tables and texts, the items chosen), "
        "to replay packing offline with bench/pack_replay.py",
    )
    ap.add_argument(
        "--features",
        help="append every candidate's ranking features to this file (JSON lines; see "
        "bench/rank_features.py)",
    )
    a = ap.parse_args()
    budgets = [int(b) for b in a.budgets.split(",")]
    row = task_row(a.tasks, a.task_id)
    gold = list(row.get("gold_files", []))
    edits = gold_edits(row.get("patch", ""))
    first: str | None = None
    record: dict[str, object] = {"task_id": a.task_id, "gold": gold}
    from repomem import config
    from repomem.index import indexer
    from repomem.pack import builder

    for setting in a.set:
        name, _, value = setting.partition("=")
        try:
            parsed = json.loads(value)  # numbers, true/false, {"weights": ...}
        except json.JSONDecodeError:
            parsed = value
        apply(name, parsed)

    t_index = time.perf_counter()
    cfg = config.load(a.repo)
    report = indexer.run(cfg)
    index_s = time.perf_counter() - t_index
    record["index_s"] = round(index_s, 3)
    record["embedded"] = report.embedded
    record["embed_s"] = round(report.embed_seconds, 3)
    with open(a.query_file, encoding="utf-8", errors="replace") as fh:
        task = fh.read()
    query_s = 0.0
    for budget in budgets:
        t0 = time.perf_counter()
        pack = builder.build(cfg, task, budget=budget, fmt="json", refresh=False)
        query_s += time.perf_counter() - t0
        inside = {i.path for i in pack.items if i.kind in ("file", "symbol")}
        record[f"in_pack_{budget}"] = [g in inside for g in gold]
        record[f"edits_in_pack_{budget}"] = edits_inside(edits, pack.items)
        record[f"tokens_{budget}"] = pack.tokens
        record[f"seconds_{budget}"] = round(pack.seconds, 3)
        if first is None:
            first = pack.render("json")
    with open(a.log, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(record) + "\n")
    if a.pack_log:
        log_pack_inputs(a.pack_log, cfg, task, a.task_id, edits, budgets[0], first or "{}")
    if a.variants and a.rank_log:
        with open(a.variants, encoding="utf-8") as fh:
            variants = json.load(fh)
        rows = []
        for name, settings in variants.items():
            t0 = time.perf_counter()
            ranking = rank_only(cfg, task, settings)
            rows.append({"task_id": a.task_id, "variant": name, "ranking": ranking,
                         "seconds": round(time.perf_counter() - t0, 3)})  # fmt: skip
        with open(a.rank_log, "a", encoding="utf-8") as fh:
            fh.writelines(json.dumps(r) + "\n" for r in rows)
    if a.features:
        import rank_features

        t0 = time.perf_counter()
        feats = rank_features.features(cfg, task, lambda s: ranked_with(cfg, task, s))
        row = {"task_id": a.task_id, "gold": gold, "seconds": round(time.perf_counter() - t0, 2),
               "cands": feats}  # fmt: skip
        with open(a.features, "a", encoding="utf-8") as fh:
            fh.write(json.dumps(row) + "\n")
    print(f'#timing {{"index_s": {index_s:.3f}, "query_s": {query_s:.3f}}}', file=sys.stderr)
    sys.stdout.write(first or "{}")


if __name__ == "__main__":
    main()
