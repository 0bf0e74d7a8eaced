"""The command line's process-wide state, kept apart from the typer app so that `main` and the
`claude-hook` fast path (`claude_hook`) can read it without importing typer."""

from __future__ import annotations

from pathlib import Path


class State:
    repo: Path | None = None
    verbose: bool = False
    # Leave without interpreter teardown: after `watch`, native threads (LanceDB's event loop,
    # watchdog) may still sit in C++ code that aborts when Python tears threads down at exit.
    hard_exit: bool = False
    # What a Ctrl-C left, when the general "finished work is kept" is not true (a full build).
    interrupted: str | None = None


state = State()


def configure_logging(verbose: bool) -> None:
    """Log warnings (everything with `-v`) to stderr, as every command does."""
    import logging

    logging.basicConfig(
        level=logging.INFO if verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
