"""The per-file work and its process pool: parallel builds, Ctrl-C, content read by
other rules (repomem/index/indexer/parse.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from repomem.index import indexer
from tests.conftest import Repo
from tests.index.indexer.cases import (
    fresh_snapshot,
    populate,
    rebuilding,
    snapshot,
    start_build,
)


def test_parallel_build_matches_serial_build(repo: Repo) -> None:
    populate(repo, indexer.parse.PARALLEL_MIN_FILES + 6)
    repo.commit()
    indexer.run(repo.config(**{"index.workers": 2}))
    parallel = snapshot(indexer.open_store(repo.config()))
    indexer.run(repo.config(**{"index.workers": 1}), full=True)
    assert snapshot(indexer.open_store(repo.config())) == parallel


def test_content_moved_to_a_name_read_by_other_rules_is_parsed_and_redacted_again(
    repo: Repo,
) -> None:
    repo.write("tool", "def renamed_ext_fn():\n    return 1\n")
    repo.write(
        "deploy_notes.py", 'import os\n\nDEPLOY_STEPS = """\nDB_PASSWORD=hunter2horse9\n"""\n'
    )
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    repo.git("mv", "tool", "tool.py")
    repo.git("mv", "deploy_notes.py", "DEPLOY.md")
    report = indexer.run(cfg)
    assert sorted(report.renamed) == [("deploy_notes.py", "DEPLOY.md"), ("tool", "tool.py")]
    store = indexer.open_store(cfg)
    assert [r["path"] for r in store.symbols_named("renamed_ext_fn")] == ["tool.py"]
    assert "hunter2horse9" not in (store.file("DEPLOY.md") or {}).get("text", "")
    assert snapshot(store) == fresh_snapshot(repo)


def workers_of(pid: int) -> list[int]:
    """The process pool's workers started by `pid` (read from Linux's /proc)."""
    found = []
    for task in Path(f"/proc/{pid}/task").glob("*/children"):
        for child in task.read_text().split():
            with contextlib.suppress(OSError):
                if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                    found.append(int(child))
    return found


def test_ctrl_c_during_a_parallel_build_stops_cleanly_and_the_next_run_completes_it(
    repo: Repo,
) -> None:
    populate(repo, 400)
    repo.commit()
    journal = repo.root / ".git" / "repomem" / "journal.json"
    proc = start_build(repo, full=True, workers=2)
    deadline = time.monotonic() + 120
    while not rebuilding(journal) and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    # Both workers started (a Ctrl-C while they start is ignored, as the workers must ignore
    # it; on a loaded machine the pool starts well after the rebuild does).
    listed = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").exists()  # Linux
    while listed and len(workers_of(proc.pid)) < 2 and proc.poll() is None:
        if time.monotonic() > deadline:
            break
        time.sleep(0.005)
    time.sleep(0.3)  # into the parse: the workers are busy
    os.killpg(proc.pid, signal.SIGINT)  # what Ctrl-C in a terminal does
    try:
        _, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the run hung after Ctrl-C")
    stderr = err.decode()
    assert proc.returncode != 0, "the run ended before Ctrl-C reached it"
    assert stderr.count("Traceback") <= 1, stderr  # the main process's KeyboardInterrupt only
    assert "Process" not in stderr and "multiprocessing" not in stderr, stderr
    report = indexer.run(repo.config())
    assert report.full
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)
