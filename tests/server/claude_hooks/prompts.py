"""A prompt sent in a Claude Code session, as the hook gets it."""

from __future__ import annotations

from repomem.server import claude_hooks as hooks


def prompt(text: str, session: str = "s1") -> hooks.HookInput:
    return hooks.HookInput("UserPromptSubmit", session, text)
