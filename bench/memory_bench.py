"""Project memory: parallel writers (nothing lost), write cost as the file grows, a sample file.

    python bench/memory_bench.py [--writers 8] [--facts 50] [--sample OUT.md]

Runs N processes that each record M distinct facts at the same time into one memory file (each
write: lock, re-read, parse, render, atomic replace), then counts the facts. Baseline: the same
writers appending to a plain file without repomem's lock and re-read (what a naive "read, add,
write" tool does), to show what is lost without them. Also prints the per-write time at several
file sizes and writes the memory file of a scripted three-session scenario.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

WRITER = """
import sys
from repomem import config
from repomem.memory import ops
cfg = config.load(sys.argv[1])
w = sys.argv[2]
for i in range(int(sys.argv[3])):
    ops.remember(cfg, f"Writer {w} fact {i} concerns module_{w}_{i} only.")
"""

NAIVE = """
import sys
from pathlib import Path
p = Path(sys.argv[1]) / "NAIVE.md"
w = sys.argv[2]
for i in range(int(sys.argv[3])):
    text = p.read_text() if p.exists() else ""
    p.write_text(text + f"- Writer {w} fact {i} concerns module_{w}_{i} only.\\n")
"""


def git(root: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=root, check=True, capture_output=True)


def make_repo(root: Path) -> None:
    root.mkdir(parents=True)
    git(root, "init", "-q", "-b", "main")
    (root / "calc.py").write_text(
        "def add(a, b):\n    return a + b\n\n\ndef mul(a, b):\n    return a * b\n"
    )
    git(root, "add", "-A")
    git(root, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-qm", "init")


def run_writers(script: str, root: Path, writers: int, each: int) -> float:
    t0 = time.perf_counter()
    procs = [
        subprocess.Popen([sys.executable, "-c", script, str(root), str(w), str(each)])
        for w in range(writers)
    ]
    for p in procs:
        p.wait()
    return time.perf_counter() - t0


def scenario(root: Path) -> str:
    from repomem import config
    from repomem.memory import ops, session

    env = {"GIT_AUTHOR_NAME": "b", "GIT_AUTHOR_EMAIL": "b@b", "GIT_COMMITTER_NAME": "b",
           "GIT_COMMITTER_EMAIL": "b@b"}  # fmt: skip
    os.environ.update(env)
    cfg = config.load(root)
    ops.remember(cfg, "Arithmetic helpers live in calc.py; keep them pure.", kind="convention")
    session.start(cfg, "Add subtraction", agent="claude-code")
    with open(root / "calc.py", "a") as fh:
        fh.write("\n\ndef sub(a, b):\n    return a - b\n")
    git(root, "commit", "-qam", "Add sub()")
    session.end(cfg, summary="Added sub() next to add() and mul().",
                learned=["sub(a, b) returns a - b; callers rely on the argument order."],
                next_steps=["Add div() with a zero check"])  # fmt: skip
    f = ops.remember(cfg, "add() returns the sum of its arguments.", cites=["calc.py:add"]).fact
    session.start(cfg, "Float support", agent="claude-code")
    text = (root / "calc.py").read_text().replace("return a + b", "return float(a) + float(b)")
    (root / "calc.py").write_text(text)
    git(root, "commit", "-qam", "add() converts to float")
    ops.check(cfg)
    ops.supersede(cfg, f.id, "add() converts both arguments to float, then sums them.",
                  why="float support in session 2")  # fmt: skip
    ops.remember(cfg, "Arithmetic returns floats for mixed input.", kind="decision")
    session.end(cfg, summary="add() now converts to float.")
    session.start(cfg, "Division", agent="cursor")
    with open(root / "calc.py", "a") as fh:
        fh.write("\n\ndef div(a, b):\n    if b == 0:\n        raise ZeroDivisionError(a)\n"
                 "    return a / b\n")  # fmt: skip
    git(root, "commit", "-qam", "Add div() with a zero check")
    ops.complete_next_step(cfg, "Add div()")
    session.end(cfg, summary="Added div(); raises ZeroDivisionError on zero.",
                learned=["div() raises ZeroDivisionError rather than returning inf."])  # fmt: skip
    return (root / "REPOMEM.md").read_text(encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--facts", type=int, default=50)
    ap.add_argument("--sample", type=Path)
    args = ap.parse_args()
    os.environ.setdefault("REPOMEM_HOME", tempfile.mkdtemp())
    from repomem import config
    from repomem.memory import access, ops

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp) / "repo"
        make_repo(root)
        total = args.writers * args.facts
        secs = run_writers(WRITER, root, args.writers, args.facts)
        doc = access.load(config.load(root))
        kept = len(doc.facts())
        naive_secs = run_writers(NAIVE, root, args.writers, args.facts)
        naive_kept = len((root / "NAIVE.md").read_text().splitlines())
        print(f"parallel writers: {args.writers} processes x {args.facts} facts = {total}")
        print(
            f"  repomem: {kept}/{total} kept, lost {total - kept}, version {doc.version}, "
            f"{secs:.1f} s ({total / secs:.0f} writes/s), file {len(doc.render()) // 1024} KB"
        )
        print(f"  naive read-append-write: {naive_kept}/{total} kept, lost {total - naive_kept}, "
              f"{naive_secs:.2f} s")  # fmt: skip

        cfg = config.load(root)
        for size in (0, 200, 1000):
            r2 = Path(tmp) / f"size{size}"
            make_repo(r2)
            c2 = config.load(r2)
            with access.editing(c2) as d:
                for i in range(size):
                    ops.remember(c2, f"Filler fact {i} about component_{i}.", doc=d)
            times = []
            for i in range(20):
                t0 = time.perf_counter()
                ops.remember(c2, f"Timed fact {i} about thing_{i}.")
                times.append(time.perf_counter() - t0)
            print(f"  one write with {size:>4} facts in the file: median "
                  f"{statistics.median(times) * 1000:.1f} ms")  # fmt: skip
        del cfg
        r3 = Path(tmp) / "scenario"
        make_repo(r3)
        sample = scenario(r3)
        if args.sample:
            args.sample.write_text(sample, encoding="utf-8")
            print(f"sample memory file written to {args.sample}")
        else:
            print(sample)


if __name__ == "__main__":
    main()
