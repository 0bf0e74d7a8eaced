"""The `pack` command."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer

from repomem.cli._app import app, fail, indexing, load_config
from repomem.errors import RepomemError


@app.command()
def pack(
    task: Annotated[
        str | None, typer.Argument(help="The task, in words (or use --task-file).")
    ] = None,
    task_file: Annotated[
        Path | None,
        typer.Option(
            "--task-file", help="Read the task from FILE ('-' for stdin).", metavar="FILE"
        ),
    ] = None,
    budget: Annotated[
        int | None,
        typer.Option(
            "--budget", help="Token budget, a hard ceiling, at least 200 (default pack.budget)."
        ),
    ] = None,
    fmt: Annotated[
        str | None, typer.Option("--format", help="md (default), json or xml.", metavar="FORMAT")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="Write the pack to FILE instead of stdout.", metavar="FILE"),
    ] = None,
    refresh: Annotated[
        bool | None,
        typer.Option(
            "--refresh/--no-refresh", help="Refresh a stale index first (default pack.refresh)."
        ),
    ] = None,
) -> None:
    """Pack the most relevant code for a task into a token budget (Markdown, JSON or XML)."""
    from repomem import config
    from repomem.pack import builder

    try:
        if budget is not None:
            config.check_budget(budget, "`--budget`")
        text = _task_text(task, task_file)
        cfg = load_config()
        with indexing(cfg):  # a stale index is refreshed first
            result = builder.build(
                cfg, text, budget=budget, fmt=fmt, refresh=refresh,
                leave_out=[task_file.absolute()] if task_file and str(task_file) != "-" else [],
            )  # fmt: skip
        rendered = result.render(fmt if fmt is not None else cfg.pack.format)
    except RepomemError as exc:
        raise fail(exc) from None
    if out is None:
        typer.echo(rendered, nl=False)
        return
    from repomem.fsutil import atomic_write

    try:
        atomic_write(out, rendered)
    except OSError as exc:
        cause = exc.__cause__ if isinstance(exc.__cause__, OSError) else exc
        reason = cause.strerror or str(cause)
        typer.echo(f"Error: cannot write `{out}` ({reason}); check the path.", err=True)
        raise typer.Exit(1) from None


def _task_text(task: str | None, task_file: Path | None) -> str:
    from repomem.errors import InputError

    if task_file is not None and task is not None:
        raise InputError("Give the task as text or with --task-file, not both.")
    if task_file is not None:
        if str(task_file) == "-":
            return sys.stdin.read()
        try:
            return task_file.read_text(encoding="utf-8", errors="replace")
        except OSError as exc:
            raise InputError(f"Cannot read the task file `{task_file}` ({exc.strerror}).") from exc
    if task is None:
        raise InputError("No task given; pass it as an argument or with --task-file FILE.")
    return task
