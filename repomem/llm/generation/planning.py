"""Planning a run before anything is sent: which files are fresh, excluded (`llm.exclude`),
empty, waiting in a batch or able to reuse a model note of the same content; the prompts of the
rest counted, and the per-run caps (files, estimated cost, batch size) applied."""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from fnmatch import fnmatchcase
from typing import Any

from repomem.config import Config
from repomem.errors import NotFoundError
from repomem.llm.generation.sending import _pending_batch
from repomem.llm.generation.values import NotesPlan, Planned, _Snapshot, _symbols
from repomem.llm.notes import GENERATED, GENERATED_LLM, WRITTEN, repo_path
from repomem.llm.prompt import SYSTEM_PROMPT, build_prompt_counted

MAX_BATCH_REQUESTS = 5000


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
        fresh = snap.fresh(note, file_hash)
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
        if not snap.fresh(generated.get(path), current[path][0]):
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
