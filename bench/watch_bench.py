"""Freshness benchmark: how soon a save reaches the store, a branch switch, and store growth.

    python bench/watch_bench.py                  # the Python standard library as the corpus
    python bench/watch_bench.py --repo PATH      # a copy of a git work tree instead

What one run measures (see bench/README.md):

1. save-to-store latency: a running `Watcher` (default `watch.debounce_ms`); one source file is
   saved (an editor's atomic save: temp file + rename), and the time until the watcher reports
   that batch written is recorded (the store is then read back to check the new symbol is
   there). Repeated `--saves` times on the full corpus and on a small corpus (`--small` files),
   to show whether the latency depends on the repository's size.
2. branch switch: `git checkout` of a branch that changes `--switch` files, timed from the start
   of the checkout until the store is fresh at the new HEAD (status == fresh).
3. store growth: `--updates` one-file updates through `indexer.update` (what the watcher does
   per save) without compaction, with the default compaction (`store.optimize_every`, old
   versions kept for 5 minutes for readers), and the latter once those 5 minutes have passed.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any


def git(root: Path, *args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=root, check=True, capture_output=True, text=True
    ).stdout


def make_corpus(dest: Path, repo: Path | None, limit: int | None = None) -> int:
    """Copy the stdlib (or a work tree) to `dest`, keep `limit` files at most, commit."""
    if repo is None:
        import sysconfig

        src = Path(sysconfig.get_paths()["stdlib"])
        shutil.copytree(
            src, dest, symlinks=True, ignore=shutil.ignore_patterns("site-packages", "__pycache__")
        )
    else:
        out = git(repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
        for rel in filter(None, out.split("\0")):
            a, b = repo / rel, dest / rel
            if a.is_file() and not a.is_symlink():
                b.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(a, b)
    if limit is not None:
        files = sorted(p for p in dest.rglob("*") if p.is_file() or p.is_symlink())
        for p in files[limit:]:
            p.unlink()
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A", "-f")
    git(dest, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "--no-verify", "-m", "c")
    return int(git(dest, "ls-files").count("\n"))


def dir_bytes(path: Path) -> int:
    total = 0
    for dirpath, _d, names in os.walk(path):
        for n in names:
            with contextlib.suppress(OSError):
                total += os.path.getsize(os.path.join(dirpath, n))
    return total


def python_files(root: Path, n: int) -> list[str]:
    """`n` mid-sized indexed Python files (repo-relative), spread over the tree."""
    from repomem import config
    from repomem.index import indexer

    store = indexer.open_store(config.load(root))
    cols = store.column("files", ["path", "skip"])
    pairs = zip(cols["path"], cols["skip"], strict=True)
    out = [p for p, k in pairs if not k and p.endswith(".py")]
    sized = sorted((os.path.getsize(root / p), p) for p in out)
    mid = [p for s, p in sized if 2_000 <= s <= 40_000] or [p for _s, p in sized]
    step = max(1, len(mid) // n)
    return mid[::step][:n]


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    k = min(len(s) - 1, max(0, round(q * (len(s) - 1))))
    return s[k]


class Batches:
    def __init__(self) -> None:
        self.items: list[tuple[float, Any]] = []
        self.cond = threading.Condition()

    def __call__(self, batch: Any) -> None:
        with self.cond:
            self.items.append((time.monotonic(), batch))
            self.cond.notify_all()

    def wait(self, check: Any, timeout: float = 300.0) -> tuple[float, Any]:
        deadline = time.monotonic() + timeout
        with self.cond:
            while True:
                for t, b in self.items:
                    if check(b):
                        return t, b
                left = deadline - time.monotonic()
                if left <= 0:
                    raise SystemExit("timed out waiting for the watcher")
                self.cond.wait(left)


def save_latency(root: Path, saves: int, debounce: int | None) -> dict[str, Any]:
    from repomem import config
    from repomem.index import indexer
    from repomem.index.watcher import Watcher

    cfg = config.load(root)
    if debounce is not None:
        cfg.watch.debounce_ms = debounce
    t0 = time.monotonic()
    indexer.run(cfg)
    build = time.monotonic() - t0
    rec = Batches()
    lat: list[float] = []
    upd: list[float] = []
    targets = python_files(root, saves)
    with Watcher(cfg, on_batch=rec) as w:
        rec.wait(lambda b: b.reason == "start")
        for i, rel in enumerate(targets):
            path = root / rel
            name = f"bench_saved_{i}"
            text = path.read_text(encoding="utf-8", errors="replace")
            tmp = path.with_name(f".{path.name}.tmp{i}")
            tmp.write_text(text + f"\n\ndef {name}():\n    return {i}\n", encoding="utf-8")
            os.replace(tmp, path)  # an editor's atomic save
            saved = time.monotonic()
            done, batch = rec.wait(lambda b, rel=rel, name=name: rel in b.paths)
            lat.append(done - saved)
            upd.append(batch.seconds)
            store = indexer.open_store(cfg)
            if not store.symbols_named(name):
                raise SystemExit(f"{name} is not in the store after its batch")
            time.sleep(0.05)  # a person's pace between saves; not part of any measurement
        reconciled = sum(1 for _t, b in rec.items if b.reconciled) - 1
        errors = w.errors
    return {
        "files": int(git(root, "ls-files").count("\n")),
        "debounce_ms": cfg.watch.debounce_ms,
        "initial_index_s": round(build, 2),
        "saves": len(lat),
        "latency_p50_ms": round(pct(lat, 0.5) * 1000, 1),
        "latency_p95_ms": round(pct(lat, 0.95) * 1000, 1),
        "latency_max_ms": round(max(lat) * 1000, 1),
        "update_p50_ms": round(pct(upd, 0.5) * 1000, 1),
        "update_p95_ms": round(pct(upd, 0.95) * 1000, 1),
        "reconciled_batches": reconciled,
        "errors": errors,
    }


def branch_switch(root: Path, n: int) -> dict[str, Any]:
    from repomem import config
    from repomem.index import indexer, query
    from repomem.index.watcher import Watcher

    cfg = config.load(root)
    indexer.run(cfg)
    targets = python_files(root, n * 3)[:n]
    git(root, "checkout", "-q", "-b", "switch")
    for i, rel in enumerate(targets):
        with open(root / rel, "a", encoding="utf-8") as fh:
            fh.write(f"\n\ndef bench_switch_{i}():\n    return {i}\n")
    git(root, "-c", "user.name=b", "-c", "user.email=b@b", "commit", "-q", "-am", "switch")
    target = git(root, "rev-parse", "HEAD").strip()
    git(root, "checkout", "-q", "main")
    indexer.run(cfg)
    rec = Batches()
    with Watcher(cfg, on_batch=rec):
        rec.wait(lambda b: b.reason == "start")
        start = len(rec.items)
        t0 = time.monotonic()
        git(root, "checkout", "-q", "switch")
        checkout = time.monotonic() - t0
        while True:
            done, _b = rec.wait(lambda b: b.head == target)
            st = query.status(cfg)
            if st["fresh"] and st["indexed_commit"] == target:
                break
            with rec.cond:
                rec.cond.wait(1.0)
        after = [b for _t, b in rec.items[start:]]
    store = indexer.open_store(cfg)
    assert store.symbols_named(f"bench_switch_{n - 1}"), "the switched files are not indexed"
    git(root, "checkout", "-q", "main")
    return {
        "files_changed": len(targets),
        "git_checkout_s": round(checkout, 2),
        "switch_to_fresh_s": round(done - t0, 2),
        "batches": len(after),
        "reasons": [b.reason for b in after],
        "parsed": sum(b.report.parsed for b in after),
    }


def store_growth(
    root: Path, updates: int, optimize_every: int, window: float | None = None
) -> dict[str, Any]:
    from repomem.index import indexer

    saved = indexer.CLEANUP_SECONDS, indexer.OPTIMIZE_MIN_INTERVAL
    if window is not None:  # a time-scaled run: as if the updates were spread over more time
        indexer.CLEANUP_SECONDS = indexer.OPTIMIZE_MIN_INTERVAL = window
    try:
        return _growth(root, updates, optimize_every, window)
    finally:
        indexer.CLEANUP_SECONDS, indexer.OPTIMIZE_MIN_INTERVAL = saved


def _growth(root: Path, updates: int, optimize_every: int, window: float | None) -> dict[str, Any]:
    from repomem import config
    from repomem.index import indexer

    cfg = config.load(root)
    cfg.store.optimize_every = optimize_every
    indexer.run(cfg)
    lance = Path(indexer.store_uri(cfg))
    before = dir_bytes(lance)
    rel = python_files(root, 1)[0]
    path = root / rel
    base = path.read_text(encoding="utf-8", errors="replace")
    times = []
    t_all = time.monotonic()
    for i in range(updates):
        path.write_text(base + f"\n\ndef bench_growth_{i}():\n    return {i}\n", encoding="utf-8")
        t0 = time.monotonic()
        indexer.update(cfg, [rel])
        times.append(time.monotonic() - t0)
    elapsed = time.monotonic() - t_all
    store = indexer.open_store(cfg)
    after = dir_bytes(lance)
    versions = {n: len(store.table(n).list_versions()) for n in ("files", "symbols", "refs")}
    out = {
        "updates": updates,
        "optimize_every": optimize_every,
        "cleanup_window_s": window if window is not None else indexer.CLEANUP_SECONDS,
        "elapsed_s": round(elapsed, 1),
        "compactions": sum(1 for t in times if t > 4 * pct(times, 0.5)),
        "store_mb_before": round(before / 1e6, 1),
        "store_mb_after": round(after / 1e6, 1),
        "versions_after": versions,
        "update_p50_ms": round(pct(times, 0.5) * 1000, 1),
        "update_p95_ms": round(pct(times, 0.95) * 1000, 1),
        "update_max_ms": round(max(times) * 1000, 1),
    }
    if optimize_every < updates:
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with store.writing():
                store.optimize(cleanup_seconds=0)  # as if the 5-minute window had passed
        out["store_mb_after_cleanup_window"] = round(dir_bytes(lance) / 1e6, 1)
        fresh = indexer.open_store(cfg)
        out["versions_after_cleanup_window"] = {
            n: len(fresh.table(n).list_versions()) for n in ("files", "symbols", "refs")
        }
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--repo", type=Path, help="a git work tree to copy instead of the stdlib")
    ap.add_argument("--saves", type=int, default=40)
    ap.add_argument("--small", type=int, default=200, help="files in the small corpus")
    ap.add_argument("--switch", type=int, default=500, help="files changed by the branch switch")
    ap.add_argument("--updates", type=int, default=1000)
    ap.add_argument("--debounce", type=int, help="watch.debounce_ms (default: the config's)")
    ap.add_argument(
        "--window", type=float, default=10.0,
        help="cleanup window (s) of the time-scaled growth run (the real one is 300 s)",
    )  # fmt: skip
    ap.add_argument("--skip", default="", help="comma list: latency,switch,growth")
    ap.add_argument("--workdir", type=Path)
    ap.add_argument("--keep", action="store_true")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    skip = set(filter(None, args.skip.split(",")))
    work = Path(tempfile.mkdtemp(prefix="watch-bench-", dir=args.workdir))
    os.environ["REPOMEM_HOME"] = str(work / "home")
    for var in [v for v in os.environ if v.startswith("REPOMEM_") and v != "REPOMEM_HOME"]:
        del os.environ[var]
    results: dict[str, Any] = {"python": sys.version.split()[0], "cpus": os.cpu_count()}
    try:
        big = work / "big"
        results["corpus_files"] = make_corpus(big, args.repo)
        pristine = work / "pristine"
        shutil.copytree(big, pristine, symlinks=True)
        if "latency" not in skip:
            print("== save-to-store latency, full corpus", file=sys.stderr)
            results["latency_big"] = save_latency(big, args.saves, args.debounce)
            small = work / "small"
            make_corpus(small, args.repo, args.small)
            print("== save-to-store latency, small corpus", file=sys.stderr)
            results["latency_small"] = save_latency(small, args.saves, args.debounce)
        if "switch" not in skip:
            print(f"== {args.switch}-file branch switch", file=sys.stderr)
            sw = work / "switch"
            shutil.copytree(pristine, sw, symlinks=True)
            results["switch"] = branch_switch(sw, args.switch)
        if "growth" not in skip:
            variants = (
                ("growth_no_compaction", 10**9, None),
                ("growth_compaction", 20, None),
                ("growth_compaction_scaled", 20, args.window),
            )
            for label, every, window in variants:
                print(f"== {args.updates} updates, {label}", file=sys.stderr)
                g = work / label
                shutil.copytree(pristine, g, symlinks=True)
                results[label] = store_growth(g, args.updates, every, window)
                shutil.rmtree(g, ignore_errors=True)
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(render(results))


def render(r: dict[str, Any]) -> str:
    lines = [f"Corpus: {r['corpus_files']} files; Python {r['python']}, {r['cpus']} CPUs", ""]
    if "latency_big" in r:
        lines += ["| corpus | files | debounce | save->store p50 | p95 | max | update p50 | p95 |",
                  "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"]  # fmt: skip
        for key, label in (("latency_big", "full"), ("latency_small", "small")):
            x = r[key]
            lines.append(
                f"| {label} | {x['files']} | {x['debounce_ms']} ms | {x['latency_p50_ms']} ms "
                f"| {x['latency_p95_ms']} ms | {x['latency_max_ms']} ms | {x['update_p50_ms']} ms "
                f"| {x['update_p95_ms']} ms |"
            )
        lines.append("")
    if "switch" in r:
        s = r["switch"]
        lines.append(
            f"Branch switch of {s['files_changed']} files: git checkout {s['git_checkout_s']} s, "
            f"store fresh {s['switch_to_fresh_s']} s after the checkout started, in "
            f"{s['batches']} batch(es) ({', '.join(s['reasons'])}), {s['parsed']} files parsed."
        )
        lines.append("")
    keys = ("growth_no_compaction", "growth_compaction", "growth_compaction_scaled")
    if any(k in r for k in keys):
        lines += ["| run | optimize_every | cleanup window | updates in | compactions | "
                  "store before | after | after the window passes | versions (files) | "
                  "update p50 / p95 / max |",
                  "| --- |" + " ---: |" * 9]  # fmt: skip
        for key in keys:
            if key not in r:
                continue
            g = r[key]
            every = "never" if g["optimize_every"] >= 10**9 else str(g["optimize_every"])
            later = g.get("store_mb_after_cleanup_window")
            lines.append(
                f"| {key} | {every} | {g['cleanup_window_s']:g} s | {g['elapsed_s']} s "
                f"| {g['compactions']} | {g['store_mb_before']} MB | {g['store_mb_after']} MB "
                f"| {f'{later} MB' if later is not None else '-'} "
                f"| {g['versions_after']['files']} | {g['update_p50_ms']} / {g['update_p95_ms']} "
                f"/ {g['update_max_ms']} ms |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    main()
