"""Where a repository's index lives and how it is opened.

The state directory (in the git directory, else under `REPOMEM_HOME`; from
`repomem.index.state`, which needs no indexer), the store's URI, the fingerprint of the settings
its content was built under, and the Store for writing (`open_store`) or for reading, kept for
the life of the process (`reader`).
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from pathlib import Path
from typing import Any

from repomem.config import Config
from repomem.errors import StoreError
from repomem.index import schema
from repomem.index.state import home_dir, state_dir

__all__ = [
    "built_under_current_rules", "content_rules", "home_dir", "open_store", "reader", "state_dir",
    "store_absent", "store_uri",
]  # fmt: skip

log = logging.getLogger(__name__)


def store_uri(cfg: Config) -> str:
    """The LanceDB URI: `store.path` (relative paths are from the repository root) or default."""
    configured = cfg.store.path.strip()
    if configured:
        if "://" in configured:
            return configured
        p = Path(configured).expanduser()
        return str(p if p.is_absolute() else cfg.root / p)
    return str(state_dir(cfg) / "lance")


def store_absent(cfg: Config) -> bool:
    """Whether the store is a local folder that does not exist: nothing was built there, and
    opening it would create the folder (so a question about an unindexed folder leaves none)."""
    uri = store_uri(cfg)
    return "://" not in uri and not Path(uri).is_dir()


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
    """Whether the index (its `meta`) was built under this repomem's schema and today's
    `content_rules` (an index from before they were recorded counts as such); else the next
    run rebuilds it."""
    same_schema = meta.get("schema_version") == str(schema.SCHEMA_VERSION)
    return same_schema and meta.get("content_rules") in (None, content_rules(cfg))


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
