"""Git hooks that keep the index fresh, and the memory file's merge driver.

`install` puts a small shell script at post-commit, post-merge, post-checkout and post-rewrite.
It starts `repomem hooks run` (an index run) in the background, detached (`nohup ... &`, all
output to `<state dir>/hooks.log`), so the git command neither waits for it nor fails because
of it. While one refresh waits for the index's lock, further hooks start nothing (a rebase fires
a hook per commit): the waiting refresh will see their changes too.

Where the hooks go:

- the folder git runs hooks from: `.git/hooks`, or `core.hooksPath` when set (`git rev-parse
  --git-path hooks` answers both), unless the global or system git config sets it: every
  repository runs hooks from that folder, so each commit anywhere would start an index;
- husky (core.hooksPath is `.husky/_` or `.husky`): husky's own scripts call the user's
  `.husky/<hook>` files, so a marked block goes into those (created when missing), before
  their commands: an `exit`, `exec` or failing command (husky runs them with `sh -e`) may
  come anywhere after it;
- pre-commit framework: its scripts in `.git/hooks` are ordinary hooks and are chained like any
  other. A later `pre-commit install` keeps ours as `<hook>.legacy` and still runs it: ours
  is then updated, reported and uninstalled there, pre-commit's script left alone.

An existing hook is preserved: it is renamed `<hook>.repomem-orig` and our script runs it first,
with the same arguments and standard input, and exits with its status. `uninstall` moves it back
byte for byte; a husky block is removed exactly as it was added. A hooks folder that install
had to create (a `core.hooksPath` not made yet) is noted in git config and removed again when
it is left empty; a folder that was there before stays.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import os
import re
import shutil
import stat
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.errors import HookError, RepomemError
from repomem.fsutil import atomic_write, read_exact
from repomem.paths import root_pattern

log = logging.getLogger(__name__)

HOOKS = ("post-commit", "post-merge", "post-checkout", "post-rewrite")
MARKER = "# repomem-hook: managed by `repomem hooks install`"
HOOK_VERSION = 2
ORIG_SUFFIX = ".repomem-orig"
# `pre-commit install` finding a hook keeps it as `<hook>.legacy` and runs it from its own script
LEGACY_SUFFIX = ".legacy"
BLOCK_START = "# >>> repomem: keep the index fresh (`repomem hooks uninstall` removes this) >>>"
BLOCK_START_NL = BLOCK_START + " [newline added]"
CREATED = "#!/bin/sh\n# created by repomem\n"
BLOCK_END = "# <<< repomem <<<"
MERGE_DRIVER = "repomem"
LOG_LIMIT = 1_000_000  # bytes; the log is rotated to hooks.log.1 past this


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


def log_path(cfg: Config) -> Path:
    """The hooks' log: `<state dir>/hooks.log`."""
    from repomem.index import indexer

    return indexer.state_dir(cfg) / "hooks.log"


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\"'\"'") + "'"


def _launcher(python: str, name: str) -> str:
    """Shell lines that start the background refresh (shared by scripts and husky blocks)."""
    return f"""repomem_py={_quote(python)}
repomem_log="$(git rev-parse --git-dir 2>/dev/null)/repomem/hooks.log"
mkdir -p "$(dirname "$repomem_log")" 2>/dev/null || true
if [ -f "$repomem_log" ] && [ "$(wc -c < "$repomem_log")" -gt {LOG_LIMIT} ]; then
    mv -f "$repomem_log" "$repomem_log.1" 2>/dev/null || true
fi
(
    # git's variables would point the refresh at a hook's temporary index.
    unset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_PREFIX GIT_OBJECT_DIRECTORY
    if [ -x "$repomem_py" ] && "$repomem_py" -c 'import repomem' >/dev/null 2>&1; then
        set -- "$repomem_py" -m repomem
    elif command -v repomem >/dev/null 2>&1; then
        set -- repomem
    else
        echo "$(date -u '+%Y-%m-%dT%H:%M:%SZ') {name}: repomem not found" \\
            "($repomem_py is gone or no longer has it); install repomem, then run" \\
            "\\`repomem hooks install\\` again" >> "$repomem_log"
        exit 0
    fi
    # One refresh waiting for the index's lock is enough: it will see this change too.
    repomem_pending="$(dirname "$repomem_log")/hooks.pending"
    if [ -f "$repomem_pending" ] && kill -0 "$(cat "$repomem_pending" 2>/dev/null)" 2>/dev/null
    then
        echo "$(date -u '+%Y-%m-%dT%H:%M:%SZ') {name}: a refresh is already queued" \
            >> "$repomem_log"
        exit 0
    fi
    echo "$(date -u '+%Y-%m-%dT%H:%M:%SZ') {name}: repomem index" >> "$repomem_log"
    nohup sh -c 'echo $$ > "$1"; shift; exec "$@"' sh "$repomem_pending" \
        "$@" hooks run --marker "$repomem_pending" >> "$repomem_log" 2>&1 < /dev/null &
) >/dev/null 2>&1 < /dev/null
"""


def script(name: str, python: str | None = None) -> str:
    """The hook file installed at `name` (runs a preserved hook first, then the refresh)."""
    py = python or sys.executable
    return f"""#!/bin/sh
{MARKER}
# repomem-hook-version: {HOOK_VERSION}
# Runs the hook that was here before (kept as {name}{ORIG_SUFFIX}), then starts
# `repomem index` in the background; this never slows down or fails the git command.
repomem_status=0
repomem_orig="$(dirname "$0")/{name}{ORIG_SUFFIX}"
if [ -x "$repomem_orig" ]; then
    "$repomem_orig" "$@"
    repomem_status=$?
fi
{_launcher(py, name)}exit $repomem_status
"""


def _block(name: str, python: str, newline_added: bool) -> str:
    # first in a script husky runs with `sh -e`: nothing of ours may end it (a failing command
    # in a `||` list does not), nor read the standard input the user's commands get
    start = BLOCK_START_NL if newline_added else BLOCK_START
    return f"{start}\n{{\n{_launcher(python, name)}}} < /dev/null || true\n{BLOCK_END}\n"


# husky 4 to 8's line sourcing `_/husky.sh`, which runs the file again (`sh -e`) and exits
# with its status: a block before it would run twice
_HUSKY_LINE = re.compile(r"[ \t]*\.[ \t]+[^\n]*husky\.sh[\"']?[ \t]*(?:\n|\Z)")


def _top(text: str) -> int:
    """Where a husky block goes in `text`: before every command of the script, so that no
    `exit`, `exec` or failing command (husky runs it with `sh -e`) comes before it; after its
    `#!` line, comments and blank lines, and husky's own line when it has one."""
    at = 0
    while at < len(text):
        end = text.find("\n", at)
        end = len(text) if end < 0 else end + 1
        line = text[at:end].strip()
        if line and not line.startswith("#"):
            husky = _HUSKY_LINE.match(text, at)
            return husky.end() if husky is not None else at
        at = end
    return at


def _placed(text: str, name: str, python: str) -> str:
    """`text` (without a block) with the block at `_top`."""
    at = _top(text)
    if at == len(text) and text and not text.endswith("\n"):
        return text + "\n" + _block(name, python, True)
    return text[:at] + _block(name, python, False) + text[at:]


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


def _remove_block(text: str) -> str:
    for start in (BLOCK_START_NL, BLOCK_START):
        i = text.find(start + "\n")
        if i < 0:
            continue
        j = text.find(BLOCK_END + "\n", i)
        if j < 0:
            continue
        end = j + len(BLOCK_END) + 1
        if start == BLOCK_START_NL and i > 0 and text[i - 1] == "\n":
            i -= 1
        return text[:i] + text[end:]
    return text


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


# ------------------------------------------------------------------------- merge driver


def _attributes_line(cfg: Config, name: str, pattern: str | None) -> str:
    return f"{pattern or _memory_pattern(cfg)} merge={name}"


def _memory_pattern(cfg: Config) -> str:
    """The memory file as a `.gitattributes` pattern that matches it and nothing else: its
    path from the root (`./REPOMEM.md` is `/REPOMEM.md`), glob characters escaped, and the
    whole C-quoted when it has a space or a quote (as git reads quoted patterns)."""
    from repomem.memory import access

    rel = access.memory_path(cfg).relative_to(cfg.root.resolve()).as_posix()
    pattern = root_pattern(rel)
    if re.search(r'[\s"]', pattern):
        quoted = pattern.replace("\\", "\\\\").replace('"', '\\"').replace("\t", "\\t")
        return f'"{quoted}"'
    return pattern


def register_merge_driver(
    cfg: Config,
    name: str,
    command: str,
    *,
    pattern: str | None = None,
    description: str = "repomem project memory",
) -> None:
    """Register a git merge driver: `merge.<name>.driver` in `.git/config` and a
    `<pattern> merge=<name>` line in `.gitattributes` (pattern: the memory file).

    Raises:
        HookError: outside a git work tree, or when `.gitattributes` cannot be written.
    """
    root = _git_root(cfg)
    vcs.config_set(root, f"merge.{name}.name", description)
    vcs.config_set(root, f"merge.{name}.driver", command)
    line = _attributes_line(cfg, name, pattern)
    attributes = root / ".gitattributes"
    try:
        text = read_exact(attributes) if attributes.exists() else ""
        if line not in text.splitlines():
            nl = "\r\n" if "\r\n" in text else "\n"  # the file's own line ends
            sep = "" if not text or text.endswith("\n") else nl
            if sep:  # remembered so that unregistering puts the file back byte for byte
                vcs.config_set(root, f"merge.{name}.{_ADDED_NEWLINE}", "true")
            atomic_write(attributes.resolve(), f"{text}{sep}{line}{nl}")
    except OSError as exc:
        raise HookError(f"Cannot update `{attributes}` ({exc.strerror or exc}).") from exc


_ADDED_NEWLINE = "repomemaddednewline"  # git config: the driver's line needed a newline first


def unregister_merge_driver(cfg: Config, name: str, *, pattern: str | None = None) -> None:
    """Undo `register_merge_driver` (a `.gitattributes` left empty is removed).

    Raises:
        HookError: outside a git work tree, or when `.gitattributes` cannot be written.
    """
    root = _git_root(cfg)
    added_newline = vcs.config_get(root, f"merge.{name}.{_ADDED_NEWLINE}") == "true"
    vcs.config_remove_section(root, f"merge.{name}")
    line = _attributes_line(cfg, name, pattern)
    attributes = root / ".gitattributes"
    try:
        if not attributes.exists():
            return
        lines = read_exact(attributes).splitlines(keepends=True)
        kept = [x for x in lines if x.rstrip("\r\n") != line]
        if len(kept) == len(lines):
            return
        if added_newline and kept and lines[-1].rstrip("\r\n") == line:
            kept[-1] = kept[-1].rstrip("\r\n")  # the file had no final newline before
        if kept:
            atomic_write(attributes.resolve(), "".join(kept))
        else:
            attributes.unlink()
    except OSError as exc:
        raise HookError(f"Cannot update `{attributes}` ({exc.strerror or exc}).") from exc


def merge_driver_state(cfg: Config, name: str = MERGE_DRIVER) -> dict[str, object]:
    """Whether the merge driver is registered in `.git/config` and `.gitattributes`."""
    root = _git_root(cfg)
    line = _attributes_line(cfg, name, None)
    attributes = root / ".gitattributes"
    try:
        attr = line in attributes.read_text(encoding="utf-8").splitlines()
    except OSError:
        attr = False
    return {"driver": vcs.config_get(root, f"merge.{name}.driver"), "gitattributes": attr}
