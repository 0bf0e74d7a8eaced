"""Installing and uninstalling the hooks: an existing hook chained (kept as
`<hook>.repomem-orig`) and put back byte for byte, husky's blocks added before its final `exit`
and removed exactly, ours updated where pre-commit keeps it (`<hook>.legacy`), a hooks folder
that install made removed again when it is left empty."""

from __future__ import annotations

import logging
import os
import stat
import sys
from pathlib import Path

from repomem import vcs
from repomem.config import Config
from repomem.errors import HookError
from repomem.fsutil import atomic_write
from repomem.hooks.merge_driver import MERGE_DRIVER, register_merge_driver, unregister_merge_driver
from repomem.hooks.scripts import (
    CREATED,
    HOOKS,
    MARKER,
    ORIG_SUFFIX,
    _placed,
    _quote,
    _remove_block,
    script,
)
from repomem.hooks.state import HookState, _is_ours, _legacy_ours, location, status

log = logging.getLogger(__name__)


def install(
    cfg: Config, *, merge_driver: bool = False, python: str | None = None
) -> list[HookState]:
    """Install (or update) the hooks; existing hooks are kept and chained.

    With `merge_driver`, also registers the memory file's merge driver (see
    `register_merge_driver`). Installing twice changes nothing.

    Raises:
        HookError: outside a git work tree, when `core.hooksPath` comes from the global or
            system git config (a folder every repository runs hooks from), or when a hook file
            cannot be written.
    """
    folder, manager = location(cfg)
    scope = vcs.config_scope(cfg.root, "core.hooksPath") if manager == "hooksPath" else None
    if scope in ("global", "system"):
        # every repository runs hooks from there: each commit anywhere would start an index
        raise HookError(
            f"`core.hooksPath` comes from your {scope} git config (`{folder}`), a hooks folder "
            f"every repository shares, so repomem's hooks there would index every repository "
            f"you commit in; give this repository a hooks folder of its own (`git config "
            f"--local core.hooksPath <folder>`) and install again, or use `repomem watch`."
        )
    py = python or sys.executable
    try:
        _make_folder(cfg, folder)
        for name in HOOKS:
            path = folder / name
            if manager == "husky":
                _install_block(path, name, py)
            else:
                _install_script(path, name, py)
    except OSError as exc:
        raise HookError(
            f"Cannot write git hooks in `{folder}` ({exc.strerror or exc}); check its permissions."
        ) from exc
    if merge_driver:
        register_merge_driver(cfg, MERGE_DRIVER, f"{_quote(py)} -m repomem memory merge %O %A %B")
    return status(cfg)


_CREATED_FOLDER = "repomem.createdhooksfolder"  # git config: the hooks folder install made


def _make_folder(cfg: Config, folder: Path) -> None:
    """Create the hooks folder (and missing parents), remembering in git config the topmost
    folder made, so that `uninstall` removes what it made and nothing else."""
    top = None
    for parent in (folder, *folder.parents):
        if parent.exists() or parent.is_symlink():
            break
        top = parent
    folder.mkdir(parents=True, exist_ok=True)
    if top is not None:
        vcs.config_set(cfg.root, _CREATED_FOLDER, str(top))


def _remove_folder(cfg: Config, folder: Path) -> None:
    """Remove the folders `_make_folder` created, from `folder` up, while they are empty (a
    file someone put there since keeps them); then forget them."""
    top = vcs.config_get(cfg.root, _CREATED_FOLDER)
    if top is None:
        return
    made = Path(top)
    if folder == made or made in folder.parents:
        for parent in (folder, *folder.parents):
            try:
                parent.rmdir()
            except FileNotFoundError:
                pass
            except OSError:  # not empty: it holds something repomem did not put there
                break
            if parent == made:
                break
    vcs.config_unset(cfg.root, _CREATED_FOLDER)


def _install_script(path: Path, name: str, py: str) -> None:
    path = _legacy_ours(path, name) or path  # pre-commit runs ours from there: update it
    orig = path.with_name(name + ORIG_SUFFIX)
    if (path.exists() or path.is_symlink()) and not _is_ours(path):
        if orig.exists() or orig.is_symlink():
            raise HookError(
                f"`{path}` is not a repomem hook but `{orig.name}` exists too; move one of "
                f"them away, then install again."
            )
        os.replace(path, orig)  # keeps its bytes and mode
    atomic_write(path, script(name, py))  # git never runs a half-written hook
    path.chmod(0o755)


def _install_block(path: Path, name: str, py: str) -> None:
    try:
        text = path.read_text(encoding="utf-8")
        existed = True
    except FileNotFoundError:
        text, existed = "", False
    text = _remove_block(text)  # an update replaces (and moves) the old block
    new = _placed(text if existed else CREATED, name, py)
    atomic_write(path.resolve(), new)  # a symlinked hook file stays a symlink
    mode = path.stat().st_mode
    path.chmod(mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)


def uninstall(cfg: Config, *, merge_driver: bool = True) -> list[HookState]:
    """Remove the hooks and put back what was there before.

    Raises:
        HookError: outside a git work tree, or when a hook file cannot be changed.
    """
    folder, manager = location(cfg)
    try:
        for name in HOOKS:
            path = folder / name
            if manager == "husky":
                _uninstall_block(path)
            else:
                _uninstall_script(path, name)
        _remove_folder(cfg, folder)
    except OSError as exc:
        raise HookError(
            f"Cannot change git hooks in `{folder}` ({exc.strerror or exc}); check its permissions."
        ) from exc
    if merge_driver:
        unregister_merge_driver(cfg, MERGE_DRIVER)
    return status(cfg)


def _uninstall_script(path: Path, name: str) -> None:
    path = _legacy_ours(path, name) or path  # pre-commit's script stays, and runs what was there
    orig = path.with_name(name + ORIG_SUFFIX)
    try:
        ours = MARKER in path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        ours = True  # nothing there: a kept original can go back
    if not ours:
        log.warning("%s is not a repomem hook; left alone", path)
        return
    if orig.exists() or orig.is_symlink():
        os.replace(orig, path)
    elif path.exists():
        path.unlink()


def _uninstall_block(path: Path) -> None:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return
    rest = _remove_block(text)
    if rest == text:
        return
    if rest == CREATED:
        path.unlink()
    else:
        atomic_write(path.resolve(), rest)
