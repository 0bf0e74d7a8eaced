"""Claude Code hooks: a pack for a session's first task, and the settings that install them."""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shlex
import shutil
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

from repomem import config
from repomem.errors import InputError
from repomem.index.state import state_dir
from repomem.memory import ops
from repomem.server import claude_hooks as hooks
from tests.conftest import Repo, wait_until


def prompt(text: str, session: str = "s1") -> hooks.HookInput:
    return hooks.HookInput("UserPromptSubmit", session, text)


def test_the_first_task_of_a_session_gets_a_pack_and_the_next_prompts_do_not(code: Repo) -> None:
    cfg = code.config()
    first = hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    assert first.startswith(hooks.PREAMBLE)
    assert "# Context pack: Calculator.total adds" in first and "calc.py" in first
    assert len(first) <= hooks.MAX_CHARS
    assert hooks.context_for(cfg, prompt("and now fix the tests too")) == ""
    # another session gets its own pack; every_prompt packs every time
    assert hooks.context_for(cfg, prompt("the add function is wrong", "s2")).startswith("repomem")
    again = hooks.context_for(cfg, prompt("the add function is wrong"), every_prompt=True)
    assert "add" in again


def hooks_at_once(code: Repo, tmp_path: Path, payload: dict[str, str]) -> list[str]:
    """What two `repomem claude-hook` processes, started together on one input, print: yours in
    settings.local.json and the team's in settings.json, which Claude Code runs at once."""
    ask = tmp_path / "input.json"
    ask.write_text(json.dumps(payload))
    with contextlib.ExitStack() as stack:
        runs = [
            stack.enter_context(
                subprocess.Popen(
                    [sys.executable, "-m", "repomem", "claude-hook"],
                    cwd=code.root,
                    text=True,
                    stdin=stack.enter_context(ask.open("rb")),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )
            )  # fmt: skip
            for _ in range(2)
        ]
        outs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outs
    return [out for out, _ in outs]


def test_two_repomem_hooks_of_one_session_add_one_pack_between_them(
    code: Repo, tmp_path: Path
) -> None:
    ask = {"hook_event_name": "UserPromptSubmit", "session_id": "both",
           "prompt": "Calculator.total adds one value too many"}  # fmt: skip
    packs = [out for out in hooks_at_once(code, tmp_path, ask) if out]
    assert len(packs) == 1 and packs[0].startswith(hooks.PREAMBLE)


def test_two_repomem_hooks_of_one_session_start_print_the_digest_once(
    code: Repo, tmp_path: Path
) -> None:
    cfg = code.config()
    ops.remember(cfg, "Never print from library code.", kind="convention")
    start = {"hook_event_name": "SessionStart", "session_id": "both", "source": "startup"}
    digests = [out for out in hooks_at_once(code, tmp_path, start) if out]
    assert len(digests) == 1 and "Never print from library code." in digests[0]
    # a compaction later in the session (past a hook's time limit) gets it again
    state = state_dir(cfg)
    sessions = hooks._read(state)
    earlier = sessions[hooks.STARTED]
    sessions[hooks.STARTED] = {k: v - hooks.TIMEOUT_SECONDS for k, v in earlier.items()}
    hooks._write(state, sessions)
    compacted = hooks.HookInput("SessionStart", "both", source="compact")
    assert "Never print from library code." in hooks.context_for(cfg, compacted)


def test_a_pack_that_fails_leaves_the_session_to_be_packed_later(repo: Repo) -> None:
    cfg = repo.config()
    with pytest.raises(InputError, match="no repomem index"):
        hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    repo.write("calc.py", "def total(items):\n    return sum(items)\n")
    repo.commit()
    from repomem.index import indexer

    indexer.run(cfg)
    assert hooks.context_for(cfg, prompt("the total function is wrong")).startswith("repomem")


def test_a_new_start_or_compaction_makes_the_next_task_packed_again(code: Repo) -> None:
    cfg = code.config()
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many")) == ""
    resumed = hooks.HookInput("SessionStart", "s1", source="resume")
    assert hooks.context_for(cfg, resumed) == ""  # its conversation still holds the pack
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many")) == ""
    compacted = hooks.HookInput("SessionStart", "s1", source="compact")
    assert hooks.context_for(cfg, compacted) == ""  # an empty memory: nothing to say
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))


def test_a_session_starts_with_the_memory_digest(code: Repo) -> None:
    cfg = code.config()
    ops.remember(cfg, "Totals are summed left to right.", cites=["calc.py:add"])
    ops.remember(cfg, "Never print from library code.", kind="convention")
    ops.add_next_step(cfg, "Handle an empty list in Calculator.total")
    for source in ("startup", "clear", "compact", ""):
        start = hooks.HookInput("SessionStart", f"s-{source}", source=source)
        digest = hooks.context_for(cfg, start)
        assert digest.startswith("# Project memory (repomem, from `REPOMEM.md`)")
        assert "## Conventions\n- [" in digest and "Never print from library code." in digest
        assert "## Next steps\n- [ ] Handle an empty list in Calculator.total" in digest
    for source in ("resume", "fork"):  # the conversation (and the digest in it) is there
        assert hooks.context_for(cfg, hooks.HookInput("SessionStart", "s", source=source)) == ""
    small = hooks.memory_digest(cfg, max_chars=200)
    assert len(small) <= 200 and "Never print" in small  # the most valuable part first
    assert hooks.memory_digest(cfg, max_chars=60) == ""  # not even one part fits


@pytest.mark.parametrize("text", ["yes", "go on", "/clear", "/review the add function now", ""])
def test_slash_commands_and_short_replies_get_nothing_and_do_not_use_up_the_session(
    code: Repo, text: str
) -> None:
    cfg = code.config()
    assert hooks.context_for(cfg, prompt(text)) == ""
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))


def test_the_character_ceiling_is_kept(code: Repo) -> None:
    out = hooks.context_for(
        code.config(), prompt("Calculator.total adds one value too many"), max_chars=1200
    )
    assert out.startswith(hooks.PREAMBLE) and len(out) <= 1200


def test_the_character_ceiling_counts_an_emoji_twice_as_claude_code_does(repo: Repo) -> None:
    from repomem.index import indexer
    from repomem.pack.render import utf16_len
    from tests.pack.project import EMOJI, emoji_project

    task = emoji_project(repo)
    indexer.run(repo.config())
    out = hooks.context_for(repo.config(), prompt(task), max_chars=2500)
    assert EMOJI in out and utf16_len(out) <= 2500


def test_the_hook_prints_the_pack_it_measured_without_rendering_it_again(
    code: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from repomem.pack import builder

    build, built, renders = builder.build, [], []

    def build_and_watch(*args: Any, **kwargs: Any) -> Any:
        pack = build(*args, **kwargs)
        render = pack.render
        # a second rendering could differ from the one measured (`updated 9 s ago` turns
        # into `10 s ago`), and costs as much as the first
        pack.render = lambda fmt="md": renders.append(fmt) or render(fmt)
        built.append(pack)
        return pack

    monkeypatch.setattr(builder, "build", build_and_watch)
    out = hooks.context_for(code.config(), prompt("Calculator.total adds one value too many"))
    assert renders == [] and out == hooks.PREAMBLE + built[0].rendered
    assert "calc.py" in out


def test_a_repository_without_an_index_gets_a_hint_not_a_slow_build(repo: Repo) -> None:
    repo.write("a.py", "def f():\n    return 1\n")
    repo.commit("one")
    from repomem.index import indexer

    with pytest.raises(InputError, match="no repomem index yet.*repomem init"):
        hooks.context_for(repo.config(), prompt("f returns the wrong value"))
    assert not indexer.reader(repo.config()).exists()


def test_a_new_worktree_gets_its_first_pack_from_a_siblings_index(code: Repo) -> None:
    from repomem import hooks as git_hooks
    from repomem.index import indexer

    path = code.root.parent / "wt"
    code.git("worktree", "add", "-q", "-b", "wt", str(path))
    wt = Repo(path, git=False)
    calc = (wt.root / "calc.py").read_text(encoding="utf-8")
    wt.write("calc.py", calc + "\n\ndef subtract_twice(a, b):\n    return a - b - b\n")
    out = hooks.context_for(wt.config(), prompt("subtract_twice gives the wrong sign"))
    assert out.startswith(hooks.PREAMBLE)
    assert "def subtract_twice" in out and "stale" not in out
    assert indexer.open_store(wt.config()).symbols_named("subtract_twice")
    assert not indexer.open_store(code.config()).symbols_named("subtract_twice")
    # the other files' new mtimes (the worktree's checkout) are recorded at once, in the stat
    # cache: nothing is left for a refresh in the background
    log = git_hooks.log_path(wt.config())
    assert not log.exists() or "repomem index" not in log.read_text(encoding="utf-8")
    states = indexer.open_store(wt.config()).file_states()
    for rel in ("app/main.py", "calc.py"):
        st = (wt.root / rel).stat()
        assert states[rel][:2] == (st.st_size, st.st_mtime_ns), rel


def test_the_hint_to_index_is_said_once_a_session_and_again_after_a_new_start(
    repo: Repo,
) -> None:
    repo.write("a.py", "def f():\n    return 1\n")
    repo.commit("one")
    cfg = repo.config()
    task = "f returns the wrong value"

    def hinted(hook: hooks.HookInput) -> bool:
        try:
            assert hooks.context_for(cfg, hook) == ""
        except InputError as exc:
            assert "repomem init" in str(exc)
            return True
        return False

    assert [hinted(prompt(task)), hinted(prompt(task)), hinted(prompt(task, "s2"))] == [
        True,
        False,
        True,
    ]
    assert not hinted(hooks.HookInput("SessionStart", "s1", source="resume"))
    assert not hinted(prompt(task))  # a resumed conversation holds the hint
    assert not hinted(hooks.HookInput("SessionStart", "s1", source="clear"))
    assert hinted(prompt(task)) and not hinted(prompt(task))
    assert hinted(prompt(task, "")) and hinted(prompt(task, ""))  # no session to count on
    from repomem.index import indexer

    indexer.run(cfg)  # indexed at last: a session told to do it gets its pack
    assert hooks.context_for(cfg, prompt(task)).startswith(hooks.PREAMBLE)


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


def test_the_input_is_read_or_refused_in_one_line() -> None:
    hook = hooks.parse(json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": "a",
                                   "prompt": "fix it now", "cwd": "/x", "extra": 1}))  # fmt: skip
    assert hook == hooks.HookInput("UserPromptSubmit", "a", "fix it now", "/x")
    odd = hooks.parse('{"hook_event_name": "SessionStart", "session_id": 3, "prompt": null}')
    assert odd == hooks.HookInput("SessionStart", "", "", "")
    ended = hooks.parse(json.dumps({"hook_event_name": "SessionEnd", "session_id": "a",
                                    "transcript_path": "/t.jsonl", "cwd": "/x",
                                    "reason": "clear"}))  # fmt: skip
    assert ended == hooks.HookInput("SessionEnd", "a", cwd="/x", transcript="/t.jsonl",
                                    reason="clear")  # fmt: skip
    refused = [("not json", "not JSON"), ("[1]", "not a JSON object"),
               ('{"hook_event_name": "Stop"}', "Unsupported hook event `Stop`")]  # fmt: skip
    for raw, message in refused:
        with pytest.raises(InputError, match=message):
            hooks.parse(raw)


def test_the_input_ends_with_its_json_object_though_the_pipe_stays_open() -> None:
    payload = '{"hook_event_name": "SessionEnd", "session_id": "s", "reason": "clear"}'

    # every pipe stays open to the end of the test: a reading thread left behind by one read
    # may still be blocked on its end, and a descriptor closed and reused by the next pipe
    # would hand that thread the next read's bytes (this made the test fail under load)
    reads: list[int] = []
    writes: list[int] = []

    def read_from(*parts: bytes, close: bool = False, quiet: float = hooks.QUIET_SECONDS) -> str:
        read, write = os.pipe()
        reads.append(read)
        for part in parts:
            os.write(write, part)
        if close:
            os.close(write)
        else:
            writes.append(write)
        return hooks.read_input(read, quiet=quiet)

    try:
        # no end of the stream, as Claude Code has left it, and silence allowed for an hour:
        # only the end of the object can end the read
        got: list[str] = []
        parts = payload[:20].encode(), payload[20:].encode()
        reading = threading.Thread(
            target=lambda: got.append(read_from(*parts, quiet=3600)), daemon=True
        )
        reading.start()
        reading.join(timeout=60)
        assert got == [payload]
        # cut short, then silent: what came (the default silence)
        assert read_from(payload[:20].encode()) == payload[:20]
        assert read_from(b"{oops", close=True) == "{oops"  # the end of the stream: what came
    finally:
        for fd in writes + reads:  # the write ends first: the reading threads see the end
            os.close(fd)


def test_a_damaged_sessions_record_is_started_over(code: Repo) -> None:
    from repomem.index import indexer

    cfg = code.config()
    record = indexer.state_dir(cfg) / hooks.SESSIONS_FILE
    record.parent.mkdir(parents=True, exist_ok=True)
    record.write_text("{not json", encoding="utf-8")
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    assert list(json.loads(record.read_text(encoding="utf-8"))["packed"]) == ["s1"]


def test_settings_are_merged_kept_and_replaced_not_repeated(repo: Repo) -> None:
    cfg = repo.config()
    path = repo.root / ".claude" / "settings.local.json"
    path.parent.mkdir()
    other = {"type": "command", "command": "echo hi"}
    path.write_text(json.dumps({"model": "opus", "hooks": {
        "UserPromptSubmit": [{"hooks": [other]}],
        "PreToolUse": [{"matcher": "Bash", "hooks": [other]}]}}), encoding="utf-8")  # fmt: skip
    line = hooks.hook_command(["/opt/my tools/repomem"])
    assert shlex.split(line) == ["/opt/my tools/repomem", "claude-hook"]
    shown, replaced = hooks.write_settings(cfg, line)
    assert shown == path and not replaced
    shown, replaced = hooks.write_settings(cfg, hooks.hook_command(["/opt/r"], every_prompt=True))
    assert replaced
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["model"] == "opus" and data["hooks"]["PreToolUse"][0]["hooks"] == [other]
    submit = data["hooks"]["UserPromptSubmit"]
    assert submit[0]["hooks"] == [other] and len(submit) == 2
    assert submit[1]["hooks"][0]["command"] == "/opt/r claude-hook --every-prompt"
    assert [g["hooks"][0]["command"] for g in data["hooks"]["SessionStart"]] == [
        "/opt/r claude-hook --every-prompt"
    ]
    # personal settings are kept out of commits; shared ones are not touched that way
    assert repo.git("status", "--porcelain", "--untracked-files=all") == ""
    hooks.write_settings(cfg, line, shared=True)
    assert ".claude/settings.json" in repo.git("status", "--porcelain", "--untracked-files=all")


def test_an_earlier_repomem_hook_beside_another_in_one_group_is_replaced_not_repeated(
    repo: Repo,
) -> None:
    path = repo.root / ".claude" / "settings.local.json"
    path.parent.mkdir()
    old = {"type": "command", "command": "/old/venv/bin/repomem claude-hook", "timeout": 60}
    mine = {"type": "command", "command": "echo mine"}
    path.write_text(json.dumps({"hooks": {"UserPromptSubmit": [{"hooks": [old, mine]}]}}), "utf-8")
    line = hooks.hook_command(["/new/venv/bin/repomem"])
    _, replaced = hooks.write_settings(repo.config(), line)
    assert replaced
    groups = json.loads(path.read_text(encoding="utf-8"))["hooks"]["UserPromptSubmit"]
    assert [[h["command"] for h in g["hooks"]] for g in groups] == [["echo mine"], [line]]


def test_recording_sessions_adds_session_end_and_writing_again_repeats_nothing(
    repo: Repo,
) -> None:
    cfg = repo.config()
    path = repo.root / ".claude" / "settings.local.json"
    path.parent.mkdir()
    theirs = {"type": "command", "command": "other-tool save-transcript"}
    path.write_text(json.dumps({"hooks": {"SessionEnd": [{"hooks": [theirs]}]}}), "utf-8")
    line = hooks.hook_command(["/opt/repomem"], record_sessions=True)
    assert line == "/opt/repomem claude-hook --record-sessions"
    assert hooks.hook_command(shared=True, every_prompt=True, record_sessions=True).endswith(
        "; exec repomem claude-hook --every-prompt --record-sessions"
    )

    def commands() -> dict[str, list[list[str]]]:
        data = json.loads(path.read_text(encoding="utf-8"))["hooks"]
        return {e: [[h["command"] for h in g["hooks"]] for g in gs] for e, gs in data.items()}

    for _ in range(2):
        hooks.write_settings(cfg, line, record_sessions=True)
        assert commands() == {
            "SessionEnd": [[theirs["command"]], [line]],
            "SessionStart": [[line]],
            "UserPromptSubmit": [[line]],
        }
    _, replaced = hooks.write_settings(cfg, "/opt/repomem claude-hook")  # recording turned off
    assert replaced and commands() == {
        "SessionEnd": [[theirs["command"]]],
        "SessionStart": [["/opt/repomem claude-hook"]],
        "UserPromptSubmit": [["/opt/repomem claude-hook"]],
    }
    path.write_text(json.dumps({"hooks": {}}), "utf-8")
    hooks.write_settings(cfg, line, record_sessions=True)
    hooks.write_settings(cfg, "/opt/repomem claude-hook")
    assert "SessionEnd" not in commands()  # none left behind, not even an empty list


def test_hooks_installed_without_recording_record_nothing(code: Repo, tmp_path: Path) -> None:
    from repomem.memory import session

    cfg = code.config()
    # the settings an earlier repomem wrote: no SessionEnd, no --record-sessions
    assert hooks.context_for(cfg, hooks.HookInput("SessionStart", "s1", source="startup")) == ""
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    assert session.open_session(cfg) is None
    code.write("calc.py", "x = 1\n")
    code.commit("change")
    ended = hooks.HookInput("SessionEnd", "s1", transcript=str(tmp_path / "t.jsonl"))
    assert hooks.context_for(cfg, ended) == ""  # SessionEnd installed by hand: nothing
    assert not (code.root / "REPOMEM.md").exists()


def test_shared_settings_name_no_path_of_this_machine_and_replace_one_that_did(
    repo: Repo,
) -> None:
    path = repo.root / ".claude" / "settings.json"
    path.parent.mkdir()
    old = {"type": "command", "command": "/home/me/venv/bin/repomem claude-hook"}
    path.write_text(json.dumps({"hooks": {"SessionStart": [{"hooks": [old]}]}}), "utf-8")
    line = hooks.hook_command(shared=True)
    assert line == "command -v repomem >/dev/null 2>&1 || exit 0; exec repomem claude-hook"
    assert hooks.hook_command(["/opt/my tools/repomem"], shared=True, every_prompt=True) == (
        "command -v '/opt/my tools/repomem' >/dev/null 2>&1 || exit 0; "
        "exec '/opt/my tools/repomem' claude-hook --every-prompt"
    )
    for _ in range(2):  # written again: replaced, not repeated
        _, replaced = hooks.write_settings(repo.config(), line, shared=True)
        assert replaced
        data = json.loads(path.read_text(encoding="utf-8"))
        assert [[h["command"] for h in g["hooks"]] for g in data["hooks"]["SessionStart"]] == [
            [line]
        ]


@pytest.mark.skipif(shutil.which("bash") is None, reason="Claude Code runs hooks with bash")
def test_the_shared_hook_runs_the_repomem_on_path_and_is_silent_without_one(
    code: Repo, tmp_path: Path
) -> None:
    line = hooks.hook_command(shared=True)
    ask = json.dumps({"hook_event_name": "UserPromptSubmit", "session_id": "t",
                      "prompt": "Calculator.total adds one value too many"})  # fmt: skip
    bare, tools = tmp_path / "bare", tmp_path / "tools"
    bare.mkdir()
    tools.mkdir()
    program = tools / "repomem"  # as a teammate's install puts it on PATH
    program.write_text(f'#!/bin/sh\nexec {shlex.quote(sys.executable)} -m repomem "$@"\n', "utf-8")
    program.chmod(0o755)

    def run(path: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [str(shutil.which("bash")), "-c", line], input=ask, cwd=code.root,
            capture_output=True, text=True, timeout=60, env={**os.environ, "PATH": path},
        )  # fmt: skip

    without = run(str(bare))  # a teammate without repomem: no notice on every prompt
    assert (without.returncode, without.stdout, without.stderr) == (0, "", "")
    found = run(f"{tools}{os.pathsep}{os.environ['PATH']}")  # git too
    assert found.returncode == 0, found.stderr
    assert found.stdout.startswith(hooks.PREAMBLE) and "calc.py" in found.stdout


@pytest.mark.parametrize(
    ("content", "message"),
    [("{// comment\n}", "not plain JSON"), ("[]", "not hold a JSON object"),
     ('{"hooks": []}', "`hooks` in"), ('{"hooks": {"SessionStart": {}}}', "`hooks.SessionStart`"),
     ('{"cleanupPeriodDays": 1e400}', "number too large")],
)  # fmt: skip
def test_settings_that_cannot_be_merged_are_left_alone(
    repo: Repo, content: str, message: str
) -> None:
    path = repo.root / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.write_text(content, encoding="utf-8")
    with pytest.raises(InputError, match=message):
        hooks.write_settings(repo.config(), hooks.hook_command(["/opt/r"]))
    assert path.read_text(encoding="utf-8") == content


def test_many_changes_give_the_indexed_pack_and_a_refresh_in_the_background(
    code: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from repomem import hooks as git_hooks
    from repomem.index import query

    cfg = code.config()
    monkeypatch.setattr(hooks, "REFRESH_AT_MOST", 1)
    calc = (code.root / "calc.py").read_text(encoding="utf-8")
    code.write("calc.py", calc + "\n\ndef subtract(a, b):\n    return a - b\n")
    code.write("app/extra.py", "def extra():\n    return 0\n")
    out = hooks.context_for(cfg, prompt("subtract gives the wrong sign for Calculator"))
    assert "index stale: 2 file(s) changed since indexing" in out
    log = git_hooks.log_path(cfg)
    assert "claude-hook: repomem index" in log.read_text(encoding="utf-8")
    wait_until(lambda: "Indexed" in log.read_text(encoding="utf-8"), "the background refresh")
    assert query.status(cfg)["fresh"] is True


def test_another_tools_hook_of_the_same_subcommand_name_is_kept(repo: Repo) -> None:
    path = repo.root / ".claude" / "settings.local.json"
    path.parent.mkdir()
    theirs = {"type": "command", "command": "entire claude-hook user-prompt-submit"}
    # a guard naming repomem does not make the command it guards ours
    guarded = {"type": "command", "command": "command -v repomem >/dev/null && entire claude-hook"}
    ours = {"type": "command", "command": "'/home/a/.venv/bin/repomem' claude-hook"}
    module = {"type": "command", "command": "python3 -m repomem claude-hook --every-prompt"}
    shared = {"type": "command", "command": hooks.hook_command(shared=True)}
    groups = [{"hooks": [h]} for h in (theirs, guarded, ours, module, shared)]
    path.write_text(json.dumps({"hooks": {"UserPromptSubmit": groups}}), encoding="utf-8")
    _, replaced = hooks.write_settings(repo.config(), hooks.hook_command(["/opt/r"]))
    submit = json.loads(path.read_text(encoding="utf-8"))["hooks"]["UserPromptSubmit"]
    assert replaced and [g["hooks"][0]["command"] for g in submit] == [
        theirs["command"],
        guarded["command"],
        "/opt/r claude-hook",
    ]


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
    read = hooks._read

    def read_then_wait(path: Path) -> hooks.Sessions:
        data = read(path)
        with contextlib.suppress(threading.BrokenBarrierError):
            both_read.wait()  # without the lock, each would write what it read: one is lost
        return data

    monkeypatch.setattr(hooks, "_read", read_then_wait)
    threads = [threading.Thread(target=hooks._remember, args=(state, s)) for s in ("a", "b")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    record = json.loads((state / hooks.SESSIONS_FILE).read_text(encoding="utf-8"))
    assert sorted(record["packed"]) == ["a", "b"]


def test_the_repository_is_looked_for_where_claude_works_within_the_project(
    tmp_path: Path,
) -> None:
    project, sub, elsewhere = tmp_path / "p", tmp_path / "p" / "src", tmp_path / "other"
    sub.mkdir(parents=True)
    elsewhere.mkdir()
    env = {"CLAUDE_PROJECT_DIR": str(project)}

    def start(cwd: Path, environ: dict[str, str]) -> Path | None:
        return hooks.start_dir(hooks.HookInput("UserPromptSubmit", "s", cwd=str(cwd)), environ)

    assert start(sub, env) == sub  # a subfolder (or a worktree) of the project
    assert start(elsewhere, env) == project  # Claude ran `cd` out of the project
    assert start(tmp_path / "gone", env) == project
    assert start(elsewhere, {}) == elsewhere
    assert start(tmp_path / "gone", {}) is None  # the current directory
    assert hooks.parse(
        '{"hook_event_name": "UserPromptSubmit", "prompt": "a \\ud83d b"}'
    ).prompt == ("a ? b")


def test_claude_working_in_a_submodule_gets_the_projects_index(tmp_path: Path) -> None:
    (tmp_path / "lib").mkdir()
    (tmp_path / "p").mkdir()
    lib, project = Repo(tmp_path / "lib"), Repo(tmp_path / "p")
    lib.write("helper.py", "def submodule_helper():\n    return 41\n")
    lib.commit()
    project.git("-c", "protocol.file.allow=always", "submodule", "add", "-q", str(lib.root), "lib")
    project.commit()
    from repomem.index import indexer

    indexer.run(project.config())  # the submodule's files are part of the project's index
    env = {"CLAUDE_PROJECT_DIR": str(project.root)}
    ask = hooks.HookInput("UserPromptSubmit", "s", "fix submodule_helper, it returns 41")
    for cwd in (project.root / "lib", project.root / "lib" / "deeper"):
        cwd.mkdir(exist_ok=True)
        start = hooks.start_dir(dataclasses.replace(ask, cwd=str(cwd)), env)
        assert start == project.root
        cfg = config.load(start)
        out = hooks.context_for(cfg, dataclasses.replace(ask, session=str(cwd)))
        assert "submodule_helper" in out


def test_a_settings_file_that_links_to_itself_is_one_line_not_a_traceback(repo: Repo) -> None:
    from repomem.errors import RepomemError

    path = repo.root / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.symlink_to(path.name)
    with pytest.raises(RepomemError, match="Cannot write"):
        hooks.write_settings(repo.config(), hooks.hook_command(["/opt/r"]))


def test_claude_codes_paste_markers_are_not_the_task(code: Repo) -> None:
    pasted = (
        '<pasted_content id="1">\nTraceback (most recent call last):\n  File "calc.py", in total\n'
        'TypeError: bad operand\n</pasted_content id="1">\nCalculator.total crashes, fix it'
    )
    assert hooks.task_text(pasted) == (
        'Traceback (most recent call last):\n  File "calc.py", in total\n'
        "TypeError: bad operand\nCalculator.total crashes, fix it"
    )
    out = hooks.context_for(code.config(), prompt(pasted))
    assert "# Context pack: Traceback (most recent call last):" in out
    assert "pasted_content" not in out


# hooks run in a process of their own: what they print, and every module imported by then
IN_A_PROCESS = """
import json, sys
from repomem import config
from repomem.server import claude_hooks as hooks

cfg = config.load(sys.argv[1])
out = [hooks.context_for(cfg, hooks.HookInput(**kwargs), record_sessions=record)
       for kwargs, record in json.loads(sys.argv[2])]
print(json.dumps([out, sorted(sys.modules)]))
"""


def in_a_process(code: Repo, *hooks_run: tuple[dict[str, str], bool]) -> tuple[list[str], set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", IN_A_PROCESS, str(code.root), json.dumps(hooks_run)],
        capture_output=True, text=True, timeout=60, env=dict(os.environ),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out, names = json.loads(done.stdout)
    return out, set(names)


def test_a_prompt_that_needs_nothing_loads_none_of_what_a_pack_needs(
    code: Repo,
) -> None:
    assert hooks.context_for(code.config(), prompt("Calculator.total adds one value too many"))
    ask = {"event": "UserPromptSubmit", "session": "s1"}
    out, names = in_a_process(
        code,
        ({**ask, "prompt": "and now fix the tests too"}, False),  # packed already
        ({**ask, "prompt": "/compact"}, True),
        ({**ask, "prompt": "yes please", "session": "new"}, True),
        ({"event": "SessionStart", "session": "s1", "source": "resume"}, False),
    )
    assert out == ["", "", "", ""]
    # nor GitPython (its import runs `git version`): the state folder is read from `.git`
    heavy = (
        "repomem.index.indexer",
        "repomem.secrets",
        "repomem.pack",
        "lancedb",
        "pyarrow",
        "git",
    )
    assert not [n for n in names if n.startswith(heavy)], names


def test_a_task_in_a_session_recorded_with_its_title_loads_neither_the_filter_nor_git(
    code: Repo,
) -> None:
    from repomem.memory import session

    cfg = code.config()
    first = prompt("Calculator.total adds one value too many")
    assert hooks.context_for(cfg, first, record_sessions=True, background=False)
    assert session.open_session(cfg)["title"] == "Calculator.total adds one value too many"
    ask = {"event": "UserPromptSubmit", "session": "s1", "prompt": "and now fix the tests too"}
    out, names = in_a_process(code, (ask, True))
    assert out == [""]
    assert session.open_session(cfg)["title"] == "Calculator.total adds one value too many"
    heavy = ("repomem.secrets", "repomem.memory.cite", "repomem.index.parser", "git", "lancedb")
    assert not [n for n in names if n.startswith(heavy)], names
    assert "repomem.memory.session" not in names


def test_a_sessions_memory_digest_does_not_load_the_index(code: Repo) -> None:
    ops.remember(code.config(), "Never print from library code.", kind="convention")
    start = {"event": "SessionStart", "session": "d", "source": "startup"}
    (digest,), names = in_a_process(code, (start, False))
    assert "Never print from library code." in digest
    heavy = ("repomem.index.indexer", "repomem.index.query", "lancedb", "urllib.request", "http")
    assert not [n for n in names if n.startswith(heavy)], names
