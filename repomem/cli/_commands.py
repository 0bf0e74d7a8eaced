"""The typer app with every command registered: each command module registers its commands
on the shared `app` (`_app.py`) when imported."""

from __future__ import annotations

from repomem.cli import doctor as _doctor  # noqa: F401  (registers commands)
from repomem.cli import hooks as _hooks  # noqa: F401
from repomem.cli import index as _index  # noqa: F401
from repomem.cli import memory as _memory  # noqa: F401
from repomem.cli import notes as _notes  # noqa: F401
from repomem.cli import pack as _pack  # noqa: F401
from repomem.cli import serve as _serve  # noqa: F401
from repomem.cli import watch as _watch  # noqa: F401
from repomem.cli._app import app

__all__ = ["app"]
