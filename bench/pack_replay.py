#!/usr/bin/env python3
"""Replay repomem's packing offline on logged inputs, to compare packing policies.

    python bench/pack_replay.py PACK_LOG [--variants FILE] [--budget N]

PACK_LOG comes from `pack_retriever.py --pack-log` (through `retrieval.py --pack-log`): for
each task, the ranked files with their symbol hits, the files' symbol tables and texts, and
the items the real pack chose. The replay rebuilds the code, note and map items with
repomem's own `items` functions and fills the pack with `packing._fill` (the rendered JSON
is counted, as in the real pack), so the policy `current` must choose exactly the logged
items; the script checks that first. A variant sets the packing's constants, each in the
module that reads it (`items`, `packing`, `render`, `builder`: `{"name": {"RELEVANT_SPAN":
900}}`), and is scored on the same inputs.

Scored against the gold patch (never seen by repomem): a hunk is inside the pack when every
base line it changes lies inside a whole-file or symbol item. Per task, `all edits` means
every hunk is inside, `any edit` at least one; `edit share` averages the share of hunks.
"""

from __future__ import annotations

import argparse
import base64
import json
import sys
import zlib
from collections import defaultdict
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pack_retriever import edits_inside  # noqa: E402

from repomem.config import PackSection  # noqa: E402
from repomem.pack import builder, packing, render  # noqa: E402
from repomem.pack import items as pack_items  # noqa: E402
from repomem.pack.rank import Candidate, SymbolHit  # noqa: E402


class LoggedStore:
    """The two store reads the packer makes, answered from the log."""

    def __init__(self, texts: dict[str, str], symbols: dict[str, list[dict[str, Any]]]):
        self._texts = texts
        self._symbols = symbols

    def texts(self, paths: list[str]) -> dict[str, str]:
        return {p: self._texts[p] for p in paths if p in self._texts}

    def file_symbols(self, paths: list[str]) -> dict[str, list[dict[str, Any]]]:
        return {p: self._symbols.get(p, []) for p in paths}


def load(row: dict[str, Any]) -> tuple[LoggedStore, list[Candidate]]:
    """The logged store reads and ranked files of one task (parsed once per task)."""
    blob = json.loads(zlib.decompress(base64.b64decode(row["blob"])))
    ranked = []
    for c in row["cands"]:
        cand = Candidate(c["path"], c["score"], dict(c["signals"]))
        for h in c["symbols"]:
            hit = SymbolHit(**h)
            cand.symbols[f"{hit.qualname}:{hit.start_line}"] = hit
        ranked.append(cand)
    return LoggedStore(blob["texts"], blob["symbols"]), ranked


def replay(
    row: dict[str, Any], loaded: tuple[LoggedStore, list[Candidate]], budget: int,
    settings: dict[str, Any], fmt: str = "json",
) -> list[builder.Item]:  # fmt: skip
    """The items `builder` packs from one task's logged inputs with `settings` applied."""
    store, ranked = loaded
    saved = {k: getattr(target(k), k) for k in settings}
    try:
        for k, v in settings.items():
            setattr(target(k), k, v)
        head = row["header"]
        pack = builder.Pack(
            task=row["task"].strip(), budget=budget, tokens=0, fresh=True,
            repository=head["repository"], commit=head["commit"], pending=0,
            indexed_at=head["indexed_at"], ranking=[tuple(r) for r in row["ranking"]],
        )  # fmt: skip
        opts = PackSection()
        margin = opts.token_margin
        known: dict[str, list[dict[str, Any]]] = {}  # symbol tables, shared as in `build`
        code = pack_items._code_items(store, ranked[: builder.CODE_FILES], margin, known, budget)
        maps = pack_items._map_items(store, ranked[: pack_items.MAP_FILES], margin, known)
        packing._fill(pack, [], code, maps, budget, margin, opts, fmt)
        return pack.items
    finally:
        for k, v in saved.items():
            setattr(target(k), k, v)


def target(name: str) -> Any:
    """The module that reads a packing constant: a variant set where the name is only
    imported (`builder.MAP_FILES`) would not reach its reader. `builder` last: it imports."""
    for module in (pack_items, packing, render):
        if name in vars(module):
            return module
    return builder


def key(i: Any) -> tuple[str, str, str, int, int]:
    if isinstance(i, dict):
        return (i["kind"], i["path"], i["symbol"], i["start_line"], i["end_line"])
    return (i.kind, i.path, i.symbol, i.start_line, i.end_line)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("log")
    ap.add_argument("--variants", help="JSON file {name: {CONSTANT: value}}")
    ap.add_argument("--budget", type=int, default=0, help="default: the logged budget")
    ap.add_argument("--per-task", action="store_true")
    ap.add_argument(
        "--format", default="json", choices=builder.FORMATS,
        help="the rendered format the budget is counted on (logged packs are JSON)",
    )  # fmt: skip
    a = ap.parse_args()
    variants: dict[str, dict[str, Any]] = {"current": {}}
    if a.variants:
        variants.update(json.loads(Path(a.variants).read_text(encoding="utf-8")))
    rows = [json.loads(x) for x in Path(a.log).read_text(encoding="utf-8").splitlines() if x]
    stats: dict[str, dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    mismatched = 0
    for row in rows:
        budget = a.budget or row["budget"]
        edits = row["edits"]
        if not edits:
            continue
        repo = row["task_id"].split("__")[0]
        loaded = load(row)
        base: list[bool] = []
        for name, settings in variants.items():
            items = replay(row, loaded, budget, settings, a.format)
            inside = edits_inside(edits, items)
            if name == "current":
                base = inside
                logged = budget == row["budget"] and a.format == "json"
                if logged and sorted(map(key, items)) != sorted(map(key, row["chosen"])):
                    mismatched += 1
            elif a.per_task and sum(base) != sum(inside):
                print(f"{row['task_id']} {name}: {sum(base)} -> {sum(inside)} of {len(edits)}")
            gold = {p for p, _ in edits}
            files = {i.path for i in items if i.kind in ("file", "symbol")}
            for group in ("ALL", repo):
                s = stats[name]
                s[f"{group}:all"].append(float(all(inside)))
                s[f"{group}:any"].append(float(any(inside)))
                s[f"{group}:share"].append(sum(inside) / len(inside))
                s[f"{group}:file"].append(float(bool(gold & files)))
    print(
        f"{len(rows)} tasks; `current` differs from the logged packs on {mismatched} "
        "(near 0 with the packing code that wrote the log)\n"
    )
    print("| policy | set | n | all edits | any edit | edit share | gold file |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for name, s in stats.items():
        for group in sorted({k.split(":")[0] for k in s}, key=lambda g: (g != "ALL", g)):
            v = [s[f"{group}:{m}"] for m in ("all", "any", "share", "file")]
            cells = " | ".join(f"{sum(x) / len(x):.3f}" for x in v)
            print(f"| {name} | {group} | {len(v[0])} | {cells} |")


if __name__ == "__main__":
    main()
