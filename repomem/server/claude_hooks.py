"""Claude Code hooks: a context pack added to a session's first task, without a tool call.

An MCP client only gets a pack when the model decides to ask for one. Claude Code also runs
*hooks*: commands it starts at points of a session, giving them a JSON object on stdin; what
a `SessionStart` or `UserPromptSubmit` hook prints (exit status 0) is added to the model's
context. `repomem claude-hook` is such a command:

- `UserPromptSubmit` (the user sent a prompt): the first prompt of a session that reads like a
  task gets a pack for it (Markdown, within `MAX_CHARS` characters in UTF-16: Claude Code
  keeps about 10,000 characters of a hook's output and replaces a longer one by a short
  preview). Later
  prompts of the session get nothing (the model can still call `context_pack`), unless
  `every_prompt`: a pack on every turn fills the context window. Slash commands and prompts
  of fewer than `MIN_WORDS` words (`yes`, `go on`) are skipped.
- `SessionStart` after a start, `/clear` or a compaction (not a resume or a fork, whose
  conversation is still there): the project memory's digest (overview, conventions, open
  next steps, the latest sessions and the compacted history, within `DIGEST_CHARS`
  characters; nothing when the memory is empty), so "go on where we stopped" works without a
  tool call; and the session counts as not packed, so its next task gets a pack again (a
  compaction summarises the earlier one away). Two repomem hooks of one start (yours in
  `settings.local.json`, the team's in `settings.json`, run at once) print it once.
- `SessionEnd`, and the two above, with `record_sessions` (`--record-sessions`): each Claude Code
  session is recorded as a repomem session in the project memory (`claude_sessions`).

The sessions packed are kept in the index's state folder (`claude-sessions.json`, a week).
A worktree without an index starts from a copy of a sibling worktree's (`claude --worktree`
sessions: see `repomem.index.indexer.seed`), refreshed like a stale one. A repository without
an index gets a one-line hint instead of a pack (once a session, and
again after a start that counts it as not packed: Claude Code shows it as an error notice,
which on every prompt would be noise): building the index inside a hook could outlast the
hook's time limit. For the same reason a stale index is refreshed first only when few files
changed (`REFRESH_AT_MOST`); else the pack says it is stale and the refresh runs in the
background. The new mtimes of files whose content did not change (every file of a new
worktree) are recorded inline: they go to the stat cache, which costs milliseconds and
leaves the full-text indexes as they were (`repomem.index.store.stats`).

`settings_entry` and `write_settings` put the hooks into `.claude/settings.local.json`
(personal: git is told to ignore it in this clone, through `info/exclude`, unless something
ignores it already) or `.claude/settings.json` (shared with the team: `hook_command` then
runs the repomem on each one's PATH, and nothing where there is none).
"""

from __future__ import annotations

import json
import logging
import os
import queue
import re
import shlex
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.errors import HookError, InputError, RepomemError
from repomem.fsutil import FileLock, atomic_write
from repomem.server.clients import default_command, edit_object, section

log = logging.getLogger(__name__)

EVENTS = ("SessionStart", "UserPromptSubmit", "SessionEnd")
PACK_EVENTS = EVENTS[:2]  # installed always; SessionEnd only to record sessions
# Claude Code shows a hook's first ~10,000 characters, a preview beyond; it is JavaScript, whose
# strings count UTF-16 code units (an emoji is two), so the pack's characters are counted so
MAX_CHARS = 9_500
MIN_WORDS = 3
DIGEST_CHARS = 4_000
# A stale index is refreshed before the pack when at most this many files changed (a few
# seconds); more, or a rebuild after an upgrade, could outlast the hook's time limit: the pack
# then comes from the index as it is (its header says so) and a refresh starts in the
# background, as the git hooks start one.
REFRESH_AT_MOST = 500
SESSIONS_FILE = "claude-sessions.json"
# 2: the sessions told to run `repomem init` too (1: {session: when} of those packed)
SESSIONS_VERSION = 2
# `STARTED`: sessions whose start printed the digest (a kind an older repomem reads past)
PACKED, HINTED, STARTED = "packed", "hinted", "started"
KINDS = (PACKED, HINTED, STARTED)
# SessionStart sources whose conversation is already there (a fork copies it: `/branch`,
# `--fork-session`; Claude Code before 2.1.214 called that a resume)
KEPT_CONVERSATION = ("resume", "fork")
SESSIONS_LOCK = "claude-sessions.lock"
LOCK_SECONDS = 5.0
KEEP_SECONDS = 7 * 24 * 3600
SUBCOMMAND = "claude-hook"
TIMEOUT_SECONDS = 60
SETTINGS_FILES = {False: ".claude/settings.local.json", True: ".claude/settings.json"}
PREAMBLE = (
    "repomem found this context for the task (ranked code and the project memory, from the "
    "index of this repository; each item says why it is here). Check it against the files "
    "before relying on it.\n\n"
)


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


# Claude Code may wrap a paste in marker lines (`<pasted_content id="1">` ... `</pasted_content
# id="1">`): not words of the task, nor its title
_PASTE_MARKER = re.compile(r'^[ \t]*</?pasted_content(?:\s+id="[^"\n]*")?>[ \t]*\n?', re.MULTILINE)


def task_text(prompt: str) -> str:
    """The prompt as the task to pack for: Claude Code's paste markers left out."""
    return _PASTE_MARKER.sub("", prompt)


def reads_like_a_task(prompt: str) -> bool:
    """A prompt worth a pack: not a slash command, at least `MIN_WORDS` words."""
    text = prompt.strip()
    return not text.startswith("/") and len(text.split()) >= MIN_WORDS


def context_for(
    cfg: Config,
    hook: HookInput,
    *,
    every_prompt: bool = False,
    max_chars: int = MAX_CHARS,
    record_sessions: bool = False,
    background: bool = True,
) -> str:
    """The text the hook prints ("" for nothing) and the sessions' record updated; with
    `record_sessions`, the Claude session recorded too (`claude_sessions`; a session that
    ends is finished in a process of its own unless `background` is false).

    Raises:
        RepomemError: when the index cannot be read or the pack not built, or a session that
        ends cannot be set aside.
    """
    # Most prompts need nothing: those return before the index, or the libraries a pack
    # needs, are imported (the prompt waits for the hook)
    from repomem.index.state import state_dir

    if hook.event == "SessionEnd":
        if record_sessions:
            _end_session(cfg, hook, background)
        return ""
    if record_sessions:
        _record(cfg, hook, background)
    if hook.event == "SessionStart":
        if hook.source in KEPT_CONVERSATION:
            return ""
        state = state_dir(cfg)
        # Claimed under the record's lock as a pack is: two repomem hooks of one start add
        # one digest between them. A digest that fails gives the claim back.
        if not _started(state, hook.session):
            return ""
        try:
            return memory_digest(cfg)
        except BaseException:
            _forget(state, hook.session, (STARTED,))
            raise
    if not reads_like_a_task(hook.prompt):
        return ""
    state = state_dir(cfg)
    # Claimed before packing, under the record's lock: two repomem hooks of one session (yours
    # in settings.local.json, the team's in settings.json, which Claude Code runs at once) add
    # one pack between them. A pack that fails gives the claim back.
    claimed = not every_prompt and bool(hook.session)
    if claimed and not _remember(state, hook.session):
        return ""
    try:
        text = _pack_for(cfg, hook, state, max_chars)
    except BaseException:
        if claimed:
            _forget(state, hook.session, (PACKED,))
        raise
    if text is None:
        if claimed:
            _forget(state, hook.session, (PACKED,))
        return ""
    if hook.session and not claimed:
        _remember(state, hook.session)
    return text


def _pack_for(cfg: Config, hook: HookInput, state: Path, max_chars: int) -> str | None:
    """The pack for the prompt's task (None: there is no index, and the session was told).

    Raises:
        RepomemError: as `context_for`; InputError with the hint when there is no index.
    """
    from repomem.index import indexer

    if not indexer.reader(cfg).exists() and indexer.seed_from_sibling(cfg) is None:
        # A worktree (`claude --worktree`) starts from a sibling's index, which the pack then
        # refreshes as any stale one. Else the hint, said once a session: Claude Code shows
        # it as an error notice
        if hook.session and not _remember(state, hook.session, HINTED):
            return None
        raise InputError(
            f"`{cfg.root}` has no repomem index yet, so no pack was added; run `repomem init` "
            "there once."
        )
    from repomem.pack import builder
    from repomem.pack.render import utf16_len

    room = max_chars - utf16_len(PREAMBLE)
    pack = builder.build(
        cfg, task_text(hook.prompt), fmt="md", max_chars=room, refresh_at_most=REFRESH_AT_MOST
    )
    if not pack.fresh:
        _refresh_later(cfg)
    return PREAMBLE + pack.rendered  # the text measured against `room`


def _end_session(cfg: Config, hook: HookInput, background: bool) -> None:
    from repomem.server import claude_sessions

    if claude_sessions.ended(cfg, hook) is None:
        return
    if not background:
        claude_sessions.finish(cfg)
        return
    try:
        claude_sessions.finish_later(cfg)
    except OSError as exc:
        raise HookError(
            f"The session that ended could not be recorded in the background ({exc}); the "
            "next Claude Code session's start records it."
        ) from exc


def _record(cfg: Config, hook: HookInput, background: bool) -> None:
    """Open (or title) the repomem session of this Claude session; a failure is logged, and
    costs the session's record, not the digest or the pack."""
    if hook.event != "SessionStart" and not reads_like_a_task(hook.prompt):
        return  # nothing to record: not worth importing what records
    from repomem.server import claude_sessions

    try:
        left: list[Path] = []
        if hook.event == "SessionStart":
            done = claude_sessions.started(cfg, hook)
            # sessions set aside by a process that died (not one finishing them now)
            left = claude_sessions.pending(cfg, older_than=claude_sessions.RETRY_SECONDS)
        else:
            done = claude_sessions.prompted(cfg, hook, task_text(hook.prompt))
        # the session of a Claude session that is gone without a SessionEnd, set aside
        if done.set_aside is not None or left:
            if background:
                claude_sessions.finish_later(cfg)
            else:
                claude_sessions.finish(cfg)
    except (RepomemError, OSError) as exc:
        log.warning("this Claude session is not recorded: %s", exc)


def _refresh_later(cfg: Config) -> None:
    """Bring the index up to date in the background, as the git hooks do (best effort)."""
    from repomem import hooks

    try:
        hooks.start_refresh(cfg, name="claude-hook")
    except OSError as exc:
        log.warning("could not start a background refresh: %s", exc)


def memory_digest(cfg: Config, max_chars: int = DIGEST_CHARS) -> str:
    """The project memory for a session's start, most valuable parts first, each part whole
    or left out ("" when the memory is empty)."""
    from repomem import secrets
    from repomem.pack import memory as pmemory
    from repomem.pack.render import memory_title

    sel = pmemory.select(cfg, None, "")
    entries = sorted(pmemory.finish(cfg, sel, []) + pmemory.recent(sel), key=lambda e: -e.score)
    if not entries:
        return ""
    head = (
        f"# Project memory (repomem, from `{sel.path}`)\n"
        "What earlier sessions recorded; a fact marked STALE cites code that changed since.\n"
    )
    parts: dict[str, list[str]] = {}
    used = len(head)
    for e in entries:
        # the file is committed and edited by hand: a secret written into it stops here
        body, _ = secrets.redact(
            e.text, config_like=True, extra_patterns=cfg.secrets.extra_patterns
        )
        title = memory_title(e.symbol)
        cost = len(body) + 1 + (0 if title in parts else len(title) + 5)
        if used + cost > max_chars:
            continue
        parts.setdefault(title, []).append(body)
        used += cost
    if not parts:
        return ""
    return head + "".join(f"\n## {t}\n" + "\n".join(b) + "\n" for t, b in parts.items())


Sessions = dict[str, dict[str, float]]  # what happened (`PACKED`, `HINTED`): session -> when


def _read(state: Path) -> Sessions:
    """The sessions' record; empty when missing, damaged or a later repomem's."""
    out: Sessions = {kind: {} for kind in KINDS}
    try:
        data = json.loads((state / SESSIONS_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return out
    if not isinstance(data, dict):
        return out
    if "version" not in data:  # version 1: {session: when} of the sessions packed
        data = {"version": SESSIONS_VERSION, PACKED: data}
    if data["version"] != SESSIONS_VERSION:
        return out
    for kind in KINDS:
        times = data.get(kind)
        if isinstance(times, dict):
            out[kind] = {k: float(v) for k, v in times.items() if isinstance(v, int | float)}
    return out


def _write(state: Path, sessions: Sessions) -> None:
    now = time.time()
    data: dict[str, Any] = {"version": SESSIONS_VERSION}
    for kind in KINDS:
        data[kind] = {k: v for k, v in sessions[kind].items() if now - v < KEEP_SECONDS}
    state.mkdir(parents=True, exist_ok=True)
    atomic_write(state / SESSIONS_FILE, json.dumps(data, sort_keys=True) + "\n")


def _remember(state: Path, session: str, kind: str = PACKED) -> bool:
    """Record that `session` was packed (or hinted at); whether it was not yet (True too when
    the record cannot be updated: a hint said twice beats one never said)."""
    first = True

    def add(sessions: Sessions) -> bool:
        nonlocal first
        first = session not in sessions[kind]
        sessions[kind][session] = time.time()
        return first  # else nothing to write

    _update(state, add)
    return first


def _started(state: Path, session: str) -> bool:
    """A session's conversation starts over: its next task gets a pack (or the hint) again;
    whether this hook prints the digest (False when another hook of the same start claimed it:
    Claude Code starts the hooks of one event together, and ends each after `TIMEOUT_SECONDS`,
    so an older claim is an earlier start's, a compaction's say)."""
    first = True

    def start(sessions: Sessions) -> bool:
        nonlocal first
        now = time.time()
        claimed = sessions[STARTED].get(session)
        first = not session or claimed is None or not 0 <= now - claimed < TIMEOUT_SECONDS
        dropped = [sessions[kind].pop(session, None) for kind in (PACKED, HINTED)]
        if first and session:
            sessions[STARTED][session] = now
        return (first and bool(session)) or any(when is not None for when in dropped)

    _update(state, start)
    return first


def _forget(state: Path, session: str, kinds: Sequence[str]) -> None:
    """A claim given back: `kinds` of what happened to `session` are forgotten."""

    def drop(sessions: Sessions) -> bool:
        dropped = [sessions[kind].pop(session, None) for kind in kinds]
        return any(when is not None for when in dropped)

    if any(session in _read(state)[kind] for kind in kinds):  # else nothing to write
        _update(state, drop)


def _update(state: Path, change: Callable[[Sessions], bool]) -> None:
    """Read, `change` and write the sessions' record under its lock (hooks of two sessions
    run at once). A record that cannot be written costs a second pack later, so it is
    logged, and the hook's output is printed all the same."""
    try:
        with FileLock(state / SESSIONS_LOCK, LOCK_SECONDS):
            sessions = _read(state)
            if change(sessions):
                _write(state, sessions)
    except RepomemError as exc:
        log.warning("the Claude sessions' record was not updated: %s", exc)


# ---------------------------------------------------------------------- settings


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
