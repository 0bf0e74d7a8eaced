"""Running a notes run: `estimate` (the plan only, `--dry-run`) and `generate` (collect an
earlier batch, plan, write offline and reused notes, prune, send, and report what was done and
spent)."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

from repomem.config import Config
from repomem.errors import LLMError
from repomem.llm.generation.planning import _plan, plan
from repomem.llm.generation.sending import _collect_pending, _screen, _send_batch, _send_each
from repomem.llm.generation.values import NotesReport, Progress, _Snapshot
from repomem.llm.generation.writing import (
    _prune,
    _record_offline_rules,
    _replace_generated,
    _write_offline,
)
from repomem.llm.notes import GENERATED, GENERATED_LLM, Note, read_rows

if TYPE_CHECKING:
    from repomem.llm.client import LLMClient


def estimate(
    cfg: Config, paths: Sequence[str] = (), *, model: str | None, max_files: int | None = None
) -> NotesReport:
    """What `generate` would do with `model` (None: offline), every file's prompt counted;
    nothing is sent or written, and no client is needed (`--dry-run`).

    Raises:
        StoreError: no index yet.
        NotFoundError: a path given is not indexed.
    """
    from repomem.index import query

    store = query.require_store(cfg)
    result = plan(cfg, store, paths, model=model, max_files=max_files, estimate_all=True)
    return NotesReport(plan=result, dry_run=True)


def generate(
    cfg: Config,
    paths: Sequence[str] = (),
    *,
    client: LLMClient | None,
    max_files: int | None = None,
    dry_run: bool = False,
    progress: Progress | None = None,
) -> NotesReport:
    """Bring notes up to date: model notes with a client, deterministic notes without one.

    An `LLMError` during sending stops the run after saving what was done; it is returned in
    `report.error` (the files not reached keep or get offline notes). `dry_run` is `estimate`
    with the client's model.

    Raises:
        StoreError: no index yet, or the store is locked too long.
        NotFoundError: a path given is not indexed.
        LLMError: only while collecting an earlier batch fails.
    """
    from repomem.index import query

    model = client.model if client is not None else None
    if dry_run:
        return estimate(cfg, paths, model=model, max_files=max_files)
    store = query.require_store(cfg)
    collected = 0
    failed: dict[str, str] = {}
    if client is not None:
        collected, failed = _collect_pending(cfg, store, client, wait=0.0)
    snap = _Snapshot.read(store)  # after collecting: those notes count as fresh
    result = _plan(cfg, store, snap, paths, model, max_files=max_files, estimate_all=False)
    report = NotesReport(plan=result, collected=collected, failed=failed)

    current = snap.current
    if snap.offline_rules_new:
        _record_offline_rules(store)
    if result.offline:
        written = _write_offline(cfg, store, result.offline, current, progress)
        report.written_offline = written
    if result.reuse:
        now = time.time()
        rows = [
            Note(p, GENERATED_LLM, t, current[p][0], now).as_row() for p, t in result.reuse.items()
        ]
        _replace_generated(store, rows)
        report.reused = len(rows)
    if not paths:
        report.removed = _prune(store, snap)
    if client is None or not result.send:
        return report
    send, refused = _screen(client, result.send, report.failed)
    if refused:
        report.written_offline += _write_offline(cfg, store, refused, current, None)
    start_requests = client.usage.requests
    start_in, start_out = client.usage.input_tokens, client.usage.output_tokens
    try:
        if result.batch:
            _send_batch(cfg, store, client, send, report)
        else:
            _send_each(cfg, store, client, send, report, progress)
    except LLMError as exc:
        report.error = str(exc)
        # Files the run did not reach keep a generated note: give those without one an
        # offline note now (they stay candidates for the next run with the model).
        have = {
            r["path"]: r["file_hash"]
            for r in read_rows(store, [p.path for p in send])
            if r["source"] in GENERATED
        }
        missing = [p.path for p in send if have.get(p.path) != p.hash]
        if not report.batch_id:
            report.written_offline += _write_offline(cfg, store, missing, current, None)
    report.requests = client.usage.requests - start_requests
    report.input_tokens = client.usage.input_tokens - start_in
    report.output_tokens = client.usage.output_tokens - start_out
    from repomem.llm.client import estimate_cost

    report.cost_usd = estimate_cost(
        report.input_tokens, report.output_tokens, client.model, batch=result.batch
    )
    return report
