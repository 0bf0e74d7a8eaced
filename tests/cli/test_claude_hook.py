"""`repomem claude-hook` without typer (`repomem.cli.claude_hook`): the same answers as the typer
command, without importing typer or the other commands."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from repomem.cli.claude_hook import HookArgs, parse_args
from tests.conftest import Repo

DEADLINE = 60.0
# `repomem.cli.main` as the console script runs it (`fast_hook=False`: typer for every command);
# at exit it notes whether typer was imported
SCRIPT = """
import atexit, os, sys

sys.argv[0] = "repomem"


def note():
    with open(os.environ["HOOK_TEST_NOTE"], "w", encoding="utf-8") as f:
        f.write(str("typer" in sys.modules))


atexit.register(note)
from repomem.cli import main

main(fast_hook={fast})
"""


def _run(
    args: list[str], stdin: Any, cwd: Path, env: dict[str, str], fast: bool, note: Path
) -> tuple[int, str, str, bool]:
    done = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(fast=fast), *args], stdin=stdin,
        input=None, capture_output=True, cwd=cwd, timeout=DEADLINE,
        env={**env, "HOOK_TEST_NOTE": str(note)},
    )  # fmt: skip
    typer_imported = note.read_text(encoding="utf-8") == "True"
    note.unlink()
    out = done.stdout.decode("utf-8", "replace")
    # the pack's header says how long ago the index was updated: seconds apart
    out = re.sub(r"updated [^)]* ago", "updated <when> ago", out)
    return done.returncode, out, done.stderr.decode("utf-8", "replace"), typer_imported


_AGE = re.compile(r"updated [0-9.]+ (?:s|min|h|days) ago")


def _aged(out: int | str) -> int | str:
    return _AGE.sub("updated … ago", out) if isinstance(out, str) else out


def both(
    tmp_path: Path,
    args: list[str],
    payload: dict[str, str] | str | None,
    *,
    cwd: Path,
    env: dict[str, str] | None = None,
) -> tuple[tuple[int, str, str], bool]:
    """The hook's (status, stdout, stderr) run both ways, which must agree; whether the fast
    way did without typer."""
    env = env or dict(os.environ)
    results = []
    for fast in (True, False):
        raw = payload if isinstance(payload, str) or payload is None else json.dumps(payload)
        feed = tmp_path / "stdin"
        feed.write_text(raw or "", encoding="utf-8")
        with feed.open("rb") as stdin:
            results.append(_run(args, stdin, cwd, env, fast, tmp_path / "note"))
    (*fast_result, fast_typer), (*typer_result, typer_typer) = results
    assert typer_typer
    # a pack's header says how long ago the index was updated: seconds pass between the runs
    assert [_aged(r) for r in fast_result] == [_aged(r) for r in typer_result], args
    assert fast_result[0] != 2, args  # 2 blocks the prompt and erases it
    return (fast_result[0], fast_result[1], fast_result[2]), not fast_typer


def test_the_fast_hook_answers_as_the_typer_command(code: Repo, tmp_path: Path) -> None:
    from repomem.memory import ops

    ops.remember(code.config(), "Never print from library code.", kind="convention")
    root = str(code.root)

    def ask(session: str, prompt: str = "Calculator.total adds one value too many") -> Any:
        return {"hook_event_name": "UserPromptSubmit", "session_id": session, "cwd": root,
                "prompt": prompt}  # fmt: skip

    # no session id: each way prints the digest (of two runs for one session's start, the
    # second prints nothing, as the second of two hooks Claude Code runs at once)
    start = {"hook_event_name": "SessionStart", "source": "startup", "cwd": root}
    ran, fast = both(tmp_path, ["claude-hook"], start, cwd=code.root)
    assert ran[0] == 0 and "Never print from library code." in ran[1] and fast
    ran, fast = both(tmp_path, ["claude-hook", "--every-prompt"], ask("s"), cwd=code.root)
    assert ran[0] == 0 and "# Context pack: Calculator.total" in ran[1] and fast, ran
    prompt = ask("s")  # packed already: what follows prints no pack
    cases: list[tuple[list[str], Any, bool]] = [
        (["claude-hook"], prompt, True),
        (["claude-hook", "--max-chars", "5000"], prompt, True),
        (["claude-hook", "--every-prompt", "--option-of-a-later-version"], prompt, True),
        (
            ["claude-hook", "--max-chars=20000", "--later=3", "word", "-x", "--record-sessions"],
            ask("s", "/compact"),
            True,
        ),  # fmt: skip
        (["-C", root, "-v", "claude-hook"], {**prompt, "cwd": str(tmp_path)}, True),
        ([f"--repo={root}", "--verbose", "claude-hook", "--max-chars", "999"], prompt, False),
        (["claude-hook", "--max-chars", "5"], prompt, False),
        (["claude-hook", "--max-chars", "many"], prompt, False),
        (["claude-hook", "--max-chars"], prompt, False),
        (["claude-hook", "--every-prompt=yes"], prompt, False),
        (["claude-hook", "--", "--every-prompt"], prompt, False),
        (["-vC", root, "claude-hook"], prompt, False),
        (["--version", "claude-hook"], prompt, False),
        (["claude-hook", "--help"], prompt, False),
        (["-C", str(tmp_path / "gone"), "claude-hook"], prompt, True),
        (["claude-hook"], "{oops", True),
        (["claude-hook"], {"hook_event_name": "Stop", "session_id": "s"}, True),
    ]
    for args, payload, without_typer in cases:
        ran, fast = both(tmp_path, args, payload, cwd=tmp_path)
        assert fast == without_typer, (args, ran)
        if "--max-chars" in args and "5" in args:
            assert ran[0] == 1 and "--max-chars" in ran[2]
    ran, fast = both(tmp_path, ["claude-hook", "--every-prompt", "--max-chars", "1000"], prompt,
                     cwd=tmp_path)  # fmt: skip
    assert ran[0] == 0 and "# Context pack:" in ran[1] and len(ran[1]) <= 1000 and fast


def test_the_fast_hook_writes_errors_as_typer_does_whatever_stderr_takes(
    code: Repo, tmp_path: Path
) -> None:
    ask = {"hook_event_name": "UserPromptSubmit", "session_id": "e", "cwd": str(code.root),
           "prompt": "Calculator.total adds one value too many"}  # fmt: skip
    gone = str(tmp_path / "\x1b[31mZürich ☃")  # colour codes and letters ASCII lacks
    for encoding in ("ascii", "cp1252", "utf-8"):
        env = {**os.environ, "PYTHONIOENCODING": encoding}
        ran, fast = both(tmp_path, ["-C", gone, "claude-hook"], ask, cwd=tmp_path, env=env)
        assert ran[0] == 1 and fast and "\x1b" not in ran[2], ran


def test_the_fast_hook_leaves_quietly_when_claude_code_stops_reading(
    code: Repo, tmp_path: Path
) -> None:
    from repomem.memory import ops

    ops.remember(code.config(), "Never print from library code.", kind="convention")
    # no session id, so each way prints the digest (one session's start prints it once)
    start = {"hook_event_name": "SessionStart", "source": "clear", "cwd": str(code.root)}
    # stdout buffered, as Claude Code leaves it: the interpreter's last flush fails too
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    results = []
    for fast in (True, False):
        reader, writer = os.pipe()
        os.close(reader)  # nobody reads the hook's output
        try:
            done = subprocess.run(
                [sys.executable, "-c", SCRIPT.format(fast=fast), "claude-hook"],
                input=json.dumps(start).encode(), stdout=writer, stderr=subprocess.PIPE,
                timeout=DEADLINE, env={**env, "HOOK_TEST_NOTE": str(tmp_path / "n")},
            )  # fmt: skip
        finally:
            os.close(writer)
        results.append((done.returncode, done.stderr.decode("utf-8", "replace")))
    assert results[0] == results[1] == (1, ""), results


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX terminal")
def test_the_fast_hook_run_by_hand_says_what_it_is_as_typer_does(
    code: Repo, tmp_path: Path
) -> None:
    import pty

    results = []
    for fast in (True, False):
        leader, follower = pty.openpty()
        try:
            results.append(_run(["claude-hook"], follower, code.root, dict(os.environ), fast,
                                tmp_path / "note"))  # fmt: skip
        finally:
            os.close(leader)
            os.close(follower)
    assert results[0][:3] == results[1][:3] and not results[0][3], results
    assert results[0][0] == 1 and "reads a Claude Code hook's JSON on stdin" in results[0][2]


def test_a_claude_hook_command_line_is_read_as_typer_reads_it(tmp_path: Path) -> None:
    env: dict[str, str] = {}
    assert parse_args(["claude-hook"], env) == HookArgs()
    assert parse_args(
        ["-v", "-C", "a", "--repo", "b", "claude-hook", "--max-chars", "1000", "--max-chars=2000",
         "--every-prompt", "-C", "x", "--record-sessions"], env,
    ) == HookArgs(Path("b"), True, True, True, 2000)  # fmt: skip
    assert parse_args(["-C", "claude-hook", "claude-hook"], env) == HookArgs(Path("claude-hook"))
    # not a hook, or not one read here: typer's
    for argv in (
        [], ["pack", "claude-hook"], ["-C", "claude-hook"], ["-C", "-v", "claude-hook"],
        ["-C", "", "claude-hook"], ["--repo", "claude-hook"], ["claude-hook", "--finish-sessions"],
        ["claude-hook", "--max-chars", "01000"], ["claude-hook", "--max-chars", "+1000"],
        ["claude-hook", "--max-chars", "1_000"], ["claude-hook", "--help=x"],
    ):  # fmt: skip
        assert parse_args(argv, env) is None, argv
    assert parse_args(["claude-hook"], {"_REPOMEM_COMPLETE": "bash_complete"}) is None
    if os.name == "posix" and os.geteuid() != 0:  # root reads anything
        locked = tmp_path / "locked"
        locked.mkdir(mode=0)
        assert parse_args(["-C", str(locked), "claude-hook"], env) is None  # typer refuses it


def test_a_prompt_that_needs_nothing_imports_neither_typer_nor_the_commands(
    code: Repo, tmp_path: Path
) -> None:
    ask = {"hook_event_name": "UserPromptSubmit", "session_id": "n", "cwd": str(code.root),
           "prompt": "Calculator.total adds one value too many"}  # fmt: skip

    def hook(
        payload: dict[str, str], *extra: str
    ) -> tuple[subprocess.CompletedProcess[str], set[str]]:
        done = subprocess.run(
            [sys.executable, "-X", "importtime", "-m", "repomem", "claude-hook", *extra],
            input=json.dumps(payload), capture_output=True, text=True, cwd=tmp_path,
            timeout=DEADLINE, env=dict(os.environ),
        )  # fmt: skip
        names = {line.rsplit("|", 1)[-1].strip() for line in done.stderr.splitlines()}
        return done, names

    first, names = hook(ask)
    assert first.returncode == 0 and "# Context pack:" in first.stdout, first.stderr
    assert "typer" not in names
    for payload in ({**ask, "prompt": "and now the tests please"}, {**ask, "prompt": "/compact"}):
        done, names = hook(payload, "--record-sessions")
        assert done.returncode == 0 and done.stdout == "", done.stderr
        assert "typer" not in names and "click" not in names
        commands = {n for n in names if n.startswith("repomem.cli.")}
        assert commands == {"repomem.cli.claude_hook", "repomem.cli._state"}, commands


# Claude Code as far as the hooks see it: a process that runs `repomem claude-hook` for each
# payload, as its child (the parent the hook records), then exits (killed: no SessionEnd)
CLAUDE = """
import json, subprocess, sys

for payload in json.loads(sys.argv[1]):
    done = subprocess.run(
        [sys.executable, "-m", "repomem", "claude-hook", "--record-sessions"],
        input=json.dumps(payload), capture_output=True, text=True,
    )
    assert done.returncode == 0, done.stderr
"""


@pytest.mark.skipif(os.name == "nt", reason="no process ids on Windows")
def test_a_session_whose_claude_code_exited_without_an_end_is_recorded_at_the_next_start(
    code: Repo, tmp_path: Path
) -> None:
    from repomem import hooks as git_hooks
    from repomem.memory import access, session
    from tests.conftest import wait_until

    def claude(*payloads: dict[str, str]) -> None:
        subprocess.run(
            [sys.executable, "-c", CLAUDE, json.dumps(payloads)], cwd=code.root, check=True,
            timeout=DEADLINE, env=dict(os.environ),
        )  # fmt: skip

    def hook(event: str, claude_id: str, **fields: str) -> dict[str, str]:
        transcript = str(tmp_path / f"{claude_id}.jsonl")
        return {"hook_event_name": event, "session_id": claude_id, "cwd": str(code.root),
                "transcript_path": transcript, **fields}  # fmt: skip

    cfg = code.config()
    task = "Calculator.total adds one value too many"
    claude(
        hook("SessionStart", "c1", source="startup"), hook("UserPromptSubmit", "c1", prompt=task)
    )
    opened = session.open_session(cfg)
    assert opened is not None and opened["host_confirmed"] is True  # two hooks, one process
    code.write("calc.py", (code.root / "calc.py").read_text("utf-8").replace("add(0, i)", "i"))
    code.commit("Sum the items themselves")
    said = {"type": "text", "text": "Calculator.total sums the items now."}
    line = {"type": "assistant", "message": {"content": [said]}}
    (tmp_path / "c1.jsonl").write_text(json.dumps(line) + "\n", "utf-8")
    claude(hook("SessionStart", "c2", source="startup"))  # the first has exited meanwhile
    log = git_hooks.log_path(cfg)  # where the background process reports
    wait_until(
        lambda: log.exists() and "claude-hook: recorded" in log.read_text("utf-8"),
        "the session recorded in the background", DEADLINE,
    )  # fmt: skip
    (entry,) = access.load(cfg).sessions()
    assert (entry.id, entry.title) == (opened["id"], task)
    assert entry.summary == "Calculator.total sums the items now."
    assert [c.split(" ", 1)[1] for c in entry.commits] == ["Sum the items themselves"]
    assert session.open_session(cfg)["owner"] == "c2"
