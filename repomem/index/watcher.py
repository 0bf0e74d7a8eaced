"""Keep the index fresh while files change (the only module importing watchdog).

A `Watcher` observes the work tree with watchdog, keeps the changed paths in a set, and once
nothing has changed for `watch.debounce_ms` (and git is not in the middle of an operation,
i.e. `<git dir>/index.lock` is absent) hands them to the indexer as one batch:

- a few paths: `indexer.update(cfg, paths)`, whose cost depends on the paths only;
- many paths (`large_batch`), a moved HEAD (commit, checkout, rebase, reset), a deleted or
  moved folder, or a changed ignore/config file: `indexer.run(cfg)`, the normal incremental
  run, which compares the whole tree with the store.

An editor's atomic save (write a temporary file, rename it over the original) is one change of
the original: the temporary path is gone by then and was never indexed. Events inside `.git/`
are dropped except those that may move HEAD (a submodule's git files always: a commit made in
a submodule moves its HEAD, not this repository's; its files' edits are path updates as any
other); events in the store's own folder, in vendored
folders and for paths the discovery filter rejects are dropped too. An error in one batch
(a locked store, an unreadable file) is reported through `on_error` and the batch is retried
after a pause; it never stops the watcher. `stop()` lets the path update or incremental run
in progress finish, and cuts a full build in progress short (`begin_stop` says which; a full
build is not resumed, so waiting minutes for one would only delay the stop). The store's writes
are journaled anyway, so even a killed watcher leaves a recoverable store.
"""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import threading
import time
import warnings
from collections.abc import Callable
from concurrent.futures import BrokenExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from watchdog.events import (
    DirCreatedEvent,
    DirDeletedEvent,
    DirMovedEvent,
    FileAttribEvent,
    FileClosedEvent,
    FileCreatedEvent,
    FileDeletedEvent,
    FileModifiedEvent,
    FileMovedEvent,
    FileSystemEvent,
    FileSystemEventHandler,
)
from watchdog.observers import Observer

from repomem import vcs
from repomem.config import Config
from repomem.errors import RepomemError, StoreError
from repomem.index import indexer
from repomem.index.discovery import Filter
from repomem.types import IndexReport

log = logging.getLogger(__name__)

# watchdog re-adds a watch it already holds when a folder appears during its recursive scan; it
# overwrites the callback (no event is lost) and warns from its thread: not the user's concern.
warnings.filterwarnings(
    "ignore", message="Callback with id", category=RuntimeWarning, module="watchdog"
)

LARGE_BATCH = 200  # paths; more than this is reconciled with a normal incremental run
MAX_DELAY = 10.0  # seconds a batch may wait for quiet before it is taken anyway
RETRY_DELAYS = (0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
IDLE_SECONDS = 30.0  # quiet time after path updates before a due compaction runs
_IDLE = object()
GIT_EVENTS: list[type[FileSystemEvent]] = [
    FileCreatedEvent, FileDeletedEvent, FileModifiedEvent, FileMovedEvent,
]  # fmt: skip
# Files whose change alters what is indexed at all: reconcile the whole tree.
RECONCILE_NAMES = frozenset({".gitignore", ".repomemignore", ".repomem"})
EVENTS: list[type[FileSystemEvent]] = [
    FileCreatedEvent, FileDeletedEvent, FileModifiedEvent, FileMovedEvent, FileClosedEvent,
    FileAttribEvent, DirCreatedEvent, DirDeletedEvent, DirMovedEvent,
]  # fmt: skip


Stop = Literal["cut", "finish", "idle"]


class _Cut(Exception):
    """A full build stopped by `Watcher.stop` (it is not resumed: the next run starts over)."""


@dataclass
class Batch:
    """What the watcher did with one batch of changes."""

    paths: list[str]  # repo-relative paths seen changing (sorted)
    reason: str  # "paths", else why the whole tree ran: "start", "large", "head", "folder", ...
    report: IndexReport
    seconds: float  # from taking the batch to the store being updated
    memory_changed: bool = False
    head: str | None = None

    @property
    def reconciled(self) -> bool:
        """A whole-tree incremental run instead of a path update."""
        return self.reason != "paths"


@dataclass
class _Pending:
    paths: set[str] = field(default_factory=set)
    reconcile: str = ""  # why the next batch must be a whole-tree run ("" when it need not)
    head_check: bool = False  # a ref or HEAD changed: compare HEAD at batch time
    first: float = 0.0  # monotonic time of the first change not yet taken
    last: float = 0.0  # monotonic time of the latest change

    def __bool__(self) -> bool:
        return bool(self.paths or self.reconcile or self.head_check)


class Watcher:
    """Watch a repository's work tree and keep its index up to date.

    Use as a context manager, or call `start()` and `stop()`. Callbacks run on the watcher's
    worker thread: `on_batch(batch)` after each batch, `on_error(exc)` when a batch fails
    (it is retried), `on_memory_change(path)` when the project memory file (`memory.file`)
    changed, after the index took the change in, and `on_idle()` once changes have been quiet
    for `idle_seconds` (after any due compaction): the place to prepare what readers of the
    new index build first.
    """

    def __init__(
        self,
        cfg: Config,
        *,
        on_batch: Callable[[Batch], None] | None = None,
        on_error: Callable[[Exception], None] | None = None,
        on_memory_change: Callable[[Path], None] | None = None,
        on_idle: Callable[[], None] | None = None,
        debounce_ms: int | None = None,
        large_batch: int = LARGE_BATCH,
        max_delay: float = MAX_DELAY,
        idle_seconds: float = IDLE_SECONDS,
    ) -> None:
        self.root = cfg.root.resolve()
        self._use(cfg)
        self.on_batch = on_batch
        self.on_error = on_error
        self.on_memory_change = on_memory_change
        self.on_idle = on_idle
        self.debounce = (cfg.watch.debounce_ms if debounce_ms is None else debounce_ms) / 1000
        self.large_batch = large_batch
        self.max_delay = max_delay
        info = vcs.open_repo(cfg.root)
        self.git_dir: Path | None = info.git_dir if info else None
        self.head: str | None = info.head if info else None
        self._cond = threading.Condition()
        self._pending = _Pending()
        self._stopping = False
        self._stop: Stop = "idle"  # what the stop does to the batch in progress
        self._running: str = ""  # the batch in progress: "" (none), "paths" or "tree"
        self._done = threading.Event()  # the worker thread has ended
        self._observer: Any = None
        self._thread: threading.Thread | None = None
        self._handler: _Handler | None = None
        self._dir_watches: dict[Path, Any] = {}
        self.batches = 0
        self.errors = 0
        self.idle_seconds = idle_seconds
        self._maintenance_due = False

    # ----------------------------------------------------------------- lifecycle
    def start(self, *, catch_up: bool = True) -> None:
        """Start watching. With `catch_up`, first bring the index up to date (one batch).

        Raises:
            StoreError: if the operating system refuses to watch (e.g. the inotify limit).
        """
        self._handler = _Handler(self)
        observer = Observer()
        self._observer = observer
        try:
            # The root alone, then each top-level folder recursively: `.git` (with the store
            # inside) and vendored folders are never watched, which keeps the number of
            # inotify watches and the event noise down.
            observer.schedule(self._handler, str(self.root), recursive=False, event_filter=EVENTS)
            with os.scandir(self.root) as entries:
                for entry in entries:
                    if entry.is_dir(follow_symlinks=False):
                        self._watch_dir(Path(entry.path), strict=True)
            if self.git_dir is not None:
                # Writes only: git commands (ours included) open HEAD all the time.
                git = str(self.git_dir)
                observer.schedule(self._handler, git, recursive=False, event_filter=GIT_EVENTS)
                if (self.git_dir / "refs").is_dir():
                    refs = str(self.git_dir / "refs")
                    observer.schedule(self._handler, refs, recursive=True, event_filter=GIT_EVENTS)
            observer.start()
        except OSError as exc:
            self._observer = None
            raise StoreError(
                f"Cannot watch `{self.root}` ({exc}); on Linux raise "
                f"`fs.inotify.max_user_watches` (sysctl) or use git hooks instead."
            ) from exc
        if catch_up:
            with self._cond:
                self._pending.reconcile = "start"
                self._pending.first = self._pending.last = time.monotonic() - self.debounce
        self._done.clear()
        self._thread = threading.Thread(target=self._loop, name="repomem-watcher", daemon=True)
        self._thread.start()

    def begin_stop(self) -> Stop:
        """Ask the watcher to stop (`stop` waits for it), and say what that does to the batch
        in progress, decided once: "cut" (a full build is cut short at the next file parsed;
        its work is lost, as a full build is not resumed), "finish" (an update, or a
        whole-tree incremental run, is finished: its batches are kept) or "idle" (none)."""
        with self._cond:
            if self._stopping:
                return self._stop
            running = self._running
        # a whole-tree run is a full build when its journal holds `*` (a new or outdated
        # index); read outside the lock, which watchdog's thread takes for every event
        cut = running == "tree" and indexer.rebuilding(self.cfg)
        with self._cond:
            if not self._stopping:
                self._stopping = True
                self._stop = "cut" if cut else "finish" if self._running else "idle"
                self._cond.notify_all()
            return self._stop

    def stop(self, timeout: float | None = None) -> None:
        """Stop watching; pending changes are left for the next index run, the batch in
        progress is finished or cut short (`begin_stop`).

        Waits on an event, not `Thread.join`: a Ctrl-C that interrupts a join marks a thread
        still running as ended (CPython gh-90882), and the process then exited under a build
        whose parse workers it had just started.
        """
        self.begin_stop()
        observer, self._observer = self._observer, None
        if observer is not None:
            observer.stop()
            observer.join(timeout)
        if self._thread is not None and self._done.wait(timeout):
            self._thread = None

    def __enter__(self) -> Watcher:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def alive(self) -> bool:
        return self._thread is not None and not self._done.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        """Block until the watcher stops (True) or `timeout` passes (False)."""
        return self._thread is None or self._done.wait(timeout)

    # ----------------------------------------------------------------- events
    def _watchable(self, path: Path) -> bool:
        return (
            path.name != ".git"
            and path.name not in self._filter.vendor
            and not any(_inside(d, path) or _inside(path, d) for d in self._ignored_dirs)
        )

    def _watch_dir(self, path: Path, *, strict: bool = False) -> None:
        """Watch a top-level folder recursively (again, if it was deleted and re-created)."""
        if self._observer is None or self._handler is None or not self._watchable(path):
            return
        self._unwatch_dir(path)
        try:
            self._dir_watches[path] = self._observer.schedule(
                self._handler, str(path), recursive=True, event_filter=EVENTS
            )
        except FileNotFoundError:
            return  # gone again already
        except OSError as exc:
            if strict:
                raise
            log.warning("cannot watch %s: %s", path, exc)

    def _unwatch_dir(self, path: Path) -> None:
        watch = self._dir_watches.pop(path, None)
        if watch is not None and self._observer is not None:
            with contextlib.suppress(KeyError, RuntimeError):
                self._observer.unschedule(watch)

    def _reload(self) -> None:
        """Take up a changed `.repomem`, `.repomemignore` or `.gitignore`: the settings and
        the path filter the watcher started with no longer say what is indexed."""
        try:
            cfg = self.cfg.reload()
        except RepomemError as exc:  # a half-written `.repomem`: keep the last good settings
            log.warning("keeping the previous settings: %s", exc)
            cfg = self.cfg
        self._use(cfg)

    def _use(self, cfg: Config) -> None:
        """Watch by these settings: what is indexed, where the memory file and store are."""
        self.cfg = cfg
        self.memory_rel = cfg.memory.file.replace(os.sep, "/").lstrip("/")
        self._filter = Filter(cfg)
        self._ignored_dirs = self._private_dirs()
        self._own_output = _output_files()

    def _private_dirs(self) -> list[Path]:
        """Folders whose events are never changes to the code: the store and the state dir."""
        out: list[Path] = []
        uri = indexer.store_uri(self.cfg)
        if "://" not in uri:
            out.append(Path(uri).resolve())
        out.append(indexer.state_dir(self.cfg).resolve())
        return [d for d in out if _inside(d, self.root)]

    def classify(self, event: FileSystemEvent) -> None:
        """Record one watchdog event (called on watchdog's thread)."""
        for raw in (event.src_path, event.dest_path):
            if not raw:
                continue
            path = Path(os.fsdecode(raw))
            self._record(path, event)

    def _record(self, path: Path, event: FileSystemEvent) -> None:
        if self.git_dir is not None and _inside(path, self.git_dir):
            rel_git = path.relative_to(self.git_dir).as_posix()
            if rel_git in ("HEAD", "packed-refs") or rel_git.startswith("refs/"):
                self._add(head_check=True)
            return
        if any(_inside(path, d) for d in self._ignored_dirs):
            return
        if self._own_output and _file_id(path) in self._own_output:
            return  # `repomem watch > watch.log` in the tree: each status line changed it
        try:
            rel = path.relative_to(self.root).as_posix()
        except ValueError:
            return
        if rel in (".", "") or ".git" in rel.split("/"):
            return  # git's own files: this repository's, or a submodule's (`sub/.git`)
        if event.is_directory:
            top = "/" not in rel
            if isinstance(event, DirCreatedEvent) or (
                isinstance(event, DirMovedEvent) and path == Path(os.fsdecode(event.dest_path))
            ):
                if top:  # files written before its watch starts send no event: reconcile
                    self._watch_dir(path)
                    self._add(reconcile="folder")
                return  # folders below the top are picked up by watchdog with their files
            if isinstance(event, (DirDeletedEvent, DirMovedEvent)):
                if top:
                    self._unwatch_dir(path)
                # A folder moved out of the tree sends no event for the files inside it.
                self._add(reconcile="folder")
            return
        name = rel.rsplit("/", 1)[-1]
        if name in RECONCILE_NAMES:
            self._add(rel, reconcile="ignore-rules")
            return
        if rel != self.memory_rel and self._filter.reason(rel) is not None:
            return
        self._add(rel)

    def _add(
        self, rel: str | None = None, *, reconcile: str = "", head_check: bool = False
    ) -> None:
        now = time.monotonic()
        with self._cond:
            p = self._pending
            if not p:
                p.first = now
            p.last = now
            if rel is not None:
                p.paths.add(rel)
            if reconcile and not p.reconcile:
                p.reconcile = reconcile
            p.head_check = p.head_check or head_check
            self._cond.notify_all()

    # ----------------------------------------------------------------- batches
    def _loop(self) -> None:
        try:
            self._batches()
        finally:
            self._done.set()

    def _batches(self) -> None:
        failures = 0
        while True:
            taken = self._take()
            if taken is None:
                return
            if taken is _IDLE:
                self._maintain()
                continue
            assert isinstance(taken, _Pending)
            try:
                self._process(taken)
            except (RepomemError, OSError, BrokenExecutor, _Cut) as exc:
                # A stop cut a full build short, or a signal to the whole process group (a
                # terminal's Ctrl-C, a supervisor's SIGTERM) ended a git command or the parse
                # workers under the batch: the stop wins, the store's journal covers the batch.
                if self._stopping:
                    log.info("batch interrupted while stopping: %s", exc)
                    return
                failures += 1
                self._requeue(taken)
                self._failed("index update failed (retrying)", exc)
                delay = RETRY_DELAYS[min(failures, len(RETRY_DELAYS)) - 1]
                with self._cond:
                    self._cond.wait_for(lambda: self._stopping, timeout=delay)
                continue
            failures = 0

    def _take(self) -> _Pending | object | None:
        """Wait for a quiet moment after changes; return them (None when stopping, `_IDLE`
        when compaction may be due after `idle_seconds` without changes)."""
        with self._cond:
            while True:
                if self._stopping:
                    return None
                p = self._pending
                if not p:
                    if not self._maintenance_due:
                        self._cond.wait()
                    elif not self._cond.wait(self.idle_seconds) and not self._pending:
                        self._maintenance_due = False
                        return _IDLE
                    continue
                now = time.monotonic()
                quiet = now - p.last
                waited = now - p.first
                if waited < self.max_delay and (quiet < self.debounce or self._git_busy()):
                    self._cond.wait(max(0.01, self.debounce - quiet))
                    continue
                self._pending = _Pending()
                return p

    def _maintain(self) -> None:
        """Compaction when due, the no-change manifest, then `on_idle`, out of the way of
        saves."""
        try:
            if indexer.optimize_if_due(self.cfg, idle=True):
                log.info("compacted the store")
            indexer.write_manifest(self.cfg)
        except (RepomemError, OSError) as exc:
            self._failed("compaction failed", exc)
        if self.on_idle is not None:
            try:
                self.on_idle()
            except (RepomemError, OSError) as exc:
                self._failed("idle work failed", exc)

    def _failed(self, what: str, exc: Exception) -> None:
        """Count, log and report a failure the watcher survives."""
        self.errors += 1
        log.warning("%s: %s", what, exc)
        if self.on_error is not None:
            self.on_error(exc)

    def _git_busy(self) -> bool:
        return self.git_dir is not None and (self.git_dir / "index.lock").exists()

    def _cut_point(self, phase: str, done: int, total: int) -> None:
        """Called as each file of a whole-tree run is parsed: a stop cuts a full build short
        here."""
        if phase == "parse" and self._stop == "cut":
            raise _Cut(f"a full build cut short after {done} of {total} files")

    def _requeue(self, p: _Pending) -> None:
        with self._cond:
            cur = self._pending
            if not cur:
                cur.first = cur.last = time.monotonic()
            cur.paths |= p.paths
            cur.reconcile = cur.reconcile or p.reconcile or "retry"
            cur.head_check = cur.head_check or p.head_check

    def _process(self, p: _Pending) -> None:
        try:
            self._process_batch(p)
        finally:
            with self._cond:
                self._running = ""

    def _process_batch(self, p: _Pending) -> None:
        t0 = time.monotonic()
        reason = p.reconcile
        head = self.head
        if p.head_check or reason:
            head = vcs.head(self.cfg.root) if self.git_dir is not None else None
            if head != self.head and not reason:
                reason = "head"
        if not reason and len(p.paths) > self.large_batch:
            reason = "large"
        if reason == "ignore-rules":
            self._reload()
        with self._cond:
            if self._stopping:
                return  # the stop came before the batch began: it is left for the next run
            self._running = "tree" if reason else "paths"
        if reason:
            report = indexer.run(self.cfg, progress=self._cut_point)
        elif p.paths:
            # Compaction rewrites whole tables (seconds): it waits for an idle moment.
            report = indexer.update(self.cfg, sorted(p.paths), optimize=False)
            self._maintenance_due = True
        else:
            return  # a ref moved elsewhere (another branch): nothing to index
        if report.changed or head != self.head:
            self._maintenance_due = True  # readers' caches are stale: `on_idle` when quiet
        self.head = head
        self.batches += 1
        memory = self.memory_rel in p.paths
        batch = Batch(
            paths=sorted(p.paths),
            reason=reason or "paths",
            report=report,
            seconds=time.monotonic() - t0,
            memory_changed=memory,
            head=head,
        )
        log.info(
            "batch: %d path(s), %s, %d changed, %.3fs",
            len(batch.paths), batch.reason, report.changed, batch.seconds,
        )  # fmt: skip
        if self.on_batch is not None:
            self.on_batch(batch)
        # At start the file may have changed while nobody watched (the sync is cheap if not).
        if (memory or reason == "start") and self.on_memory_change is not None:
            try:
                self.on_memory_change(self.cfg.root / self.memory_rel)
            except RepomemError as exc:  # e.g. a malformed memory file: say so, keep watching
                self._failed("memory file update failed", exc)


class _Handler(FileSystemEventHandler):
    def __init__(self, watcher: Watcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        self.watcher.classify(event)


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


def _file_id(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _output_files() -> frozenset[tuple[int, int]]:
    """The files this process's stdout and stderr are redirected to (device, inode)."""
    out: set[tuple[int, int]] = set()
    for fd in (1, 2):
        try:
            st = os.fstat(fd)
        except OSError:
            continue
        if stat.S_ISREG(st.st_mode):
            out.add((st.st_dev, st.st_ino))
    return frozenset(out)
