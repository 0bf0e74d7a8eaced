"""A ranked file and the evidence for it, shared by the ranking's signals.

`Candidate` (a file, its score, its signals and its relevant symbols), `SymbolHit` (one such
symbol), the signals' `WEIGHTS`, and the helpers the signals record evidence with. `WEIGHTS` is
one dict read by `rank` and by the signals that skip their work at weight 0: a variant changes
a weight in place (`WEIGHTS["commits"] = 0`), never by binding a new dict.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

WEIGHTS = {
    "bm25_file": 1.0,
    "bm25_symbol": 0.6,
    "bm25_chunk": 1.0,
    "mention": 1.5,
    "identifier": 0.8,
    "path": 0.8,
    "pagerank": 0.2,
    "memory": 0.8,
    "cochange": 0.6,
    "recent": 0.2,
    "dense": 0.5,  # only with `embed.enabled` (an embedder passed to `rank`)
    "commits": 0.6,
    # A file with uncommitted changes is the work in progress: a new session most often goes
    # on with it. A prior, not a match: it seeds neither PageRank nor co-change, and a strong
    # match outranks it. Not measured by the benchmarks (their checkouts are clean).
    "work": 0.5,
}


@dataclass
class SymbolHit:
    """A symbol relevant to the task."""

    path: str
    name: str
    qualname: str
    kind: str
    signature: str
    start_line: int
    end_line: int
    score: float
    reason: str


@dataclass
class Candidate:
    """A ranked file with the evidence for it."""

    path: str
    score: float = 0.0
    signals: dict[str, float] = field(default_factory=dict)
    symbols: dict[str, SymbolHit] = field(default_factory=dict)
    commit: str = ""  # the best matching past commit that changed it: "sha subject"
    model_place: int = 0  # its place in the model's re-ranking (`pack.llm_rerank`), 0: none

    @property
    def reason(self) -> str:
        labels = {
            "bm25_file": "text matches the task",
            "bm25_symbol": "symbols match the task",
            "bm25_chunk": "a function of it matches the task",
            "mention": "named in the task",
            "identifier": "defines identifiers named in the task",
            "path": "its name matches words of the task",
            "pagerank": "central to the matches (def/ref graph)",
            "memory": "cited by a relevant memory fact",
            "cochange": "changes together with the matches (git history)",
            "recent": "changed recently",
            "dense": "similar in meaning to the task (embeddings)",
            "commits": "changed by past commits whose messages match the task",
            "work": "has uncommitted changes (work in progress)",
        }
        if self.commit:
            labels["commits"] = f"changed by a past commit like the task ({self.commit})"
        strong = sorted(self.signals.items(), key=lambda kv: -kv[1] * WEIGHTS.get(kv[0], 1))
        text = "; ".join(labels[k] for k, v in strong if v > 0.05)
        if self.model_place:
            text = f"placed {self.model_place} by the model; " + (text or "ranked")
        return (text if len(text) <= 200 else text[:199] + "…") or "ranked"


def file_symbols(
    store: Any, paths: list[str], known: dict[str, list[dict[str, Any]]]
) -> dict[str, list[dict[str, Any]]]:
    """`store.file_symbols(paths)`, reading only the paths not in `known` (which it extends)."""
    missing = [p for p in paths if p not in known]
    if missing:
        known.update(store.file_symbols(missing))
    return {p: known[p] for p in paths}


def _add_symbol(
    c: Candidate, r: dict[str, Any], score: float, reason: str, *, ties: bool = False
) -> None:
    """Record a relevant symbol of `c`, keeping the best score (and its reason); with `ties`,
    this reason wins an equal score (the more specific one: a stack frame)."""
    key = f"{r['qualname']}:{r['start_line']}"
    old = c.symbols.get(key)
    if old is None or old.score < score or (ties and old.score == score):
        c.symbols[key] = SymbolHit(
            r["path"],
            r["name"],
            r["qualname"],
            r["kind"],
            r["signature"],
            int(r["start_line"]),
            int(r["end_line"]),
            score,
            reason,
        )
