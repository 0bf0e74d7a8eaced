"""Build a context pack: the task in, a ranked bundle of code that fits a token budget out.

`build` checks the task, format and budget, reads the index while git lists the uncommitted
changes in a thread, ranks the files (`rank`), selects the project memory
(`repomem.pack.memory`), makes the candidate items (`items`: whole files, symbols, notes, map
signatures) and fills the budget with them (`packing`). The result is a `Pack`, rendered as
Markdown, JSON or XML (`render`). `warm` builds ahead, in a background refresh, what the next
pack would otherwise build first.

A constant is patched in the module that reads it (`items.LEAD_FILES`,
`packing.TOP_UP_ROUNDS`), not here: this module only imports them. `items.MAP_FILES` is read by
both: a patch there does not change how many map entries `build` offers.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from repomem import config, secrets, vcs
from repomem.config import Config
from repomem.errors import BudgetError, InputError, RepomemError, WriteAccessError
from repomem.index import dense, indexer
from repomem.index import graph as graphs
from repomem.pack import history as githistory
from repomem.pack import memory as pmemory
from repomem.pack import task as tasks
from repomem.pack.items import MAP_FILES, Item, _code_items, _estimate, _map_items, _note_items
from repomem.pack.packing import _fill
from repomem.pack.rank import rank
from repomem.pack.render import FORMATS, Pack, utf16_len

__all__ = ["FORMATS", "Item", "Pack", "build", "warm"]

log = logging.getLogger(__name__)
_POOL = ThreadPoolExecutor(1, thread_name_prefix="repomem-pack")
RANKING_SIZE = 30  # `ranking` lists at least the 20 best files, whether or not they fit
CODE_FILES = 40  # candidates whose code may enter the pack


def build(
    cfg: Config,
    task: str,
    *,
    budget: int | None = None,
    fmt: str | None = None,
    refresh: bool | None = None,
    max_chars: int | None = None,
    refresh_at_most: int | None = None,
    leave_out: Sequence[str | Path] = (),
) -> Pack:
    """Build the context pack for a task.

    Indexes the repository first if it has no index yet, and refreshes a stale index when
    `refresh` (default `pack.refresh`) is on. With `max_chars`, the rendered pack also stays
    within that many characters (for a consumer that cuts its input at a length, such as an
    assistant's hook), counted as JavaScript counts them (`utf16_len`: an emoji is two, so a
    consumer counting code points gets no more either): it is packed again within a smaller
    budget until it does, and `Pack.rendered` is the text measured. With
    `refresh_at_most`, a stale index is refreshed only when at most that many files changed
    and no rebuild is due (a repomem upgrade, other content rules): else the pack comes from
    the index as it is and says so (`fresh` false), for a caller with a time limit. That
    refresh follows the plan that counted the files, and does not read again the files it
    found only touched (a new mtime, the same content). Files in
    `leave_out` (paths from the root, or absolute: the file the task was read from) are
    neither ranked nor named as work.

    Raises:
        InputError: if the task is empty or the format unknown.
        BudgetError: if the budget (or `max_chars`) cannot hold even the header.
        StoreError: if the index cannot be built or read, or refreshed when `refresh` is
            True (by default a stale index that cannot be written is packed as it is).
    """
    t0 = time.monotonic()
    # A pasted log or command may carry a token: the pack echoes the task, so it is redacted
    # first, as prose (`password: Tr0ub4dor3` counts; pasted code such as
    # `api_key = os.environ[...]` stays as written).
    text, _ = secrets.redact(task.strip(), prose=True, extra_patterns=cfg.secrets.extra_patterns)
    if not text:
        raise InputError("The task is empty; pass the task text (or --task-file FILE).")
    fmt = cfg.pack.format if fmt is None else fmt
    if fmt not in FORMATS:
        raise InputError(f"Unknown pack format `{fmt}`; use one of {', '.join(FORMATS)}.")
    budget = cfg.pack.budget if budget is None else budget
    config.check_budget(budget, "The budget")
    asked = refresh is True  # `--refresh`: a store that cannot be written is then an error
    refresh = cfg.pack.refresh if refresh is None else refresh
    # git works while the store is read
    dirty = _POOL.submit(vcs.dirty_paths, cfg.root, submodules=cfg.index.submodules)
    store = indexer.reader(cfg)
    built = store.exists()
    meta: dict[str, str] | None = None  # read once, unless an index run changes it
    # (files changed, HEAD, the plan that counted them): planned once, and the refresh that
    # follows reuses the plan unless the store changed meanwhile
    measured: tuple[int, str | None, indexer.Prepared] | None = None
    if refresh and refresh_at_most is not None and built:
        # a rebuild (another schema or content rules, one cut short) could take minutes
        meta = store.all_meta()
        due = not indexer.built_under_current_rules(cfg, meta)
        if not due and "*" not in store.read_journal():
            measured = _pending(cfg, store)
        refresh = measured is not None and measured[0] <= refresh_at_most
    refreshed = not built or refresh
    if refreshed:
        # it compares the work tree with the store: now fresh
        try:
            indexer.run(cfg, prepared=measured[2] if measured else None)
        except WriteAccessError as exc:
            if asked or not built:
                raise
            # a read-only checkout: pack from its index as it is, which then says it is stale
            log.warning("index not refreshed: %s", exc)
            refreshed = False
        else:
            store = indexer.reader(cfg)
    if refreshed or meta is None:
        meta = store.all_meta()
    commit = meta.get("indexed_commit") or None
    try:
        indexed_at: float | None = float(meta.get("indexed_at") or "")
    except ValueError:
        indexed_at = None
    pending = 0
    fresh = True
    if not refreshed:
        pending, head, _ = measured or _pending(cfg, store)
        fresh = pending == 0 and commit == head and indexer.built_under_current_rules(cfg, meta)

    signals = tasks.analyse(text)
    selection = pmemory.select(cfg, store, text)
    left_out = _repository_paths(cfg, leave_out)
    # repomem's own files (its settings, the memory file) are never indexed, so never ranked
    changed = _uncommitted(dirty, left_out)
    signals.cited = selection.cited
    state = indexer.state_dir(cfg)
    symbols: dict[str, list[dict[str, Any]]] = {}  # file symbols read once per pack
    ranked = rank(
        store, signals, graph_cache=state, history=githistory.load(cfg.root, state),
        embedder=dense.embedder_for(cfg), symbols=symbols, uncommitted=changed,
    )  # fmt: skip
    if left_out:  # the task's own words would rank it first
        ranked = [c for c in ranked if c.path not in left_out]
    working = {c.path for c in ranked if "work" in c.signals}  # the indexed ones (rank knows)
    deleted = _deleted(cfg, [p for p in changed if p not in working])
    uncommitted = [p for p in changed if p in working or p in deleted]
    if cfg.pack.llm_rerank:
        from repomem.llm import rerank as model_rerank

        ranked = model_rerank.rerank(cfg, text, ranked)
    margin = cfg.pack.token_margin
    extra = cfg.secrets.extra_patterns
    top_paths = [c.path for c in ranked[:10]]
    entries = pmemory.finish(cfg, selection, top_paths) + pmemory.recent(selection)
    memory = []
    for e in sorted(entries, key=lambda e: -e.score):
        # the file is committed and edited by hand: a secret written into it stops here
        body, _ = secrets.redact(e.text, config_like=True, extra_patterns=extra)
        memory.append(Item("memory", selection.path, e.symbol, 0, 0, _estimate(body, margin),
                           e.score, e.reason, body, exact=False))  # fmt: skip
    candidates = _code_items(store, ranked[:CODE_FILES], margin, symbols, budget)
    candidates += _note_items(cfg, store, ranked[:CODE_FILES], margin)
    map_items = _map_items(store, ranked[:MAP_FILES], margin, symbols)

    def filled(limit: int) -> Pack:
        pack = Pack(
            task=text, budget=limit, tokens=0, fresh=fresh, repository=cfg.root.name,
            commit=commit, pending=pending, indexed_at=indexed_at,
            ranking=[(c.path, c.score) for c in ranked[:RANKING_SIZE]], uncommitted=uncommitted,
            deleted=deleted,
        )  # fmt: skip
        _fill(pack, memory, candidates, map_items, limit, margin, cfg.pack, fmt)
        return pack

    pack = filled(budget)
    if max_chars is not None:
        pack = _within_chars(pack, filled, max_chars, fmt)
    pack.seconds = time.monotonic() - t0
    return pack


def _repository_paths(cfg: Config, paths: Sequence[str | Path]) -> set[str]:
    """The given paths that lie inside the repository, relative to its root."""
    root = cfg.root.resolve()
    out: set[str] = set()
    for p in paths:
        full = (cfg.root / p).resolve()  # an absolute path stays as it is
        if root in full.parents:
            out.add(full.relative_to(root).as_posix())
    return out


def _pending(cfg: Config, store: Any) -> tuple[int, str | None, indexer.Prepared]:
    """How many files changed or went away since the index was updated, git's HEAD, and the
    plan that found them (for a refresh to reuse; its `same`: the files only touched)."""
    prepared = indexer.prepare(cfg, store)
    plan = prepared.plan
    states = prepared.states
    really = indexer.really_changed(cfg, plan, states, store.skip_contents(states))
    prepared.same = frozenset(plan.changed).difference(really)
    return len(really) + len(indexer.indexed_deleted(plan, prepared.states)), plan.head, prepared


CHAR_SLACK = 0.97  # aim a little below the character ceiling when packing again


def _within_chars(pack: Pack, filled: Any, max_chars: int, fmt: str) -> Pack:
    """The pack, packed again within smaller budgets until its rendering (kept in
    `pack.rendered`) has at most `max_chars` characters in UTF-16 (the budget scaled by how far
    over it was, each round)."""
    while True:
        text = pack.render(fmt)
        length = utf16_len(text)
        if length <= max_chars:
            pack.rendered = text
            return pack
        limit = min(pack.budget - 1, int(pack.budget * max_chars / length * CHAR_SLACK))
        if limit < config.MIN_BUDGET:
            raise BudgetError(
                f"A pack cannot fit in {max_chars} characters (within {pack.budget} tokens it "
                f"has {length}, and the smallest budget is {config.MIN_BUDGET}); allow more "
                f"characters."
            )
        pack = filled(limit)


def _deleted(cfg: Config, paths: Sequence[str]) -> set[str]:
    """Those of `paths` (with uncommitted changes) gone from the work tree that an index run
    would take (not a credential file, a vendored or ignored one, ...): work in progress too."""
    from repomem.index import discovery

    filt = discovery.Filter(cfg)
    return {p for p in paths if not os.path.lexists(cfg.root / p) and filt.reason(p) is None}


def _uncommitted(dirty: Future[list[str]], out: set[str]) -> list[str]:
    """The paths with uncommitted changes but those left `out` (none without git, or when git
    fails); `rank` keeps those it indexed."""
    try:
        return [p for p in dirty.result() if p not in out]
    except (RepomemError, OSError, vcs.git_error()) as exc:
        log.debug("no uncommitted changes for the pack: %s", exc)
        return []


def warm(cfg: Config) -> float:
    """Build what the next pack would otherwise build first, in a background refresh (a git
    hook's, the watcher's): the def/ref graph with its PageRank and the git history's signals,
    both cached on disk until the index or HEAD changes. Returns the seconds it took.

    After a commit the first pack paid for both: on a 12,000-file repository 2.6 s more than
    a warm pack with the graph built whole, about 1 s with the graph updated in place.

    Raises:
        StoreError: if the store cannot be read.
    """
    t0 = time.monotonic()
    store = indexer.reader(cfg)
    if store.exists():
        state = indexer.state_dir(cfg)
        graphs.cached(store, state)
        githistory.load(cfg.root, state)
    return time.monotonic() - t0
