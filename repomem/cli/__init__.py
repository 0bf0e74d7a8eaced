"""The `repomem` command line: a thin typer adapter over the library.

One module per command group registers its commands on the shared `app` (`_app.py`). Only
`RepomemError` is caught (printed as one `Error: ...` line, exit 1), and a disk that is full
or read-only; anything else is a bug and keeps its traceback. Heavy libraries are imported
inside commands so `--help` stays fast.
"""

from __future__ import annotations

import errno
import os
import sys

from repomem.cli import doctor as _doctor  # noqa: F401  (registers commands)
from repomem.cli import hooks as _hooks  # noqa: F401
from repomem.cli import index as _index  # noqa: F401
from repomem.cli import memory as _memory  # noqa: F401
from repomem.cli import notes as _notes  # noqa: F401
from repomem.cli import pack as _pack  # noqa: F401
from repomem.cli import serve as _serve  # noqa: F401
from repomem.cli import watch as _watch  # noqa: F401
from repomem.cli._app import app, state

__all__ = ["app", "main"]


def main() -> None:
    """Console-script entry point."""
    from repomem import vcs

    vcs.forget_location_env()  # before the watcher's or server's threads start
    try:
        app()
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
            sys.stderr.write(
                "Interrupted: finished work is kept and nothing is left half-written; run the "
                "command again to go on.\n"
            )
        if exc.code == 2 and "claude-hook" in sys.argv[1:]:
            # click's usage error (an option this version lacks, a bad value): Claude Code
            # takes a hook's status 2 as "block", which discards the user's prompt
            raise SystemExit(1) from None
        if state.hard_exit:
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(exc.code if isinstance(exc.code, int) else 1)
        raise
