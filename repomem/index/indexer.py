"""Build and incrementally refresh the index.

A run lists the candidate files, compares each with the store by size and mtime, then by content
hash, and parses only what changed. Content already in the store under another path (a rename, a
copy, a revert) is copied instead of parsed. Writes are crash-safe: the paths of a batch are
journaled before any row is touched; a run that finds a journal first deletes those paths' rows,
so a killed run never leaves duplicates or orphans and the next run completes it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing import get_context
from pathlib import Path
from typing import Any

from repomem import secrets, vcs
from repomem.config import Config
from repomem.errors import StoreError
from repomem.fsutil import atomic_write
from repomem.index import chunks, commits, discovery, languages, schema
from repomem.index import tokens as tok
from repomem.index.discovery import Filter, Skip
from repomem.types import IndexReport

log = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]
PARALLEL_MIN_FILES = 64
# Compaction rewrites every table smaller than a million rows, and old versions stay on disk for
# CLEANUP_SECONDS (readers may still be using them); so compact at most once per that window.
CLEANUP_SECONDS = 300.0
OPTIMIZE_MIN_INTERVAL = 300.0
BATCH_FILES = 1000
BATCH_BYTES = 16 * 1024 * 1024


def home_dir() -> Path:
    """Per-user state directory (`REPOMEM_HOME`, else the XDG cache dir)."""
    env = os.environ.get("REPOMEM_HOME")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "repomem"


def state_dir(cfg: Config) -> Path:
    """Local directory for the store (by default), its lock and its journal."""
    git_dir = vcs.git_dir(cfg.root)  # no git command: this is asked often
    if git_dir is not None:
        return git_dir / "repomem"
    digest = hashlib.sha1(str(cfg.root.resolve()).encode()).hexdigest()[:12]
    return home_dir() / "stores" / f"{cfg.root.name}-{digest}"


def store_uri(cfg: Config) -> str:
    """The LanceDB URI: `store.path` (relative paths are from the repository root) or default."""
    configured = cfg.store.path.strip()
    if configured:
        if "://" in configured:
            return configured
        p = Path(configured).expanduser()
        return str(p if p.is_absolute() else cfg.root / p)
    return str(state_dir(cfg) / "lance")


def content_rules(cfg: Config) -> str:
    """A fingerprint of the settings that decide what a file's content becomes in the index
    (which files are read and how they are redacted); when it changes, the next run rebuilds:
    files are otherwise read again only when they change."""
    ix = cfg.index
    data = [
        ix.max_file_size, ix.max_line_length, ix.max_mean_line_length, ix.skip_generated,
        ix.index_text_files, list(cfg.secrets.extra_patterns),
    ]  # fmt: skip
    return hashlib.blake2b(json.dumps(data).encode(), digest_size=8).hexdigest()


def built_under_current_rules(cfg: Config, meta: dict[str, str]) -> bool:
    """Whether the index (its `meta`) was built under today's `content_rules` (an index from
    before they were recorded counts as such)."""
    return meta.get("content_rules") in (None, content_rules(cfg))


def open_store(cfg: Config) -> Any:
    """The repository's Store (created lazily on the first write)."""
    from repomem.index.store import Store

    return Store(store_uri(cfg), state_dir(cfg), lock_timeout=cfg.index.lock_timeout)


_READERS: dict[tuple[str, str, float], Any] = {}
_READERS_LOCK = threading.Lock()


def reader(cfg: Config) -> Any:
    """The repository's Store for reading, kept for the life of the process (a server, the
    watcher, packs in a loop) and brought up to date with what was published since
    (`Store.renew`); a fresh one when that fails (the store was deleted or rebuilt)."""
    key = (store_uri(cfg), str(state_dir(cfg)), cfg.index.lock_timeout)
    with _READERS_LOCK:
        store = _READERS.get(key)
        if store is not None:
            try:
                store.renew()
                return store
            except (StoreError, ValueError, OSError, RuntimeError) as exc:
                log.debug("reopening the store %s: %s", key[0], exc)
        if len(_READERS) >= 8:
            _READERS.clear()
        store = _READERS[key] = open_store(cfg)
        return store


# ------------------------------------------------------------------------- planning


@dataclass
class Plan:
    """What a run has to do, from the stat phase alone (no file is read)."""

    git: bool
    head: str | None
    current: dict[str, os.stat_result] = field(default_factory=dict)
    changed: list[str] = field(default_factory=list)  # new, or size/mtime differ
    deleted: list[str] = field(default_factory=list)
    unchanged: int = 0
    skipped: dict[str, list[str]] = field(default_factory=dict)


def make_plan(
    cfg: Config,
    states: dict[str, tuple[int, int, str]],
    only: Sequence[str] | None = None,
    info: vcs.GitInfo | None = None,
) -> Plan:
    """Compare the working tree with the stored file states by size and mtime.

    With `only` (a git work tree only), just those paths are listed and compared; `states`
    must then hold the stored states of those paths. `info` saves a lookup when the caller
    has the repository's facts already.
    """
    info = info or vcs.open_repo(cfg.root)
    known: dict[str, os.stat_result] = {}
    if info is None:
        git_files = None
    else:
        # git lists the tree while this thread takes the known files' lstat (each is about
        # half of a plan: 0.2 s apiece for 12,000 files)
        with ThreadPoolExecutor(max_workers=1) as pool:
            listed = pool.submit(
                vcs.list_files, cfg.root, untracked=cfg.index.include_untracked, paths=only
            )
            known = _lstat_all(cfg.root, states)
            git_files = listed.result()
    if only is not None:
        if git_files is None:
            raise ValueError("a plan for some paths only needs a git work tree")
        wanted = set(only)  # a folder given as a path would list files whose state is unknown
        git_files = [p for p in git_files if p in wanted]
    memo = state_dir(cfg) / "verdicts.json" if only is None else None
    listing = discovery.list_candidates(cfg, git_files, memo)
    plan = Plan(
        git=info is not None,
        head=info.head if info else None,
        skipped={k: list(v) for k, v in listing.skipped.items()},
    )
    filt = Filter(cfg)
    for rel in listing.paths:
        try:
            st = discovery.stat_file(cfg, rel, filt, known.get(rel))
        except Skip as skip:
            if skip.reason != "vanished":
                plan.skipped.setdefault(skip.reason, []).append(rel)
            continue
        plan.current[rel] = st
        old = states.get(rel)
        if (
            old is not None
            and old[0] == st.st_size
            and old[1] == st.st_mtime_ns
            # `chmod` fixes an unreadable file without touching its size or mtime
            and not (old[2] == UNREADABLE and os.access(os.path.join(cfg.root, rel), os.R_OK))
        ):
            plan.unchanged += 1
        else:
            plan.changed.append(rel)
    plan.deleted = sorted(p for p in states if p not in plan.current)
    return plan


def _lstat_all(root: Path, paths: Iterable[str]) -> dict[str, os.stat_result]:
    """`os.lstat` of each path that has one."""
    out: dict[str, os.stat_result] = {}
    base = os.path.join(root, "")
    for rel in paths:
        with contextlib.suppress(OSError):  # `stat_file` says why
            out[rel] = os.lstat(base + rel)
    return out


def really_changed(cfg: Config, plan: Plan, states: dict[str, tuple[int, int, str]]) -> list[str]:
    """`plan.changed` without the files only touched (same size and content, a new mtime:
    `touch`, a checkout that rewrote them), which an index run would not change. Reads the
    touched files, as the run itself would."""
    out: list[str] = []
    for rel in plan.changed:
        old = states.get(rel)
        st = plan.current.get(rel)
        if old is None or st is None or old[0] != st.st_size or not _indexed(old[2]):
            out.append(rel)
            continue
        try:
            with open(os.path.join(cfg.root, rel), "rb") as fh:
                if discovery.content_hash(fh.read(old[0] + 1)) == old[2]:
                    continue
        except OSError:
            pass
        out.append(rel)
    return out


def _optimize_due(cfg: Config, store: Any, runs: int, optimized_at: str | None) -> bool:
    """The compaction policy: after `store.optimize_every` changing runs, at most once per
    cleanup window; or at once when many rows are missing from the full-text indexes (LanceDB
    searches those by brute force)."""
    try:
        last = float(optimized_at or 0)
    except ValueError:
        last = 0.0
    if runs >= max(1, cfg.store.optimize_every) and time.time() - last >= OPTIMIZE_MIN_INTERVAL:
        return True
    return bool(store.indexes_lagging())


def compact(store: Any, cleanup_seconds: float = CLEANUP_SECONDS) -> dict[str, str]:
    """Compact the store (publishing first); returns the meta that records it, to publish.
    Hold the write lock."""
    store.optimize(cleanup_seconds=cleanup_seconds)
    return {"optimized_at": f"{time.time():.3f}", "runs_since_optimize": "0"}


# ------------------------------------------------------------------------- per-file work

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


_W_CFG: Config | None = None
_W_KNOWN: dict[str, str] = {}


def _init_worker(cfg: Config, known: dict[str, str]) -> None:
    global _W_CFG, _W_KNOWN
    # Ctrl-C reaches the whole process group: the main process stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _W_CFG = cfg
    _W_KNOWN = known


def _work(task: tuple[str, str | None]) -> Parsed | tuple[str, str]:
    assert _W_CFG is not None
    return process_file(_W_CFG, task[0], task[1], _W_KNOWN)


def process_file(
    cfg: Config, rel: str, old_hash: str | None, known: dict[str, str]
) -> Parsed | tuple[str, str]:
    """Read, redact and parse one file; a (path, reason) pair when it is skipped. `known` maps
    the hashes of content stored under paths this run leaves alone to one such path: a file
    with that content under a name read by the same rules (language, secret rules) reuses the
    stored rows."""
    from repomem.index import parser

    language = languages.detect(rel)
    if not cfg.index.index_text_files and not parser.supports(language):
        return (rel, "text-disabled")
    try:
        fd = discovery.read_file(cfg, rel)
    except Skip as skip:
        return (rel, skip.reason)
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
) -> Iterator[Parsed | tuple[str, str]]:
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
        with _main_module_hidden(), _sigint_ignored():
            results = pool.map(_work, tasks, chunksize=chunk)  # starts the workers
        for i, result in enumerate(results, 1):
            yield result
            if progress:
                progress("parse", i, total)
    except BaseException:  # Ctrl-C, an error, or the caller stopped reading: stop at once
        _stop_workers(pool)
        raise
    pool.shutdown(wait=True)


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    """Start workers with Ctrl-C ignored (they inherit it): one interrupted while importing
    prints a traceback of its own. The main process takes Ctrl-C again right after."""
    if threading.current_thread() is not threading.main_thread():
        yield  # only the main thread handles signals (a watcher's or server's thread)
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _stop_workers(pool: ProcessPoolExecutor) -> None:
    """End the workers now (a worker blocked writing a result nobody reads never would)."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    for proc in processes:
        with contextlib.suppress(OSError, ValueError):
            proc.terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for proc in processes:
        with contextlib.suppress(OSError, ValueError, AssertionError):
            proc.join(timeout=5)


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


# ------------------------------------------------------------------------- the run


def run(cfg: Config, *, full: bool = False, progress: Progress | None = None) -> IndexReport:
    """Bring the index up to date with the working tree.

    Raises:
        StoreError: if the store cannot be opened, is locked too long, or is too new.
    """
    t0 = time.monotonic()
    early = None if full else _check_manifest(cfg)
    if early is not None and early.report is not None:
        _embed(cfg, None, early.report, progress, early.files_version)
        early.report.seconds = time.monotonic() - t0
        return early.report
    store = open_store(cfg)
    report = IndexReport(full=full)
    with store.writing():
        rebuilt = store.ensure_schema()
        journal = store.read_journal()
        if not built_under_current_rules(cfg, store.all_meta()):
            log.info("index settings changed since the last run: rebuilding")
            rebuilt = True
        if full or rebuilt or "*" in journal:
            # until the rebuild is published, a run that finds `*` starts it over (the emptied
            # tables are not an index of the tree)
            store.write_journal(["*"])
            store.clear_derived()
            report.full = True
            states: dict[str, tuple[int, int, str]] = {}
        else:
            if journal:
                log.info("completing an interrupted run: %d paths", len(journal))
                store.delete_paths(journal)
                store.clear_journal()
                report.recovered = len(journal)
            states = {}
        if (
            early is not None
            and not report.full
            and not journal
            and store.table("files").version == early.files_version
        ):
            # The manifest describes exactly this store version: reuse its plan.
            states, plan = early.states, early.plan
        else:
            if not report.full:
                states = store.file_states()
            plan = make_plan(cfg, states)
        report.git = plan.git
        report.files_seen = len(plan.current)
        report.unchanged = plan.unchanged
        t_plan = time.monotonic()
        _apply(cfg, store, plan, states, report, progress)
        t_apply = time.monotonic()
        store.ensure_indexes()
        t_indexes = time.monotonic()
        meta = {
            "indexed_at": f"{time.time():.3f}",
            "indexed_commit": plan.head or "",
            "root": str(cfg.root),
            "content_rules": content_rules(cfg),
        }
        meta.update(_sync_commits(cfg, store, plan.head, full=report.full))
        log.info(
            "index run: plan %.2fs, parse+write %.2fs (%d parsed), indexes %.2fs, commits %.2fs",
            t_plan - t0, t_apply - t_plan, report.parsed, t_indexes - t_apply,
            time.monotonic() - t_indexes,
        )  # fmt: skip
        # A full build writes few large fragments: nothing to compact yet (the emptied rows' files
        # go at the next compaction).
        runs = int(store.get_meta("runs_since_optimize") or 0) + (1 if report.changed else 0)
        meta["runs_since_optimize"] = str(runs)
        if not report.full and _optimize_due(cfg, store, runs, store.get_meta("optimized_at")):
            meta.update(compact(store))
        store.publish(meta)
        if report.full:
            store.clear_journal()
        rows = _state_rows(store)
        _write_manifest(cfg, store, plan.head, rows)
        report.skipped = _skip_counts(plan.skipped, rows)
    _embed(cfg, store, report, progress)
    report.seconds = time.monotonic() - t0
    return report


def _sync_commits(cfg: Config, store: Any, head: str | None, *, full: bool) -> dict[str, str]:
    """Store the commit messages up to `head`; a failure costs the signal, not the run."""
    try:
        return commits.sync(
            store, cfg.root, head, limit=cfg.index.commit_history, full=full,
            extra_patterns=cfg.secrets.extra_patterns,
        )  # fmt: skip
    except (OSError, RuntimeError, ValueError) as exc:
        log.warning("cannot store the commit messages: %s", exc)
        return {}


def _embed(
    cfg: Config, store: Any, report: IndexReport, progress: Progress | None,
    files_version: int | None = None,
) -> None:  # fmt: skip
    """Optional dense vectors, after the update is published (see `repomem.index.dense`).

    A marker file records the `files` version whose vectors are complete, so a run that
    changed nothing opens no database for them either.
    """
    if not cfg.embed.enabled:
        return
    from repomem.index import dense

    marker = state_dir(cfg) / "embedded.json"
    stamp = {"files_version": files_version, "uri": store_uri(cfg), "card": dense.key("", "")}
    if files_version is not None:
        with contextlib.suppress(OSError, ValueError):
            if json.loads(marker.read_text(encoding="utf-8")) == stamp:
                return
    store = store or open_store(cfg)
    done = dense.refresh(cfg, store, progress=progress)
    report.embedded = done.embedded
    report.embed_seconds = done.seconds
    stamp["files_version"] = int(store.table("files").version)
    with contextlib.suppress(OSError):
        atomic_write(marker, json.dumps(stamp))


MANIFEST_VERSION = 2  # 2: a run after HEAD moved also stores commit messages


def _manifest_path(cfg: Config) -> Path:
    return state_dir(cfg) / "manifest.json"


@dataclass
class _ManifestCheck:
    plan: Plan
    states: dict[str, tuple[int, int, str]]
    files_version: int
    report: IndexReport | None  # set when there is nothing to do


def _write_manifest(cfg: Config, store: Any, head: str | None, rows: dict[str, list[Any]]) -> None:
    """A local snapshot of the stored file states (`rows`, from `_state_rows`), so a
    no-change run needs no database."""
    data = {
        "version": MANIFEST_VERSION,
        "schema": schema.SCHEMA_VERSION,
        "uri": store.uri,
        "head": head,
        "commit_history": cfg.index.commit_history,
        "commits_format": commits.FORMAT,
        "content_rules": content_rules(cfg),
        "files_version": store.table("files").version,
        "files": rows,
    }
    path = _manifest_path(cfg)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
        os.replace(tmp, path)
        stamp = _writer_stamp_path(store.uri)
        if stamp is not None:
            stamp.write_text(_writer_stamp(cfg, data["files_version"]), encoding="utf-8")
    except OSError as exc:  # the manifest is only a shortcut
        log.info("cannot write %s: %s", path, exc)


def _writer_stamp_path(uri: str) -> Path | None:
    """A file in a local store naming the work tree that last wrote it: a store shared by two
    checkouts (the same `store.path`) holds the other one's files after it wrote."""
    return None if "://" in uri else Path(uri) / ".repomem-writer"


def _writer_stamp(cfg: Config, files_version: Any) -> str:
    return f"{cfg.root.resolve()}\n{files_version}\n"


def _state_rows(store: Any) -> dict[str, list[Any]]:
    cols = store.column("files", ["path", "size", "mtime_ns", "hash", "skip"])
    return {
        p: [s, m, h, k]
        for p, s, m, h, k in zip(
            cols["path"], cols["size"], cols["mtime_ns"], cols["hash"], cols["skip"], strict=True
        )
    }


def _skip_counts(skipped: dict[str, list[str]], rows: dict[str, list[Any]]) -> dict[str, int]:
    """Files not indexed, by reason: those this run skipped (`plan.skipped`: when listed or
    read) and those whose stored state row (`_state_rows`) says an earlier run skipped them
    when read (minified, generated: not read again while unchanged)."""
    reasons = {path: reason for reason, paths in skipped.items() for path in paths}
    for path, row in rows.items():
        if len(row) > 3 and row[3]:
            reasons.setdefault(path, str(row[3]))
    return dict(Counter(reasons.values()))


def _check_manifest(cfg: Config) -> _ManifestCheck | None:
    """Plan from the local manifest, without opening the store; None when it is unusable."""
    path = _manifest_path(cfg)
    if (path.parent / "journal.json").exists():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if (
        not isinstance(data, dict)
        or data.get("version") != MANIFEST_VERSION
        or data.get("schema") != schema.SCHEMA_VERSION
        or data.get("uri") != store_uri(cfg)
    ):
        return None
    stamp = _writer_stamp_path(store_uri(cfg))
    try:
        if stamp is not None and stamp.read_text(encoding="utf-8") != _writer_stamp(
            cfg, data.get("files_version")
        ):
            return None  # another checkout wrote the store since
    except OSError:
        return None
    states = {p: (v[0], v[1], v[2]) for p, v in data.get("files", {}).items()}
    plan = make_plan(cfg, states)
    check = _ManifestCheck(plan, states, int(data.get("files_version", -1)), None)
    if (
        plan.changed
        or plan.deleted
        or plan.head != data.get("head")
        or data.get("commit_history") != cfg.index.commit_history
        or data.get("commits_format") != commits.FORMAT
        or data.get("content_rules") != content_rules(cfg)
    ):
        return check
    report = IndexReport(files_seen=len(plan.current), unchanged=plan.unchanged, git=plan.git)
    report.skipped = _skip_counts(plan.skipped, data["files"])
    check.report = report
    return check


class _Batch:
    def __init__(self) -> None:
        self.files: list[dict[str, Any]] = []
        self.symbols: list[tuple[Any, ...]] = []
        self.refs: list[tuple[Any, ...]] = []
        self.chunks: list[tuple[Any, ...]] = []
        self.replace: list[str] = []  # paths whose old rows go first
        self.bytes = 0

    def add(self, p: Parsed) -> None:
        assert p.file_row is not None
        self.files.append(p.file_row)
        self.symbols.extend(p.symbols)
        self.refs.extend(p.refs)
        self.chunks.extend(p.chunks)
        self.bytes += p.size

    def __len__(self) -> int:
        return len(self.files)


def _columns(names: tuple[str, ...], rows: list[tuple[Any, ...]]) -> dict[str, list[Any]]:
    if not rows:
        return {}
    return {name: list(col) for name, col in zip(names, zip(*rows, strict=True), strict=True)}


def _apply(
    cfg: Config,
    store: Any,
    plan: Plan,
    states: dict[str, tuple[int, int, str]],
    report: IndexReport,
    progress: Progress | None,
) -> None:
    keep = ["*"] if report.full else []  # a full build stays marked until it is published
    deleted = set(plan.deleted)
    changed = set(plan.changed)
    # Rows are copied only from paths whose rows stay until the copies are made: not from a
    # re-parsed path (an earlier batch may have replaced its rows); a deleted path's rows go
    # in the last batch, after the copies.
    by_hash: dict[str, str] = {}
    gone: dict[str, str] = {}  # content of deleted paths: a file parsed with it was renamed
    for path, (_s, _m, h) in states.items():
        if not _indexed(h):
            continue
        if path in deleted:
            gone.setdefault(h, path)
        if path not in changed:
            by_hash.setdefault(h, path)
    tasks = [(rel, states[rel][2] if rel in states else None) for rel in plan.changed]
    touched: dict[str, tuple[int, int]] = {}
    reuse: list[Parsed] = []
    batch = _Batch()

    def flush() -> None:
        nonlocal batch
        if not len(batch) and not batch.replace:
            return
        paths = sorted(set(batch.replace) | {f["path"] for f in batch.files})
        store.write_journal([*keep, *paths])
        if batch.replace:
            store.delete_paths(batch.replace)
        store.add_columns("symbols", _columns(SYMBOL_COLUMNS, batch.symbols))
        store.add_columns("refs", _columns(REF_COLUMNS, batch.refs))
        store.add_columns("chunks", _columns(CHUNK_COLUMNS, batch.chunks))
        store.add("files", batch.files)  # last: a file row marks its file complete
        if keep:
            store.write_journal(keep)
        else:
            store.clear_journal()
        batch = _Batch()

    for result in _run_tasks(cfg, tasks, by_hash, progress):
        if isinstance(result, tuple):
            rel, reason = result
            if rel in states:
                batch.replace.append(rel)
            if reason == "vanished":
                plan.current.pop(rel, None)
                if rel in states:
                    deleted.add(rel)
                continue
            plan.skipped.setdefault(reason, []).append(rel)
            if rel in states and _indexed(states[rel][2]):
                report.deleted.append(rel)  # it was indexed; now it is not
            st = plan.current[rel]
            batch.files.append(skip_row(rel, reason, st.st_size, st.st_mtime_ns))
            continue
        if result.status == "same":
            touched[result.path] = (result.size, result.mtime_ns)
            report.unchanged += 1
            continue
        if result.status == "reuse":
            reuse.append(result)
            continue
        report.parsed += 1
        report.redactions += result.redactions
        if result.has_error:
            report.parse_errors.append(result.path)
        if result.parse_error:
            log.warning("parse failed for %s: %s", result.path, result.parse_error)
            report.parse_errors.append(result.path)
        if result.path in states:
            report.modified.append(result.path)
            batch.replace.append(result.path)
        elif result.hash in gone:
            report.renamed.append((gone.pop(result.hash), result.path))
        else:
            report.added.append(result.path)
        batch.add(result)
        if len(batch) >= BATCH_FILES or batch.bytes >= BATCH_BYTES:
            flush()
    # Content already stored under another path: copy its rows, no parsing (read for many
    # files at once: one query per table and 500 sources, not four per file).
    for start in range(0, len(reuse), REUSE_BATCH):
        part = reuse[start : start + REUSE_BATCH]
        _copy_rows(store, batch, [(by_hash[r.hash], r) for r in part])
    for r in reuse:
        source = by_hash[r.hash]
        if r.path in states:
            batch.replace.append(r.path)
            report.modified.append(r.path)
        elif source in deleted:
            report.renamed.append((source, r.path))
        else:
            report.added.append(r.path)
    batch.replace.extend(sorted(deleted))
    renamed_from = {a for a, _b in report.renamed}
    report.deleted.extend(sorted(deleted - renamed_from))
    flush()
    if touched:
        _touch(store, touched)
    for reason, skipped in plan.skipped.items():
        report.skipped_paths.setdefault(reason, []).extend(skipped)


# The hash of a file skipped as unreadable: looked at again once it can be read.
UNREADABLE = "!unreadable"


def _indexed(stored_hash: str) -> bool:
    """Whether a stored file state is an indexed file (skipped files have no content hash)."""
    return bool(stored_hash) and stored_hash != UNREADABLE


def skip_row(rel: str, reason: str, size: int, mtime_ns: int) -> dict[str, Any]:
    """A files row that remembers a listed file is not indexed, so it is not re-read."""
    return {
        "path": rel,
        "language": languages.detect(rel),
        "hash": UNREADABLE if reason == "unreadable" else "",
        "size": size,
        "mtime_ns": mtime_ns,
        "tokens": 0,
        "lines": 0,
        "symbols": 0,
        "redactions": 0,
        "indexed_at": time.time(),
        "skip": reason,
        "text": "",
        "search": "",
    }


REUSE_BATCH = 500


def _copy_rows(store: Any, batch: _Batch, pairs: list[tuple[str, Parsed]]) -> None:
    """Add to `batch` the rows of each source path under its new path (a copy or rename)."""
    sources = sorted({source for source, _ in pairs})
    rows: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for table in ("files", "symbols", "refs", "chunks"):
        grouped: dict[str, list[dict[str, Any]]] = {}
        for row in store.rows_for_paths(table, sources):
            grouped.setdefault(row["path"], []).append(row)
        rows[table] = grouped
    for source, p in pairs:
        file_rows = rows["files"].get(source)
        if not file_rows:
            continue
        row = dict(file_rows[0])
        row.update(path=p.path, size=p.size, mtime_ns=p.mtime_ns, indexed_at=time.time())
        old_ptoks, new_ptoks = tok.path_tokens(source), tok.path_tokens(p.path)
        row["search"] = row["search"].replace(old_ptoks, new_ptoks, 2)
        row["language"] = languages.detect(p.path)
        batch.files.append({k: row[k] for k in row if not k.startswith("_")})
        for sym in rows["symbols"].get(source, ()):
            sym = dict(sym)
            sym.update(
                path=p.path,
                id=f"{p.path}:{sym['start_line']}:{sym['qualname']}",
                search=sym["search"].replace(old_ptoks, new_ptoks),
            )
            batch.symbols.append(tuple(sym[k] for k in SYMBOL_COLUMNS))
        for ref in rows["refs"].get(source, ()):
            batch.refs.append(tuple(p.path if k == "path" else ref[k] for k in REF_COLUMNS))
        for chunk in rows["chunks"].get(source, ()):
            batch.chunks.append(tuple(p.path if k == "path" else chunk[k] for k in CHUNK_COLUMNS))


def _touch(store: Any, touched: dict[str, tuple[int, int]]) -> None:
    """Record new mtimes for files whose content is unchanged (one commit per table)."""
    paths = sorted(touched)
    rows = []
    for row in store.rows_for_paths("files", paths):
        row = {k: v for k, v in row.items() if not k.startswith("_")}
        size, mtime = touched[row["path"]]
        row.update(size=size, mtime_ns=mtime)
        rows.append(row)
    store.write_journal(paths)
    store.delete_rows("files", paths)
    store.add("files", rows)
    store.clear_journal()


# ------------------------------------------------------------------------- path updates


def update(
    cfg: Config,
    paths: Sequence[str],
    *,
    progress: Progress | None = None,
    optimize: bool = True,
) -> IndexReport:
    """Bring the index up to date for these paths only (what a file watcher saw change).

    The result equals `run(cfg)` when nothing else changed; the cost depends on the number of
    paths, not on the size of the repository. Falls back to `run(cfg)` when a path update cannot
    be exact: no index yet, not a git work tree, an interrupted run to complete, an outdated
    schema, or HEAD moved since the last run. Writes nothing when nothing changed. With
    `optimize=False` a due compaction is left for `optimize_if_due` (a watcher runs it when
    idle, since it rewrites whole tables).

    Raises:
        StoreError: if the store cannot be opened, is locked too long, or is too new.
    """
    t0 = time.monotonic()
    only = sorted({p for p in paths if p})
    info = vcs.open_repo(cfg.root)
    if info is None:
        return run(cfg, progress=progress)
    store = open_store(cfg)
    report = IndexReport()
    fallback = False
    with store.writing():
        try:
            meta = store.all_meta()
        except StoreError:  # no index yet
            meta = {}
        if (
            meta.get("schema_version") != str(schema.SCHEMA_VERSION)
            or not built_under_current_rules(cfg, meta)
            or store.read_journal()
            or (meta.get("indexed_commit") or None) != info.head
        ):
            fallback = True
        elif only:
            before = store.current_versions()
            states = store.file_states(only)
            plan = make_plan(cfg, states, only=only, info=info)
            report.files_seen = len(plan.current)
            report.unchanged = plan.unchanged
            _apply(cfg, store, plan, states, report, progress)
            if store.current_versions() != before or store.published() != before:
                _finish_update(cfg, store, meta, optimize)
    if fallback:
        return run(cfg, progress=progress)
    if report.changed:
        _embed(cfg, store, report, progress)
    report.seconds = time.monotonic() - t0
    return report


def _finish_update(cfg: Config, store: Any, meta: dict[str, str], optimize: bool) -> None:
    """Indexes, publication, periodic compaction and the manifest after a path update."""
    if not store.fts_ready():
        store.ensure_indexes()  # the store was empty when it was built
    runs = int(meta.get("runs_since_optimize") or 0) + 1
    done = {"indexed_at": f"{time.time():.3f}", "runs_since_optimize": str(runs)}
    if optimize and _optimize_due(cfg, store, runs, meta.get("optimized_at")):
        done.update(compact(store))
    store.publish(done)
    _drop_manifest(cfg)


def optimize_if_due(cfg: Config) -> bool:
    """Compact the store if the compaction policy (`_optimize_due`) says so; True when it
    compacted.

    Raises:
        StoreError: if the store is locked too long.
    """
    store = open_store(cfg)
    with store.writing():
        try:
            meta = store.all_meta()
        except StoreError:
            return False
        runs = int(meta.get("runs_since_optimize") or 0)
        if not _optimize_due(cfg, store, runs, meta.get("optimized_at")):
            return False
        store.publish(compact(store))
    return True


def _drop_manifest(cfg: Config) -> None:
    """Forget the no-change shortcut (rewriting it costs time in proportion to the repository;
    `write_manifest` puts it back when there is time)."""
    with contextlib.suppress(FileNotFoundError):
        _manifest_path(cfg).unlink()


def write_manifest(cfg: Config) -> bool:
    """Write the local manifest if it is missing (after path updates); True when written."""
    if _manifest_path(cfg).exists():
        return False
    store = open_store(cfg)
    with store.writing():
        try:
            head = store.get_meta("indexed_commit") or None
        except StoreError:
            return False
        if store.read_journal():
            return False
        _write_manifest(cfg, store, head, _state_rows(store))
    return True
