"""The pack's candidate items, made from the ranked files, and their value.

Whole small files, else the relevant symbols' bodies (a nested function offered as the
outermost function around it), notes written on the top files and their folders, and the
repository map's signatures. An item's value (`_density`) is its file's score times the share
of it that is likely relevant, so a large file's relevant symbols beat the whole file; each of
the top three files, whole if it fits in 40% of the budget, else its best symbol, is valued
whatever its size (bench/README.md, "ninth run").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import Any

from repomem.config import Config
from repomem.fsutil import text_lines
from repomem.index import chunks
from repomem.pack import tokens
from repomem.pack.candidates import Candidate, SymbolHit, file_symbols

WHOLE_FILE_MAX = 1500  # tokens: larger files contribute symbols instead
RELEVANT_SPAN = 600  # tokens of an item that count as relevant in its value
LEAD_FILES = 3  # in each of the top files, the whole file if it fits in LEAD_SHARE of the
LEAD_SHARE = 0.4  # budget, else its best symbol, is valued whatever its size
PARENT_SHARE = 0.5  # budget: a nested function's hit brings its parent in only up to this
SYMBOLS_PER_FILE = 8  # best matching symbols of a file offered to the packer
SYMBOL_FLOOR = 0.5  # a symbol's value: its file's score x (floor + (1 - floor) x its own)
MAP_FILES = 30
MAP_SYMBOLS = 12


@dataclass
class Item:
    """One entry of a pack (the JSON contract's `items`)."""

    kind: str  # "file", "symbol" or "map"
    path: str
    symbol: str
    start_line: int
    end_line: int
    tokens: int
    score: float
    reason: str
    text: str
    exact: bool = field(default=True, repr=False, compare=False)
    lead: bool = field(default=False, repr=False, compare=False)  # valued whatever its size

    def count(self, margin: float) -> int:
        """Count the tokens exactly (estimates are used to order candidates)."""
        if not self.exact:
            self.tokens = tokens.count(self.text, margin)
            self.exact = True
        return self.tokens


def _estimate(text: str, margin: float) -> int:
    # cl100k averages ~3.5-4 characters per token on code; 3 keeps estimates on the high side
    return int(len(text) / 3 * margin) + 1


def _with_parents(
    hits: list[SymbolHit], rows: list[dict[str, Any]], fits: Callable[[int, int], bool]
) -> list[SymbolHit]:
    """The hits with each nested function replaced by its outermost enclosing function that
    `fits` (lines), at the better of the two scores: a nested helper means little without the
    function around it, and once in the pack it would keep that function out (items never
    overlap). A parent too large for the pack leaves the nested function as it is."""
    nested = [h for h in hits if h.kind in chunks.KINDS and "." in h.qualname]
    if not nested:
        return hits
    functions = {r["qualname"]: r for r in rows if r["kind"] in chunks.KINDS}
    out = {(h.start_line, h.end_line): h for h in hits}
    for h in nested:
        parent = None  # the outermost function whose qualified name prefixes the hit's
        prefix = h.qualname
        while "." in prefix:
            prefix = prefix.rsplit(".", 1)[0]
            row = functions.get(prefix)
            if (
                row
                and row["start_line"] <= h.start_line
                and h.end_line <= row["end_line"]
                and fits(int(row["start_line"]), int(row["end_line"]))
            ):
                parent = row
        if parent is None:
            continue
        span = (int(parent["start_line"]), int(parent["end_line"]))
        old = out.get(span)
        if old is None or old.score < h.score:
            out[span] = SymbolHit(
                h.path, parent["name"], parent["qualname"], parent["kind"],
                parent["signature"], span[0], span[1], h.score,
                f"contains `{h.name}`, a function that {h.reason}",
            )  # fmt: skip
        if span != (h.start_line, h.end_line):
            out.pop((h.start_line, h.end_line), None)
    return list(out.values())


def _code_items(
    store: Any, ranked: list[Candidate], margin: float,
    known: dict[str, list[dict[str, Any]]], budget: int,
) -> list[Item]:  # fmt: skip
    """Whole files and symbol bodies of the ranked files; `known` caches symbol tables."""
    paths = [c.path for c in ranked if c.score > 0]
    texts = store.texts(paths)
    # symbol tables for nested functions' parents: those the map reads anyway
    rows = file_symbols(store, paths[:MAP_FILES], known)
    items: list[Item] = []
    for place, c in enumerate(ranked):
        text = texts.get(c.path)
        if text is None or c.score <= 0:
            continue
        lines = text_lines(text)
        estimate = _estimate(text, margin)
        top = place < LEAD_FILES
        whole = max(WHOLE_FILE_MAX, int(budget * LEAD_SHARE)) if top else WHOLE_FILE_MAX
        n = tokens.count(text, margin) if estimate <= whole * 1.3 else estimate
        if n <= whole:
            items.append(
                Item("file", c.path, "", 1, max(1, len(lines)), n, c.score, c.reason, text,
                     lead=top)
            )  # fmt: skip
            if n <= RELEVANT_SPAN:
                continue  # a small file is better whole than in pieces
        hits = sorted(c.symbols.values(), key=lambda h: -h.score)[:SYMBOLS_PER_FILE]

        def fits(start: int, end: int) -> bool:
            body = "\n".join(lines[start - 1 : end])  # noqa: B023 - called at once
            return _estimate(body, margin) <= budget * PARENT_SHARE

        hits = sorted(_with_parents(hits, rows.get(c.path, []), fits), key=lambda h: -h.score)
        lead = top  # a top file's best symbol (with a body) is valued whatever its size
        for hit in hits:
            body = "\n".join(lines[hit.start_line - 1 : hit.end_line])
            if not body.strip():
                continue
            items.append(
                Item(
                    "symbol",
                    c.path,
                    hit.qualname,
                    hit.start_line,
                    hit.end_line,
                    _estimate(body, margin),
                    c.score * (SYMBOL_FLOOR + (1 - SYMBOL_FLOOR) * hit.score),
                    f"{hit.kind} that {hit.reason}",
                    body,
                    exact=False,
                    lead=lead,
                )
            )
            lead = False
    return items


FOLDER_NOTE_WEIGHT = 0.8  # a folder's note, valued at its best file's score times this


def _note_items(cfg: Config, store: Any, ranked: list[Candidate], margin: float) -> list[Item]:
    """Notes on the top files written by people, assistants or the model (offline notes only
    repeat the docstrings and signatures the code and map already show), and the notes on the
    folders they are in (path with a trailing `/`), once each, at the best such file's score."""
    from repomem.llm import notes

    scores = {c.path: c.score for c in ranked if c.score > 0}
    folders: dict[str, str] = {}  # folder -> its best-ranked file (ranked is best first)
    for path in scores:
        for parent in PurePosixPath(path).parents:
            if parent.name:
                folders.setdefault(parent.as_posix(), path)
    items = []
    for path, note in notes.best_notes(cfg, [*scores, *folders], store=store).items():
        if note.source == notes.GENERATED_OFFLINE:
            continue
        text = note.text.strip()
        if path in folders:
            top = folders[path]
            reason = f"{note.source} note on the folder of `{top}`, a top-ranked file"
            score, path = scores[top] * FOLDER_NOTE_WEIGHT, f"{path}/"
        else:
            reason = f"{note.source} note on a top-ranked file"
            score = scores[path] * (0.6 if note.stale else 1.0)
        if note.stale:
            reason += "; stale: the file changed since it was written"
        items.append(
            Item("note", path, note.source, 0, 0, _estimate(text, margin), score, reason, text,
                 exact=False)
        )  # fmt: skip
    return items


def _map_items(
    store: Any, ranked: list[Candidate], margin: float, known: dict[str, list[dict[str, Any]]]
) -> list[Item]:
    paths = [c.path for c in ranked if c.score > 0]
    symbols = file_symbols(store, paths, known)
    items = []
    for c in ranked:
        rows = [r for r in symbols.get(c.path, []) if r["kind"] not in ("variable", "field")]
        if not rows:
            continue
        # top-level definitions first, then their members
        rows.sort(key=lambda r: (r["qualname"].count("."), r["start_line"]))
        shown = sorted(rows[:MAP_SYMBOLS], key=lambda r: r["start_line"])
        text = "\n".join(
            f"{'  ' * (1 + r['qualname'].count('.'))}{r['start_line']}: {r['signature']}"
            for r in shown
        )
        items.append(
            Item(
                "map",
                c.path,
                "",
                0,  # signatures from across the file, not a range of its lines
                0,
                _estimate(text, margin),
                c.score,
                "signatures of a top-ranked file",
                text,
                exact=False,
            )
        )
    return items


def _density(item: Item) -> float:
    if item.lead:
        return item.score
    return item.score * min(1.0, RELEVANT_SPAN / max(item.tokens, 1))
