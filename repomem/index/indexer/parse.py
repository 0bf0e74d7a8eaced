"""The per-file work: read, redact and parse one file into its rows (`process_file`), for many
files in a pool of spawned worker processes that Ctrl-C stops cleanly (`_run_tasks`).

The worker entry points (`_init_worker`, `_work`) are pickled by their module path, so they stay
top-level functions of this module.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from typing import Any

from repomem import secrets
from repomem.config import Config
from repomem.index import chunks, discovery, languages
from repomem.index import tokens as tok
from repomem.index.discovery import Skip
from repomem.index.indexer.plan import TEXT_DISABLED, UNREADABLE

Progress = Callable[[str, int, int], None]
PARALLEL_MIN_FILES = 64


SYMBOL_COLUMNS = (
    "id", "path", "language", "name", "qualname", "kind", "parent", "signature", "doc",
    "start_line", "end_line", "file_hash", "search",
)  # fmt: skip
REF_COLUMNS = ("path", "name", "kind", "scope", "line", "count")
CHUNK_COLUMNS = ("path", "start_line", "end_line", "file_hash", "search")


@dataclass
class Parsed:
    """The rows for one file, built in a worker process."""

    path: str
    status: str  # "parsed", "same" (content unchanged), "reuse" (content stored elsewhere)
    hash: str
    size: int
    mtime_ns: int
    file_row: dict[str, Any] | None = None
    symbols: list[tuple[Any, ...]] = field(default_factory=list)  # in SYMBOL_COLUMNS order
    refs: list[tuple[Any, ...]] = field(default_factory=list)  # in REF_COLUMNS order
    chunks: list[tuple[Any, ...]] = field(default_factory=list)  # in CHUNK_COLUMNS order
    redactions: int = 0
    has_error: bool = False
    parse_error: str = ""


@dataclass
class Skipped:
    """A file not indexed, for `reason`; `content`: its (size, mtime_ns, content hash) when the
    verdict came from its whole content (`discovery.Skip.content`)."""

    path: str
    reason: str
    content: tuple[int, int, str] | None = None


_W_CFG: Config | None = None
_W_KNOWN: dict[str, str] = {}


def _init_worker(cfg: Config, known: dict[str, str]) -> None:
    global _W_CFG, _W_KNOWN
    # Ctrl-C reaches the whole process group: the main process stops the workers itself. The
    # worker was started with Ctrl-C blocked (`_ctrl_c_held`): ignored first, then unblocked,
    # one that came meanwhile is dropped here.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = multiprocessing.parent_process()
    if parent is not None:
        threading.Thread(target=_exit_with, args=(parent,), daemon=True).start()
    _W_CFG = cfg
    _W_KNOWN = known


def _exit_with(parent: multiprocessing.process.BaseProcess) -> None:
    """End this worker when the process that started it is gone, however it ended (SIGTERM,
    SIGKILL, an `os._exit` while its pool was starting): an orphan would wait for tasks
    forever, holding the output its parent shared (a reader of it never saw the end)."""
    parent.join()  # returns when the parent's end of the pipe closes: when it exits
    os._exit(1)


def _work(task: tuple[str, str | None]) -> Parsed | Skipped:
    assert _W_CFG is not None
    return process_file(_W_CFG, task[0], task[1], _W_KNOWN)


def _verdict_stands(cfg: Config, rel: str, held: str) -> Parsed | Skipped:
    """A skip row whose verdict no content changes (`held`: `TEXT_DISABLED`, `UNREADABLE`)
    found again: "same", with the file's stat for the stat cache, so its row stays."""
    try:
        st = discovery.stat_file(cfg, rel)
    except Skip as skip:
        return Skipped(rel, skip.reason)
    return Parsed(rel, "same", held, st.st_size, st.st_mtime_ns)


def process_file(
    cfg: Config, rel: str, old_hash: str | None, known: dict[str, str]
) -> Parsed | Skipped:
    """Read, redact and parse one file; `Skipped` when it is not indexed. `old_hash`: the
    content the index holds for it (a skip row's, where the stat cache knows it): the same
    content found again is "same", skipped or not, and keeps its rows. `known` maps the hashes
    of content stored under paths this run leaves alone to one such path: a file with that
    content under a name read by the same rules (language, secret rules) reuses the stored
    rows."""
    from repomem.index import parser

    language = languages.detect(rel)
    if not cfg.index.index_text_files and not parser.supports(language):
        if old_hash == TEXT_DISABLED:
            return _verdict_stands(cfg, rel, old_hash)
        return Skipped(rel, "text-disabled")
    try:
        fd = discovery.read_file(cfg, rel)
    except Skip as skip:
        if skip.content is not None and skip.content[2] == old_hash:
            size, mtime_ns, content = skip.content
            return Parsed(rel, "same", content, size, mtime_ns)
        if skip.reason == "unreadable" and old_hash == UNREADABLE:
            return _verdict_stands(cfg, rel, old_hash)
        return Skipped(rel, skip.reason, skip.content)
    if fd.hash == old_hash:
        return Parsed(rel, "same", fd.hash, fd.size, fd.mtime_ns)
    source = known.get(fd.hash)
    if source is not None and _same_rules(source, rel):
        return Parsed(rel, "reuse", fd.hash, fd.size, fd.mtime_ns)
    text, redactions = secrets.redact(
        fd.text, config_like=secrets.is_config_like(rel), extra_patterns=cfg.secrets.extra_patterns
    )
    out = Parsed(rel, "parsed", fd.hash, fd.size, fd.mtime_ns, redactions=redactions)
    symbols: list[Any] = []
    if parser.supports(language):
        try:
            result = parser.parse(text, language)
        except RecursionError as exc:  # pathological nesting: keep the file as text
            out.parse_error = f"{type(exc).__name__}: {exc}"
        else:
            symbols = list(result.symbols)
            out.has_error = result.has_error
            out.refs = [(rel, r.name, r.kind, r.scope, r.line, r.uses) for r in result.references]
    ptoks = tok.path_tokens(rel)
    for sym in symbols:
        words = tok.tokens(f"{sym.parent} {sym.signature} {sym.doc}")
        out.symbols.append(
            (
                f"{rel}:{sym.start_line}:{sym.qualname}",
                rel,
                language,
                sym.name,
                sym.qualname,
                sym.kind,
                sym.parent,
                sym.signature,
                sym.doc,
                sym.start_line,
                sym.end_line,
                fd.hash,
                f"{tok.query(sym.name)} {' '.join(words)} {ptoks}",
            )
        )
    functions = [(y.start_line, y.end_line) for y in symbols if y.kind in chunks.KINDS]
    for start, end, body in chunks.split(text, functions):
        doc = tok.document(body)
        if doc:
            out.chunks.append((rel, start, end, fd.hash, doc))
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    out.file_row = {
        "path": rel,
        "language": language,
        "hash": fd.hash,
        "size": fd.size,
        "mtime_ns": fd.mtime_ns,
        "tokens": len(text) // 4 + 1,
        "lines": lines,
        "symbols": len(symbols),
        "redactions": redactions,
        "indexed_at": time.time(),
        "skip": "",
        "text": text,
        "search": f"{ptoks} {ptoks} {tok.document(text)}",
    }
    return out


def _same_rules(a: str, b: str) -> bool:
    """Whether two paths' content is parsed and redacted alike (a rename to `tool.py`, or to
    `DEPLOY.md` whose unquoted `PASSWORD=x` counts as a credential, is not)."""
    return languages.detect(a) == languages.detect(b) and (
        secrets.is_config_like(a) == secrets.is_config_like(b)
    )


def _run_tasks(
    cfg: Config,
    tasks: list[tuple[str, str | None]],
    known: dict[str, str],
    progress: Progress | None,
) -> Iterator[Parsed | Skipped]:
    total = len(tasks)
    workers = cfg.index.workers or (os.cpu_count() or 1)
    if total < PARALLEL_MIN_FILES or workers <= 1:
        for i, (rel, old) in enumerate(tasks, 1):
            yield process_file(cfg, rel, old, known)
            if progress:
                progress("parse", i, total)
        return
    chunk = max(1, min(64, total // (workers * 8)))
    ctx = get_context("spawn")
    pool = ProcessPoolExecutor(
        workers, mp_context=ctx, initializer=_init_worker, initargs=(cfg, known)
    )
    try:
        with _main_module_hidden(), _ctrl_c_held():
            results = pool.map(_work, tasks, chunksize=chunk)  # starts the workers
        for i, result in enumerate(results, 1):
            yield result
            if progress:
                progress("parse", i, total)
        pool.shutdown(wait=True)  # inside: a Ctrl-C while the workers exit stops them too
    except BaseException:  # Ctrl-C, an error, or the caller stopped reading: stop at once
        _stop_workers(pool)
        raise


@contextlib.contextmanager
def _ctrl_c_held() -> Iterator[None]:
    """Start workers with Ctrl-C blocked, in whichever thread starts them (a watcher's or a
    server's thread too): a worker keeps the signal mask of the thread that started it, so
    one interrupted while importing cannot print a traceback of its own or break the pool;
    `_init_worker` then ignores Ctrl-C for good. This process takes a Ctrl-C that came
    meanwhile right after (another thread takes it, or the unblocking delivers it)."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: ignored meanwhile, as workers inherit
        if threading.current_thread() is not threading.main_thread():
            yield  # only the main thread may set a handler
            return
        ignored = signal.signal(signal.SIGINT, signal.SIG_IGN)
        try:
            yield
        finally:
            signal.signal(signal.SIGINT, ignored)
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the workers now (a worker blocked writing a result nobody reads never would)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    for proc in processes:
        with contextlib.suppress(OSError, ValueError):
            proc.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            proc.join(timeout=5)
    # The pool's manager thread notices the ended workers and closes its pipes. Until it has,
    # the interpreter's exit hook may write to a pipe it is closing ("Bad file descriptor",
    # CPython gh-125451, before 3.12): wait for it (it ends at once, the workers are gone).
    if isinstance(manager, threading.Thread) and manager is not threading.current_thread():
        manager.join(timeout=5)


@contextlib.contextmanager
def _main_module_hidden() -> Iterator[None]:
    """Start spawned workers without re-running the caller's `__main__` script.

    multiprocessing's spawn re-imports the main script in every worker; a library caller whose
    script lacks an `if __name__ == "__main__":` guard would then run itself again in each
    worker. The workers only need `repomem`, so the main module's origin is hidden meanwhile.
    """
    main = sys.modules.get("__main__")
    if main is None:
        yield
        return
    saved: dict[str, Any] = {
        k: main.__dict__[k] for k in ("__file__", "__spec__") if k in main.__dict__
    }
    main.__dict__.pop("__file__", None)
    main.__dict__["__spec__"] = None
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)
