"""Generating notes: plan a run, then write model notes (one message each, or one Message
Batch) and deterministic offline notes. What a note is and how people's notes are stored is
`repomem.llm.notes`.

Model notes are cached by content hash: an unchanged file is never sent again, and content that
already has a model note under another path (a rename, a copy) reuses it without a request.

A run is planned before anything is sent (`plan`): files with a fresh note are skipped,
`llm.exclude` paths are never sent, and the per-run caps (`llm.max_files_per_run` files and
`llm.max_cost_usd` of estimated cost, an upper bound: cl100k tokens times `pack.token_margin`
in, `llm.max_output_tokens` out) cut the list; what is cut gets an offline note for now. Runs of
at least `llm.batch_threshold` files use the Message Batches API; an unfinished batch is saved in
the store's meta table and collected by the next run. `estimate` (`--dry-run`) stops after the
plan.

Deterministic notes come from `repomem.llm.offline`, the model's prompt from `repomem.llm.prompt`.
This module never imports `anthropic`: it talks to `repomem.llm.client.LLMClient`.
"""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from fnmatch import fnmatchcase
from typing import TYPE_CHECKING, Any

from repomem import secrets
from repomem.config import Config
from repomem.errors import LLMError, NotFoundError
from repomem.llm.notes import (
    GENERATED,
    GENERATED_LLM,
    GENERATED_OFFLINE,
    WRITTEN,
    Note,
    read_rows,
    repo_path,
)
from repomem.llm.offline import offline_note
from repomem.llm.prompt import SYSTEM_PROMPT, build_prompt_counted

if TYPE_CHECKING:
    from repomem.llm.client import LLMClient

log = logging.getLogger(__name__)

Progress = Callable[[str, int, int], None]

BATCH_META = "notes_batch"
MAX_NOTE_CHARS = 2000
FLUSH_EVERY = 20
MAX_BATCH_REQUESTS = 5000


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Planned:
    """A file to send to the model: its prompt and estimated input tokens."""

    path: str
    hash: str
    prompt: str
    input_tokens: int


@dataclass
class NotesPlan:
    """What a run would do; nothing is sent while planning."""

    model: str | None  # None: offline
    indexed: int = 0
    fresh: int = 0  # notes already up to date
    send: list[Planned] = field(default_factory=list)
    capped: list[str] = field(default_factory=list)  # beyond the per-run caps
    reuse: dict[str, str] = field(default_factory=dict)  # path -> model note of the same content
    offline: list[str] = field(default_factory=list)  # deterministic notes written now
    excluded: list[str] = field(default_factory=list)  # llm.exclude: never sent
    pending: list[str] = field(default_factory=list)  # waiting in an unfinished batch
    batch: bool = False
    input_tokens: int = 0  # estimates for `send`
    output_tokens: int = 0
    cost_usd: float = 0.0
    all_input_tokens: int = 0  # estimates for every file that needs a model note
    all_output_tokens: int = 0
    all_cost_usd: float = 0.0
    price_known: bool = True

    def summary(self) -> dict[str, Any]:
        data = {k: v for k, v in asdict(self).items() if k not in ("send", "reuse")}
        data["send"] = [{"path": p.path, "input_tokens": p.input_tokens} for p in self.send]
        data["reuse"] = sorted(self.reuse)
        return data


@dataclass
class NotesReport:
    """What a run did."""

    plan: NotesPlan
    dry_run: bool = False
    written_llm: int = 0
    written_offline: int = 0
    reused: int = 0
    collected: int = 0  # notes from a batch submitted by an earlier run
    failed: dict[str, str] = field(default_factory=dict)
    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float = 0.0  # from the usage the API reported, at list price (batches half)
    batch_id: str | None = None
    batch_pending: bool = False
    removed: int = 0  # generated notes of files no longer indexed
    error: str | None = None  # the LLMError that stopped the run early

    def as_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["plan"] = self.plan.summary()
        return data


@dataclass
class _Snapshot:
    """What a run reads from the store once: the indexed files and every note."""

    current: dict[str, tuple[str, str]]  # {path: (hash, language)}, as `_indexed`
    empty: set[str]  # indexed files with no content (nothing for a model to say)
    notes: list[dict[str, Any]]

    @classmethod
    def read(cls, store: Any) -> _Snapshot:
        cols = store.column("files", ["path", "hash", "language", "skip", "size"])
        current: dict[str, tuple[str, str]] = {}
        empty: set[str] = set()
        for p, h, lang, skip, size in zip(
            cols["path"], cols["hash"], cols["language"], cols["skip"], cols["size"], strict=True
        ):
            if not skip and h:
                current[p] = (h, lang)
            if not skip and size == 0:
                empty.add(p)
        return cls(current, empty, read_rows(store))


# --------------------------------------------------------------------------- planning


def excluded(path: str, patterns: Iterable[str]) -> bool:
    """True if a glob matches the path, one of its parent folders, or its file name."""
    parts = path.split("/")
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    for raw in patterns:
        pat = raw.strip().strip("/")  # "dir/" and "/dir" name the folder; "" and "/" nothing
        if pat and (any(fnmatchcase(p, pat) for p in prefixes) or fnmatchcase(parts[-1], pat)):
            return True
    return False


def _select(current: dict[str, tuple[str, str]], cfg: Config, paths: Sequence[str]) -> list[str]:
    if not paths:
        return sorted(current)
    chosen: set[str] = set()
    for raw in paths:
        rel = repo_path(cfg, raw)
        if rel in current:
            chosen.add(rel)
            continue
        inside = [p for p in current if p.startswith(rel + "/")]
        if not inside:
            raise NotFoundError(
                f"`{rel}` is not an indexed file or folder; run `repomem index` or check the path."
            )
        chosen.update(inside)
    return sorted(chosen)


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


def plan(
    cfg: Config,
    store: Any,
    paths: Sequence[str] = (),
    *,
    model: str | None,
    max_files: int | None = None,
    estimate_all: bool = True,
) -> NotesPlan:
    """Decide what a run does, estimating tokens and cost; sends nothing.

    `model` None plans an offline run (deterministic notes only). Empty files always get
    offline notes. `estimate_all` also builds and counts the prompts of files beyond the
    file cap (for `all_*` totals); a real run skips that work.

    Raises:
        NotFoundError: a path given is not indexed.
    """
    return _plan(
        cfg, store, _Snapshot.read(store), paths, model, max_files=max_files,
        estimate_all=estimate_all,
    )  # fmt: skip


def _plan(
    cfg: Config,
    store: Any,
    snap: _Snapshot,
    paths: Sequence[str],
    model: str | None,
    *,
    max_files: int | None,
    estimate_all: bool,
) -> NotesPlan:
    from repomem.llm import client as llm
    from repomem.pack import tokens

    current = snap.current
    targets = _select(current, cfg, paths)
    result = NotesPlan(model=model, indexed=len(current))
    generated: dict[str, dict[str, Any]] = {}
    llm_by_hash: dict[str, str] = {}
    written: dict[str, list[str]] = {}  # people's notes, for the prompts
    for row in snap.notes:
        if row["source"] in GENERATED:
            generated[row["path"]] = row
            if row["source"] == GENERATED_LLM:
                llm_by_hash[row["file_hash"]] = row["text"]
        elif row["source"] in WRITTEN:
            written.setdefault(row["path"], []).append(row["text"])
    pending: set[str] = set()
    batch = _pending_batch(store) if model else None
    if batch is not None:
        pending = {path for path, _hash in batch.get("items", {}).values()}

    empty = snap.empty if model else set()
    wanted: list[str] = []  # files that need a model note
    for path in targets:
        file_hash = current[path][0]
        note = generated.get(path)
        fresh = note is not None and note["file_hash"] == file_hash
        if model is None:
            if fresh:
                result.fresh += 1
            else:
                result.offline.append(path)
        elif fresh and note is not None and note["source"] == GENERATED_LLM:
            result.fresh += 1
        elif path in pending:
            result.pending.append(path)
        elif path in empty:
            if fresh:
                result.fresh += 1
            else:
                result.offline.append(path)
        elif excluded(path, cfg.llm.exclude):
            result.excluded.append(path)
            if fresh:
                result.fresh += 1
            else:
                result.offline.append(path)
        elif file_hash in llm_by_hash:
            result.reuse[path] = llm_by_hash[file_hash]
        else:
            wanted.append(path)
    if model is None or not wanted:
        return result

    result.price_known = llm.price_for(model)[1]
    margin = cfg.pack.token_margin
    system_tokens = tokens.count(SYSTEM_PROMPT)
    out_tokens = cfg.llm.max_output_tokens
    cap_files = cfg.llm.max_files_per_run if max_files is None else max_files
    spent = 0.0
    for i, planned in enumerate(_prompts(cfg, store, wanted, current, written)):
        if not estimate_all and len(result.send) >= cap_files:
            result.capped.extend(wanted[i:])  # beyond the file cap: not worth counting
            break
        tokens_in = math.ceil((system_tokens + planned.input_tokens) * margin)
        planned = Planned(planned.path, planned.hash, planned.prompt, tokens_in)
        cost = llm.estimate_cost(tokens_in, out_tokens, model)
        result.all_input_tokens += tokens_in
        result.all_output_tokens += out_tokens
        result.all_cost_usd += cost
        if len(result.send) < cap_files and spent + cost <= cfg.llm.max_cost_usd:
            result.send.append(planned)
            spent += cost
        else:
            result.capped.append(planned.path)
    result.batch = 0 < cfg.llm.batch_threshold <= len(result.send)
    if result.batch and len(result.send) > MAX_BATCH_REQUESTS:
        # One batch per run, well under the API's limits (100,000 requests, 256 MB).
        result.capped[:0] = [p.path for p in result.send[MAX_BATCH_REQUESTS:]]
        del result.send[MAX_BATCH_REQUESTS:]
    result.input_tokens = sum(p.input_tokens for p in result.send)
    result.output_tokens = out_tokens * len(result.send)
    result.cost_usd = llm.estimate_cost(
        result.input_tokens, result.output_tokens, model, batch=result.batch
    )
    for path in result.capped:
        note = generated.get(path)
        if note is None or note["file_hash"] != current[path][0]:
            result.offline.append(path)
    return result


def _prompts(
    cfg: Config,
    store: Any,
    paths: list[str],
    current: dict[str, tuple[str, str]],
    written: dict[str, list[str]],
) -> Iterator[Planned]:
    """Prompts for these files with their raw cl100k counts, built lazily in chunks."""
    for start in range(0, len(paths), 200):
        chunk = paths[start : start + 200]
        texts = store.texts(chunk)
        symbols = _symbols(store, chunk)
        for path in chunk:
            file_hash, language = current[path]
            prompt, n_tokens = build_prompt_counted(
                path,
                language,
                texts.get(path, ""),
                symbols.get(path, []),
                written.get(path, []),
                cfg.llm.max_input_tokens,
            )
            yield Planned(path, file_hash, prompt, n_tokens)


def _symbols(store: Any, paths: list[str]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for row in store.rows_for_paths("symbols", paths):
        out.setdefault(row["path"], []).append(row)
    for rows in out.values():
        rows.sort(key=lambda r: (r["start_line"], -r["end_line"]))
    return out


# --------------------------------------------------------------------------- running


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
