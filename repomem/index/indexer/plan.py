"""What a run has to do: the working tree compared with the stored file states by size and
mtime (no file is read), and which of the changed files really changed (by content hash)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.index import discovery
from repomem.index.discovery import Filter, Skip
from repomem.index.indexer.location import state_dir
from repomem.types import IndexReport


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


@dataclass
class Prepared:
    """A plan made before a run takes the write lock, and the stored file states it compared
    the work tree with: the store's `files` table at version `files_version`. A run reuses it
    while the store is still at that version (else it plans again under the lock).

    `report` is set when there is nothing to do; `same` holds files of `plan.changed` whose
    content was found unchanged (`really_changed`), which the run does not read again.
    """

    plan: Plan
    states: dict[str, tuple[int, int, str]]
    files_version: int
    report: IndexReport | None = None
    same: frozenset[str] = frozenset()


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
            listed = pool.submit(discovery.git_files, cfg, only)
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


def really_changed(
    cfg: Config,
    plan: Plan,
    states: dict[str, tuple[int, int, str]],
    contents: Mapping[str, str] | None = None,
) -> list[str]:
    """`plan.changed` without the files only touched (same size and content, a new mtime:
    `touch`, a checkout that rewrote them), which an index run would not change. Reads the
    touched files, as the run itself would. `contents`: the content each skip row was written
    for, where the stat cache knows it (`Store.skip_contents`); a skip row without one counts
    as changed."""
    out: list[str] = []
    for rel in plan.changed:
        old = states.get(rel)
        st = plan.current.get(rel)
        held = None
        if old is not None:
            held = old[2] if old[2] == UNREADABLE or _indexed(old[2]) else (contents or {}).get(rel)
        if held == TEXT_DISABLED:
            continue  # the path's verdict, whatever the file holds
        if old is None or st is None or old[0] != st.st_size or held is None:
            out.append(rel)
        elif held == UNREADABLE:
            if os.access(os.path.join(cfg.root, rel), os.R_OK):
                out.append(rel)
        elif discovery.file_hash(cfg, rel, old[0]) != held:
            out.append(rel)
    return out


def pending_changes(
    cfg: Config, store: Any, plan: Plan, states: dict[str, tuple[int, int, str]]
) -> tuple[list[str], list[str]]:
    """What an index run would change: the files that really changed (`really_changed`, skip
    rows compared with the content the stat cache recorded for them), and the indexed files
    deleted. A deleted skipped file (binary, minified, too large, a credential file...) is
    none: nothing of it is searchable, so its going changes no answer (the next run drops its
    row all the same)."""
    changed = really_changed(cfg, plan, states, store.skip_contents(states))
    deleted = [p for p in plan.deleted if p in states and _indexed(states[p][2])]
    return changed, deleted


# The hash of a file skipped as unreadable: looked at again once it can be read, kept (its new
# stat in the stat cache) while it cannot.
UNREADABLE = "!unreadable"
# What a `text-disabled` skip row holds for the stat cache (`Store.skip_contents`): its verdict
# is its path's (no parser, text files off), true of any content, so a file only touched or
# rewritten keeps its row.
TEXT_DISABLED = "!text-disabled"


def _indexed(stored_hash: str) -> bool:
    """Whether a stored file state is an indexed file (skipped files have no content hash)."""
    return bool(stored_hash) and stored_hash != UNREADABLE
