"""One store, many writers: a watcher, hook-style runs and readers at the same time; crashes."""

from __future__ import annotations

import os
import random
import subprocess
import sys
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

from repomem.index import indexer, query
from repomem.index.watcher import Watcher
from tests.conftest import Repo
from tests.index.indexer.cases import MODULE, fresh_snapshot, kill_mid_batch, populate, snapshot
from tests.index.test_watcher import Recorder

ROOT = Path(__file__).parents[2]


def check_consistent(store: Any) -> None:
    """What a reader sees is one finished update: every symbol belongs to a stored file, and
    each file's symbol count matches the symbols table."""
    files = store.column("files", ["path", "symbols"])
    per_path = Counter(store.column("symbols", ["path"])["path"])
    stored = dict(zip(files["path"], files["symbols"], strict=True))
    assert len(stored) == len(files["path"]), "a path is stored twice"
    assert set(per_path) <= set(stored), "symbols of a file that is not stored"
    for path, n in per_path.items():
        assert stored[path] == n, f"{path}: {stored[path]} symbols recorded, {n} stored"


def test_watcher_hook_runs_and_readers_together_end_equal_to_a_fresh_index(repo: Repo) -> None:
    populate(repo, 30)
    repo.commit()
    cfg = repo.config(**{"index.workers": 1, "store.optimize_every": 5})
    indexer.run(cfg)
    rec = Recorder()
    stop = threading.Event()
    failures: list[BaseException] = []
    reads = Counter[str]()

    def guarded(fn: Any) -> Any:
        def run() -> None:
            try:
                fn()
            except BaseException as exc:  # noqa: BLE001 - reported by the test
                failures.append(exc)
                stop.set()

        return run

    @guarded
    def editor() -> None:
        rnd = random.Random(5)
        for step in range(60):
            if stop.is_set():
                return
            i = rnd.randrange(40)
            path = repo.root / f"pkg/mod_{i}.py"
            action = rnd.random()
            if action < 0.15 and path.exists():
                path.unlink()
            elif action < 0.25 and path.exists():
                os.replace(path, repo.root / f"pkg/mod_{rnd.randrange(40, 45)}.py")
            else:
                text = MODULE.format(n=i) + f"\n\ndef step_{step}():\n    return {step}\n"
                repo.write(f"pkg/mod_{i}.py", text)
            time.sleep(rnd.random() * 0.05)  # an editor's pace; not a wait for a result

    @guarded
    def hook_runs() -> None:
        for _ in range(4):
            if stop.is_set():
                return
            indexer.run(cfg)  # what a post-commit hook does, in-process
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        subprocess.run(  # and once from another process
            [sys.executable, "-m", "repomem", "-C", str(repo.root), "index", "-q"],
            env=env, check=True, timeout=300,
        )  # fmt: skip

    @guarded
    def reader() -> None:
        while not stop.is_set():
            store = indexer.open_store(cfg)
            check_consistent(store)
            store.search("helper thing", limit=5)
            reads["reads"] += 1

    with Watcher(cfg, on_batch=rec.on_batch, on_error=rec.on_error, debounce_ms=30) as w:
        readers = [threading.Thread(target=reader, daemon=True) for _ in range(3)]
        writers = [threading.Thread(target=f, daemon=True) for f in (editor, hook_runs)]
        for t in readers + writers:
            t.start()
        for t in writers:
            t.join(timeout=300)
        assert not any(t.is_alive() for t in writers), "a writer hung"
        rec.wait_for(
            lambda: bool(failures) or query.status(cfg)["fresh"], "the watcher to catch up"
        )
        stop.set()
        for t in readers:
            t.join(timeout=60)
        assert w.alive
    assert not failures, failures
    assert reads["reads"] > 0
    assert len(rec.batches) > 1
    assert snapshot(indexer.open_store(cfg)) == fresh_snapshot(repo)


WATCHER = """
import sys
from repomem import config
from repomem.index import indexer, watcher
indexer.apply.BATCH_FILES = 10
cfg = config.load(sys.argv[1], overrides={"index.workers": 1})
w = watcher.Watcher(cfg, on_batch=lambda b: print("batch", b.reason, flush=True), debounce_ms=50)
w.start()
w.wait()
"""


def test_kill_9_of_the_watcher_mid_update_then_recovery(repo: Repo) -> None:
    populate(repo, 300)
    repo.commit()
    journal = repo.root / ".git" / "repomem" / "journal.json"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(
        [sys.executable, "-c", WATCHER, str(repo.root)],
        env=env, stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert proc.stdout is not None
    try:
        assert proc.stdout.readline().strip() == "batch start"
        before = indexer.open_store(repo.config())
        published = before.published()
        for i in range(300):  # hundreds of files: a whole-tree run in journaled batches
            repo.write(f"pkg/mod_{i}.py", f"def rewritten_{i}():\n    return {i}\n")
        kill_mid_batch(proc, journal, "the watcher")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        proc.stdout.close()
    # Readers still see the last finished update, not the half-written one.
    reader = indexer.open_store(repo.config())
    assert reader.published() == published
    check_consistent(reader)
    assert not reader.symbols_named("rewritten_0")
    assert journal.exists() or reader.current_versions() != published
    # A new watcher (or any index run) completes the interrupted update.
    rec = Recorder()
    with Watcher(repo.config(), on_batch=rec.on_batch, debounce_ms=50):
        rec.wait_for(lambda: len(rec.batches) >= 1, "the catch-up batch")
        report = rec.batches[0].report
    assert report.recovered > 0 or report.full or report.changed > 0
    assert not journal.exists()
    store = indexer.open_store(repo.config())
    assert snapshot(store) == fresh_snapshot(repo)
    assert store.count("files") == 300
