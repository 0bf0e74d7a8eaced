"""What Claude Code passes a hook: its JSON input, read from stdin without waiting on a pipe
left open (`read_input`), parsed (`parse`), and the folder the repository is looked for from
(`start_dir`: the session's working directory, its project, a submodule's superproject)."""

from __future__ import annotations

import json
import os
import queue
import threading
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from repomem.errors import InputError

EVENTS = ("SessionStart", "UserPromptSubmit", "SessionEnd")


@dataclass(frozen=True)
class HookInput:
    """What Claude Code passes a hook on stdin (the fields repomem reads)."""

    event: str
    session: str
    prompt: str = ""
    cwd: str = ""
    source: str = ""  # SessionStart: startup, resume, clear, compact or fork
    transcript: str = ""  # the conversation's JSON Lines file (`transcript_path`)
    reason: str = ""  # SessionEnd: clear, logout, prompt_input_exit, other, ...
    parent: int = 0  # not in the JSON: the process that ran the hook (0: not known)


# Claude Code has left a hook's stdin open after writing its input (a `SessionEnd` on `/clear`:
# anthropics/claude-code#79508; on Windows, #78756): a read to the end of the stream then waits
# until the hook is killed. So the input ends with its JSON object, or after this many seconds
# of silence (a slow pipe still gets its whole input).
QUIET_SECONDS = 3.0


def read_input(fd: int, quiet: float = QUIET_SECONDS) -> str:
    """The hook's input read from `fd`: up to the end of the first JSON value, the end of the
    stream, or `quiet` seconds without a byte, whichever comes first."""
    chunks: queue.Queue[bytes] = queue.Queue()

    def pump() -> None:  # a thread, so that waiting has a limit on every platform
        while True:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            chunks.put(data)
            if not data:
                return

    threading.Thread(target=pump, daemon=True, name="hook-stdin").start()
    got = b""
    decoder = json.JSONDecoder()
    while True:
        try:
            data = chunks.get(timeout=quiet)
        except queue.Empty:
            break
        if not data:
            break
        got += data
        try:
            decoder.raw_decode(got.decode("utf-8", "replace").lstrip())
        except ValueError:
            continue  # not whole yet
        break
    return got.decode("utf-8", "replace")


def parse(raw: str, parent: int = 0) -> HookInput:
    """Read the hook's JSON input (`parent`: the process that ran the hook, Claude Code or a
    shell of its).

    Raises:
        InputError: when it is not a JSON object of a known event.
    """
    try:
        data = json.loads(raw)
    except ValueError as exc:
        raise InputError(
            f"The hook input is not JSON ({exc}); run this from a Claude Code hook."
        ) from exc
    if not isinstance(data, dict):
        raise InputError("The hook input is not a JSON object; run this from a Claude Code hook.")
    event = data.get("hook_event_name")
    if event not in EVENTS:
        raise InputError(
            f"Unsupported hook event `{event}`; install `repomem claude-hook` for "
            f"{', '.join(EVENTS[:-1])} and {EVENTS[-1]} only (`repomem claude-hooks --write`)."
        )

    def text(key: str) -> str:
        value = data.get(key)
        # a lone surrogate (`"\\ud800"`, half an emoji) cannot be printed as UTF-8
        return value.encode("utf-8", "replace").decode("utf-8") if isinstance(value, str) else ""

    return HookInput(
        event, text("session_id"), text("prompt"), text("cwd"), text("source"),
        text("transcript_path"), text("reason"), parent,
    )  # fmt: skip


def start_dir(hook: HookInput, environ: Mapping[str, str]) -> Path | None:
    """Where the repository is looked for: the input's `cwd` (Claude's working directory: a
    subfolder, a worktree) when it lies in the project Claude Code started in, else that project
    (`CLAUDE_PROJECT_DIR`: Claude may have `cd`-ed out of it, or its folder may be gone), else
    `cwd` if it exists (None: the current directory)."""
    cwd = Path(hook.cwd) if hook.cwd and Path(hook.cwd).is_dir() else None
    named = environ.get("CLAUDE_PROJECT_DIR", "")
    project = Path(named) if named and Path(named).is_dir() else None
    if project is None or (cwd is not None and cwd.resolve().is_relative_to(project.resolve())):
        return project if cwd and project and _in_submodule(cwd, project) else cwd
    return project


def _in_submodule(cwd: Path, project: Path) -> bool:
    """Whether `cwd` lies in a submodule checked out in `project` (its `.git` file names a
    folder under the project's `.git/modules`): the project's index holds its files, while a
    worktree (`claude --worktree`, under `.git/worktrees`) has an index of its own."""
    top = project.resolve()
    for folder in (cwd.resolve(), *cwd.resolve().parents):
        if folder == top or not folder.is_relative_to(top):
            return False
        dot_git = folder / ".git"
        if dot_git.is_dir():
            return False  # a repository of its own
        if dot_git.is_file():
            try:
                line = dot_git.read_text(encoding="utf-8").strip()
            except (OSError, UnicodeDecodeError):
                return False
            if not line.startswith("gitdir:"):
                return False
            target = (folder / line.removeprefix("gitdir:").strip()).resolve()
            return target.is_relative_to(top / ".git" / "modules")
    return False
