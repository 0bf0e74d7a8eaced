"""Where the hooks go (`location`: git's hooks folder, `core.hooksPath`, or husky's) and the
state each is in (`status`): installed, missing, someone else's, outdated, or broken (not
executable, its Python gone or without repomem); ours recognised where pre-commit keeps it."""

from __future__ import annotations

import dataclasses
import functools
import os
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

from repomem import vcs
from repomem.config import Config
from repomem.errors import HookError
from repomem.hooks.scripts import (
    BLOCK_END,
    BLOCK_START,
    BLOCK_START_NL,
    HOOK_VERSION,
    HOOKS,
    LEGACY_SUFFIX,
    MARKER,
    ORIG_SUFFIX,
    _remove_block,
    _top,
)


@dataclass(frozen=True)
class HookState:
    """One hook as installed (or not)."""

    name: str
    path: Path
    state: str  # "installed", "missing", "foreign" (someone else's hook), "outdated", "broken"
    chained: bool = False  # an earlier hook runs first
    manager: str = "git"  # "git", "hooksPath" or "husky"
    detail: str = ""

    def as_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "path": str(self.path),
            "state": self.state,
            "chained": self.chained,
            "manager": self.manager,
            "detail": self.detail,
        }


def _git_root(cfg: Config) -> Path:
    if vcs.open_repo(cfg.root) is None:
        raise HookError(f"`{cfg.root}` is not a git work tree; hooks need git (`git init`).")
    return cfg.root


def location(cfg: Config) -> tuple[Path, str]:
    """Where hook files go and who manages that folder ("git", "hooksPath" or "husky").

    Raises:
        HookError: outside a git work tree.
    """
    root = _git_root(cfg)
    folder = vcs.hooks_dir(root)
    assert folder is not None
    if folder.name == ".husky" or (folder.name == "_" and folder.parent.name == ".husky"):
        return (folder if folder.name == ".husky" else folder.parent), "husky"
    if vcs.config_get(root, "core.hooksPath"):
        return folder, "hooksPath"
    return folder, "git"


def _state_of(path: Path, name: str, manager: str) -> HookState:
    if manager == "husky":
        try:
            text = path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return HookState(name, path, "missing", manager=manager)
        except (OSError, UnicodeDecodeError) as exc:
            return HookState(name, path, "broken", manager=manager, detail=str(exc))
        if BLOCK_END not in text:
            return HookState(name, path, "missing", manager=manager, detail="no repomem block")
        at, rest = text.find(BLOCK_START), _remove_block(text)
        if at - text.startswith(BLOCK_START_NL, at) != _top(rest):
            # an earlier repomem's, at the end: an `exit` before it may skip it
            detail = "not first in the script; reinstall to move it"
            return HookState(name, path, "outdated", manager=manager, detail=detail)
        return _check_python(HookState(name, path, "installed", manager=manager), text)
    orig = path.with_name(name + ORIG_SUFFIX)
    chained = orig.exists()
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except FileNotFoundError:
        detail = f"{orig.name} is left over" if chained else ""
        return HookState(name, path, "missing", chained, manager, detail)
    except OSError as exc:
        return HookState(name, path, "broken", chained, manager, str(exc))
    if MARKER not in text:
        legacy = _legacy_ours(path, name)
        if legacy is not None:
            st = _state_of(legacy, name, manager)
            return dataclasses.replace(
                st, detail=st.detail or f"run by pre-commit's {name} hook as {legacy.name}"
            )
        return HookState(name, path, "foreign", chained, manager, "not a repomem hook")
    if f"repomem-hook-version: {HOOK_VERSION}\n" not in text:
        return HookState(name, path, "outdated", chained, manager, "reinstall to update")
    if not os.access(path, os.X_OK):
        return HookState(name, path, "broken", chained, manager, "not executable")
    return _check_python(HookState(name, path, "installed", chained, manager), text)


def _check_python(st: HookState, text: str) -> HookState:
    for line in text.splitlines():
        if line.startswith("repomem_py="):
            py = line.split("=", 1)[1].strip("'")
            if not os.access(py, os.X_OK):
                return HookState(
                    st.name, st.path, "broken", st.chained, st.manager,
                    f"{py} is gone; reinstall the hooks",
                )  # fmt: skip
            if not _has_repomem(py) and shutil.which("repomem") is None:
                return HookState(
                    st.name, st.path, "broken", st.chained, st.manager,
                    f"{py} cannot import repomem (uninstalled?); install it, then reinstall "
                    f"the hooks",
                )  # fmt: skip
    return st


@functools.lru_cache(maxsize=8)
def _has_repomem(python: str) -> bool:
    """Whether `python` can import repomem (what the hooks run)."""
    try:
        done = subprocess.run(
            [python, "-c", "import repomem"], capture_output=True, timeout=60, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


def status(cfg: Config) -> list[HookState]:
    """The state of each repomem hook.

    Raises:
        HookError: outside a git work tree.
    """
    folder, manager = location(cfg)
    return [_state_of(folder / name, name, manager) for name in HOOKS]


def _is_ours(path: Path) -> bool:
    """Whether the hook file at `path` is repomem's script."""
    try:
        return MARKER in path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return False


def _legacy_ours(path: Path, name: str) -> Path | None:
    """Our script where pre-commit keeps the hook it found (`<name>.legacy`, which its own
    script at `path` runs), if that is where ours is."""
    legacy = path.with_name(name + LEGACY_SUFFIX)
    return legacy if not _is_ours(path) and _is_ours(legacy) else None
