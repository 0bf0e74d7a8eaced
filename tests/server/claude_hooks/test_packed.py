"""The record of the sessions packed or hinted at: versions, damage, a lock, a write that fails."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

from repomem.server import claude_hooks as hooks
from repomem.server.claude_hooks import packed
from tests.conftest import Repo
from tests.server.claude_hooks.prompts import prompt


def test_a_sessions_record_of_the_first_version_still_counts(code: Repo) -> None:
    import time

    from repomem.index import indexer

    cfg = code.config()
    record = indexer.state_dir(cfg) / hooks.SESSIONS_FILE
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text(json.dumps({"s1": time.time()}), encoding="utf-8")
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many")) == ""
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many", "s2"))
    data = json.loads(record.read_text(encoding="utf-8"))
    assert data["version"] == hooks.SESSIONS_VERSION and sorted(data["packed"]) == ["s1", "s2"]


def test_a_damaged_sessions_record_is_started_over(code: Repo) -> None:
    from repomem.index import indexer

    cfg = code.config()
    record = indexer.state_dir(cfg) / hooks.SESSIONS_FILE
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text("{not json", encoding="utf-8")
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    assert list(json.loads(record.read_text(encoding="utf-8"))["packed"]) == ["s1"]


def test_a_sessions_record_that_cannot_be_written_does_not_cost_the_pack(code: Repo) -> None:
    from repomem.index import indexer

    cfg = code.config()
    record = indexer.state_dir(cfg) / hooks.SESSIONS_FILE
    record.mkdir(parents=True)  # unwritable as a file, as on a read-only disk
    out = hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    assert out.startswith(hooks.PREAMBLE) and "calc.py" in out


def test_hooks_of_two_sessions_at_once_both_keep_their_record(
    code: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from repomem import fsutil
    from repomem.index import indexer

    state = indexer.state_dir(code.config())
    # the first to read waits until the other has read too (no lock: each then writes what it
    # read, and one is lost) or waits for the lock the first holds
    other_came, guard = threading.Event(), threading.Lock()
    reads: list[str] = []
    failures: list[str] = []
    read, try_lock = packed._read, fsutil._try_lock

    def read_then_wait(path: Path) -> hooks.Sessions:
        data = read(path)
        with guard:
            reads.append(threading.current_thread().name)
            first = len(reads) == 1
        if not first:
            other_came.set()
        elif not other_came.wait(60):
            failures.append("the other hook neither read the record nor waited for its lock")
        return data

    def waits_seen(fd: int) -> bool:
        took = try_lock(fd)
        if not took:
            other_came.set()
        return took

    monkeypatch.setattr(packed, "_read", read_then_wait)
    monkeypatch.setattr(fsutil, "_try_lock", waits_seen)
    threads = [threading.Thread(target=packed._remember, args=(state, s)) for s in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert failures == [] and len(reads) == 2
    record = json.loads((state / hooks.SESSIONS_FILE).read_text(encoding="utf-8"))
    assert sorted(record["packed"]) == ["a", "b"]
