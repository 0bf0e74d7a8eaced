"""Generating notes: plan a run, then write model notes (one message each, or one Message
Batch) and deterministic offline notes. What a note is and how people's notes are stored is
`repomem.llm.notes`.

Model notes are cached by content hash: an unchanged file is never sent again, and content that
already has a model note under another path (a rename, a copy) reuses it without a request.

A run is planned before anything is sent (`plan`): files with a fresh note (written for their
content, and by the current offline rules if offline: `offline.VERSION`) are skipped,
`llm.exclude` paths are never sent, and the per-run caps (`llm.max_files_per_run` files and
`llm.max_cost_usd` of estimated cost, an upper bound: cl100k tokens times `pack.token_margin`
in, `llm.max_output_tokens` out) cut the list; what is cut gets an offline note for now. Runs of
at least `llm.batch_threshold` files use the Message Batches API; an unfinished batch is saved in
the store's meta table and collected by the next run. `estimate` (`--dry-run`) stops after the
plan.

Deterministic notes come from `repomem.llm.offline`, the model's prompt from `repomem.llm.prompt`.
This module never imports `anthropic`: it talks to `repomem.llm.client.LLMClient`.

The package, by concern: `values` (the plan, the report, what a run reads from the store),
`planning` (`plan`, `excluded`: what a run sends, reuses, caps or writes offline), `writing`
(generated notes into the store: offline notes, cleaning, replacing, pruning), `sending` (one
message each, or a Message Batch and its collection) and `run` (`estimate`, `generate`). This
module holds the public names. A test that patches a name (a constant such as
`MAX_BATCH_REQUESTS`) patches it in the module that reads it, not here.
"""

from __future__ import annotations

from repomem.llm.generation.planning import MAX_BATCH_REQUESTS, excluded, plan
from repomem.llm.generation.run import estimate, generate
from repomem.llm.generation.sending import BATCH_META, FLUSH_EVERY
from repomem.llm.generation.values import NotesPlan, NotesReport, Planned, Progress
from repomem.llm.generation.writing import MAX_NOTE_CHARS

__all__ = [
    "BATCH_META",
    "FLUSH_EVERY",
    "MAX_BATCH_REQUESTS",
    "MAX_NOTE_CHARS",
    "NotesPlan",
    "NotesReport",
    "Planned",
    "Progress",
    "estimate",
    "excluded",
    "generate",
    "plan",
]
