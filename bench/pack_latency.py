#!/usr/bin/env python3
"""How long a context pack takes on a large repository: in process, through the CLI, and
aider's repo map on the same tasks.

    python bench/pack_latency.py [--repo /work/.mirror/sympy+sympy/repo] [--tasks N]
        [--budgets 8000,27000] [--no-aider] [--keep DIR]

Clones the repository (`git clone --shared`, the source is only read) into a temporary
directory and indexes it with the CLI. The task texts are the SWE-bench problem statements of
that repository from ../shared/swebench (Lite, then Verified), or for another repository its
latest commit messages, used as realistic queries against the clone's HEAD (nothing is scored
here). Then, on the same tasks:

1. **In process, warm**: one Python process builds a pack for every task at each budget
   (`builder.build`, library call); the first pack of the process is reported apart (imports
   are excluded, store opening and graph-cache loading are included), the rest as median/p95.
2. **CLI end to end**: `repomem pack --task-file F --budget B --out FILE` in a fresh process
   per task (interpreter start, imports, pack, rendering, writing).
   The same through the Claude Code hook (`repomem claude-hook`, a new session per task: a
   pack within 9,500 characters) and its session start (the memory's digest).
3. **After a change**: one source file edited, `repomem index`, then one CLI pack (the first
   pack after any index change updates the def/ref graph it caches); three rounds.
4. **aider's repo map** (`../shared/eval/baselines/aider_repomap.py` in aider's venv, its tag
   cache warmed by a first run): the whole process per task, at an 8k map budget.

Every number is measured on this machine in this run; the load of other processes during the
run is printed beside them (numbers taken on a busy machine are pessimistic).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SHARED = HERE.parent.parent / "shared"
INPROC = r"""
import json, sys, time
t0 = time.perf_counter()
from repomem import config
from repomem.pack import builder
imports = time.perf_counter() - t0
root, budgets, files = sys.argv[1], [int(b) for b in sys.argv[2].split(",")], sys.argv[3:]
cfg = config.load(root)
out = {"imports": imports, "packs": [], "code": builder.__file__}
for f in files:
    text = open(f, encoding="utf-8").read()
    for b in budgets:
        t = time.perf_counter()
        pack = builder.build(cfg, text, budget=b, refresh=False)
        pack.render("md")
        out["packs"].append({"budget": b, "s": time.perf_counter() - t, "tokens": pack.tokens})
print(json.dumps(out))
"""


def pct(values: list[float], q: float) -> float:
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def cpu_busy() -> tuple[float, float]:
    with open("/proc/stat", encoding="ascii") as fh:
        fields = [float(x) for x in fh.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return sum(fields) - idle, sum(fields)


def task_texts(repo_name: str, n: int) -> list[str]:
    texts: list[str] = []
    for name in ("lite.jsonl", "verified.jsonl"):
        path = SHARED / "swebench" / name
        if not path.exists():
            continue
        for line in path.read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            if row["repo"].split("/")[-1] == repo_name and row["problem_statement"] not in texts:
                texts.append(row["problem_statement"])
    return texts[:n]


def commit_texts(root: Path, n: int) -> list[str]:
    """The messages of the last `n` non-merge commits with a body or a long subject: realistic
    task texts for a repository SWE-bench does not cover (nothing is scored here)."""
    out = subprocess.run(
        ["git", "-C", str(root), "log", "--no-merges", "-n", str(20 * n), "--format=%B%x00"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    texts = [t.strip() for t in out.split("\0") if len(t.strip()) > 40]
    return texts[:n]


def after_change(
    root: Path, budget: int, task: str, inside: dict[str, Any], rounds: int = 3
) -> list[float]:
    """CLI pack time right after a one-file edit and `repomem index`: the first pack after
    any change to the index updates the def/ref graph it caches."""
    tracked = subprocess.run(
        ["git", "-C", str(root), "ls-files"], check=True, capture_output=True, text=True
    ).stdout.splitlines()
    source = next(
        p for p in tracked if p.endswith((".py", ".java", ".go", ".ts", ".js", ".rs", ".c"))
    )
    path = root / source
    original = path.read_bytes()
    times = []
    try:
        for i in range(rounds):
            path.write_bytes(original + f"\n// edit {i}\n".encode())
            run(repomem(root, "index"), **inside)
            times.append(
                run(repomem(root, "pack", "--task-file", task, "--budget", str(budget), "--out",
                            str(root.parent / "pack.md")), **inside)
            )  # fmt: skip
    finally:
        path.write_bytes(original)
        run(repomem(root, "index"), **inside)
    return times


def repomem(root: Path, *args: str) -> list[str]:
    """The CLI command line for `repomem -C root ARGS`."""
    return [sys.executable, "-m", "repomem", "-C", str(root), *args]


def run(cmd: list[str], **kw: object) -> float:
    t = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, **kw)  # type: ignore[call-overload]
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", default="/work/.mirror/sympy+sympy/repo")
    ap.add_argument("--name", help="the repository's name in SWE-bench (default: from --repo)")
    ap.add_argument("--tasks", type=int, default=12)
    ap.add_argument("--budgets", default="8000,27000")
    ap.add_argument("--no-aider", action="store_true")
    ap.add_argument("--aider-python", default="/work/bench-venv/bin/python")
    ap.add_argument("--keep", help="work in this directory (kept; reused if it has a clone)")
    ap.add_argument(
        "--code", help="time the repomem package found in this directory instead (a checkout of "
        "another commit, for an A/B on the same machine state)",
    )  # fmt: skip
    a = ap.parse_args()
    name = a.name or Path(a.repo).resolve().parent.name.split("+")[-1]
    if name == "repo":
        name = Path(a.repo).resolve().name
    tmp = None if a.keep else tempfile.TemporaryDirectory(prefix="pack-latency-")
    work = Path(a.keep or tmp.name)  # type: ignore[union-attr]
    work.mkdir(parents=True, exist_ok=True)
    root = work / "repo"
    if not root.exists():
        subprocess.run(["git", "clone", "-q", "--shared", a.repo, str(root)], check=True)
    texts = task_texts(name, a.tasks)
    origin = "SWE-bench problem statements"
    if not texts:
        texts, origin = commit_texts(root, a.tasks), "commit messages"
    if not texts:
        sys.exit(f"no SWE-bench task texts for `{name}` under {SHARED} and no commit messages")
    files = []
    for i, text in enumerate(texts):
        f = work / f"task{i}.txt"
        f.write_text(text, encoding="utf-8")
        files.append(str(f))
    env = {k: v for k, v in os.environ.items() if not k.startswith("REPOMEM_")}
    env["REPOMEM_HOME"] = str(work / "home")
    if a.code:
        env["PYTHONPATH"] = str(Path(a.code).resolve())
    inside = {"env": env, "cwd": str(work)}  # not the caller's folder: `-c` puts it on the path
    busy0 = cpu_busy()
    t_index = run(repomem(root, "index"), **inside)
    print(
        f"{name}: {len(texts)} tasks ({origin}); index (CLI, cold unless --keep reused it) "
        f"{t_index:.1f} s"
    )

    out = subprocess.run(
        [sys.executable, "-c", INPROC, str(root), a.budgets, *files],
        check=True, capture_output=True, text=True, **inside,
    )  # fmt: skip
    inproc = json.loads(out.stdout.strip().splitlines()[-1])
    packs = inproc["packs"]
    print(f"repomem timed: {Path(inproc['code']).parent.parent}")
    first, rest = packs[0], packs[1:]
    rows: list[tuple[str, str]] = [
        ("in process: imports (once per process)", f"{inproc['imports']:.2f} s"),
        (f"in process: first pack ({first['budget']} tokens)", f"{first['s']:.2f} s"),
    ]
    budgets = [int(b) for b in a.budgets.split(",")]
    for b in budgets:
        xs = [p["s"] for p in rest if p["budget"] == b]
        if xs:
            rows.append(
                (f"in process: warm pack, {b} tokens (n={len(xs)})",
                 f"median {statistics.median(xs) * 1000:.0f} ms, p95 {pct(xs, 0.95) * 1000:.0f} ms")
            )  # fmt: skip
    cli = [
        run(repomem(root, "pack", "--task-file", f, "--budget", str(budgets[0]), "--out",
                    str(work / "pack.md")), **inside)
        for f in files
    ]  # fmt: skip
    cli_median = statistics.median(cli)
    rows.append(
        (f"CLI end to end, {budgets[0]} tokens (n={len(cli)})",
         f"median {cli_median:.2f} s, p95 {pct(cli, 0.95):.2f} s")
    )  # fmt: skip
    run_id = f"{time.time():.0f}"  # a new session each: a kept folder remembers earlier ones
    hook = [
        run(repomem(root, "claude-hook"), input=json.dumps(
            {"hook_event_name": "UserPromptSubmit", "session_id": f"bench-{run_id}-{i}",
             "prompt": text,
             "cwd": str(root)}).encode(), **inside)
        for i, text in enumerate(texts)
    ]  # fmt: skip
    rows.append(
        (f"Claude Code hook, a session's first task, 9,500 characters (n={len(hook)})",
         f"median {statistics.median(hook):.2f} s, p95 {pct(hook, 0.95):.2f} s")
    )  # fmt: skip
    start = json.dumps({"hook_event_name": "SessionStart", "session_id": "bench-start",
                        "source": "startup", "cwd": str(root)}).encode()  # fmt: skip
    digest = [run(repomem(root, "claude-hook"), input=start, **inside) for _ in range(5)]
    rows.append(
        ("Claude Code hook, a session's start (the memory's digest, n=5)",
         f"median {statistics.median(digest):.2f} s")
    )  # fmt: skip
    changed = after_change(root, budgets[0], files[0], inside)
    rows.append(
        (f"CLI, first pack after a one-file edit and `repomem index` (n={len(changed)})",
         f"median {statistics.median(changed):.2f} s")
    )  # fmt: skip
    aider_py = Path(a.aider_python)
    script = SHARED / "eval" / "baselines" / "aider_repomap.py"
    aider_median = None
    if a.no_aider or not aider_py.exists() or not script.exists():
        print("aider: skipped (--no-aider, or its venv or the baseline script is missing)")
    else:
        cache = work / "aider-cache"
        base = [str(aider_py), str(script), str(root), "--budget", "8192"]
        base += ["--cache-dir", str(cache)]
        warm = run([*base, "--query-file", files[0]])
        times = [run([*base, "--query-file", f]) for f in files]
        aider_median = statistics.median(times)
        rows.append(("aider repo map, first run (tag cache cold)", f"{warm:.1f} s"))
        rows.append(
            (f"aider repo map, warm cache, 8192 tokens (n={len(times)})",
             f"median {aider_median:.2f} s, p95 {pct(times, 0.95):.2f} s")
        )  # fmt: skip
    busy1 = cpu_busy()
    load = (busy1[0] - busy0[0]) / max(1.0, busy1[1] - busy0[1])
    print("\n| what | time |\n|---|---|")
    for what, value in rows:
        print(f"| {what} | {value} |")
    if aider_median:
        print(f"\naider warm / repomem CLI: {aider_median / cli_median:.1f}x")
    print(f"CPU busy during the run (all processes, all cores): {load:.0%}")


if __name__ == "__main__":
    main()
