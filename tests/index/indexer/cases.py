"""Shared cases for the indexer tests: a module template, store snapshots, and index
runs in another process (killed mid-batch, or started for a signal)."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from repomem.config import Config
from repomem.index import indexer
from repomem.index.store import Store
from repomem.types import IndexReport
from tests.conftest import Repo

MODULE = '''"""Module {n}."""


def func_{n}(x):
    """Return x plus {n}."""
    return helper_{n}(x) + {n}


def helper_{n}(x):
    return x


class Thing{n}:
    def method(self):
        return func_{n}(1)
'''


def snapshot(store: Store) -> dict[str, Any]:
    """The store's content, independent of row order and timestamps."""
    files = store.column("files", ["path", "hash", "skip", "symbols", "lines", "text"])
    symbols = store.column("symbols", ["path", "qualname", "kind", "start_line", "end_line"])
    refs = store.column("refs", ["path", "name", "kind", "scope", "line", "count"])
    return {
        "files": sorted(zip(*files.values(), strict=True)),
        "symbols": sorted(zip(*symbols.values(), strict=True)),
        "refs": sorted(zip(*refs.values(), strict=True)),
    }


def fresh_snapshot(repo: Repo) -> dict[str, Any]:
    """What a from-scratch index of the same tree holds."""
    cfg = repo.config(**{"store.path": str(repo.root.parent / "fresh-store")})
    indexer.run(cfg, full=True)
    return snapshot(indexer.open_store(cfg))


def populate(repo: Repo, n: int) -> None:
    for i in range(n):
        repo.write(f"pkg/mod_{i}.py", MODULE.format(n=i))


def build_and_kill(repo: Repo, *, full: bool) -> None:
    """An index run (batches of 25 files) in another process, killed in the middle."""
    code = (
        "import sys; from repomem import config; from repomem.index import indexer;"
        "indexer.apply.BATCH_FILES = 25;"
        f"indexer.run(config.load(sys.argv[1], overrides={{'index.workers': 1}}), full={full})"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])}
    proc = subprocess.Popen([sys.executable, "-c", code, str(repo.root)], env=env)
    kill_mid_batch(proc, repo.root / ".git" / "repomem" / "journal.json", "the build")


def kill_mid_batch(proc: subprocess.Popen[bytes], journal: Path, what: str) -> None:
    """kill -9 `proc` while a batch is being written (its journal names paths), after a few
    landed. (A full build's journal holds `*` throughout; a batch adds its paths.)"""

    def writing() -> bool:
        try:
            return any(p != "*" for p in json.loads(journal.read_text())["paths"])
        except (OSError, ValueError, KeyError):
            return False

    deadline = time.monotonic() + 120
    seen = 0
    while time.monotonic() < deadline and proc.poll() is None:
        if writing():
            seen += 1
            if seen >= 3:
                break
            while writing() and time.monotonic() < deadline:
                time.sleep(0.001)
        time.sleep(0.001)
    if proc.poll() is not None:
        pytest.fail(f"{what} finished before it could be killed")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


def start_build(repo: Repo, *, full: bool, workers: int = 1) -> subprocess.Popen[bytes]:
    """An index run (batches of 25 files) in another process, its stderr captured."""
    code = (
        "import sys; from repomem import config; from repomem.index import indexer;"
        "indexer.apply.BATCH_FILES = 25;"
        f"indexer.run(config.load(sys.argv[1], overrides={{'index.workers': {workers}}}), "
        f"full={full})"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])}
    return subprocess.Popen(
        [sys.executable, "-c", code, str(repo.root)],
        env=env,
        stderr=subprocess.PIPE,
        start_new_session=True,  # its own process group, as a terminal's Ctrl-C reaches
        # Ctrl-C taken by default: a shell running the tests in the background without job
        # control ignores SIGINT, and the child would inherit that
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


def rebuilding(journal: Path) -> bool:
    try:
        return "*" in json.loads(journal.read_text())["paths"]
    except (OSError, ValueError, KeyError):
        return False


def runs_at_once(cfg: Config, n: int = 2) -> list[IndexReport]:
    """`n` index runs started together in threads; their reports (none may fail or hang)."""
    reports: list[IndexReport] = []
    errors: list[BaseException] = []

    def run() -> None:
        try:
            reports.append(indexer.run(cfg))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, daemon=True) for _ in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "an index run hung"
    assert not errors, errors
    return reports


def read_to_end(proc: subprocess.Popen[Any], stream: Any, what: str) -> str:
    """Everything `proc` (started in a session of its own) and the processes it started
    write to `stream`, read to its end: the end comes once no process holds the stream open.
    A process left behind (a parse worker outliving the run) holds it open forever: after a
    guard of minutes the group is killed and the test fails, naming `what`."""
    chunks: list[str | bytes] = []
    reader = threading.Thread(target=lambda: chunks.extend(stream), daemon=True)
    reader.start()
    reader.join(timeout=180)
    if reader.is_alive():
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        reader.join(timeout=30)
        pytest.fail(f"a process outlived {what}, holding its output open: {chunks!r}")
    stream.close()
    proc.wait(timeout=60)
    return "".join(c if isinstance(c, str) else c.decode() for c in chunks)
