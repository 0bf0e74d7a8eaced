"""Writing a plan's results to the store: parsed rows in journaled batches, the rows of content
stored under another path copied instead of parsed, new mtimes of files only touched (to the
stat cache, not the tables), and rows that remember skipped files."""

from __future__ import annotations

import logging
import time
from typing import Any

from repomem.config import Config
from repomem.index import languages
from repomem.index import tokens as tok
from repomem.index.indexer.parse import (
    CHUNK_COLUMNS,
    REF_COLUMNS,
    SYMBOL_COLUMNS,
    Parsed,
    Progress,
    Skipped,
    _run_tasks,
)
from repomem.index.indexer.plan import TEXT_DISABLED, UNREADABLE, Plan, _indexed
from repomem.types import IndexReport

log = logging.getLogger(__name__)


BATCH_FILES = 1000
BATCH_BYTES = 16 * 1024 * 1024


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
    *,
    same: frozenset[str] = frozenset(),
) -> None:
    """Write what `plan` found changed. Files in `same` (of `plan.changed`, their content
    found unchanged against `states` moments ago) are not read again; the new size and mtime
    of unchanged files go to the stat cache (`Store.record_stats`), which leaves their rows
    and the full-text indexes as they were."""
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
    # a skip row has no hash: the content it was written for, where the stat cache knows it
    contents = store.skip_contents(
        {rel: states[rel] for rel in plan.changed if rel in states and not states[rel][2]}
    )
    tasks = [
        (rel, contents.get(rel, states[rel][2]) if rel in states else None) for rel in plan.changed
    ]
    touched: dict[str, tuple[int, int, str]] = {}
    if same:
        # what each was found to hold: a skip row's content may have left the cache since
        held = {r: contents.get(r) or states[r][2] for r in same}
        held = {r: h for r, h in held.items() if _indexed(h)}
        tasks = [t for t in tasks if t[0] not in held]
        for rel in sorted(held):
            st = plan.current[rel]
            touched[rel] = (st.st_size, st.st_mtime_ns, held[rel])
        report.unchanged += len(held)
    reuse: list[Parsed] = []
    batch = _Batch()
    # the state each path's rows were written with (None: deleted), for the stat cache
    written: dict[str, tuple[int, int, str] | None] = {}
    skip_facts: dict[str, list[tuple[int, int, str]]] = {}  # skip rows with their content

    def flush() -> None:
        nonlocal batch
        if not len(batch) and not batch.replace:
            return
        paths = sorted(set(batch.replace) | {f["path"] for f in batch.files})
        written.update(dict.fromkeys(batch.replace))
        for f in batch.files:
            fact = skip_facts.get(f["path"])
            written[f["path"]] = fact[0] if fact else (f["size"], f["mtime_ns"], f["hash"])
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
        if isinstance(result, Skipped):
            rel, reason = result.path, result.reason
            if rel in states:
                batch.replace.append(rel)
            if reason == "vanished":
                plan.current.pop(rel, None)
                if rel in states:
                    deleted.add(rel)
                continue
            plan.skipped.setdefault(reason, []).append(rel)
            if _was_indexed(states, rel):
                report.deleted.append(rel)  # it was indexed; now it is not
            st = plan.current[rel]
            size, mtime = st.st_size, st.st_mtime_ns
            if result.content is not None:  # the row says what was read
                size, mtime = result.content[0], result.content[1]
                skip_facts[rel] = [result.content]
            elif reason == "text-disabled":  # a verdict that stands for any content
                skip_facts[rel] = [(size, mtime, TEXT_DISABLED)]
            batch.files.append(skip_row(rel, reason, size, mtime))
            continue
        if result.status == "same":
            touched[result.path] = (result.size, result.mtime_ns, result.hash)
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
            batch.replace.append(result.path)  # its rows, or the row that skipped it
        if _was_indexed(states, result.path):
            report.modified.append(result.path)
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
        if _was_indexed(states, r.path):
            report.modified.append(r.path)
        elif source in deleted:
            report.renamed.append((source, r.path))
        else:
            report.added.append(r.path)
    batch.replace.extend(sorted(deleted))
    renamed_from = {a for a, _b in report.renamed}
    # a file skipped before (a row says why) is not one the index loses
    report.deleted.extend(sorted(p for p in deleted - renamed_from if _was_indexed(states, p)))
    flush()
    # an entry counts only while its hash is its row's: a crash before this write costs
    # reading the touched files again, nothing more
    store.record_stats(touched, written, skip_facts)
    for reason, skipped in plan.skipped.items():
        report.skipped_paths.setdefault(reason, []).extend(skipped)


def _was_indexed(states: dict[str, tuple[int, int, str]], path: str) -> bool:
    """Whether the index held `path`'s content (not a row saying why it was skipped)."""
    state = states.get(path)
    return state is not None and _indexed(state[2])


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
