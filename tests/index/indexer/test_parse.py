"""The per-file work and its process pool: parallel builds, Ctrl-C, content read by
other rules (repomem/index/indexer/parse.py)."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from repomem.index import indexer
from tests.conftest import Repo, wait_until
from tests.index.indexer.cases import (
    fresh_snapshot,
    populate,
    read_to_end,
    rebuilding,
    snapshot,
    start_build,
)

linux_only = pytest.mark.skipif(
    not Path("/proc/self/task").exists(), reason="reads the workers from Linux's /proc"
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


def ended(pid: int) -> bool:
    """Whether process `pid` has exited (gone, or a zombie nobody reaped yet)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] == "Z"
    except OSError:
        return True


@linux_only
def test_the_workers_end_when_the_run_that_started_them_is_killed(repo: Repo) -> None:
    """A run ended where it stands (SIGKILL; SIGTERM, which `repomem index` does not handle,
    alike) left its workers waiting for tasks forever, holding the output it shared with
    them: whoever read it never saw its end."""
    populate(repo, 400)
    repo.commit()
    proc = start_build(repo, full=True, workers=2)
    wait_until(lambda: len(workers_of(proc.pid)) == 2 or proc.poll() is not None, "workers")
    workers = workers_of(proc.pid)
    assert len(workers) == 2, "the run ended before its workers started"
    os.kill(proc.pid, signal.SIGKILL)
    read_to_end(proc, proc.stderr, "the killed run")
    wait_until(lambda: all(ended(pid) for pid in workers), "the workers to end")


THREADED_BUILD = """
import sys, threading
from repomem import config
from repomem.index import indexer

cfg = config.load(sys.argv[1], overrides={"index.workers": 2})
done, built = threading.Event(), []

def build():
    try:
        built.append(indexer.run(cfg, full=True))
    finally:
        done.set()

threading.Thread(target=build, daemon=True).start()
try:
    done.wait()
except KeyboardInterrupt:
    print("interrupted", flush=True)
    done.wait()
print("built" if built else "failed", flush=True)
"""


@linux_only
def test_workers_started_from_a_thread_ignore_a_ctrl_c_while_they_start(repo: Repo) -> None:
    """Only the main thread could ignore Ctrl-C while the workers started (they inherit
    it): those of a watcher's or server's thread, hit while importing, printed a traceback
    each and broke the pool."""
    populate(repo, 400)
    repo.commit()
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])}
    proc = subprocess.Popen(
        [sys.executable, "-c", THREADED_BUILD, str(repo.root)], env=env,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    wait_until(lambda: len(workers_of(proc.pid)) == 2 or proc.poll() is not None, "workers")
    assert proc.poll() is None, "the build ended before its workers started"
    os.killpg(proc.pid, signal.SIGINT)  # while they start, most likely: they take a second
    out = read_to_end(proc, proc.stdout, "the threaded build")
    assert out.splitlines() == ["interrupted", "built"], out
