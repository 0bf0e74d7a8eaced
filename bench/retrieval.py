#!/usr/bin/env python3
"""File-level retrieval on SWE-bench: repomem's pack against BM25 (and aider's repo map).

Runs ../shared/eval/run_eval.py once per retriever on the same tasks and repositories, in one
invocation, then prints a side-by-side table: Recall@1/3/5/10 and MRR of each retriever's
ranking, overall and per repository, and for repomem the share of tasks whose gold files' code
is inside the pack at each budget (8k and 27k by default).

    python bench/retrieval.py --source psf/requests=/work/.mirror/psf+requests/repo ... \\
        [--tasks ../shared/swebench/lite.jsonl] [--limit N] [--aider]

Repositories are git directories with full history (the fetch tool's mirrors). Baselines run
with `--baseline-python` (default /work/bench-venv/bin/python, see bench/setup.sh; BM25 needs
`pip install bm25s` there). Nothing is tuned per repository or instance.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"


def run_eval(name: str, retriever: str, args: argparse.Namespace, out: Path) -> dict:
    summary = out / f"{name}.summary.json"
    if args.reuse and summary.exists():
        print(f"== {name}: reusing {summary}", file=sys.stderr)
        return json.loads(summary.read_text(encoding="utf-8"))
    cmd = [
        sys.executable, str(SHARED / "eval" / "run_eval.py"), "--name", name,
        "--tasks", args.tasks, "--cache-dir", str(out / f"cache-{name}"),
        "--out-dir", str(out), "--retriever", retriever,
    ]  # fmt: skip
    for src in args.source:
        cmd += ["--source", src]
    if args.limit:
        cmd += ["--limit", str(args.limit)]
    if args.timeout:
        cmd += ["--timeout", str(args.timeout)]
    print(f"== {name}: {retriever}", file=sys.stderr)
    subprocess.run(cmd, check=True, stdout=sys.stderr)
    return json.loads((out / f"{name}.summary.json").read_text(encoding="utf-8"))


def coverage(log: Path, budgets: list[int]) -> dict[str, dict[str, float]]:
    rows = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines() if line]
    by_repo: dict[str, list[dict]] = defaultdict(list)
    for r in rows:
        by_repo["ALL"].append(r)
        by_repo[
            r["task_id"].split("__")[0] + "/" + r["task_id"].split("__")[1].rsplit("-", 1)[0]
        ].append(r)
    out: dict[str, dict[str, float]] = {}
    for repo, items in by_repo.items():
        out[repo] = {"n": len(items)}
        for b in budgets:
            out[repo][f"all_gold_in_{b}"] = sum(all(r[f"in_pack_{b}"]) for r in items) / len(items)
            out[repo][f"any_gold_in_{b}"] = sum(any(r[f"in_pack_{b}"]) for r in items) / len(items)
            edits = [r.get(f"edits_in_pack_{b}") for r in items]
            edits = [e for e in edits if e]  # logs of earlier runs have none
            out[repo][f"all_edits_in_{b}"] = (
                sum(all(e) for e in edits) / len(edits) if edits else float("nan")
            )  # nan: a log written before the edits were recorded
            secs = [r.get(f"seconds_{b}", 0.0) for r in items]
            out[repo][f"pack_s_{b}"] = sorted(secs)[len(secs) // 2]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", action="append", default=[], help="owner/name=GITDIR")
    ap.add_argument("--tasks", default=str(SHARED / "swebench" / "lite.jsonl"))
    ap.add_argument("--limit", type=int, default=0)
    ap.add_argument("--budgets", default="8000,27000")
    ap.add_argument("--baseline-python", default="/work/bench-venv/bin/python")
    ap.add_argument("--aider", action="store_true", help="also run aider's repo map (slow)")
    ap.add_argument("--out", default="", help="output directory (default: a temp dir)")
    ap.add_argument(
        "--reuse", action="store_true",
        help="take the results of a retriever already in --out (an interrupted run, or one run "
        "in parallel on the same tasks and checkouts) instead of running it again",
    )  # fmt: skip
    ap.add_argument(
        "--variants", help="also rank these ranking-constant variants (pack_retriever.py "
        "--variants); score them with bench/ablate.py on OUT/ranks.jsonl",
    )  # fmt: skip
    ap.add_argument(
        "--timeout", type=float, default=0.0,
        help="seconds per task (run_eval.py's default: 600; a first embedding run needs more)",
    )  # fmt: skip
    ap.add_argument(
        "--pack-log", action="store_true",
        help="log the packer's inputs to OUT/pack_inputs.jsonl (replay: bench/pack_replay.py)",
    )  # fmt: skip
    a = ap.parse_args()
    out = Path(a.out or tempfile.mkdtemp(prefix="repomem-retrieval-"))
    out.mkdir(parents=True, exist_ok=True)
    log = out / "pack_coverage.jsonl"
    if not a.reuse:
        log.unlink(missing_ok=True)
    budgets = [int(b) for b in a.budgets.split(",")]
    extra = f" --variants {a.variants} --rank-log {out / 'ranks.jsonl'}" if a.variants else ""
    if a.pack_log:
        extra += f" --pack-log {out / 'pack_inputs.jsonl'}"
    results = {
        "repomem": run_eval(
            "repomem",
            f"{sys.executable} {HERE / 'pack_retriever.py'} {{repo}} {{query_file}} {{task_id}} "
            f"--tasks {a.tasks} --log {log} --budgets {a.budgets}{extra}",
            a, out,
        ),
        "bm25": run_eval(
            "bm25",
            f"{a.baseline_python} {SHARED / 'eval' / 'baselines' / 'bm25_baseline.py'} "
            "{repo} {query_file} {budget}",
            a, out,
        ),
    }  # fmt: skip
    if a.aider:
        results["aider"] = run_eval(
            "aider",
            f"{a.baseline_python} {SHARED / 'eval' / 'baselines' / 'aider_repomap.py'} "
            "{repo} --query-file {query_file} --budget 8192 --all",
            a, out,
        )  # fmt: skip
    cov = coverage(log, budgets)
    print(f"## Retrieval on {Path(a.tasks).name} (file level)\n")
    print("| retriever | set | n | R@1 | R@3 | R@5 | R@10 | MRR | s/task |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, summary in results.items():
        for label, row in summary["groups"].items():
            if label.startswith("lang:"):
                continue
            print(
                f"| {name} | {label} | {row['n']} | {row['R@1']:.3f} | {row['R@3']:.3f} | "
                f"{row['R@5']:.3f} | {row['R@10']:.3f} | {row['MRR']:.3f} | "
                f"{row['time_mean_s']:.2f} |"
            )
    print(
        "\n## repomem pack coverage (gold files whose code is inside the pack; gold edits: "
        "every line the gold patch changes is inside a file or symbol item)\n"
    )
    head = " | ".join(
        f"all gold in {b // 1000}k | any gold in {b // 1000}k | all edits in {b // 1000}k"
        for b in budgets
    )
    print(f"| set | n | {head} | median pack s |")
    print("|---|---:|" + "---:|" * (3 * len(budgets) + 1))
    for repo, v in cov.items():
        cells = " | ".join(
            f"{v[f'all_gold_in_{b}']:.3f} | {v[f'any_gold_in_{b}']:.3f} | "
            f"{v[f'all_edits_in_{b}']:.3f}"
            for b in budgets
        )
        print(f"| {repo} | {int(v['n'])} | {cells} | {v[f'pack_s_{budgets[0]}']:.2f} |")
    print(f"\n(results in {out})")


if __name__ == "__main__":
    main()
