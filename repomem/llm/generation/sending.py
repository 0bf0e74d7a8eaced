"""Sending prompts to the model: screening them first (a credential surviving redaction), one
message each with notes flushed as they come, or one Message Batch saved in the store's meta
table until this run or a later one collects it."""

from __future__ import annotations

import hashlib
import json
import logging
import time
from typing import TYPE_CHECKING, Any

from repomem.config import Config
from repomem.errors import LLMError
from repomem.llm.generation.values import NotesReport, Planned, Progress
from repomem.llm.generation.writing import _clean_note, _replace_generated
from repomem.llm.notes import GENERATED_LLM, Note
from repomem.llm.prompt import SYSTEM_PROMPT

if TYPE_CHECKING:
    from repomem.llm.client import LLMClient

log = logging.getLogger(__name__)

BATCH_META = "notes_batch"
FLUSH_EVERY = 20


def _pending_batch(store: Any) -> dict[str, Any] | None:
    raw = store.get_meta(BATCH_META)
    if not raw:
        return None
    try:
        data = json.loads(raw)
    except ValueError:
        log.warning("unreadable pending notes batch in the store; forgetting it")
        return None
    return data if isinstance(data, dict) and data.get("id") else None


def _screen(
    client: LLMClient, send: list[Planned], failed: dict[str, str]
) -> tuple[list[Planned], list[str]]:
    """The files whose prompt the client will send, and those it refuses (a credential survives
    redaction), each named in `failed`. A refused file would otherwise stop every run (or fail
    the whole batch) at the same place without saying which file it is.
    """
    ok: list[Planned] = []
    refused: list[str] = []
    for item in send:
        try:
            client.clean(item.prompt)
        except LLMError as exc:
            failed[item.path] = str(exc)
            refused.append(item.path)
        else:
            ok.append(item)
    return ok, refused


def _send_each(
    cfg: Config,
    store: Any,
    client: LLMClient,
    send: list[Planned],
    report: NotesReport,
    progress: Progress | None,
) -> None:
    rows: list[dict[str, Any]] = []
    try:
        for i, item in enumerate(send, 1):
            done = client.complete(SYSTEM_PROMPT, item.prompt, max_tokens=cfg.llm.max_output_tokens)
            note = Note(
                item.path, GENERATED_LLM, _clean_note(cfg, done.text), item.hash, time.time()
            )
            rows.append(note.as_row())
            if len(rows) >= FLUSH_EVERY:
                _replace_generated(store, rows)
                report.written_llm += len(rows)
                rows = []
            if progress is not None:
                progress("model notes", i, len(send))
    finally:
        _replace_generated(store, rows)
        report.written_llm += len(rows)


def _custom_id(path: str) -> str:
    return "n" + hashlib.sha1(path.encode()).hexdigest()[:32]


def _send_batch(
    cfg: Config, store: Any, client: LLMClient, send: list[Planned], report: NotesReport
) -> None:
    from repomem.llm.client import BatchItem

    items = {_custom_id(p.path): p for p in send}
    batch_id = client.submit_batch(
        [
            BatchItem(cid, SYSTEM_PROMPT, p.prompt, cfg.llm.max_output_tokens)
            for cid, p in items.items()
        ]
    )
    record = {
        "id": batch_id,
        "model": client.model,
        "submitted_at": time.time(),
        "items": {cid: [p.path, p.hash] for cid, p in items.items()},
    }
    with store.writing():
        store.set_meta({BATCH_META: json.dumps(record)})
    report.batch_id = batch_id
    got, failed = _collect_pending(cfg, store, client, wait=cfg.llm.batch_wait)
    report.written_llm += got
    report.failed.update(failed)
    report.batch_pending = _pending_batch(store) is not None


def _collect_pending(
    cfg: Config, store: Any, client: LLMClient, *, wait: float
) -> tuple[int, dict[str, str]]:
    """Write the notes of a finished batch from this or an earlier run.

    Returns how many notes were written and {path: error} for failed requests.
    """
    batch = _pending_batch(store)
    if batch is None:
        return 0, {}
    outcome = client.collect_batch(str(batch["id"]), wait=wait)
    if not outcome.ended:
        log.info("notes batch %s is still processing", batch["id"])
        return 0, {}
    now = time.time()
    rows = []
    items: dict[str, list[str]] = batch.get("items", {})
    for cid, done in outcome.results.items():
        if cid in items:
            path, file_hash = items[cid]
            rows.append(
                Note(path, GENERATED_LLM, _clean_note(cfg, done.text), file_hash, now).as_row()
            )
    failed = {items.get(cid, [cid])[0]: message for cid, message in outcome.errors.items()}
    for path, message in failed.items():
        log.warning("batch request for %s failed: %s", path, message)
    _replace_generated(store, rows)
    with store.writing():
        store.set_meta({BATCH_META: ""})
    return len(rows), failed
