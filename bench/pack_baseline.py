#!/usr/bin/env python3
"""The plain way to fill a context budget, scored like repomem's packs: paste whole files.

    python bench/pack_baseline.py RANKS.tasks.jsonl --tasks TASKS.jsonl \\
        --source owner/name=GITDIR ... [--budgets 8000,27000]

RANKS is a retriever's per-task output from ../shared/eval/run_eval.py (`NAME.tasks.jsonl`,
with `ranked` paths: BM25's, or repomem's own). For each task the files are pasted in rank
order as they are at the task's base commit (read from the git directory), each under a
one-line path header, until the budget (cl100k tokens) is spent; the last file is cut at the
line that no longer fits. Scored as `pack_replay.py` scores packs: a gold hunk is inside when
every base line it changes was pasted; `gold file` when any of its lines was.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from pack_retriever import gold_edits, task_key  # noqa: E402

from repomem.pack import tokens  # noqa: E402


class Blobs:
    """File texts at a commit, through one `git cat-file --batch` per repository."""

    def __init__(self, gitdir: str) -> None:
        self.proc = subprocess.Popen(
            ["git", "--git-dir", gitdir, "cat-file", "--batch"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )  # fmt: skip

    def text(self, commit: str, path: str) -> str | None:
        assert self.proc.stdin and self.proc.stdout
        self.proc.stdin.write(f"{commit}:{path}\n".encode())
        self.proc.stdin.flush()
        header = self.proc.stdout.readline().split()
        if len(header) < 3 or header[1] != b"blob":
            return None
        data = self.proc.stdout.read(int(header[2]) + 1)[:-1]
        return data.decode("utf-8", errors="replace")


def pasted(blobs: Blobs, commit: str, ranked: list[str], budget: int) -> dict[str, int]:
    """path -> how many of its first lines fit, pasting whole files in rank order."""
    used = 0
    out: dict[str, int] = {}
    for path in ranked:
        text = blobs.text(commit, path)
        if text is None:
            continue
        header = tokens.count(f"## {path}\n")
        if used + header >= budget:
            break
        used += header
        n = tokens.count(text)
        if used + n <= budget:
            out[path] = text.count("\n") + 1
            used += n
            continue
        kept = 0
        for line in text.split("\n"):
            cost = tokens.count(line + "\n")
            if used + cost > budget:
                break
            used += cost
            kept += 1
        out[path] = kept
        break
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("ranks")
    ap.add_argument("--tasks", required=True)
    ap.add_argument("--source", action="append", default=[], help="owner/name=GITDIR")
    ap.add_argument("--budgets", default="8000,27000")
    a = ap.parse_args()
    sources = dict(s.split("=", 1) for s in a.source)
    rows = {}
    for line in Path(a.tasks).read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        rows[task_key(r)] = r
    blobs: dict[str, Blobs] = {}
    stats: dict[str, list[float]] = defaultdict(list)
    budgets = [int(b) for b in a.budgets.split(",")]
    for line in Path(a.ranks).read_text(encoding="utf-8").splitlines():
        got = json.loads(line)
        task = rows.get(got["id"])
        if task is None or task["repo"] not in sources:
            continue
        edits = gold_edits(task.get("patch", ""))
        if not edits:
            continue
        if task["repo"] not in blobs:
            blobs[task["repo"]] = Blobs(sources[task["repo"]])
        for b in budgets:
            lines = pasted(
                blobs[task["repo"]], task.get("base_commit") or task["parent"], got["ranked"], b
            )
            inside = [all(n <= lines.get(p, 0) for n in ls) for p, ls in edits]
            stats[f"{b}:all"].append(float(all(inside)))
            stats[f"{b}:any"].append(float(any(inside)))
            stats[f"{b}:share"].append(sum(inside) / len(inside))
            stats[f"{b}:file"].append(float(any(p in lines for p, _ in edits)))
    n = len(stats[f"{budgets[0]}:all"])
    print(f"{n} tasks: whole files pasted in the order of {Path(a.ranks).name}\n")
    print("| budget | all edits | any edit | edit share | gold file |")
    print("|---:|---:|---:|---:|---:|")
    for b in budgets:
        cells = " | ".join(
            f"{sum(stats[f'{b}:{m}']) / n:.3f}" for m in ("all", "any", "share", "file")
        )
        print(f"| {b} | {cells} |")


if __name__ == "__main__":
    main()
