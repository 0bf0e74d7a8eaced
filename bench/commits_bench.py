"""Commit messages after a branch switch: keep what the histories share, or read them all again.

    python bench/commits_bench.py --repo /work/.mirror/sympy+sympy/repo [--back 40] [--rounds 3]

The repository is cloned (`git clone --shared`) and indexed. Then, `--rounds` times, HEAD is
moved back `--back` first-parent commits (a checkout of an older commit: the stored head does
not descend from it) and the `commits` table is brought to it in two ways, interleaved, each
starting from the same stored state (the newer HEAD's commits):

- **switch** (this code, `commits.sync`): keeps the stored commits the new history shares,
  drops the others, reads only the missing ones;
- **rebuild** (the baseline, what a switch did before): `commits.sync(full=True)`, every
  commit read from git again and the table and its full-text index rebuilt.

Both must end with the same commits stored (checked). Prints the median of each and the ratio.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from repomem import config  # noqa: E402
from repomem.index import commits, indexer  # noqa: E402


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout.strip()


def sync(root: Path, head: str, *, full: bool) -> tuple[float, set[str]]:
    """Bring the commits table to `head`; the time of the sync and the commits then stored."""
    cfg = config.load(root)
    store = indexer.open_store(cfg)
    with store.writing():
        t0 = time.perf_counter()
        meta = commits.sync(store, root, head, limit=cfg.index.commit_history, full=full)
        store.publish(meta)
        seconds = time.perf_counter() - t0
    return seconds, store.commit_shas()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repo", type=Path, required=True, help="a git repository with history")
    ap.add_argument("--back", type=int, default=40, help="first-parent commits to move back")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="commits-bench-") as tmp:
        root = Path(tmp) / "repo"
        subprocess.run(["git", "clone", "-q", "--shared", str(args.repo), str(root)], check=True)
        newer = git(root, "rev-parse", "HEAD")
        older = git(root, "rev-parse", f"HEAD~{args.back}")
        t0 = time.perf_counter()
        indexer.run(config.load(root))
        print(f"indexed {root.name} at {newer[:10]} in {time.perf_counter() - t0:.1f} s")
        git(root, "checkout", "-q", older)
        times: dict[str, list[float]] = {"switch": [], "rebuild": []}
        for _ in range(args.rounds):
            stored: dict[str, set[str]] = {}
            for way in ("switch", "rebuild"):
                sync(root, newer, full=True)  # the same starting state for both
                seconds, stored[way] = sync(root, older, full=way == "rebuild")
                times[way].append(seconds)
            if stored["switch"] != stored["rebuild"]:
                sys.exit("the two ways stored different commits")
        n = len(stored["switch"])
        print(f"moved back {args.back} first-parent commits; {n} commits stored after the move")
        for way, values in times.items():
            print(f"{way:8s} median {statistics.median(values):.2f} s  "
                  f"({', '.join(f'{v:.2f}' for v in values)})")  # fmt: skip
        ratio = statistics.median(times["rebuild"]) / statistics.median(times["switch"])
        print(f"rebuild / switch: {ratio:.1f}x")


if __name__ == "__main__":
    main()
