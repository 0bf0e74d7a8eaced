"""The local manifest: a snapshot of the stored file states, so a run with nothing to do plans
from it without opening the database; and the writer stamp that tells a store shared by two
checkouts was last written by the other one."""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections import Counter
from pathlib import Path
from typing import Any

from repomem.config import Config
from repomem.errors import StoreError
from repomem.index import commits, schema
from repomem.index.indexer.location import content_rules, open_store, state_dir, store_uri
from repomem.index.indexer.plan import Prepared, make_plan
from repomem.types import IndexReport

log = logging.getLogger(__name__)


MANIFEST_VERSION = 2  # 2: a run after HEAD moved also stores commit messages


def _manifest_path(cfg: Config) -> Path:
    return state_dir(cfg) / "manifest.json"


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


def _held(paths: Any, rows: dict[str, list[Any]]) -> int:
    """How many of `paths` the index holds: those whose state row (`_state_rows`) records no
    skip (a binary, a generated or minified file is skipped only once it is read)."""
    return sum(1 for p in paths if not (len(rows.get(p, ())) > 3 and rows[p][3]))


def _check_manifest(cfg: Config) -> Prepared | None:
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
    if not _tables_present(store_uri(cfg)):
        return None  # the manifest outlived tables it describes: the store must be opened
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
    check = Prepared(plan, states, int(data.get("files_version", -1)))
    if (
        plan.changed
        or plan.deleted
        or plan.head != data.get("head")
        or data.get("commit_history") != cfg.index.commit_history
        or data.get("commits_format") != commits.FORMAT
        or data.get("content_rules") != content_rules(cfg)
    ):
        return check
    report = IndexReport(
        files_seen=_held(plan.current, data["files"]), unchanged=plan.unchanged, git=plan.git
    )
    report.skipped = _skip_counts(plan.skipped, data["files"])
    check.report = report
    return check


def _tables_present(uri: str) -> bool:
    """Whether a local store still has the folders of the tables a run plans from and readers
    need (a remote one is taken as it is: asking costs a request)."""
    if "://" in uri:
        return True
    return all((Path(uri) / f"{name}.lance").is_dir() for name in ("meta", *schema.DERIVED))


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
