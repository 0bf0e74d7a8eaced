"""The record of the sessions packed or hinted at: versions, damage, a lock, a write that fails."""

from __future__ import annotations

import contextlib
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
    from repomem.index import indexer

    state = indexer.state_dir(code.config())
    both_read = threading.Barrier(2, timeout=1.0)
    read = packed._read

    def read_then_wait(path: Path) -> hooks.Sessions:
        data = read(path)
        with contextlib.suppress(threading.BrokenBarrierError):
            both_read.wait()  # without the lock, each would write what it read: one is lost
        return data

    monkeypatch.setattr(packed, "_read", read_then_wait)
    threads = [threading.Thread(target=packed._remember, args=(state, s)) for s in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    record = json.loads((state / hooks.SESSIONS_FILE).read_text(encoding="utf-8"))
    assert sorted(record["packed"]) == ["a", "b"]
