"""What the hook prints: for a session's first prompt that reads like a task, a pack (the index
seeded or refreshed when that is quick, else refreshed in the background; a hint when there is
no index); at a session's start, the project memory's digest; the Claude session recorded as
a repomem session, with `record_sessions`."""

from __future__ import annotations

import logging
import re
from pathlib import Path

from repomem.config import Config
from repomem.errors import HookError, InputError, RepomemError
from repomem.server.claude_hooks.hookinput import HookInput
from repomem.server.claude_hooks.packed import HINTED, PACKED, STARTED, _forget, _remember, _started

log = logging.getLogger(__name__)

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
# SessionStart sources whose conversation is already there (a fork copies it: `/branch`,
# `--fork-session`; Claude Code before 2.1.214 called that a resume)
KEPT_CONVERSATION = ("resume", "fork")
PREAMBLE = (
    "repomem found this context for the task (ranked code and the project memory, from the "
    "index of this repository; each item says why it is here). Check it against the files "
    "before relying on it.\n\n"
)


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
