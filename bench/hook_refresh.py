#!/usr/bin/env python3
"""A pack that refreshes a stale index first, as the Claude Code hook builds one, against a
baseline revision: after a one-file edit, and in a new worktree.

    python bench/hook_refresh.py --repo /work/sympy [--baseline main] [--rounds 7]
        [--worktrees 3]

The baseline is `repomem/` of the git revision REV (default `main`), taken with `git archive`
into a temporary directory; this tree is the code beside this script. The repository is cloned
(`git clone --shared`, the source is only read) and indexed once. Both codes then take turns on
that one clone, the order swapped round by round, each process given the PYTHONPATH of its code:

1. **After a one-file edit, in process**: a line is appended to one Python file (another each
   time), then a fresh process times `builder.build(..., max_chars=9000, refresh_at_most=500)`
   alone (imports excluded): the count of what changed, the refresh, the pack.
2. **After a one-file edit, the hook**: the same edit, then `python -m repomem claude-hook`
   with a new session's task (a UserPromptSubmit), timed end to end.
3. **A new worktree's first prompt** (`--worktrees` rounds): `git worktree add` at HEAD, then
   the hook's first task there (the index is copied from the clone's, refreshed, packed),
   timed end to end; then whatever the hook started in the background is waited for (also
   timed: from the hook's start until that refresh ended, or the hook's own time when it
   started none), and the worktree removed.
4. **A new worktree's first two packs, in process** (`--worktrees` rounds): another fresh
   worktree, then one process seeds its index and builds two packs as the hook does (the
   second for another task, as a session's next prompt before any background refresh ran),
   each pack timed alone.

The tasks are the clone's latest commit messages. Prints the medians, the ratio baseline /
this tree, and the load average; nothing is asserted.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
INPROC = r"""
import json, sys, time
from repomem import config
from repomem.pack import builder
cfg = config.load(sys.argv[1])
t = time.perf_counter()
pack = builder.build(cfg, sys.argv[2], fmt="md", max_chars=9000, refresh_at_most=500)
print(json.dumps({"s": time.perf_counter() - t, "fresh": pack.fresh, "code": builder.__file__}))
"""
INPROC_WORKTREE = r"""
import json, sys, time
from repomem import config
from repomem.index import indexer
from repomem.pack import builder
cfg = config.load(sys.argv[1])
assert indexer.seed_from_sibling(cfg) is not None
seconds = []
for task in sys.argv[2:4]:
    t = time.perf_counter()
    pack = builder.build(cfg, task, fmt="md", max_chars=9000, refresh_at_most=500)
    seconds.append(time.perf_counter() - t)
    assert pack.fresh
print(json.dumps({"s": seconds, "code": builder.__file__}))
"""


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(root), *args], check=True, capture_output=True, text=True
    ).stdout


def archive(rev: str, dest: Path) -> Path:
    """`repomem/` of `rev` (of the repository this script is in) under `dest`."""
    data = subprocess.run(
        ["git", "-C", str(HERE.parent), "archive", rev, "repomem"], check=True,
        capture_output=True,
    ).stdout  # fmt: skip
    with tarfile.open(fileobj=io.BytesIO(data)) as tar:
        tar.extractall(dest, filter="data")
    return dest


def hook(
    root: Path, env: dict[str, str], session: str, task: str, cwd: Path
) -> tuple[float, float]:
    """One `repomem claude-hook` process for a session's first task; its wall time, and the
    time from its start until the refresh it started in the background, if any, ended (which
    prints its report to the hooks' log when done; polled every 0.2 s): the next measurement
    should not share the machine with it."""
    log = Path(git(root, "rev-parse", "--absolute-git-dir").strip()) / "repomem" / "hooks.log"
    before = log.read_text(encoding="utf-8") if log.exists() else ""
    payload = {"hook_event_name": "UserPromptSubmit", "session_id": session, "prompt": task,
               "cwd": str(root)}  # fmt: skip
    t = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "repomem", "claude-hook"], input=json.dumps(payload), text=True,
        capture_output=True, env=env, cwd=cwd, check=True,
    )  # fmt: skip
    seconds = time.perf_counter() - t
    if "# Context pack" not in done.stdout:
        raise SystemExit(f"no pack from the hook in {root}: {done.stdout[:300]} {done.stderr}")
    deadline = time.monotonic() + 600
    while log.exists():
        new = log.read_text(encoding="utf-8")[len(before) :]
        if "repomem index" not in new or any(
            line.startswith(("Indexed", "Error")) for line in new.splitlines()
        ):
            break
        if time.monotonic() > deadline:
            raise SystemExit(f"the background refresh in {root} did not end: {new}")
        time.sleep(0.2)
    return seconds, max(seconds, time.perf_counter() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", type=Path, required=True)
    ap.add_argument("--baseline", default="main", help="the revision to compare with")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--worktrees", type=int, default=3)
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="hook-refresh-") as tmp:
        work = Path(tmp)
        codes = {"baseline": archive(a.baseline, work / "baseline"), "this tree": HERE.parent}
        root = work / "repo"
        subprocess.run(["git", "clone", "-q", "--shared", str(a.repo), str(root)], check=True)
        env = {k: v for k, v in os.environ.items() if not k.startswith("REPOMEM_")}
        env.pop("CLAUDE_PROJECT_DIR", None)
        env["REPOMEM_HOME"] = str(work / "home")
        envs = {name: {**env, "PYTHONPATH": str(code)} for name, code in codes.items()}
        t = time.perf_counter()
        index = [sys.executable, "-m", "repomem", "-C", str(root), "index"]
        subprocess.run(index, env=envs["this tree"], cwd=work, check=True, capture_output=True)
        print(f"{root.name} indexed in {time.perf_counter() - t:.1f}s")
        sources = [p for p in git(root, "ls-files", "*.py").splitlines() if "/" in p]
        sources = sources[:: max(1, len(sources) // (4 * a.rounds + 1))]
        log = git(root, "log", "--no-merges", "-n", "200", "--format=%s")
        tasks = [s for s in log.splitlines() if len(s.split()) >= 5][: 4 * a.rounds]
        times: dict[str, dict[str, list[float]]] = {}

        def note(case: str, name: str, seconds: float) -> None:
            times.setdefault(case, {}).setdefault(name, []).append(seconds)

        edits = 0
        for r in range(a.rounds):
            for name in list(codes) if r % 2 == 0 else list(codes)[::-1]:
                for case in ("in process", "hook"):
                    path = root / sources[edits % len(sources)]
                    with path.open("a", encoding="utf-8") as f:
                        f.write(f"\n# hook_refresh edit {edits}\n")
                    edits += 1
                    task = tasks[edits % len(tasks)]
                    if case == "hook":
                        seconds, _ = hook(root, envs[name], f"{name}-{r}", task, work)
                        note("the hook's first task after a one-file edit", name, seconds)
                        continue
                    out = subprocess.run(
                        [sys.executable, "-c", INPROC, str(root), task], env=envs[name],
                        cwd=work, check=True, capture_output=True, text=True,
                    ).stdout  # fmt: skip
                    result = json.loads(out.strip().splitlines()[-1])
                    assert result["fresh"] and result["code"].startswith(str(codes[name]))
                    note("a pack after a one-file edit, in process", name, result["s"])
            print(f"  round {r + 1} of {a.rounds} done")
        for r in range(a.worktrees):
            for name in list(codes) if r % 2 == 0 else list(codes)[::-1]:
                wt = work / f"wt-{r}-{name.replace(' ', '-')}"
                git(root, "worktree", "add", "-q", "--detach", str(wt), "HEAD")
                seconds, idle = hook(wt, envs[name], f"wt-{name}-{r}", tasks[r % len(tasks)], work)
                note("the hook's first task in a new worktree", name, seconds)
                note("the same, until its background refresh ended", name, idle)
                print(f"  worktree {r + 1}, {name}: {seconds:.2f}s, until idle {idle:.2f}s")
                git(root, "worktree", "remove", "--force", str(wt))
                git(root, "worktree", "add", "-q", "--detach", str(wt), "HEAD")
                two = tasks[r % len(tasks)], tasks[(r + 1) % len(tasks)]
                out = subprocess.run(
                    [sys.executable, "-c", INPROC_WORKTREE, str(wt), *two], env=envs[name],
                    cwd=work, check=True, capture_output=True, text=True,
                ).stdout  # fmt: skip
                result = json.loads(out.strip().splitlines()[-1])
                assert result["code"].startswith(str(codes[name]))
                note("a new worktree's first pack, in process", name, result["s"][0])
                note("its second pack, in process", name, result["s"][1])
                git(root, "worktree", "remove", "--force", str(wt))
        print("\n| case | baseline (median) | this tree | baseline / this tree |")
        print("|---|---:|---:|---:|")
        for case, by in times.items():
            old, new = (statistics.median(by[n]) for n in codes)
            n = len(by["baseline"])
            print(f"| {case} (n={n}) | {old * 1000:,.0f} ms | {new * 1000:,.0f} ms "
                  f"| {old / new:.2f}x |")  # fmt: skip
        print(f"load average at the end: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
