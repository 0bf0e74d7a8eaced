"""The `repomem` command line: a thin typer adapter over the library.

One module per command group registers its commands on the shared `app` (`_app.py`);
`_commands.py` imports them all, and `app` here is that one, imported when first asked for.
`main` (the console script) runs `claude-hook`, which Claude Code starts on every prompt, without
typer or the commands' modules (`claude_hook.py`), and every other command through typer.

Only `RepomemError` is caught (printed as one `Error: ...` line, exit 1), and a disk that is full
or read-only; anything else is a bug and keeps its traceback. Heavy libraries are imported
inside commands so `--help` stays fast.
"""

from __future__ import annotations

import errno
import os
import sys
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from repomem.cli._app import app

__all__ = ["app", "main"]

INTERRUPTED = (
    "Interrupted: finished work is kept and nothing is left half-written; run the command "
    "again to go on."
)


def __getattr__(name: str) -> Any:
    # `from repomem.cli import app` (tests, the docs) gets the app with every command
    if name == "app":
        from repomem.cli._commands import app

        return app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def main(*, fast_hook: bool = True) -> None:
    """Console-script entry point.

    `fast_hook` false runs `claude-hook` through typer too (what its fast path is checked
    against).
    """
    from repomem import vcs
    from repomem.cli._state import state

    vcs.forget_location_env()  # before the watcher's or server's threads start
    try:
        _run(fast_hook)
    except OSError as exc:
        # The disk filled up (or went read-only) somewhere no command could foresee: the
        # environment's failure, not a bug, so one line rather than a traceback.
        if exc.errno not in (errno.ENOSPC, getattr(errno, "EDQUOT", -1), errno.EROFS):
            raise
        from repomem.fsutil import cannot_write

        sys.stderr.write(f"Error: {cannot_write(exc.filename or 'a file', exc)}\n")
        sys.exit(1)
    except SystemExit as exc:
        if exc.code == 130:  # Ctrl-C (typer turns KeyboardInterrupt into exit status 130)
            sys.stderr.write((state.interrupted or INTERRUPTED) + "\n")
        if exc.code == 2 and "claude-hook" in sys.argv[1:]:
            # click's usage error (an option this version lacks, a bad value): Claude Code
            # takes a hook's status 2 as "block", which discards the user's prompt
            raise SystemExit(1) from None
        if state.hard_exit:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(exc.code if isinstance(exc.code, int) else 1)
        raise


def _run(fast_hook: bool) -> None:
    argv = sys.argv[1:]
    if fast_hook and "claude-hook" in argv:
        from repomem.cli import claude_hook

        hook = claude_hook.parse_args(argv, os.environ)
        if hook is not None:
            claude_hook.main(hook)
    from repomem.cli._commands import app

    app()
