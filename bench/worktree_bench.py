"""A new worktree's first index: started from a sibling worktree's store, or built from scratch.

    python bench/worktree_bench.py --repo /work/.mirror/sympy+sympy/repo [--back 0 20 300]
        [--rounds 3] [--donor-runs N] [--baseline REV] [--no-scratch]

The repository is cloned (`git clone --shared`) and indexed once (the main work tree). Then,
for each `--back N` (first-parent commits behind the main HEAD; 0 is the same commit, how
`git worktree add` is mostly used) and `--rounds` times, interleaved (the order reversed
every other round):

- **seeded** (this code): `repomem index` in a fresh worktree, which copies the main work
  tree's store and parses only the files that differ;
- **baseline** (with `--baseline REV`): the same, by `repomem/` of the git revision REV (taken
  with `git archive`), in another fresh worktree at the same commit;
- **scratch** (what a worktree's first index did before seeding; left out with
  `--no-scratch`): `repomem index --full` by this code in another fresh worktree.

Each is a CLI process (`python -m repomem`), timed end to end, and says whether it compacted
the store and how many versions its `files` table gained over the donor's (rows written).
Each worktree is removed before the next is made, so every seeded one copies the main work
tree's store. All the indexes of a round must hold the same rows (files' paths and hashes,
symbols, refs, chunks: checked in the first round). Prints the medians and their ratios per
distance.

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

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from hook_refresh import archive  # noqa: E402

from repomem import config  # noqa: E402
from repomem.index import indexer  # noqa: E402


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout.strip()


def index(root: Path, *, full: bool, code: Path = HERE.parent) -> tuple[float, str]:
    """One `repomem index` process by the repomem in `code`; its wall time and report line."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPOMEM_")}
    env["PYTHONPATH"] = str(code)
    cmd = [sys.executable, "-m", "repomem", "-C", str(root), "index", *(["--full"] if full else [])]
    t0 = time.perf_counter()
    # not from this folder: `python -m` would import the repomem beside this script first
    out = subprocess.run(
        cmd, check=True, capture_output=True, text=True, env=env, cwd=root.parent
    ).stdout
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
    ap.add_argument("--baseline", default=None, help="also seed with this revision's code")
    ap.add_argument("--no-scratch", action="store_true", help="leave out the full builds")
    args = ap.parse_args()
    kinds = ["seeded", *(["baseline"] if args.baseline else []),
             *([] if args.no_scratch else ["scratch"])]  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="worktree-bench-") as tmp:
        codes = {"seeded": HERE.parent, "scratch": HERE.parent}
        if args.baseline:
            codes["baseline"] = archive(args.baseline, Path(tmp) / "baseline")
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
            times: dict[str, list[float]] = {kind: [] for kind in kinds}
            donor = indexer.open_store(config.load(main_root))
            donor_files, donor_optimized = (
                donor.table("files").version,
                donor.get_meta("optimized_at"),
            )
            for r in range(args.rounds):
                contents: dict[str, Any] = {}
                for kind in kinds if r % 2 == 0 else kinds[::-1]:
                    wt = Path(tmp) / f"wt-{back}-{r}-{kind}"
                    git(main_root, "worktree", "add", "-q", "--detach", str(wt), rev)
                    seconds, line = index(wt, full=kind == "scratch", code=codes[kind])
                    if kind != "scratch" and "Started from" not in line:
                        raise SystemExit(f"the worktree was not seeded: {line}")
                    times[kind].append(seconds)
                    store = indexer.open_store(config.load(wt))
                    compacted = store.get_meta("optimized_at") not in (None, donor_optimized)
                    grown = store.table("files").version - donor_files
                    print(f"  back {back}, round {r + 1}, {kind}: {seconds:.2f}s  {line}, "
                          f"{'compacted' if compacted else 'not compacted'}, files table "
                          f"+{grown} versions")  # fmt: skip
                    if r == 0:
                        contents[kind] = content(wt)
                    # removed at once: the next worktree is seeded from the main one's store
                    git(main_root, "worktree", "remove", "--force", str(wt))
                    shutil.rmtree(wt, ignore_errors=True)
                if len({repr(c) for c in contents.values()}) > 1:
                    raise SystemExit(f"back {back}: the indexes of {', '.join(contents)} differ")
            rows.append((back, differ, {k: statistics.median(v) for k, v in times.items()}))
        others = [k for k in kinds if k != "seeded"]
        print(f"\n| commits back | files differing | {' | '.join(kinds)} (medians) | "
              + " | ".join(f"{k} / seeded" for k in others) + " |")  # fmt: skip
        print("|---:|---:|" + "---:|" * (len(kinds) + len(others)))
        for back, differ, med in rows:
            cells = [f"{med[k]:.2f} s" for k in kinds] + [
                f"{med[k] / med['seeded']:.2f}x" for k in others
            ]
            print(f"| {back} | {differ} | " + " | ".join(cells) + " |")


if __name__ == "__main__":
    main()
