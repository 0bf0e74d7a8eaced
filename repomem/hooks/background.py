"""What a hook starts: the refresh (`refresh`, run as `repomem hooks run`: the index brought up
to date, the next pack's caches warmed), started detached from a hook's launcher or from
Python (`start_refresh`, `start_background`), its output in `<state dir>/hooks.log`."""

from __future__ import annotations

import contextlib
import logging
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.errors import RepomemError
from repomem.hooks.scripts import (
    _launcher,
)

log = logging.getLogger(__name__)


def log_path(cfg: Config) -> Path:
    """The hooks' log: `<state dir>/hooks.log`."""
    from repomem.index import indexer

    return indexer.state_dir(cfg) / "hooks.log"


def refresh(cfg: Config, marker: Path | None = None) -> Any:
    """What a hook starts: wait for the index's write lock, then say no refresh is queued any
    more (`marker`, if it names this process), bring the index up to date and prepare what
    the next pack reads first (`pack.builder.warm`).

    Hooks that fire while this waits see the marker and start nothing (a rebase fires one per
    commit); a change made after the marker is gone starts a new refresh.

    Raises:
        StoreError: if the store cannot be opened or is locked too long.
    """
    from repomem.index import indexer

    store = indexer.open_store(cfg)
    with store.writing():
        if marker is not None:
            try:
                queued = marker.read_text(encoding="utf-8").strip()
            except OSError:
                queued = ""
            if queued == str(os.getpid()):
                with contextlib.suppress(FileNotFoundError):
                    marker.unlink()
    report = indexer.run(cfg)
    indexer.optimize_if_due(cfg, idle=True)  # in the background: rankings as a fresh build's
    _warm(cfg)
    return report


def start_refresh(cfg: Config, name: str = "repomem") -> None:
    """Start what the git hooks start, the way they start it: their launcher (`_launcher`) in a
    shell, so the log's rotation, the queued-refresh marker and the detaching stay one piece of
    code (`name` labels its log lines). A folder without git, or a system without `sh`, gets
    `repomem hooks run` detached from Python, its output appended to the log.

    Raises:
        OSError: when the log cannot be written or the process cannot start.
    """
    if os.name == "posix" and vcs.git_dir(cfg.root) is not None:
        done = subprocess.run(
            ["sh", "-c", _launcher(sys.executable, name)], cwd=str(cfg.root), env=_child_env(),
            stdin=subprocess.DEVNULL, capture_output=True, text=True, start_new_session=True,
            check=False, timeout=60,
        )  # fmt: skip
        if done.returncode:
            raise OSError(f"could not start a background refresh: {done.stderr.strip()}")
        return
    start_background(cfg, ["hooks", "run"], f"{name}: repomem index")


def start_background(cfg: Config, args: list[str], what: str) -> None:
    """Start `repomem -C <root> *args` with this Python, detached: in a session of its own (a
    process group on Windows), so it outlives the hook that starts it, whoever kills that;
    the log gets a line saying `what` started, then the command's output.

    Raises:
        OSError: when the log cannot be written or the process cannot start.
    """
    log_file = log_path(cfg)
    log_file.parent.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
    detach: dict[str, Any] = (
        {"start_new_session": True} if os.name == "posix"
        else {"creationflags": getattr(subprocess, "DETACHED_PROCESS", 0)
              | getattr(subprocess, "CREATE_NEW_PROCESS_GROUP", 0)}
    )  # fmt: skip
    with log_file.open("ab") as out:
        out.write(f"{stamp} {what}\n".encode())
        out.flush()
        _STARTED.append(subprocess.Popen(
            [sys.executable, "-m", "repomem", "-C", str(cfg.root), *args],
            stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT, env=_child_env(),
            cwd=str(cfg.root), **detach,
        ))  # fmt: skip


_STARTED: list[subprocess.Popen[bytes]] = []  # kept, so none is collected while it runs


def _child_env() -> dict[str, str]:
    """This process's environment for what it starts: git's location variables left out, as
    `vcs.forget_location_env` leaves them out of repomem's own."""
    return {k: v for k, v in os.environ.items() if k not in vcs.LOCATION_VARS}


def _warm(cfg: Config) -> None:
    """Prepare the next pack's caches (best effort: the index is already fresh)."""
    from repomem.pack import builder

    try:
        seconds = builder.warm(cfg)
    except (RepomemError, OSError) as exc:
        log.warning("could not prepare the pack's caches: %s", exc)
        return
    log.info("pack caches ready in %.2fs", seconds)
