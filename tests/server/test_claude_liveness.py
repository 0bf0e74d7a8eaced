"""Whether the Claude Code session owning the open session is evidently gone: real transcript
files whose times are set, and real processes standing for Claude Code."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from repomem.server import claude_liveness as liveness
from repomem.server.claude_hooks import HookInput

HOUR = 3600.0
NOW = 1_900_000_000.0  # the time the other session asks at
LONG_AGO = "2020-01-01T00:00:00Z"

needs_process_ids = pytest.mark.skipif(os.name == "nt", reason="no process ids on Windows")


def written(path: Path, at: float, text: str = '{"type": "user"}\n') -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    os.utime(path, (at, at))
    return path


def before(seconds: float) -> str:
    """The time `seconds` before NOW, as a session's record has it."""
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(NOW - seconds))


def record(transcript: Path | None, **fields: Any) -> dict[str, Any]:
    """An open session's record, owned by Claude session `c1`, opened an hour before NOW."""
    out: dict[str, Any] = {"id": "s-1", "owner": "c1", "started": before(HOUR), "title": "A"}
    if transcript is not None:
        out["transcript"] = str(transcript)
    return {**out, **fields}


def other(tmp_path: Path, event: str = "SessionStart", parent: int = 0) -> HookInput:
    """A hook of Claude session `c2`, whose transcript is beside the owner's."""
    return HookInput(event, "c2", transcript=str(tmp_path / "c2.jsonl"), parent=parent)


@pytest.fixture
def claude() -> Iterator[subprocess.Popen[bytes]]:
    """A process standing for Claude Code: it runs until its stdin is closed."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                            stdin=subprocess.PIPE)  # fmt: skip
    yield proc
    stop(proc)


def stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.stdin is not None and not proc.stdin.closed:
        proc.stdin.close()
    proc.wait(timeout=30)


def test_a_transcript_unwritten_for_the_idle_time_is_a_session_gone(tmp_path: Path) -> None:
    t1 = tmp_path / "c1.jsonl"
    last = NOW - liveness.IDLE_SECONDS
    written(t1, last)
    assert liveness.gone(record(t1), other(tmp_path), task=False, now=NOW) == liveness.Gone(
        "idle", last
    )
    written(t1, last + 1)  # a second less: at work, or just paused
    assert liveness.gone(record(t1), other(tmp_path), task=False, now=NOW) is None


def test_a_subagent_writing_beside_the_transcript_keeps_the_session_alive(
    tmp_path: Path,
) -> None:
    t1 = written(tmp_path / "c1.jsonl", NOW - 2 * HOUR)
    sub = written(tmp_path / "c1" / "subagents" / "agent-a1.jsonl", NOW - 60)
    assert liveness.gone(record(t1), other(tmp_path), task=True, now=NOW) is None
    os.utime(sub, (NOW - HOUR, NOW - HOUR))
    found = liveness.gone(record(t1), other(tmp_path), task=True, now=NOW)
    assert found == liveness.Gone("idle", NOW - HOUR)


def test_a_session_opened_lately_is_not_idle_whatever_its_transcripts_age(
    tmp_path: Path,
) -> None:
    t1 = written(tmp_path / "c1.jsonl", NOW - 5 * HOUR)  # a resumed conversation's
    recent = record(t1, started=before(200))
    assert liveness.gone(recent, other(tmp_path), task=True, now=NOW) is None


def test_no_transcript_ever_written_since_an_old_opening_is_idle(tmp_path: Path) -> None:
    t1 = tmp_path / "c1.jsonl"  # named by its hooks, never written
    found = liveness.gone(record(t1), other(tmp_path), task=False, now=NOW)
    assert found == liveness.Gone("idle", NOW - HOUR)


def test_an_owner_that_did_nothing_gives_way_at_another_sessions_task_only(
    tmp_path: Path,
) -> None:
    t1 = tmp_path / "c1.jsonl"
    fresh = record(t1, started=before(20), title="")
    ask = other(tmp_path, "UserPromptSubmit")
    assert liveness.gone(fresh, other(tmp_path), task=False, now=NOW) is None  # at a start
    assert liveness.gone(fresh, ask, task=True, now=NOW) == liveness.Gone("silent", NOW - 20)
    written(t1, NOW - 10, "")  # an empty transcript said nothing either
    assert liveness.gone(fresh, ask, task=True, now=NOW) == liveness.Gone("silent", NOW - 10)
    written(t1, NOW - 10)  # it said something
    assert liveness.gone(fresh, ask, task=True, now=NOW) is None
    t1.unlink()
    tasked = {**fresh, "title": "Its own task"}  # given its task, not written yet
    assert liveness.gone(tasked, ask, task=True, now=NOW) is None


def test_without_a_named_transcript_a_guessed_one_must_be_there(tmp_path: Path) -> None:
    ask = other(tmp_path, "UserPromptSubmit")
    untitled = record(None, title="")
    assert liveness.transcript_of(untitled, ask) == (tmp_path / "c1.jsonl", False)
    # not there: the guess may be wrong (another project folder), so nothing is told
    assert liveness.gone(untitled, ask, task=True, now=NOW) is None
    written(tmp_path / "c1.jsonl", NOW - 2 * HOUR)
    found = liveness.gone(untitled, ask, task=True, now=NOW)
    assert found == liveness.Gone("idle", NOW - HOUR)  # opened after its last write
    assert liveness.gone(untitled, HookInput("SessionStart", "c2"), task=True, now=NOW) is None
    odd = record(None, owner="../c1")
    assert liveness.transcript_of(odd, ask) == (None, False)


@needs_process_ids
def test_a_process_is_named_while_it_runs_and_not_after(
    claude: subprocess.Popen[bytes],
) -> None:
    name = liveness.process_id(claude.pid)
    assert name and name.startswith(f"{claude.pid}:")
    assert liveness.process_id(claude.pid) == name  # the same, asked again
    assert liveness.process_id(os.getpid()) != name
    stop(claude)
    assert liveness.process_id(claude.pid) is None
    assert liveness.process_id(0) == ""


@needs_process_ids
def test_the_exit_of_the_process_that_ran_two_of_the_owners_hooks_is_a_session_gone(
    tmp_path: Path, claude: subprocess.Popen[bytes]
) -> None:
    t1 = written(tmp_path / "c1.jsonl", time.time())
    start = HookInput("SessionStart", "c1", transcript=str(t1), parent=claude.pid)
    rec = {**record(None, started=LONG_AGO), **liveness.notes(start)}
    assert rec["host"] == liveness.process_id(claude.pid)
    task = HookInput("UserPromptSubmit", "c1", transcript=str(t1), parent=claude.pid)
    rec.update(liveness.seen_again(rec, task))
    assert rec["host_confirmed"] is True and liveness.seen_again(rec, task) == {}
    assert liveness.gone(rec, other(tmp_path), task=False) is None  # at work
    stop(claude)
    found = liveness.gone(rec, other(tmp_path), task=False)
    assert found == liveness.Gone("exited", t1.stat().st_mtime)  # ended where last seen


@needs_process_ids
def test_a_shell_that_ran_one_hook_and_exited_says_nothing(tmp_path: Path) -> None:
    shells = [subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                               stdin=subprocess.PIPE) for _ in range(2)]  # fmt: skip
    t1 = written(tmp_path / "c1.jsonl", time.time())
    start = HookInput("SessionStart", "c1", transcript=str(t1), parent=shells[0].pid)
    rec = {**record(None, started=LONG_AGO), **liveness.notes(start)}
    task = HookInput("UserPromptSubmit", "c1", transcript=str(t1), parent=shells[1].pid)
    rec.update(liveness.seen_again(rec, task))
    assert rec["host_confirmed"] is False
    for shell in shells:
        stop(shell)
    assert liveness.gone(rec, other(tmp_path), task=False) is None
