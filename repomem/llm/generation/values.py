"""The values of a notes run: its plan (`NotesPlan`, with the `Planned` requests), its report
(`NotesReport`), and what it reads from the store (`_Snapshot` once per run, the symbols of a
chunk of files for prompts and offline notes)."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from repomem.llm import offline
from repomem.llm.notes import GENERATED_OFFLINE, read_rows

Progress = Callable[[str, int, int], None]

# The store's meta key recording which version of the offline rules (`offline.VERSION`) writes
# offline notes, and since when: {"version": 1, "since": unix time}. A note written before
# `since` came from an older version (none was recorded before version 1).
OFFLINE_META = "offline_notes"


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

    current: dict[str, tuple[str, str]]  # {path: (hash, language)} of every indexed file
    empty: set[str]  # indexed files with no content (nothing for a model to say)
    notes: list[dict[str, Any]]
    # offline notes updated before this time were written by older rules: not fresh
    offline_cutoff: float = 0.0

    @property
    def offline_rules_new(self) -> bool:
        """Whether these offline rules have not written notes here yet (every offline note is
        an older version's): a run records them first (`writing._record_offline_rules`)."""
        return self.offline_cutoff == math.inf

    def fresh(self, note: dict[str, Any] | None, file_hash: str) -> bool:
        """Whether a generated note still describes the file: written for its content, and
        by the current offline rules if by any."""
        return (
            note is not None
            and note["file_hash"] == file_hash
            and not (
                note["source"] == GENERATED_OFFLINE and note["updated_at"] < self.offline_cutoff
            )
        )

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
        return cls(current, empty, read_rows(store), _offline_cutoff(store.get_meta(OFFLINE_META)))


def _offline_cutoff(raw: str | None) -> float:
    """When the current offline rules began writing notes in this store (`OFFLINE_META`); inf
    when an older version (or one from before versions were recorded) wrote last, and 0 when a
    newer repomem's rules did (its notes are left alone)."""
    try:
        data = json.loads(raw or "{}")
        version, since = int(data["version"]), float(data["since"])
    except (ValueError, TypeError, KeyError):
        return math.inf
    if version == offline.VERSION:
        return since
    return math.inf if version < offline.VERSION else 0.0


def _symbols(store: Any, paths: list[str]) -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for row in store.rows_for_paths("symbols", paths):
        out.setdefault(row["path"], []).append(row)
    for rows in out.values():
        rows.sort(key=lambda r: (r["start_line"], -r["end_line"]))
    return out
