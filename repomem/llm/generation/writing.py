"""Writing generated notes to the store: the deterministic offline notes (for files not sent to
a model), the redaction and length cut every generated note passes, the replacement of a path's
earlier generated note (never people's), and the pruning of notes of files no longer indexed."""

from __future__ import annotations

import json
import time
from typing import Any

from repomem import secrets
from repomem.config import Config
from repomem.llm import offline
from repomem.llm.generation.values import OFFLINE_META, Progress, _Snapshot, _symbols
from repomem.llm.notes import GENERATED, GENERATED_OFFLINE, Note
from repomem.llm.offline import offline_note

MAX_NOTE_CHARS = 2000


def _write_offline(
    cfg: Config,
    store: Any,
    paths: list[str],
    current: dict[str, tuple[str, str]],
    progress: Progress | None,
) -> int:
    written = 0
    now = time.time()
    for start in range(0, len(paths), 500):
        chunk = paths[start : start + 500]
        texts = store.texts(chunk)
        symbols = _symbols(store, chunk)
        rows = []
        for path in chunk:
            file_hash, language = current[path]
            text = offline_note(path, language, texts.get(path, ""), symbols.get(path, []))
            rows.append(
                Note(path, GENERATED_OFFLINE, _clean_note(cfg, text), file_hash, now).as_row()
            )
        _replace_generated(store, rows)
        written += len(rows)
        if progress is not None:
            progress("offline notes", written, len(paths))
    return written


def _record_offline_rules(store: Any) -> None:
    """Record that the current offline rules write offline notes from now on: those updated
    before are an older version's, rewritten when a run reaches them (this one, or the next
    if it covers only some files)."""
    stamp = {"version": offline.VERSION, "since": time.time()}
    with store.writing():
        store.set_meta({OFFLINE_META: json.dumps(stamp)})


def _clean_note(cfg: Config, text: str) -> str:
    cleaned, _ = secrets.redact(text.strip(), extra_patterns=cfg.secrets.extra_patterns)
    return cleaned[:MAX_NOTE_CHARS]


def _replace_generated(store: Any, rows: list[dict[str, Any]]) -> None:
    """Write generated notes, replacing the path's earlier generated note (never people's)."""
    if not rows:
        return
    with store.writing():
        store.delete_notes([r["path"] for r in rows], list(GENERATED))
        store.add("notes", rows)


def _prune(store: Any, snap: _Snapshot) -> int:
    """Drop the generated notes of files no longer indexed (this run writes notes only for
    indexed files, so the snapshot taken before its writes still names every such note)."""
    gone = sorted({r["path"] for r in snap.notes if r["source"] in GENERATED} - set(snap.current))
    if gone:
        with store.writing():
            store.delete_notes(gone, list(GENERATED))
    return len(gone)
