"""Claude Code's settings for the hooks: the command it runs (`hook_command`: yours, or the
team's found on PATH), the `hooks` entries, and their merge into `.claude/settings.local.json`
(ignored by git in this clone) or `.claude/settings.json`, an earlier repomem hook replaced."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.errors import InputError
from repomem.server.claude_hooks.hookinput import EVENTS
from repomem.server.clients import default_command, edit_object, section

PACK_EVENTS = EVENTS[:2]  # installed always; SessionEnd only to record sessions
SUBCOMMAND = "claude-hook"
TIMEOUT_SECONDS = 60
SETTINGS_FILES = {False: ".claude/settings.local.json", True: ".claude/settings.json"}


def hook_command(
    command: Sequence[str] | None = None,
    *,
    every_prompt: bool = False,
    shared: bool = False,
    record_sessions: bool = False,
) -> str:
    """The shell command Claude Code runs (it runs hooks through a shell: bash, Git Bash on
    Windows).

    Yours (`shared` false): the program that runs repomem here (`default_command`: its
    absolute path). Shared with the team: `repomem` as found on each one's PATH (a path of
    this machine, or this interpreter, would be wrong on theirs), run only when there is one,
    so a teammate without repomem gets no error notice on every prompt, just no pack.

    Raises:
        InputError: when `command` is empty.
    """
    cmd = list(command or (["repomem"] if shared else default_command()))
    if not cmd or not cmd[0]:
        raise InputError("The command is empty; give the program that runs repomem.")
    options = [
        *(["--every-prompt"] if every_prompt else []),
        *(["--record-sessions"] if record_sessions else []),
    ]
    line = shlex.join([*cmd, SUBCOMMAND, *options])
    if not shared:
        return line
    # `command -v` is POSIX (bash, zsh, dash, Git Bash): it finds a program on PATH or checks
    # a path; without one the shell's status is 0 and nothing is printed
    return f"command -v {shlex.quote(cmd[0])} >/dev/null 2>&1 || exit 0; exec {line}"


def settings_entry(command: str, *, record_sessions: bool = False) -> dict[str, Any]:
    """The `hooks` object with repomem's hooks (`SessionEnd` too, to record sessions)."""
    hook = {"type": "command", "command": command, "timeout": TIMEOUT_SECONDS}
    events = EVENTS if record_sessions else PACK_EVENTS
    return {event: [{"hooks": [dict(hook)]}] for event in events}


def settings_path(cfg: Config, *, shared: bool) -> Path:
    return cfg.root / SETTINGS_FILES[shared]


def write_settings(
    cfg: Config, command: str, *, shared: bool = False, record_sessions: bool = False
) -> tuple[Path, bool]:
    """Merge repomem's hooks into the settings file (other hooks and settings kept; an earlier
    repomem hook replaced, and dropped from an event it is no longer installed for); returns
    the path and whether one was replaced.

    Raises:
        InputError: when the existing file is not a JSON object or its `hooks` are malformed.
    """
    entries = settings_entry(command, record_sessions=record_sessions)

    def put(data: dict[str, Any], path: Path) -> bool:
        hooks = section(data, "hooks", path)
        replaced = False
        for event in EVENTS:
            if event not in entries and event not in hooks:
                continue
            existing = hooks.setdefault(event, [])
            if not isinstance(existing, list):
                raise InputError(f"`hooks.{event}` in `{path}` is not a list; fix it by hand.")
            kept = [g for g in map(_without_ours, existing) if g is not None]
            replaced = replaced or kept != existing
            hooks[event] = [*kept, *entries.get(event, [])]
            if not hooks[event] and existing:
                del hooks[event]  # only ours was there
        return replaced

    by_hand = f"add under `hooks`: {json.dumps(entries)}"
    shown, replaced = edit_object(settings_path(cfg, shared=shared), by_hand, put)
    if not shared:  # personal settings: never committed by accident
        vcs.ignore_locally(cfg.root, SETTINGS_FILES[False])
    return shown, replaced


def _without_ours(group: Any) -> Any:
    """A matcher group without repomem's `claude-hook` commands (None when only those were in
    it; a hook someone put beside ours stays, in its group)."""
    if _is_ours(group):
        return None
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return group
    others = [h for h in group["hooks"] if not _is_ours({"hooks": [h]})]
    return group if len(others) == len(group["hooks"]) else {**group, "hooks": others}


def _is_ours(group: Any) -> bool:
    """A matcher group whose hooks are all repomem's `claude-hook` command."""
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return False
    commands = [h.get("command") for h in group["hooks"] if isinstance(h, dict)]
    return bool(commands) and all(isinstance(c, str) and _runs_us(c) for c in commands)


def _runs_us(command: str) -> bool:
    """`command` starts repomem's `claude-hook` (`/path/to/repomem claude-hook`, `python -m
    repomem claude-hook`, the shared form's `...; exec repomem claude-hook`), not another
    tool's subcommand of the same name."""
    lexer = shlex.shlex(command, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        words = list(lexer)
    except ValueError:  # unbalanced quotes: someone else's command
        return False
    # the simple command that names the subcommand (`;`, `&&`, `||`, `|` and `&` end one),
    # so a guard that merely mentions repomem does not make another tool's hook ours
    simple: list[str] = []
    for word in [*words, ";"]:
        if word not in _SEPARATORS:
            simple.append(word)
            continue
        program = simple[1:] if simple[:1] == ["exec"] else simple
        if SUBCOMMAND in program[1:]:
            before = program[: program.index(SUBCOMMAND, 1)]
            if any("repomem" in re.split(r"[\\/]", w)[-1].lower() for w in before):
                return True
        simple = []
    return False


_SEPARATORS = frozenset({";", "&&", "||", "|", "&", ";;"})
