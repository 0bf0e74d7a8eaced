"""`repomem doctor`: check the store, the hooks and the memory file; repair what can be repaired.

Checks, in order (each gives one `Check`):

    store      the store opens and has been built
    schema     its schema version is this repomem's (older: rebuilt or migrated by a run)
    writer     whether another process holds the write lock right now (then later checks are
               not conclusive; nothing is repaired), or the lock cannot be taken at all (a
               read-only checkout: the read checks run, nothing is repaired)
    journal    no interrupted run left a journal behind
    rows       rows agree with each other: one row per file, symbols and references only for
               stored files, each file's symbol count equals its symbols
    fresh      the index matches HEAD and the work tree
    versions   old table versions are being cleaned up (compaction keeps the store small)
    exclude    each `index.exclude` pattern matches some file of the repository (a note when
               one matches none: a typo excludes nothing, silently)
    hooks      repomem's git hooks, when installed, are all present and current
    memory     the project memory file parses (skipped when the memory module is absent)

`repair` fixes what the checks found: an incremental index run (completes a journal, migrates
or rebuilds an old schema, catches up), a full rebuild of the derived tables when rows disagree
or the store cannot be read (the files are the source of truth; notes and memory are kept), a
compaction, a reinstall of damaged hooks, and a resync of the memory's derived rows.
"""

from __future__ import annotations

import logging
import shutil
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from repomem import hooks, vcs
from repomem.config import Config
from repomem.errors import LockTimeoutError, RepomemError, WriteAccessError
from repomem.fsutil import echo
from repomem.index import indexer, schema
from repomem.index.query import ago

log = logging.getLogger(__name__)

MAX_VERSIONS = 100  # per table; more means compaction has not run for a long time
CLEANUP_SECONDS = 60.0  # versions younger than this survive a repair (readers may use them)


@dataclass
class Check:
    """One finding."""

    name: str
    status: str  # "ok", "problem", "note" (informational), "skipped"
    message: str
    fix: str = ""  # what `repair` would do ("" when nothing)
    fixed: bool = False

    @property
    def ok(self) -> bool:
        return self.status != "problem"

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "status": self.status,
            "message": self.message,
            "fix": self.fix,
            "fixed": self.fixed,
        }


def diagnose(cfg: Config) -> list[Check]:
    """Run every check; never raises for a broken store (that is a finding)."""
    checks: list[Check] = []
    store = _store_checks(cfg, checks)
    if store is not None:
        busy = _writer_check(store, checks)
        if not busy:
            _data_checks(cfg, store, checks)
    if cfg.index.exclude:
        checks.append(_exclude_check(cfg))
    checks.append(_hooks_check(cfg))
    checks.append(_memory_check(cfg))
    return checks


def _store_checks(cfg: Config, checks: list[Check]) -> Any:
    if indexer.store_absent(cfg):
        checks.append(Check("store", "problem", "No index yet.", fix="index"))
        return None
    try:
        store = indexer.open_store(cfg)
        built = store.exists()
        version = store.get_meta("schema_version") if built else None
    except (RepomemError, OSError, ValueError, RuntimeError) as exc:
        checks.append(
            Check("store", "problem", f"The store cannot be read ({_short(exc)}).", fix="rebuild")
        )
        return None
    if not built:
        checks.append(Check("store", "problem", "No index yet.", fix="index"))
        return None
    checks.append(Check("store", "ok", f"Store at {store.uri}."))
    v = int(version) if version and version.isdigit() else 0
    if v > schema.SCHEMA_VERSION:
        checks.append(
            Check(
                "schema",
                "problem",
                f"Schema version {v} is newer than this repomem's ({schema.SCHEMA_VERSION}); "
                f"upgrade repomem (`pip install -U repomem`).",
            )  # fmt: skip
        )
        return None
    if v < schema.SCHEMA_VERSION:
        checks.append(Check("schema", "problem", f"Schema version {v} is outdated.", fix="index"))
        return None
    checks.append(Check("schema", "ok", f"Schema version {v}."))
    return store


def _writer_check(store: Any, checks: list[Check]) -> bool:
    from repomem.index.store import WriteLock

    try:
        with WriteLock(store.lock_path, 0.0):
            pass
    except WriteAccessError as exc:
        # a read-only checkout: nothing can be repaired, but the index can still be read
        checks.append(Check("writer", "problem", str(exc)))
        return False
    except LockTimeoutError:
        checks.append(
            Check(
                "writer",
                "note",
                "Another repomem process is writing the index now; run doctor again later "
                "for the data checks.",
            )  # fmt: skip
        )
        return True
    checks.append(Check("writer", "ok", "No writer is running."))
    return False


def _data_checks(cfg: Config, store: Any, checks: list[Check]) -> None:
    journal = store.read_journal()
    if journal:
        what = (
            "An interrupted full build left a journal (the next index run starts it over)."
            if "*" in journal
            else f"An interrupted index run left a journal ({len(journal)} path(s))."
        )
        checks.append(Check("journal", "problem", what, fix="index"))
    else:
        checks.append(Check("journal", "ok", "No interrupted run."))
    try:
        problems = _row_problems(store)
    except (RepomemError, OSError, ValueError, RuntimeError) as exc:
        problems = [f"the tables cannot be read ({_short(exc)})"]
    if problems:
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        checks.append(Check("rows", "problem", "; ".join(problems[:3]) + more + ".", fix="rebuild"))
    else:
        files = store.count("files")
        agree = f"{files} file rows agree with symbols, chunks and refs."
        checks.append(Check("rows", "ok", agree))
    try:
        from repomem.index import query

        st = query.status(cfg)
    except (RepomemError, OSError, ValueError, RuntimeError) as exc:
        checks.append(
            Check("fresh", "problem", f"Cannot compare with the work tree ({_short(exc)}).")
        )
    else:
        age = st["age_seconds"]
        when = f"last updated {ago(age)}" if age is not None else "never updated"
        if st["fresh"]:
            checks.append(Check("fresh", "ok", f"Fresh ({when})."))
        else:
            pending = st["pending"]["changed"] + st["pending"]["deleted"]
            moved = st["indexed_commit"] != st["head"]
            what = f"{pending} file(s) pending" + (", HEAD moved" if moved else "")
            checks.append(Check("fresh", "note", f"Stale: {what} ({when}).", fix="index"))
    versions = _version_counts(store)
    worst = max(versions.values(), default=0)
    if worst > MAX_VERSIONS:
        table = max(versions, key=lambda k: versions[k])
        checks.append(
            Check(
                "versions",
                "problem",
                f"Table `{table}` keeps {worst} versions; old versions are not being cleaned up.",
                fix="optimize",
            )  # fmt: skip
        )
    else:
        size = store.size_bytes()
        mb = f", {size / 1e6:.1f} MB" if size is not None else ""
        checks.append(Check("versions", "ok", f"At most {worst} versions per table{mb}."))


def _exclude_check(cfg: Config) -> Check:
    """Whether each `index.exclude` pattern matches a file of the repository."""
    from repomem.index import discovery

    try:
        listed = discovery.git_files(cfg) if vcs.open_repo(cfg.root) is not None else None
        idle = discovery.unmatched_excludes(cfg, listed)
    except (RepomemError, OSError) as exc:
        return Check("exclude", "problem", f"Cannot list the repository's files ({_short(exc)}).")
    if not idle:
        return Check("exclude", "ok", f"Each `index.exclude` pattern matches a file "
                     f"({len(cfg.index.exclude)}).")  # fmt: skip
    named = ", ".join(f"`{echo(p)}`" for p in idle[:5]) + (" ..." if len(idle) > 5 else "")
    return Check(
        "exclude", "note",
        f"`index.exclude` pattern(s) matching no file: {named}; check the spelling "
        "(gitignore syntax, relative to the repository root).",
    )  # fmt: skip


def _row_problems(store: Any) -> list[str]:
    out: list[str] = []
    files = store.column("files", ["path", "symbols", "skip"])
    counts = Counter(files["path"])
    dups = sorted(p for p, n in counts.items() if n > 1)
    if dups:
        out.append(f"{len(dups)} file(s) stored twice, e.g. `{dups[0]}`")
    recorded = dict(zip(files["path"], files["symbols"], strict=True))
    per_path = Counter(store.column("symbols", ["path"])["path"])
    orphans = sorted(set(per_path) - set(recorded))
    if orphans:
        out.append(f"symbols of {len(orphans)} file(s) that are not stored, e.g. `{orphans[0]}`")
    wrong = sorted(p for p, n in per_path.items() if p in recorded and recorded[p] != n)
    wrong += sorted(p for p, n in recorded.items() if n and p not in per_path)
    if wrong:
        out.append(f"{len(wrong)} file(s) whose symbols do not match, e.g. `{wrong[0]}`")
    for table, what in (("refs", "references"), ("chunks", "chunks")):
        paths = set(store.column(table, ["path"])["path"])
        stray = sorted(paths - set(recorded))
        if stray:
            out.append(f"{what} of {len(stray)} unstored file(s), e.g. `{stray[0]}`")
    return out


def _version_counts(store: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for name in schema.DERIVED:
        try:
            out[name] = len(store.table(name).list_versions())
        except (RepomemError, OSError, ValueError, RuntimeError):
            continue
    return out


def _short(exc: BaseException) -> str:
    """The first clause of an error (LanceDB's carry a Rust backtrace)."""
    text = str(exc).split(", /rustc/")[0].strip()
    return text if len(text) <= 240 else text[:237] + "..."


def _hooks_check(cfg: Config) -> Check:
    if vcs.open_repo(cfg.root) is None:
        return Check("hooks", "skipped", "Not a git repository: no hooks.")
    try:
        states = hooks.status(cfg)
    except RepomemError as exc:
        return Check("hooks", "problem", str(exc))
    installed = [s for s in states if s.state == "installed"]
    if len(installed) == len(states):
        return Check("hooks", "ok", f"{len(states)} hooks installed ({states[0].manager}).")
    if not installed and all(s.state in ("missing", "foreign") for s in states):
        return Check(
            "hooks", "note", "Not installed (optional: `repomem hooks install` keeps the index "
            "fresh after commits and checkouts).",
        )  # fmt: skip
    bad = ", ".join(f"{s.name} {s.state}" for s in states if s.state != "installed")
    return Check("hooks", "problem", f"Some hooks are damaged: {bad}.", fix="hooks")


def _memory_check(cfg: Config) -> Check:
    from repomem.memory import access

    try:
        if not access.memory_path(cfg).exists():
            return Check("memory", "ok", f"No memory file yet ({cfg.memory.file}).")
        access.load(cfg)
    except RepomemError as exc:
        return Check("memory", "problem", f"{cfg.memory.file} does not parse: {exc}")
    return Check("memory", "ok", f"{cfg.memory.file} parses.", fix="memory")


def repair(cfg: Config, checks: list[Check] | None = None) -> list[Check]:
    """Fix what `diagnose` found (or finds now); returns the checks with `fixed` set.

    Raises:
        RepomemError: when a repair itself fails (e.g. the store is locked).
    """
    checks = diagnose(cfg) if checks is None else checks
    if any(c.name == "writer" and c.status != "ok" for c in checks):
        return checks  # someone is writing (repairs would race with them), or nobody can
    fixes = {c.fix for c in checks if not c.ok or c.status == "note"}
    if "rebuild" in fixes:
        _rebuild(cfg)
    elif "index" in fixes:
        indexer.run(cfg)
    if "optimize" in fixes:
        store = indexer.open_store(cfg)
        with store.writing():
            store.publish(indexer.compact(store, cleanup_seconds=CLEANUP_SECONDS))
    if "hooks" in fixes:
        hooks.install(cfg)
    for c in checks:
        if c.name == "memory" and c.fix == "memory":
            c.fixed = _resync_memory(cfg)
        elif c.fix and c.fix in fixes:
            c.fixed = True
    return checks


def _rebuild(cfg: Config) -> None:
    """A full build; when the store cannot even be opened, it is moved aside first."""
    try:
        indexer.run(cfg, full=True)
        return
    except LockTimeoutError:
        raise
    except (RepomemError, OSError, ValueError, RuntimeError) as exc:
        failure: Exception = exc
    uri = indexer.store_uri(cfg)
    broken = Path(uri)
    if "://" in uri or not broken.exists() or isinstance(failure, WriteAccessError):
        raise failure  # nothing to move aside, or the place itself cannot be written
    aside = broken.with_name(f"{broken.name}.broken-{time.strftime('%Y%m%d-%H%M%S')}")
    log.warning("the store cannot be rebuilt in place (%s); moving it to %s", failure, aside)
    shutil.move(str(broken), str(aside))
    indexer.run(cfg, full=True)


def _resync_memory(cfg: Config) -> bool:
    """Rebuild the memory's derived rows from the file if they lag it; True if they did."""
    from repomem.memory import derived

    return derived.ensure_synced(cfg, indexer.open_store(cfg))
