"""Build and incrementally refresh the index.

A run lists the candidate files, compares each with the store by size and mtime, then by content
hash, and parses only what changed. Content already in the store under another path (a rename, a
copy, a revert) is copied instead of parsed. Writes are crash-safe: the paths of a batch are
journaled before any row is touched; a run that finds a journal first deletes those paths' rows,
so a killed run never leaves duplicates or orphans and the next run completes it.

The package, by concern: :mod:`.location` (where a repository's store lives, the rules its
content is built under, how it is opened for writing and for reading), :mod:`.plan` (what
changed, from the stat phase alone), :mod:`.parse` (the per-file work: read, redact and parse a
file into rows, in a pool of worker processes when there are many), :mod:`.apply` (writing the
parsed rows to the store in journaled batches, copying the rows of content stored elsewhere)
and :mod:`.manifest` (the local snapshot of the stored file states that lets a run with nothing
to do skip the database). This module holds the entry points (`run`, `update`,
`optimize_if_due`, `prepare`) and what follows a run: commit messages, embeddings and
compaction.
"""

from __future__ import annotations

import contextlib
import json
import logging
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.errors import StoreError
from repomem.fsutil import atomic_write
from repomem.index import commits
from repomem.index.indexer import seed
from repomem.index.indexer.apply import _apply
from repomem.index.indexer.location import (
    built_under_current_rules,
    content_rules,
    home_dir,
    open_store,
    reader,
    state_dir,
    store_absent,
    store_uri,
)
from repomem.index.indexer.manifest import (
    _check_manifest,
    _drop_manifest,
    _held,
    _skip_counts,
    _state_rows,
    _write_manifest,
    write_manifest,
)
from repomem.index.indexer.parse import Parsed, Progress, process_file
from repomem.index.indexer.plan import (
    Plan,
    Prepared,
    make_plan,
    pending_changes,
    really_changed,
)
from repomem.types import IndexReport

__all__ = [
    "Parsed",
    "Plan",
    "Prepared",
    "Progress",
    "built_under_current_rules",
    "compact",
    "content_rules",
    "home_dir",
    "lost_build",
    "make_plan",
    "open_store",
    "pending_changes",
    "optimize_if_due",
    "prepare",
    "process_file",
    "reader",
    "really_changed",
    "rebuilding",
    "run",
    "seed_from_sibling",
    "state_dir",
    "store_absent",
    "store_uri",
    "update",
    "write_manifest",
]

log = logging.getLogger(__name__)


def seed_from_sibling(cfg: Config) -> Path | None:
    """A worktree's first index, copied from a sibling's (see `repomem.index.indexer.seed`);
    the sibling's work tree, or None."""
    return seed.from_sibling(cfg, open_store(cfg))


# Compaction rewrites every table smaller than a million rows, and old versions stay on disk for
# CLEANUP_SECONDS (readers may still be using them); so compact at most once per that window.
CLEANUP_SECONDS = 300.0
OPTIMIZE_MIN_INTERVAL = 300.0


def _optimize_due(
    cfg: Config, store: Any, runs: int, optimized_at: str | None, *, idle: bool = False
) -> bool:
    """The compaction policy: after `store.optimize_every` changing runs, at most once per
    cleanup window; or at once when many rows are missing from the full-text indexes (LanceDB
    searches those by brute force).

    With `idle` (nobody waits: a watcher's quiet moment, a git hook's background refresh), any
    row missing from a full-text index makes it due, once per cleanup window: such rows, and
    the deleted ones the index still counts, are scored by other statistics than a fresh
    build's, so rankings drift from the first update on (a tenth of 70 searches ranked
    otherwise after one path update of 5 files, two thirds after 30; see `bench/fts_drift.py`).
    """
    try:
        last = float(optimized_at or 0)
    except ValueError:
        last = 0.0
    if time.time() - last >= OPTIMIZE_MIN_INTERVAL:
        if runs >= max(1, cfg.store.optimize_every):
            return True
        if idle:  # any row missing; the default thresholds below ask for more
            return bool(store.indexes_lagging(share=0.0, floor=0))
    return bool(store.indexes_lagging())


def compact(store: Any, cleanup_seconds: float | None = None) -> dict[str, str]:
    """Compact the store (publishing first), dropping versions older than `cleanup_seconds`
    (default `CLEANUP_SECONDS`, read at the call); returns the meta that records it, to
    publish. Hold the write lock."""
    window = CLEANUP_SECONDS if cleanup_seconds is None else cleanup_seconds
    store.optimize(cleanup_seconds=window)
    return {"optimized_at": f"{time.time():.3f}", "runs_since_optimize": "0"}


# ------------------------------------------------------------------------- the run


def prepare(cfg: Config, store: Any) -> Prepared:
    """What a run would do, planned before it takes the write lock, for `run(prepared=...)`:
    from the local manifest when it describes the store, else from `store`'s stored file states
    (a reader reads them at the last published update). For a caller that measures what
    changed before it decides to refresh (a pack with a time limit): the run then plans only
    if the store changed meanwhile.

    Raises:
        StoreError: if the store cannot be read.
    """
    found = _check_manifest(cfg)
    if found is not None:
        return found
    version = int(store.table("files").version)  # before the states: a later write then shows
    states = store.file_states()
    return Prepared(make_plan(cfg, states), states, version)


def run(
    cfg: Config,
    *,
    full: bool = False,
    progress: Progress | None = None,
    prepared: Prepared | None = None,
) -> IndexReport:
    """Bring the index up to date with the working tree.

    `prepared` (from `prepare`) is the plan to follow when the store has not changed since it
    was made; its files found unchanged (`Prepared.same`) are not read again. Files whose
    content is unchanged (a new mtime only: `touch`, a worktree's first checkout) get their
    new size and mtime in the stat cache (`repomem.index.store.stats`): their rows, and the
    full-text indexes, are left as they were.

    Raises:
        StoreError: if the store cannot be opened, is locked too long, or is too new.
    """
    t0 = time.monotonic()
    early = None if full else (prepared or _check_manifest(cfg))
    if early is not None and early.report is not None:
        _embed(cfg, None, early.report, progress, early.files_version)
        early.report.seconds = time.monotonic() - t0
        return early.report
    store = open_store(cfg)
    report = IndexReport(full=full)
    seeded = None if full else seed.from_sibling(cfg, store)
    if seeded is not None:
        report.seeded_from = str(seeded)
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
            # The manifest (or the prepared plan) describes exactly this store version: reuse
            # its plan. The work tree may have changed since, as it may during any plan.
            states, plan, same = early.states, early.plan, early.same
        else:
            if not report.full:
                states = store.file_states()
            plan, same = make_plan(cfg, states), frozenset()
        report.git = plan.git
        report.files_seen = len(plan.current)
        report.unchanged = plan.unchanged
        t_plan = time.monotonic()
        _apply(cfg, store, plan, states, report, progress, same=same)
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
        report.files_seen = _held(plan.current, rows)  # as `status` counts them
    _embed(cfg, store, report, progress)
    report.seconds = time.monotonic() - t0
    return report


def rebuilding(cfg: Config) -> bool:
    """Whether a full build is under way or was cut short (its journal holds `*`)."""
    try:
        return "*" in open_store(cfg).read_journal()
    except StoreError:
        return False


def lost_build(cfg: Config, again: str) -> str | None:
    """What cutting a full build short cost, as a clause ("a full build is not resumed, ...
    `again` builds it again from the start"), or None when no full build was left unfinished
    (an update's finished batches are kept). Said alike by every command that can run one."""
    try:
        store = open_store(cfg)
        if "*" not in store.read_journal():
            return None
        kept = bool(store.published())
    except StoreError:
        return None
    before = (
        "the index stays as it was before the build"
        if kept
        else "there is no index until a build finishes"
    )
    return (
        f"a full build is not resumed, so its work so far is lost; {before}, and {again} "
        "builds it again from the start"
    )


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
            not built_under_current_rules(cfg, meta)  # the schema version included
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


def optimize_if_due(cfg: Config, *, idle: bool = False) -> bool:
    """Compact the store if the compaction policy (`_optimize_due`) says so; True when it
    compacted. `idle`: nobody waits for it, so rows missing from the full-text indexes are
    folded in too (once per cleanup window).

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
        if not _optimize_due(cfg, store, runs, meta.get("optimized_at"), idle=idle):
            return False
        store.publish(compact(store))
    return True
