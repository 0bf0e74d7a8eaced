"""A new worktree's first index: started from a sibling worktree's store, or built from scratch.

    python bench/worktree_bench.py --repo /work/.mirror/sympy+sympy/repo [--back 0 20 300]
        [--rounds 3] [--donor-runs N]

The repository is cloned (`git clone --shared`) and indexed once (the main work tree). Then,
for each `--back N` (first-parent commits behind the main HEAD; 0 is the same commit, how
`git worktree add` is mostly used) and `--rounds` times, interleaved:

- **seeded** (this code): `repomem index` in a fresh worktree, which copies the main work
  tree's store and parses only the files that differ;
- **scratch** (the baseline, what a worktree's first index did before): `repomem index --full`
  in another fresh worktree at the same commit.

Each is a CLI process (`python -m repomem`), timed end to end, and says whether it compacted
the store; the worktree is removed after each. The seeded index must equal the scratch one
(files' paths and hashes, symbols, refs, chunks: checked in the first round). Prints the
medians and the ratio per distance.

`--donor-runs N` records N runs since the main store's last compaction before the rounds (a
donor that many incremental runs old; at 20, `store.optimize_every`, one is due).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from repomem import config  # noqa: E402
from repomem.index import indexer  # noqa: E402


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout.strip()


def index(root: Path, *, full: bool) -> tuple[float, str]:
    """One `repomem index` process; its wall time and its report line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPOMEM_")}
    env["PYTHONPATH"] = str(Path(__file__).resolve().parents[1])
    cmd = [sys.executable, "-m", "repomem", "-C", str(root), "index", *(["--full"] if full else [])]
    t0 = time.perf_counter()
    out = subprocess.run(cmd, check=True, capture_output=True, text=True, env=env).stdout
    return time.perf_counter() - t0, " / ".join(out.strip().splitlines()[:2])


def content(root: Path) -> dict[str, Any]:
    store = indexer.open_store(config.load(root))
    out: dict[str, Any] = {}
    for table, cols in (
        ("files", ["path", "hash", "skip", "symbols"]),
        ("symbols", ["path", "qualname", "kind", "start_line", "end_line"]),
        ("refs", ["path", "name", "kind", "line"]),
        ("chunks", ["path", "start_line", "end_line"]),
    ):
        data = store.column(table, cols)
        out[table] = sorted(zip(*data.values(), strict=True))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", type=Path, required=True, help="a git repository with history")
    ap.add_argument("--back", type=int, nargs="+", default=[0, 20, 300])
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--donor-runs", type=int, default=None, help="runs since its compaction")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="worktree-bench-") as tmp:
        main_root = Path(tmp) / "main"
        subprocess.run(
            ["git", "clone", "-q", "--shared", str(args.repo), str(main_root)], check=True
        )
        seconds, line = index(main_root, full=True)
        print(f"main work tree indexed in {seconds:.1f}s: {line}")
        if args.donor_runs is not None:
            donor = indexer.open_store(config.load(main_root))
            with donor.writing():
                donor.set_meta({"runs_since_optimize": str(args.donor_runs)})
        rows = []
        for back in args.back:
            rev = git(main_root, "rev-parse", f"HEAD~{back}" if back else "HEAD")
            differ = (
                git(main_root, "diff", "--name-only", rev, "HEAD").count("\n") + 1 if back else 0
            )
            times: dict[str, list[float]] = {"seeded": [], "scratch": []}
            for r in range(args.rounds):
                made: dict[str, Path] = {}
                for kind in ("seeded", "scratch") if r % 2 == 0 else ("scratch", "seeded"):
                    wt = Path(tmp) / f"wt-{back}-{r}-{kind}"
                    git(main_root, "worktree", "add", "-q", "--detach", str(wt), rev)
                    seconds, line = index(wt, full=kind == "scratch")
                    if kind == "seeded" and "Started from" not in line:
                        raise SystemExit(f"the worktree was not seeded: {line}")
                    times[kind].append(seconds)
                    meta = indexer.open_store(config.load(wt)).all_meta()
                    done = "compacted" if meta.get("optimized_at") else "not compacted"
                    print(f"  back {back}, round {r + 1}, {kind}: {seconds:.2f}s  {line}, {done}")
                    made[kind] = wt
                if r == 0 and content(made["seeded"]) != content(made["scratch"]):
                    raise SystemExit(f"back {back}: the seeded index differs from a full build")
                for wt in made.values():
                    git(main_root, "worktree", "remove", "--force", str(wt))
                    shutil.rmtree(wt, ignore_errors=True)
            seeded, scratch = (statistics.median(times[k]) for k in ("seeded", "scratch"))
            rows.append((back, differ, seeded, scratch))
        print("\n| commits back | files differing | seeded (median) | from scratch | ratio |")
        print("|---:|---:|---:|---:|---:|")
        for back, differ, seeded, scratch in rows:
            ratio = scratch / seeded
            print(f"| {back} | {differ} | {seeded:.2f} s | {scratch:.2f} s | {ratio:.1f}x |")


if __name__ == "__main__":
    main()
