"""A worktree's first index, started from another worktree's.

`git worktree add` (how people run several assistant sessions side by side) gives a work tree
whose files are mostly those of the checkout it came from. Its first run would parse them all
again; instead it copies the store of a sibling worktree of the same repository (under that
store's write lock, so no half-written update is copied) and then updates the copy as every run
does: files with the same content only get their new mtime, the others are parsed. The copy
also keeps the per-file notes (written by people, or by Claude and paid for) and any dense
vectors.

The copy starts its own count of runs toward a compaction (`runs_since_optimize`): it is as
compact as the donor, and the donor's count would make the copy's first run that changes
anything pay for the donor's past runs, on a Claude Code session's first prompt. Rows the
donor's full-text indexes lack are left to the usual policy (folded in when idle, or at once
when many). The first run reads every file (the checkout gave them all new mtimes) and records
the new mtimes of those with the donor's content in this work tree's stat cache
(`repomem.index.store.stats`), which the copy does not take: their rows stay as copied, and
the full-text indexes need no compaction for them. It takes only what the donor's cache says
the copied skip rows (binary, generated, minified files) were written for, so those files too
are found unchanged and keep their rows.

Only the default location is seeded (`<git dir>/repomem/lance`): a configured `store.path` is
the user's choice of store, perhaps shared. A donor must have been built under this repomem's
schema and today's content rules, with no interrupted run to complete; the one at our HEAD is
preferred, then the most recently indexed.
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repomem import vcs
from repomem.config import Config
from repomem.errors import LockTimeoutError, RepomemError
from repomem.index.indexer.location import built_under_current_rules

log = logging.getLogger(__name__)

# How long a donor's writer may keep us waiting before we build from scratch instead: an
# update takes seconds, a full build minutes.
DONOR_LOCK_SECONDS = 10.0


@dataclass(frozen=True)
class _Donor:
    store: Any  # the donor's Store (its lock held for `DONOR_LOCK_SECONDS` at most)
    at_head: bool
    indexed_at: float


def has_tables(lance: Path) -> bool:
    """Whether a local store folder holds an index (its `meta` table), not just the empty
    folder that opening a connection leaves."""
    return (lance / "meta.lance").is_dir()


def from_sibling(cfg: Config, store: Any) -> Path | None:
    """Copy a sibling worktree's store into this work tree's empty default store location
    (`store`, this work tree's Store, whose write lock is taken for it).

    Returns the donor's work tree, or None when nothing was copied (no usable donor, a
    configured `store.path`, an index already here, a copy that failed).
    """
    if cfg.store.path.strip():
        return None
    target = Path(store.uri)
    if has_tables(target):
        return None
    siblings = vcs.sibling_git_dirs(cfg.root)
    if not siblings:
        return None
    info = vcs.open_repo(cfg.root)
    donors = _donors(cfg, siblings, info.head if info else None)
    if not donors:
        return None
    with store.writing():
        if has_tables(target):  # another run seeded or built it while we waited
            return None
        for donor in donors:
            skips = _copy(donor.store, target)
            if skips is not None:
                log.info("started the index from the worktree store in %s", donor.store.uri)
                _own_count(store)
                store.record_stats({}, skipped=skips)
                return vcs.work_tree_of(donor.store.state_dir.parent)
    return None


def _own_count(store: Any) -> None:
    """Start the copy's count of runs toward a compaction (see the module docstring); a failure
    costs an early compaction, not the copy."""
    try:
        store.set_meta({"runs_since_optimize": "0"})
    except (RepomemError, OSError, ValueError, RuntimeError) as exc:
        log.info("the copy keeps the donor's count of runs since its compaction: %s", exc)


def _donors(cfg: Config, siblings: list[Path], head: str | None) -> list[_Donor]:
    """The sibling worktrees' stores this run may start from, best first."""
    from repomem.index.store import Store

    found: list[_Donor] = []
    for git_dir in siblings:
        state = git_dir / "repomem"
        lance = state / "lance"
        if not has_tables(lance):
            continue
        try:
            donor = Store(str(lance), state, lock_timeout=DONOR_LOCK_SECONDS)
            if donor.read_journal():
                continue  # an interrupted run: its rows are not an index of any tree
            meta = donor.all_meta()
        except (RepomemError, OSError, ValueError, RuntimeError) as exc:
            log.info("not starting from %s: %s", lance, exc)
            continue
        if "schema_version" not in meta or not built_under_current_rules(cfg, meta):
            continue
        try:
            when = float(meta.get("indexed_at") or 0)
        except ValueError:
            when = 0.0
        at_head = head is not None and meta.get("indexed_commit") == head
        found.append(_Donor(donor, at_head, when))
    return sorted(found, key=lambda d: (not d.at_head, -d.indexed_at))


def _copy(donor: Any, target: Path) -> dict[str, list[tuple[int, int, str]]] | None:
    """Copy the donor's store to `target` under the donor's write lock; None if it is busy
    for long, was interrupted meanwhile, or the copy fails (nothing is left half-copied). Else
    what the copied skip rows were written for, from the donor's stat cache (`Store.
    recorded_skips`: about rows, not the donor's mtimes, which the copy does not take)."""
    source = Path(donor.uri)
    tmp = target.parent / f".{target.name}.seed.{os.getpid()}"
    try:
        with donor.writing():
            if donor.read_journal() or not has_tables(source):
                return None
            shutil.rmtree(tmp, ignore_errors=True)
            shutil.copytree(source, tmp, symlinks=True)
            skips: dict[str, list[tuple[int, int, str]]] = donor.recorded_skips()
        with contextlib.suppress(FileNotFoundError):
            if target.is_dir() and not has_tables(target):
                shutil.rmtree(target)  # the empty folder a connection left
        os.replace(tmp, target)
        with contextlib.suppress(OSError):
            (target / ".repomem-writer").unlink()  # the donor wrote it, not this work tree
        return skips
    except (LockTimeoutError, OSError) as exc:
        log.info("not starting from %s: %s", source, exc)
        shutil.rmtree(tmp, ignore_errors=True)
        return None
