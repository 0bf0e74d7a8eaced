"""Claude Code sessions recorded in the project memory by the hooks (`--record-sessions`)."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from repomem import fsutil
from repomem.errors import LockTimeoutError, RepomemError
from repomem.fsutil import FileLock
from repomem.index.state import state_dir
from repomem.memory import access, ops, session
from repomem.server import claude_hooks as hooks
from repomem.server import claude_sessions as recorder
from tests.conftest import Repo, killed_after_memory_write, wait_until
from tests.server.conftest import CALC, talk, text

TASK = "Calculator.total adds one value too many, fix it please"
SECRET = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"


def transcript(path: Path, *lines: object) -> Path:
    """A Claude Code transcript: JSON Lines, as Claude Code writes it."""
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), encoding="utf-8")
    return path


def said(text: str, msg: str = "msg_1", **extra: Any) -> dict[str, Any]:
    """An assistant's text block, one a line as Claude Code writes them."""
    block = {"type": "text", "text": text}
    message = {"id": msg, "role": "assistant", "model": "claude-opus-4-5", "content": [block]}
    return {"type": "assistant", "isSidechain": False, "message": message, **extra}


def asked(text: str | list[dict[str, Any]]) -> dict[str, Any]:
    return {"type": "user", "message": {"role": "user", "content": text}}


def written(msg: str, *content: dict[str, Any], model: str = "claude-opus-4-5") -> dict[str, Any]:
    """An assistant's line of other blocks (thinking, a tool call)."""
    message = {"id": msg, "role": "assistant", "model": model, "content": list(content)}
    return {"type": "assistant", "message": message}


def run(cfg: Any, event: str, claude: str = "c1", **fields: Any) -> str:
    hook = hooks.HookInput(event, claude, **fields)
    return hooks.context_for(cfg, hook, record_sessions=True, background=False)


def end(cfg: Any, claude: str = "c1", path: Path | None = None, reason: str = "other") -> str:
    return run(cfg, "SessionEnd", claude, transcript=str(path or ""), reason=reason)


def fix_calc(repo: Repo) -> str:
    repo.write("calc.py", CALC.replace("add(0, i)", "i"))
    return repo.commit("Sum the items themselves")


def fixed_and_ended(repo: Repo) -> tuple[str, Path]:
    """A Claude session that fixed the calculator (its commit) and ended: set aside (where),
    not finished, as when the process finishing it died."""
    run(repo.config(), "SessionStart", source="startup")
    sha = fix_calc(repo)
    aside = recorder.ended(repo.config(), hooks.HookInput("SessionEnd", "c1"))
    assert aside is not None
    return sha, aside


def as_if_left_long_ago(aside: Path) -> None:
    """Older than a finish in progress could be: the next start finishes it."""
    old = time.time() - recorder.RETRY_SECONDS - 1
    os.utime(aside, (old, old))


def test_a_claude_session_that_commits_is_recorded_with_its_task_and_last_message(
    code: Repo, tmp_path: Path
) -> None:
    cfg = code.config()
    assert run(cfg, "SessionStart", source="startup") == ""  # an empty memory: no digest
    opened = session.open_session(cfg)
    assert opened is not None and opened["owner"] == "c1" and opened["agent"] == "claude-code"
    assert run(cfg, "UserPromptSubmit", prompt=TASK).startswith(hooks.PREAMBLE)
    run(cfg, "UserPromptSubmit", prompt="and keep the docstring as it is")  # a title once
    sha = fix_calc(code)
    last = "Fixed `Calculator.total`: it summed `add(0, i)`.\n\n- calc.py: sum the items"
    path = transcript(
        tmp_path / "c1.jsonl",
        asked(TASK),
        said("Let me look at calc.py first.", "msg_0"),
        written("msg_0", {"type": "tool_use", "id": "t1", "name": "Read", "input": {}}),
        asked([{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]),
        written("msg_2", {"type": "thinking", "thinking": "Done, now say so."}),
        said(last.split("\n")[0], "msg_2"),  # blocks of one message, a line each
        said(last.split("\n", 2)[2], "msg_2"),
        said("A subagent's report", "msg_3", isSidechain=True),
        written("msg_4", {"type": "text", "text": "No response requested."}, model="<synthetic>"),
        {"type": "system", "subtype": "turn_duration"},
        "a JSON string, not an entry",
    )
    assert end(cfg, path=path) == ""
    assert session.open_session(cfg) is None and recorder.pending(cfg) == []
    (entry,) = access.load(cfg).sessions()
    assert entry.id == opened["id"] and entry.agent == "claude-code"
    assert entry.title == "Calculator.total adds one value too many, fix it please"
    assert entry.summary == (
        "Fixed `Calculator.total`: it summed `add(0, i)`. - calc.py: sum the items"
    )
    assert entry.commits == [f"{sha[:7]} Sum the items themselves"]
    assert entry.modified == ["calc.py"] and "~Calculator.total" in entry.symbols
    text = (code.root / "REPOMEM.md").read_text(encoding="utf-8")
    assert entry.summary in text and "Sum the items themselves" in text


def test_a_session_that_changed_nothing_leaves_no_entry_unless_it_learned_something(
    code: Repo, tmp_path: Path
) -> None:
    cfg = code.config()
    run(cfg, "SessionStart", source="startup")
    recorder.prompted(cfg, hooks.HookInput("UserPromptSubmit", "c1"), "Explain Calculator.total")
    path = transcript(tmp_path / "t.jsonl", said("It sums the items."))
    end(cfg, path=path)
    assert session.open_session(cfg) is None and recorder.pending(cfg) == []
    assert access.load(cfg).sessions() == [] and not (code.root / "REPOMEM.md").exists()
    run(cfg, "SessionStart", "c2", source="startup")
    ops.remember(cfg, "Calculator.total sums through add().", cites=["calc.py:add"])
    end(cfg, "c2", path)
    (entry,) = access.load(cfg).sessions()  # no file changed, but a fact was learned
    assert entry.summary == "It sums the items." and len(entry.learned) == 1


def test_a_session_started_by_hand_is_never_ended_by_the_hooks(code: Repo, tmp_path: Path) -> None:
    cfg = code.config()
    mine = session.start(cfg, "By hand")
    run(cfg, "SessionStart", source="startup")
    recorder.prompted(cfg, hooks.HookInput("UserPromptSubmit", "c1"), TASK)
    fix_calc(code)
    end(cfg, path=transcript(tmp_path / "t.jsonl", said("Done.")))
    kept = session.open_session(cfg)
    assert kept == mine and kept["title"] == "By hand" and "owner" not in kept
    assert access.load(cfg).sessions() == []


def test_another_claude_sessions_events_leave_the_first_ones_session_alone(
    code: Repo, tmp_path: Path
) -> None:
    cfg = code.config()
    first = recorder.started(cfg, hooks.HookInput("SessionStart", "c1", source="startup")).record
    assert first is not None
    assert run(cfg, "SessionStart", "c2", source="startup") == ""  # the same work tree
    assert recorder.prompted(cfg, hooks.HookInput("UserPromptSubmit", "c2"), TASK).record is None
    fix_calc(code)
    end(cfg, "c2", transcript(tmp_path / "c2.jsonl", said("Not mine.")))
    still = session.open_session(cfg)
    assert still is not None and still["id"] == first["id"] and still["title"] == ""
    end(cfg, "c1", transcript(tmp_path / "c1.jsonl", said("Mine.")))
    (entry,) = access.load(cfg).sessions()
    assert entry.id == first["id"] and entry.summary == "Mine."
    # with the first one ended, the second records from its next task on
    later = recorder.prompted(
        cfg, hooks.HookInput("UserPromptSubmit", "c2"), "Now add tests"
    ).record
    assert later is not None and later["owner"] == "c2" and later["title"] == "Now add tests"


def test_a_resumed_conversation_opens_no_session_at_its_start(code: Repo) -> None:
    cfg = code.config()
    for source in ("resume", "fork"):
        run(cfg, "SessionStart", source=source)
        assert session.open_session(cfg) is None
    run(cfg, "SessionStart", source="compact")
    assert session.open_session(cfg)["owner"] == "c1"
    run(cfg, "SessionStart", source="compact")  # the same Claude session: the same one
    assert session.open_session(cfg)["owner"] == "c1"


def test_clear_ends_one_session_and_opens_the_next_before_the_first_is_recorded(
    code: Repo, tmp_path: Path
) -> None:
    cfg = code.config()
    run(cfg, "SessionStart", source="startup")
    recorder.prompted(cfg, hooks.HookInput("UserPromptSubmit", "c1"), TASK)
    sha = fix_calc(code)
    # Claude Code's `/clear`: SessionEnd (reason clear) of the old id, SessionStart (source
    # clear) of a new one; the first is finished in the background, maybe after the second
    path = transcript(tmp_path / "c1.jsonl", said("Fixed it."))
    aside = recorder.ended(cfg, hooks.HookInput("SessionEnd", "c1", transcript=str(path),
                                                reason="clear"))  # fmt: skip
    assert aside is not None and recorder.pending(cfg) == [aside]
    run(cfg, "SessionStart", "c2", source="clear")
    nxt = session.open_session(cfg)
    assert nxt is not None and nxt["owner"] == "c2"
    code.write("app/new.py", "def new():\n    return 1\n")  # the next session's work
    (done,) = recorder.finish(cfg)
    assert done.entry is not None and done.entry.summary == "Fixed it."
    assert done.entry.commits == [f"{sha[:7]} Sum the items themselves"]
    assert session.open_session(cfg) == nxt and recorder.pending(cfg) == []


def test_a_session_set_aside_by_a_process_that_died_is_finished_at_the_next_start(
    code: Repo,
) -> None:
    cfg = code.config()
    _, aside = fixed_and_ended(code)
    run(cfg, "SessionStart", "c2", source="startup")
    assert recorder.pending(cfg) == [aside]  # maybe being finished now: left to that
    as_if_left_long_ago(aside)
    run(cfg, "SessionStart", "c3", source="startup")
    assert recorder.pending(cfg) == []
    (entry,) = access.load(cfg).sessions()
    assert entry.summary == "1 commit: Sum the items themselves. 1 file changed."


@pytest.mark.skipif(os.name == "nt", reason="no SIGKILL on Windows")
def test_a_finish_killed_after_recording_the_session_is_not_recorded_again_at_the_next_start(
    code: Repo,
) -> None:
    cfg = code.config()
    _, aside = fixed_and_ended(code)
    killed_after_memory_write(code.root, (
        "from repomem.server import claude_sessions\n"
        "claude_sessions.finish(cfg)\n"
    ))  # fmt: skip
    assert recorder.pending(cfg) == [aside]  # recorded, but left set aside
    (entry,) = access.load(cfg).sessions()
    before = access.memory_path(cfg).read_bytes()
    as_if_left_long_ago(aside)
    run(cfg, "SessionStart", "c2", source="startup")  # finishes what a dead process left
    assert recorder.pending(cfg) == []
    assert access.memory_path(cfg).read_bytes() == before
    assert [s.id for s in access.load(cfg).sessions()] == [entry.id]


def test_a_session_finished_late_does_not_count_the_next_sessions_commits(code: Repo) -> None:
    cfg = code.config()
    sha, aside = fixed_and_ended(code)  # its recording died
    run(cfg, "SessionStart", "c2", source="startup")
    code.write("app/new.py", "def new():\n    return 1\n")
    code.commit("The next session's work")
    as_if_left_long_ago(aside)
    run(cfg, "SessionStart", "c3", source="startup")  # (c2's session is left alone)
    (entry,) = access.load(cfg).sessions()
    assert entry.commits == [f"{sha[:7]} Sum the items themselves"]
    assert (entry.added, entry.modified, entry.end_head) == ([], ["calc.py"], sha[:12])


def ago(seconds: float) -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(time.time() - seconds))


def test_a_session_whose_claude_session_went_idle_without_an_end_is_recorded_at_the_next_start(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = repo.config()

    def at(seconds_ago: float) -> None:  # what git commits next is dated then
        monkeypatch.setenv("GIT_COMMITTER_DATE", f"@{int(time.time() - seconds_ago)} +0000")

    at(4 * 3600)
    repo.write("calc.py", CALC)
    repo.commit("init")
    t1 = tmp_path / "c1.jsonl"
    run(cfg, "SessionStart", source="startup", transcript=str(t1))
    session.note(cfg, started=ago(3 * 3600))  # opened three hours ago
    recorder.prompted(cfg, hooks.HookInput("UserPromptSubmit", "c1", transcript=str(t1)), TASK)
    at(2 * 3600 + 600)
    sha = fix_calc(repo)
    transcript(t1, asked(TASK), said("Fixed `Calculator.total`."))
    last_seen = int(time.time() - 2 * 3600)
    os.utime(t1, (last_seen, last_seen))  # then the VS Code extension's /clear: no SessionEnd
    at(2 * 3600 - 600)
    repo.write("notes.txt", "by hand\n")
    repo.commit("Made by hand since")  # not the Claude session's work
    monkeypatch.delenv("GIT_COMMITTER_DATE")
    t2 = tmp_path / "c2.jsonl"
    run(cfg, "SessionStart", "c2", source="startup", transcript=str(t2))
    (entry,) = access.load(cfg).sessions()
    assert (entry.title, entry.summary) == (TASK, "Fixed `Calculator.total`.")
    assert entry.commits == [f"{sha[:7]} Sum the items themselves"]
    assert (entry.added, entry.modified) == ([], ["calc.py"])
    assert entry.ended == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(last_seen))
    opened = session.open_session(cfg)
    assert opened is not None and opened["owner"] == "c2" and opened["transcript"] == str(t2)
    assert recorder.pending(cfg) == []


@pytest.fixture
def claude_code() -> Any:
    """A process standing for Claude Code, which runs the hooks: it runs until stopped."""
    proc = subprocess.Popen([sys.executable, "-c", "import sys; sys.stdin.read()"],
                            stdin=subprocess.PIPE)  # fmt: skip
    yield proc
    if proc.stdin is not None and not proc.stdin.closed:
        proc.stdin.close()
    proc.wait(timeout=30)


@pytest.mark.skipif(os.name == "nt", reason="no process ids on Windows")
def test_a_session_whose_claude_code_exited_without_an_end_is_recorded_at_the_next_start(
    code: Repo, tmp_path: Path, claude_code: Any
) -> None:
    cfg = code.config()
    t1 = tmp_path / "c1.jsonl"
    mine = {"transcript": str(t1), "parent": claude_code.pid}
    run(cfg, "SessionStart", source="startup", **mine)
    run(cfg, "UserPromptSubmit", prompt=TASK, **mine)  # the same process: Claude Code
    sha = fix_calc(code)
    transcript(t1, asked(TASK), said("Fixed it."))
    run(cfg, "SessionStart", "c2", source="startup", transcript=str(tmp_path / "c2.jsonl"))
    kept = session.open_session(cfg)
    assert kept is not None and kept["owner"] == "c1" and kept["host_confirmed"] is True
    claude_code.stdin.close()  # killed: no SessionEnd
    claude_code.wait(timeout=30)
    run(cfg, "SessionStart", "c3", source="startup", transcript=str(tmp_path / "c3.jsonl"))
    (entry,) = access.load(cfg).sessions()
    assert entry.id == kept["id"] and entry.summary == "Fixed it."
    assert entry.commits == [f"{sha[:7]} Sum the items themselves"]
    assert session.open_session(cfg)["owner"] == "c3"


def test_a_claude_session_that_did_nothing_gives_way_to_anothers_task(
    code: Repo, tmp_path: Path
) -> None:
    cfg = code.config()
    t1, t2 = tmp_path / "c1.jsonl", tmp_path / "c2.jsonl"  # neither written yet
    run(cfg, "SessionStart", source="startup", transcript=str(t1))  # a throwaway start
    run(cfg, "SessionStart", "c2", source="resume", transcript=str(t2))
    assert session.open_session(cfg)["owner"] == "c1"  # a start is no task
    run(cfg, "UserPromptSubmit", "c2", prompt=TASK, transcript=str(t2))
    opened = session.open_session(cfg)
    assert opened is not None and opened["owner"] == "c2" and opened["title"] == TASK
    assert access.load(cfg).sessions() == [] and recorder.pending(cfg) == []  # it changed nothing
    run(cfg, "UserPromptSubmit", prompt="Now my own task please", transcript=str(t1))
    assert session.open_session(cfg) == opened  # c2 has its task: kept


def test_a_task_sets_a_gone_owners_session_aside_and_opens_its_own_under_one_lock(
    code: Repo, tmp_path: Path
) -> None:
    cfg = code.config()
    t1, t2 = tmp_path / "c1.jsonl", tmp_path / "c2.jsonl"  # neither written yet
    gone = recorder.started(cfg, hooks.HookInput("SessionStart", "c1", source="startup",
                                                 transcript=str(t1))).record  # fmt: skip
    assert gone is not None
    start = recorder.started(cfg, hooks.HookInput("SessionStart", "c2", source="startup",
                                                  transcript=str(t2)))  # fmt: skip
    assert start == recorder.Recorded(None)  # a start is no task: c1's is left alone
    done = recorder.prompted(cfg, hooks.HookInput("UserPromptSubmit", "c2", transcript=str(t2)),
                             TASK)  # fmt: skip
    assert done.set_aside is not None and recorder.pending(cfg) == [done.set_aside]
    assert json.loads(done.set_aside.read_text(encoding="utf-8"))["id"] == gone["id"]
    assert done.record is not None and done.record["owner"] == "c2"
    assert done.record["title"] == TASK and session.open_session(cfg) == done.record


@pytest.mark.skipif(os.name == "nt", reason="no process ids on Windows")
def test_two_claude_sessions_at_work_in_one_work_tree_never_take_the_others_session(
    code: Repo, tmp_path: Path, claude_code: Any
) -> None:
    cfg = code.config()
    t1, t2 = tmp_path / "c1.jsonl", tmp_path / "c2.jsonl"
    first = {"transcript": str(t1), "parent": claude_code.pid}
    run(cfg, "SessionStart", source="startup", **first)
    run(cfg, "UserPromptSubmit", prompt=TASK, **first)
    transcript(t1, asked(TASK), said("Looking at calc.py."))
    kept = session.open_session(cfg)
    # the second, in another terminal: its start, its task, a /clear in it and the next task
    second = {"transcript": str(t2), "parent": os.getpid()}
    run(cfg, "SessionStart", "c2", source="startup", **second)
    transcript(t2, asked("Add tests for app/main.py"))
    run(cfg, "UserPromptSubmit", "c2", prompt="Add tests for app/main.py", **second)
    third = {**second, "transcript": str(tmp_path / "c3.jsonl")}  # after /clear in it
    run(cfg, "SessionStart", "c3", source="clear", **third)
    run(cfg, "UserPromptSubmit", "c3", prompt="Now write the docs for it", **third)
    assert session.open_session(cfg) == kept and access.load(cfg).sessions() == []


def test_a_secret_in_the_task_or_transcript_never_reaches_the_memory_file(
    code: Repo, tmp_path: Path
) -> None:
    cfg = code.config()
    run(cfg, "SessionStart", source="startup")
    task = f"Use the token {SECRET} to fix Calculator.total"
    recorder.prompted(cfg, hooks.HookInput("UserPromptSubmit", "c1"), task)
    fix_calc(code)
    leaked = f"Fixed it; I used `export GITHUB_TOKEN={SECRET}` and mailed joe@example.com."
    end(cfg, path=transcript(tmp_path / "t.jsonl", said(leaked)))
    (entry,) = access.load(cfg).sessions()
    assert entry.title == "Use the token [REDACTED] to fix Calculator.total"
    assert entry.summary == (
        "Fixed it; I used `export GITHUB_TOKEN=[REDACTED]` and mailed [EMAIL]."
    )
    text = (code.root / "REPOMEM.md").read_text(encoding="utf-8")
    assert SECRET not in text and "joe@example.com" not in text


def test_a_missing_or_unreadable_transcript_gives_the_summary_of_the_changes(
    code: Repo, tmp_path: Path
) -> None:
    cfg = code.config()
    run(cfg, "SessionStart", source="startup")
    fix_calc(code)
    end(cfg, path=tmp_path / "gone.jsonl")
    (entry,) = access.load(cfg).sessions()
    assert entry.summary == "1 commit: Sum the items themselves. 1 file changed."


def test_the_last_message_is_read_defensively(tmp_path: Path) -> None:
    path = tmp_path / "t.jsonl"
    assert recorder.last_message(path) == ""  # no file
    assert recorder.last_message(tmp_path) == ""  # a folder
    path.write_bytes(b'\xff\xfe not json\n{"type": "assistant", "message": 3}\n')
    assert recorder.last_message(path) == ""
    content_as_text = {"type": "assistant", "message": {"content": "Plain text."}}
    transcript(path, said("Earlier."), content_as_text, asked("thanks"))
    assert recorder.last_message(path) == "Plain text."
    errored = {**said("API Error: 529 Overloaded", "e"), "isApiErrorMessage": True}
    transcript(path, said("The answer."), errored)
    assert recorder.last_message(path) == "The answer."


def test_the_last_message_is_found_in_a_long_transcripts_tail(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(recorder, "TAIL_BYTES", 400)
    path = transcript(tmp_path / "t.jsonl", said("x" * 1000, "m0"), said("The end.", "m1"))
    assert recorder.last_message(path) == "The end."


def test_titles_and_summaries_are_cut_at_a_word_or_a_sentence(repo: Repo) -> None:
    cfg = repo.config()
    title = recorder.title_from(cfg, "Make the\npack builder " + "really " * 20 + "fast")
    assert len(title) <= recorder.TITLE_CHARS and title.endswith("really…")
    assert "\n" not in title and title.startswith("Make the pack builder really")
    path = repo.root / "t.jsonl"
    sentence = "This sentence is about forty characters. "
    transcript(path, said("## Summary\n```\ncode\n```\n" + sentence * 40))
    summary = recorder.summary_from(cfg, path)
    assert summary.startswith("Summary This sentence") and summary.endswith("characters.")
    assert len(summary) <= recorder.SUMMARY_CHARS and "```" not in summary
    transcript(path, said("word " * 400))  # no sentence: cut at a word
    summary = recorder.summary_from(cfg, path)
    assert len(summary) <= recorder.SUMMARY_CHARS and summary.endswith("word…")


# ------------------------------------------------------- a hook racing a session's end


class LockWaits(logging.Handler):
    """The lock files this process's calls waited for, as `FileLock` says it (once a wait
    passes `LOCK_NOTICE_SECONDS`): `on(name)` is an event to wait on."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self._events: dict[str, threading.Event] = {}
        self._guard = threading.Lock()

    def on(self, name: str) -> threading.Event:
        with self._guard:
            return self._events.setdefault(name, threading.Event())

    def emit(self, record: logging.LogRecord) -> None:
        if record.msg.startswith("waiting for") and isinstance(record.args, tuple):
            self.on(Path(str(record.args[1])).name).set()


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> Iterator[LockWaits]:
    monkeypatch.setattr(fsutil, "LOCK_NOTICE_SECONDS", 0.05)
    handler = LockWaits()
    logger = logging.getLogger(fsutil.__name__)
    logger.addHandler(handler)
    yield handler
    logger.removeHandler(handler)


class Racer(threading.Thread):
    """`fn()` run in a thread of its own: what it returned or raised, once it is done."""

    def __init__(self, fn: Callable[[], object]) -> None:
        super().__init__(daemon=True)
        self._fn = fn
        self.outcome: object = None
        self.start()

    def run(self) -> None:
        try:
            self.outcome = self._fn()
        except RepomemError as exc:
            self.outcome = exc

    def result(self) -> object:
        self.join(120)
        assert not self.is_alive(), "still running"
        return self.outcome


def held(path: Path) -> bool:
    """Whether another call or process holds the lock file `path`."""
    try:
        with FileLock(path, 0.0):
            return False
    except LockTimeoutError:
        return True


@pytest.mark.parametrize(
    ("event", "fields", "title"),
    [("UserPromptSubmit", {"prompt": TASK}, TASK), ("SessionStart", {"source": "compact"}, "")],
)
def test_a_hook_racing_session_end_opens_the_next_session_after_the_end_is_recorded(
    code: Repo, waits: LockWaits, event: str, fields: dict[str, str], title: str
) -> None:
    """The hook read the open session under a lock of its own while `repomem session end`, in
    another process, was recording it: a task's hook then waited to title it, and failed ("No
    session is open"); a compaction's found it its own, and returned; neither opened the next
    session, so this Claude session's work went unrecorded."""
    cfg = code.config()
    run(cfg, "SessionStart", source="startup")
    first = session.open_session(cfg)
    fix_calc(code)
    state = state_dir(cfg)
    with FileLock(state / "memory.lock", 60.0):  # the end waits here, holding the session
        ending = subprocess.Popen(
            [sys.executable, "-m", "repomem", "session", "end", "--summary", "Ended by hand."],
            cwd=code.root, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        )  # fmt: skip
        wait_until(lambda: held(state / "session.lock"), "`session end` to hold the session")
        hook = Racer(lambda: run(cfg, event, **fields))
        wait_until(lambda: waits.on("session.lock").is_set() or not hook.is_alive(),
                   "the hook to wait for the session's lock, or be done")  # fmt: skip
    out, err = ending.communicate(timeout=120)
    assert ending.returncode == 0 and out.startswith(f"Ended {first['id']}:"), err
    assert isinstance(hook.result(), str)
    (entry,) = access.load(cfg).sessions()
    assert entry.id == first["id"] and entry.summary == "Ended by hand."
    opened = session.open_session(cfg)
    assert opened is not None and opened["id"] != first["id"], opened
    assert opened["owner"] == "c1" and opened["title"] == title


def test_a_session_end_hook_racing_the_mcp_session_end_records_the_session_once_quietly(
    code: Repo, waits: LockWaits
) -> None:
    """The `SessionEnd` hook read the session it owned, then waited to set it aside while the
    model's `session_end` recorded it: the hook failed ("No session is open; nothing to set
    aside"), an error Claude Code shows."""
    cfg = code.config()
    run(cfg, "SessionStart", source="startup")
    first = session.open_session(cfg)
    fix_calc(code)
    with FileLock(state_dir(cfg) / "memory.lock", 60.0):  # the tool waits here, holding it

        async def end_it(client: Any) -> Any:
            return await client.call_tool("session_end", {"summary": "Ended by the model."})

        tool = Racer(lambda: talk(code, end_it))
        assert waits.on("memory.lock").wait(60)
        hook = Racer(lambda: end(cfg))
        assert waits.on("session.lock").wait(60)
    result = tool.result()
    assert not result.is_error and text(result).startswith(f"Ended {first['id']}:")
    assert hook.result() == ""
    (entry,) = access.load(cfg).sessions()
    assert entry.id == first["id"] and entry.summary == "Ended by the model."
    assert session.open_session(cfg) is None and recorder.pending(cfg) == []


HOLD = """
import pathlib, sys
from repomem.fsutil import FileLock
with FileLock(pathlib.Path(sys.argv[1]), 10.0):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_a_hook_kept_out_by_another_process_holding_the_session_lock_names_it(
    code: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The lock file is the one `session` start and end always took: a repomem from before
    this one (an MCP server started before an upgrade, ending a session) keeps a hook out."""
    cfg = code.config()
    run(cfg, "SessionStart", source="startup")
    first = session.open_session(cfg)
    monkeypatch.setattr(recorder, "LOCK_SECONDS", 0.2)
    path = state_dir(cfg) / "session.lock"
    with subprocess.Popen([sys.executable, "-c", HOLD, str(path)], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as other:  # fmt: skip
        assert other.stdout is not None and other.stdout.readline() == "held\n"
        with pytest.raises(LockTimeoutError) as caught:
            end(cfg)
        assert str(caught.value) == (
            f"`{path}` is locked by another repomem process (pid {other.pid}) for over 0.2s; "
            "wait for it to finish and retry."
        )
        other.communicate("", timeout=60)
    assert session.open_session(cfg) == first and recorder.pending(cfg) == []
    assert end(cfg) == "" and recorder.pending(cfg) == []  # once it is free
    assert session.open_session(cfg) is None
