"""The settings that install the Claude Code hooks: merged, kept, replaced, shared."""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from repomem.errors import InputError
from repomem.server import claude_hooks as hooks
from tests.conftest import Repo


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


def test_a_settings_file_that_links_to_itself_is_one_line_not_a_traceback(repo: Repo) -> None:
    from repomem.errors import RepomemError

    path = repo.root / ".claude" / "settings.local.json"
    path.parent.mkdir()
    path.symlink_to(path.name)
    with pytest.raises(RepomemError, match="Cannot write"):
        hooks.write_settings(repo.config(), hooks.hook_command(["/opt/r"]))
