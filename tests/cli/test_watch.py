from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import Repo
from tests.index.indexer.cases import populate


def read_lines(stream: object, out: queue.Queue[str]) -> None:
    for line in stream:  # type: ignore[attr-defined]
        out.put(line)


def ctrl_c_reaches_it() -> None:
    """In the child: take Ctrl-C by default. A shell that runs the tests in the background
    (`pytest &` without job control) ignores SIGINT, and a child would inherit that."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def start_reader(proc: subprocess.Popen[str]) -> tuple[threading.Thread, queue.Queue[str]]:
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=read_lines, args=(proc.stdout, lines), daemon=True)
    reader.start()
    return reader, lines


def spawn_watch(repo: Repo, *options: str, **popen: Any) -> subprocess.Popen[str]:
    """`repomem watch` on `repo` in a process of its own, its output (stderr too) piped."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    return subprocess.Popen(
        [sys.executable, "-m", "repomem", "-C", str(repo.root), "watch", *options],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, **popen,
    )  # fmt: skip


def start_watch(
    repo: Repo, *options: str, **popen: Any
) -> tuple[subprocess.Popen[str], threading.Thread, queue.Queue[str]]:
    """`repomem watch` on `repo` in a process of its own, its output read line by line."""
    proc = spawn_watch(repo, *options, **popen)
    reader, lines = start_reader(proc)
    return proc, reader, lines


def drain(reader: threading.Thread, lines: queue.Queue[str], seen: list[str]) -> None:
    """Collect every line left once the process has exited (the reader stops at EOF)."""
    reader.join(timeout=60)
    while not lines.empty():
        seen.append(lines.get())


def finish(
    proc: subprocess.Popen[str], reader: threading.Thread, lines: queue.Queue[str],
    seen: list[str],
) -> None:  # fmt: skip
    """End the process if a test left it running, then collect its last lines."""
    if proc.poll() is None:
        proc.kill()
        proc.wait()
    drain(reader, lines, seen)
    assert proc.stdout is not None
    proc.stdout.close()


def expect(lines: queue.Queue[str], text: str, seen: list[str], timeout: float = 60.0) -> str:
    deadline = time.monotonic() + timeout
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            pytest.fail(f"no line with {text!r}; got {seen}")
        try:
            line = lines.get(timeout=left)
        except queue.Empty:
            continue
        seen.append(line)
        if text in line:
            return line


def test_watch_prints_a_status_line_per_batch_and_stops_on_ctrl_c(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    proc, reader, lines = start_watch(repo, "--debounce", "50", preexec_fn=ctrl_c_reaches_it)
    seen: list[str] = []
    try:
        expect(lines, "Watching", seen)
        expect(lines, "whole tree (start): 3 added", seen)
        repo.write("pkg/mod_1.py", "def changed():\n    pass\n")
        line = expect(lines, "path(s):", seen)
        assert "1 modified" in line and " ms" in line
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=60) == 0
        expect(lines, "Stopped after 2 update(s).", seen)
    finally:
        finish(proc, reader, lines, seen)
    assert not any("Traceback" in x for x in seen), seen


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP])
def test_watch_stops_on_sigterm_and_sighup_as_on_ctrl_c(repo: Repo, sig: signal.Signals) -> None:
    """`kill`, a supervisor or a closed terminal: it finished its update and said so (it was
    killed where it stood)."""
    populate(repo, 2)
    repo.commit()
    proc, reader, lines = start_watch(repo, "--debounce", "50")
    seen: list[str] = []
    try:
        expect(lines, "whole tree (start): 2 added", seen)
        proc.send_signal(sig)
        assert proc.wait(timeout=60) == 0
    finally:
        finish(proc, reader, lines, seen)
    assert any("Stopped after 1 update(s)." in line for line in seen), seen


def test_ctrl_c_during_a_large_update_exits_cleanly_and_leaves_a_recoverable_store(
    repo: Repo,
) -> None:
    from repomem.index import indexer
    from tests.index.indexer.cases import fresh_snapshot, snapshot

    populate(repo, 300)  # the catch-up run parses in worker processes
    repo.commit()
    proc, reader, lines = start_watch(repo, preexec_fn=ctrl_c_reaches_it, start_new_session=True)
    seen: list[str] = []
    try:
        expect(lines, "Watching", seen)  # the catch-up run is under way now
        os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole group
        code = proc.wait(timeout=120)
        drain(reader, lines, seen)
        assert code == 0, "".join(seen)
        assert any(x.startswith("Stopped after") for x in seen), seen
    finally:
        finish(proc, reader, lines, seen)
    assert not any("Traceback" in x for x in seen), seen
    indexer.run(repo.config())
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def test_watch_writing_its_log_into_the_work_tree_does_not_feed_on_itself(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    log_path = repo.root / "watch.log"  # untracked and not ignored: a file of the tree
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}

    def wait_for(count: int) -> list[str]:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            lines = log_path.read_text(encoding="utf-8").splitlines()
            if sum("path(s):" in ln for ln in lines) >= count:
                return lines
            time.sleep(0.05)
        pytest.fail(f"no update {count} in {log_path.read_text(encoding='utf-8')!r}")

    with open(log_path, "w", encoding="utf-8") as log:
        proc = subprocess.Popen(
            [sys.executable, "-m", "repomem", "-C", str(repo.root), "watch", "--debounce", "50"],
            env=env, stdout=log, stderr=subprocess.STDOUT, text=True,
            preexec_fn=ctrl_c_reaches_it,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 60
            while "whole tree (start)" not in log_path.read_text(encoding="utf-8"):
                assert time.monotonic() < deadline and proc.poll() is None
                time.sleep(0.05)
            repo.write("pkg/mod_1.py", "def first():\n    pass\n")
            wait_for(1)
            repo.write("pkg/mod_2.py", "def second():\n    pass\n")
            wait_for(2)
            proc.send_signal(signal.SIGINT)
            assert proc.wait(timeout=60) == 0
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    lines = log_path.read_text(encoding="utf-8").splitlines()
    # one file per edit: the log, changed by each status line, was a change that printed another
    updates = [ln for ln in lines if "path(s):" in ln]
    assert len(updates) == 2 and all("1 path(s): 1 modified" in ln for ln in updates), lines


@pytest.mark.parametrize("stop", ["ctrl-c", "sigterm"])
def test_a_stop_during_the_first_build_cuts_it_short_says_so_and_leaves_no_process(
    repo: Repo, stop: str
) -> None:
    """The catch-up run of a repository without an index is a full build: a stop cuts it
    short (it said "finishing the update in progress" before saying its work was lost, and
    "Stopped after 0 update(s)." as if an update had finished). A terminal's Ctrl-C reaches
    the whole group: parse workers started by the watcher's thread were left behind,
    holding the output open, so it never reached its end."""
    from tests.conftest import wait_until
    from tests.index.indexer.cases import read_to_end, rebuilding

    populate(repo, 1200)
    repo.commit()
    journal = repo.root / ".git" / "repomem" / "journal.json"
    proc = spawn_watch(repo, preexec_fn=ctrl_c_reaches_it, start_new_session=True)
    try:
        wait_until(lambda: rebuilding(journal) or proc.poll() is not None, "the first build")
        if stop == "ctrl-c":
            os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C reaches the whole group
        else:
            proc.terminate()  # `kill`: the watcher only
        out = read_to_end(proc, proc.stdout, "repomem watch")
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 0, out
    assert "Traceback" not in out, out
    assert [x for x in out.splitlines() if x.startswith(("Stopping", "Interrupted"))] == [
        "Stopping: cutting the full build in progress short (a full build cannot be resumed)...",
        "Interrupted: a full build is not resumed, so its work so far is lost; there is no "
        "index until a build finishes, and the next `repomem watch` or `repomem index` builds "
        "it again from the start.",
    ], out
    assert out.splitlines()[-1] == "Stopped after 0 update(s).", out
