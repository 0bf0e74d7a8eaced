"""What Claude Code passes a hook: read, parsed, and where the repository is looked for."""

from __future__ import annotations

import dataclasses
import json
import os
import threading
from pathlib import Path

import pytest

from repomem import config
from repomem.errors import InputError
from repomem.server import claude_hooks as hooks
from tests.conftest import Repo


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
