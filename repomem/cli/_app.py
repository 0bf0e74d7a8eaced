"""The typer app, global options and helpers shared by the command modules.

Only `RepomemError` is caught (printed as one `Error: ...` line, exit 1); anything else is a bug
and keeps its traceback. Heavy libraries are imported inside commands so `--help` stays fast.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated, Any

import typer

from repomem import __version__
from repomem.cli._state import configure_logging, state
from repomem.errors import RepomemError

app = typer.Typer(
    name="repomem",
    help="Repository memory for coding assistants: index code, remember work, pack context.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"repomem {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    repo: Annotated[
        Path | None,
        typer.Option(
            "-C", "--repo", help="Run as if started in PATH (like `git -C`).", metavar="PATH"
        ),
    ] = None,
    verbose: Annotated[bool, typer.Option("-v", "--verbose", help="Log what happens.")] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Repository memory for coding assistants."""
    state.repo = repo
    state.verbose = verbose
    configure_logging(verbose)


def load_config(overrides: dict[str, Any] | None = None) -> Any:
    from repomem import config

    return config.load(state.repo, overrides=overrides)


def lost_build(cfg: Any, again: str = "the next `repomem index`") -> str | None:
    """`Interrupted: ...` when a full build was cut short (its work is not kept, unlike an
    update's finished batches), else None."""
    from repomem.index import indexer

    lost = indexer.lost_build(cfg, again)
    return None if lost is None else f"Interrupted: {lost}."


@contextlib.contextmanager
def indexing(cfg: Any) -> Iterator[None]:
    """Around work that may run the indexer: a Ctrl-C that cuts a full build short says so."""
    try:
        yield
    except KeyboardInterrupt:
        state.interrupted = lost_build(cfg)
        raise


def fail(exc: RepomemError) -> typer.Exit:
    typer.echo(f"Error: {exc}", err=True)
    return typer.Exit(1)


def print_json(data: Any) -> None:
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


class Bar:
    """A progress line on stderr for long runs (only on a terminal)."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled and sys.stderr.isatty()
        self.last = -1

    def __call__(self, phase: str, done: int, total: int) -> None:
        if not self.enabled or total < 200:
            return
        pct = done * 100 // total
        if pct != self.last or done == total:
            self.last = pct
            width = 30
            fill = width * done // total
            sys.stderr.write(f"\r{phase} [{'#' * fill}{'.' * (width - fill)}] {done}/{total}")
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()
