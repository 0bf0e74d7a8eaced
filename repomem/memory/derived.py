"""The project memory's derived copy in the index store, for search and packs.

The file is the source of truth; the store's `memory` table is rebuilt from it whenever the
file's content hash differs from the one recorded at the last sync (so hand edits, merges and
`git pull` are picked up the next time anything reads memory from the store).
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import logging
import time
from collections.abc import Sequence
from typing import Any

from repomem import secrets
from repomem.config import Config
from repomem.errors import WriteAccessError
from repomem.index import tokens as tok
from repomem.memory import access
from repomem.memory import file as mfile
from repomem.memory.file import MemoryDoc
from repomem.memory.model import Fact, HistoryEntry, Session

log = logging.getLogger(__name__)

META_KEY = "memory_file_hash"
ROWS_FORMAT = "redacted-2:"  # changing it makes every store rebuild its memory rows once


def _searchable(item: Fact | Session | HistoryEntry) -> str:
    if isinstance(item, Fact):
        parts = [item.text, item.topic, *(c.target for c in item.cites)]
    elif isinstance(item, Session):
        parts = [
            item.title,
            item.summary,
            *item.commits,
            *item.added,
            *item.modified,
            *item.deleted,
            *(s.lstrip("+~-") for s in item.symbols),
        ]
    else:
        parts = [item.label, item.summary]
    return "\n".join(p for p in parts if p)


def _clean(text: str, extra: Sequence[str]) -> str:
    return secrets.redact(text, config_like=True, extra_patterns=extra)[0] if text else text


# The fields people write (ids, hashes, dates and paths are repomem's own)
_PROSE = ("text", "topic", "why", "title", "summary", "label", "commits", "source", "agent", "by")


def _prose(item: Fact | Session | HistoryEntry) -> dict[str, Any]:
    return {k: getattr(item, k) for k in _PROSE if hasattr(item, k)}


def _redacted(data: dict[str, Any], extra: Sequence[str]) -> dict[str, Any]:
    """An entry's fields with the prose in them redacted."""
    out = dict(data)
    for key in _PROSE:
        value = out.get(key)
        if isinstance(value, str):
            out[key] = _clean(value, extra)
        elif isinstance(value, list):
            out[key] = [_clean(v, extra) for v in value]
    return out


def rows(doc: MemoryDoc, extra: Sequence[str] = ()) -> list[dict[str, Any]]:
    """The store rows for every entry (forgotten facts leave nothing but their id), with
    secrets redacted (`extra`: the configured `secrets.extra_patterns`)."""
    now = time.time()
    out: list[dict[str, Any]] = []
    for entry in doc.entries(*mfile.ENTRY_SECTIONS):
        item = entry.item
        if isinstance(item, Fact):
            kind = item.kind
            if item.status == "forgotten":
                continue
        else:
            kind = "session" if isinstance(item, Session) else "history"
        # a secret written into the file by hand (or pulled) never enters the store: the
        # entry is redacted once, and both its search text and its JSON come from that
        clean = dataclasses.replace(item, **_redacted(_prose(item), extra))
        data = dataclasses.asdict(clean)
        out.append(
            {
                "id": item.id,
                "kind": kind,
                "text": tok.document(_searchable(clean)),
                "data": json.dumps(data, ensure_ascii=False),
                "updated_at": now,
            }
        )
    return out


def ensure_synced(
    cfg: Config, store: Any, *, text: str | None = None, doc: MemoryDoc | None = None
) -> bool:
    """Rebuild the store's memory rows if the file changed since the last sync.

    A caller that has just read the file passes its `text` (and the `doc` parsed from it) so
    it is not read again. Returns True when it rebuilt. Needs the store's write lock only
    when it rebuilds.
    """
    path = access.memory_path(cfg)
    if text is None:
        text = access.read_text(path)
    # salted with the rows' format: stores synced before their rows were redacted rebuild
    digest = hashlib.blake2b((ROWS_FORMAT + (text or "")).encode(), digest_size=16).hexdigest()
    if store.get_meta(META_KEY) == digest:
        return False
    if doc is None:
        doc = access.doc_from_text(text, path)
    try:
        with store.writing():
            store.replace_memory(rows(doc, cfg.secrets.extra_patterns))
            store.set_meta({META_KEY: digest})
    except WriteAccessError as exc:
        # a read-only checkout: search the rows as they are (recall redacts what it returns)
        log.info("memory rows not resynced: %s", exc)
        return False
    return True


def item_from_row(row: dict[str, Any], extra: Sequence[str] = ()) -> Fact | Session | HistoryEntry:
    """Rebuild an entry from a store row's JSON (redacted again: rows written before their
    redaction may remain in a store that cannot be rewritten)."""
    data = _redacted(json.loads(row["data"]), extra)
    if row["kind"] == "session":
        return Session(**data)
    if row["kind"] == "history":
        return HistoryEntry(**data)
    from repomem.memory.model import Citation

    cites = [Citation(**c) for c in data.pop("cites", [])]
    return Fact(**data, cites=cites)


def recall(
    cfg: Config, query: str, *, limit: int = 10
) -> list[tuple[Fact | Session | HistoryEntry, float]]:
    """Memory entries matching `query`, best first (BM25 over the store's derived rows).

    Superseded facts are left out (their successors are what is true); stale facts come back
    with their status, so callers can mark them. Without an index yet, it is built first.
    """
    from repomem.index import indexer

    store = indexer.reader(cfg)
    if not store.exists():
        indexer.run(cfg)
        store = indexer.reader(cfg)
    ensure_synced(cfg, store)
    out: list[tuple[Fact | Session | HistoryEntry, float]] = []
    for row, score in store.search_memory(query, limit=limit * 2):
        item = item_from_row(row, cfg.secrets.extra_patterns)
        if isinstance(item, Fact) and item.status not in ("valid", "stale"):
            continue
        out.append((item, score))
    return out[:limit]
