"""Whether the Claude Code session that owns the open repomem session is evidently gone.

Claude Code fires no `SessionEnd` in some cases: the VS Code extension's `/clear`, a process
killed or crashed, a window closed. The repomem session it owns (`claude_sessions`) would stay
open, and the next Claude sessions in the work tree would record nothing. So the start and the
task prompts of another Claude session ask `gone`, which says so on one of these:

- **exited**: the process that ran the owner's hooks has exited. It counts only once two of
  the owner's hooks were seen run by it (so it is Claude Code, not a shell started for one
  hook), and is told by its pid and start time (`process_id`: Linux's `/proc`, `ps` on macOS
  and the BSDs; Windows has no such evidence).
- **idle**: nothing written for `IDLE_SECONDS` to the owner's transcript (the `transcript_path`
  its hooks were given) or beside it (`<transcript>/`, its subagents' transcripts), nor since
  its session opened. A conversation left that long is over, or resumed later as a new task.
- **silent**: at another Claude session's task, the owner has had no task (its session has no
  title) and has no transcript with anything in it (Claude Code writes one from the first
  message): it has done nothing yet, as a throwaway start (a resume or a VS Code reload may
  fire one), so the session that has a task records.

What is not evidence: another Claude session at work in the work tree (both write their
transcripts), the same Claude Code process starting another session (agent teams run their
teammates in the lead's process), nor a start after `/clear` (it does not say whose: another
Claude session in the same folder may have been cleared, and the VS Code extension says
`startup`).

The session's end is then the owner's last sign of life (`Gone.since`), so the next session's
commits are not credited to it (`repomem.memory.session.set_aside`).
"""

from __future__ import annotations

import os
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from repomem.memory import model

if TYPE_CHECKING:
    from repomem.server.claude_hooks import HookInput

# A session whose transcript has not been written for this long is over: a model's turn, a
# tool call (Bash allows ten minutes) or a subagent's work (written beside it) writes sooner;
# a person away from a conversation for half an hour continues it as a new task
IDLE_SECONDS = 30 * 60
BESIDE_ENTRIES = 2000  # files looked at beside a transcript (more: taken as activity now)
PS_SECONDS = 5.0


@dataclass(frozen=True)
class Gone:
    """Why the owner is gone (`exited`, `idle`, `silent`), and since when (seconds since the
    epoch: its last sign of life, where its session is taken to end)."""

    why: str
    since: float


def notes(hook: HookInput) -> dict[str, Any]:
    """What a session's record keeps of the Claude session it opens for: its transcript and
    the process that ran its hook (`host`)."""
    out: dict[str, Any] = {"transcript": hook.transcript} if hook.transcript else {}
    host = process_id(hook.parent)
    if host:
        out["host"] = host
    return out


def seen_again(record: dict[str, Any], hook: HookInput) -> dict[str, Any]:
    """What the record learns from another hook of its owner: whether the process that ran
    it is the one that ran the first (`host_confirmed`: then it is Claude Code, whose exit
    says the session is over; else a shell, which says nothing), and a transcript an earlier
    repomem did not keep."""
    out: dict[str, Any] = {}
    if record.get("host") and "host_confirmed" not in record:
        out["host_confirmed"] = process_id(hook.parent) == record["host"]
    if hook.transcript and not record.get("transcript"):
        out["transcript"] = hook.transcript
    return out


def transcript_of(record: dict[str, Any], hook: HookInput) -> tuple[Path | None, bool]:
    """The owner's transcript, and whether its record names it (else it is guessed: Claude
    Code keeps a project's transcripts side by side, named by session id)."""
    named = record.get("transcript")
    if isinstance(named, str) and named:
        return Path(named), True
    owner = record.get("owner")
    if not (hook.transcript and isinstance(owner, str) and owner.strip(". ")):
        return None, False
    if "/" in owner or "\\" in owner:
        return None, False
    return Path(hook.transcript).with_name(f"{owner}.jsonl"), False


def gone(
    record: dict[str, Any], hook: HookInput, *, task: bool, now: float | None = None
) -> Gone | None:
    """Whether the Claude session owning `record` is evidently gone, seen from `hook` (another
    Claude session's; `task`: at its task prompt), and why (see the module's doc)."""
    now = time.time() if now is None else now
    opened = model.epoch(record.get("started"))
    path, named = transcript_of(record, hook)
    written, said = _written(path, now) if path is not None else (None, False)
    last = max((t for t in (opened, written) if t is not None), default=None)
    host = record.get("host")
    if record.get("host_confirmed") is True and isinstance(host, str) and _exited(host):
        return Gone("exited", now if last is None else last)
    if path is None or (written is None and not named):
        return None  # nothing to judge by (a transcript guessed wrong is no evidence)
    if last is not None and now - last >= IDLE_SECONDS:
        return Gone("idle", last)
    if task and named and not said and not record.get("title"):
        return Gone("silent", now if last is None else last)
    return None


def _written(transcript: Path, now: float) -> tuple[float | None, bool]:
    """When the transcript or a file beside it was last written (None: none is there), and
    whether anything was said: the transcript holds something, or a file is beside it."""
    try:
        info = transcript.stat()
    except (OSError, ValueError):
        newest, said = None, False
    else:
        newest, said = info.st_mtime, info.st_size > 0
    beside = transcript.with_suffix("")
    if beside == transcript:
        return newest, said
    seen = 0
    stack = [beside]
    while stack:
        try:
            entries = list(os.scandir(stack.pop()))
        except (OSError, ValueError):
            continue
        for entry in entries:
            seen += 1
            if seen > BESIDE_ENTRIES:
                return now, said  # too many to look at: taken as at work
            try:
                if entry.is_dir(follow_symlinks=False):
                    stack.append(Path(entry.path))
                    continue
                mtime = entry.stat(follow_symlinks=False).st_mtime
            except OSError:
                continue
            newest, said = mtime if newest is None else max(newest, mtime), True
    return newest, said


def process_id(pid: int) -> str | None:
    """`pid:start`, naming the process `pid` as long as it runs (its start time tells it
    from a later process given the same pid); None when no process has that pid; "" when
    this cannot be told (no pid, Windows, no `ps`)."""
    if pid <= 0 or os.name == "nt":
        return ""
    if os.path.exists("/proc/self/stat"):  # Linux
        try:
            data = Path(f"/proc/{pid}/stat").read_bytes()
        except FileNotFoundError:
            return None
        except OSError:
            return ""
        # after the command's name (in parentheses, which it may hold too): the state, then
        # the fields up to the 22nd, the start time in clock ticks since boot
        fields = data[data.rfind(b")") + 2 :].split()
        return f"{pid}:{fields[19].decode()}" if len(fields) > 19 else ""
    env = {**os.environ, "LC_ALL": "C"}
    try:
        done = subprocess.run(
            ["ps", "-o", "lstart=", "-p", str(pid)],
            capture_output=True, text=True, timeout=PS_SECONDS, env=env,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return ""
    start = " ".join(done.stdout.split())
    if start:
        return f"{pid}:{start}"
    return None if done.returncode == 1 else ""


def _exited(host: str) -> bool:
    """Whether the process `host` (a `process_id`) no longer runs."""
    pid, _, _ = host.partition(":")
    if not pid.isdigit():
        return False
    now = process_id(int(pid))
    return now is None or (now != "" and now != host)
