"""The `watch` command: keep the index fresh while files change."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from repomem.cli._app import app, fail, load_config, lost_build
from repomem.cli._state import state
from repomem.cli.index import change_counts
from repomem.errors import RepomemError


def _status_line(batch: Any) -> str:
    r = batch.report
    what = ", ".join(change_counts(r)) or "no index change"
    how = f"whole tree ({batch.reason})" if batch.reconciled else f"{len(batch.paths)} path(s)"
    line = f"{time.strftime('%H:%M:%S')}  {how}: {what} in {batch.seconds * 1000:.0f} ms"
    if r.recovered:
        line += f"; completed an interrupted run ({r.recovered} files)"
    if batch.memory_changed:
        line += "; memory file changed"
    return line


def _memory_sync(cfg: Any) -> Callable[[Path], None]:
    """Re-derive the memory's store rows when the memory file changes."""

    def on_memory_change(path: Path) -> None:
        from repomem.index import indexer
        from repomem.memory import derived

        derived.ensure_synced(cfg, indexer.open_store(cfg))

    return on_memory_change


def _warm_packs(cfg: Any) -> Callable[[], None]:
    """Prepare the next pack's caches once edits pause (a pack after them starts warm)."""

    def on_idle() -> None:
        from repomem.pack import builder

        builder.warm(cfg)

    return on_idle


# What a stop does to the batch in progress (`Watcher.begin_stop`), said before waiting for it.
STOPPING = {
    "cut": (
        "Stopping: cutting the full build in progress short (a full build cannot be resumed)..."
    ),
    "finish": "Stopping: finishing the update in progress...",
    "idle": "Stopping.",
}


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


@app.command()
def watch(
    debounce: Annotated[
        int | None,
        typer.Option(
            "--debounce",
            min=0,
            help="Quiet milliseconds after the last change before updating (watch.debounce_ms).",
            metavar="MS",
        ),
    ] = None,
    quiet: Annotated[
        bool, typer.Option("-q", "--quiet", help="Print only errors, not a line per batch.")
    ] = False,
) -> None:
    """Watch the work tree and keep the index fresh until Ctrl-C (one status line per batch)."""
    from repomem.index.watcher import Watcher

    def on_batch(batch: Any) -> None:
        if not quiet:
            typer.echo(_status_line(batch))

    def on_error(exc: Exception) -> None:
        typer.echo(f"{time.strftime('%H:%M:%S')}  Error: {exc} (will retry)", err=True)

    overrides = {} if debounce is None else {"watch.debounce_ms": debounce}
    try:
        cfg = load_config(overrides)
        watcher = Watcher(
            cfg,
            on_batch=on_batch,
            on_error=on_error,
            on_memory_change=_memory_sync(cfg),
            on_idle=_warm_packs(cfg),
        )
        watcher.start()
    except RepomemError as exc:
        raise fail(exc) from None
    # `kill`, a process supervisor or a closed terminal stop it as Ctrl-C does (by default
    # these signals end the process where it stands)
    for sig in (signal.SIGTERM, getattr(signal, "SIGHUP", None)):
        if sig is not None:
            signal.signal(sig, _interrupt)
    stop = "idle"
    try:
        if not quiet:
            typer.echo(f"Watching {cfg.root} (Ctrl-C to stop).")
        while not watcher.wait(0.5):
            pass
    except KeyboardInterrupt:
        stop = watcher.begin_stop()  # said first: how long the stop takes depends on it
        if not quiet:
            typer.echo(STOPPING[stop])
    finally:
        # a second Ctrl-C while the stop waits ends the process at once (and with it the
        # parse workers, which watch their parent)
        state.hard_exit = True
        watcher.stop()
    # the catch-up run of a new or outdated index is a full build, which a stop cuts short
    lost = lost_build(cfg, "the next `repomem watch` or `repomem index`")
    if lost is not None:
        typer.echo(lost, err=True)
    elif stop == "cut" and not quiet:
        typer.echo("The full build had parsed every file: it was finished, not cut short.")
    if not quiet:
        typer.echo(f"Stopped after {watcher.batches} update(s).")
