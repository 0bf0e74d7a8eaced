"""Optional dense vectors of source files (`[embed] enabled`), kept up to date incrementally.

Each indexed source file (tests excepted) gets one "card": its path, its module docstring or
leading comment, and its top-level symbols' signatures with the first line of their docs (then
member names), cut to `embed.max_tokens` tokens. A card's vector is stored under a key hashed
from the model, the card version, the path and the file's content hash, so a run embeds only
files whose content (or path) is new to the store: unchanged files, reverts and checkouts back
and forth cost nothing. Vectors of files no longer present are kept as a cache until they
outnumber a quarter of the live ones (and PRUNE_MIN), then dropped.

Embedding runs after the index's own update is published and writes under the write lock one
batch at a time, so readers and the default (BM25) path never wait for it. Per-symbol vectors
would be finer but cost too much CPU: about ten cards a second on one core.
"""

from __future__ import annotations

import hashlib
import logging
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from repomem.config import Config
from repomem.index import embed, languages, parser, schema

log = logging.getLogger(__name__)

CARD_VERSION = 1
CARD_CHARS = 1600  # about 400 BERT tokens of code: the tokenizer cuts to max_tokens anyway
BATCH_FILES = 64  # files embedded (and written) per batch
PRUNE_SHARE = 0.25
PRUNE_MIN = 50
_PY_DOC = re.compile(r'\A(?:\s*#[^\n]*\n|\s*\n)*\s*[rRbBuU]{0,2}("""|\'\'\'|"|\')(.*?)\1', re.S)
_COMMENT = re.compile(r"^\s*(#|//|/\*+|\*|--|;+)\s?")
_LICENSE = re.compile(r"licen[cs]e|copyright|spdx", re.I)

Progress = Callable[[str, int, int], None]


@dataclass
class EmbedReport:
    """What one refresh of the vectors did."""

    files: int = 0  # source files that have (or now got) a vector
    embedded: int = 0
    pruned: int = 0
    seconds: float = 0.0


def embedder_for(cfg: Config) -> embed.Embedder | None:
    """The shared embedder when `embed.enabled`, else None.

    Raises:
        ConfigError: if embeddings are enabled but the `embed` extra is not installed.
    """
    if not cfg.embed.enabled:
        return None
    embed.require()  # a missing extra is a ConfigError naming it, now rather than mid-pack
    return embed.shared(
        threads=cfg.embed.threads, max_tokens=cfg.embed.max_tokens, batch_size=cfg.embed.batch_size
    )


def key(path: str, file_hash: str) -> str:
    """The store key of a file's vector."""
    raw = f"{embed.MODEL_ID}\0{CARD_VERSION}\0{schema.SCHEMA_VERSION}\0{path}\0{file_hash}"
    return hashlib.sha1(raw.encode("utf-8")).hexdigest()


def wanted(path: str, language: str) -> bool:
    """Whether a file gets a card: source code the parser understands, tests excluded.

    Tests are a large share of most repositories (44% of sympy's Python files) and rarely the
    code a task is about; BM25 and the graph still find them.
    """
    return parser.supports(language or languages.detect(path)) and not languages.is_test_path(path)


def head_doc(text: str) -> str:
    """The module docstring (Python) or the leading comment block, without licence headers."""
    m = _PY_DOC.match(text[:4000])
    if m:
        return " ".join(m.group(2).split())[:600]
    lines: list[str] = []
    for line in text[:4000].splitlines():
        if not line.strip() or line.startswith("#!"):
            if lines:
                break
            continue
        stripped = _COMMENT.sub("", line, count=1)
        if stripped == line:  # code starts
            break
        lines.append(stripped.strip().rstrip("*/").strip())
    doc = " ".join(x for x in lines if x)
    return "" if _LICENSE.search(doc) else doc[:600]


def card(path: str, text: str, symbols: list[dict[str, Any]]) -> str:
    """The text embedded for a file (see the module docstring)."""
    parts = [path]
    doc = head_doc(text)
    if doc:
        parts.append(doc)
    members: list[str] = []
    for s in sorted(symbols, key=lambda s: int(s["start_line"])):
        if s["parent"]:
            members.append(str(s["qualname"]))
            continue
        first = str(s["doc"]).strip().split("\n", 1)[0]
        sig = " ".join(str(s["signature"]).split()) or str(s["name"])
        parts.append(f"{sig}: {first}" if first else sig)
    if members:
        parts.append(" ".join(members))
    return "\n".join(parts)[:CARD_CHARS]


def refresh(
    cfg: Config, store: Any, *, embedder: embed.Embedder | None = None,
    progress: Progress | None = None,
) -> EmbedReport:  # fmt: skip
    """Embed the source files that have no vector yet; drop the cache's excess.

    Reads the latest index (call it after the indexer published), writes under the write lock.

    Raises:
        ConfigError: if the `embed` extra is not installed.
        StoreError: if the store is locked too long.
    """
    t0 = time.monotonic()
    report = EmbedReport()
    emb = embedder or embedder_for(cfg)
    if emb is None:
        return report
    store.refresh()
    cols = store.column("files", ["path", "hash", "language", "skip"])
    live: dict[str, tuple[str, str]] = {}
    for path, h, lang, skip in zip(
        cols["path"], cols["hash"], cols["language"], cols["skip"], strict=True
    ):
        if h and not skip and wanted(path, lang):
            live[key(path, h)] = (path, h)
    report.files = len(live)
    stored = store.vector_keys()
    todo = sorted((v for k, v in live.items() if k not in stored), key=lambda v: v[0])
    for start in range(0, len(todo), BATCH_FILES):
        batch = todo[start : start + BATCH_FILES]
        paths = [p for p, _h in batch]
        texts = store.texts(paths)
        syms = store.column(
            "symbols", ["path", "name", "qualname", "parent", "signature", "doc", "start_line"],
            paths,
        )  # fmt: skip
        by_path: dict[str, list[dict[str, Any]]] = {p: [] for p in paths}
        for i, p in enumerate(syms["path"]):
            by_path[p].append({c: syms[c][i] for c in syms})
        cards = [card(p, texts.get(p, ""), by_path[p]) for p in paths]
        vectors = emb.embed(cards)
        rows = [
            {"key": key(p, h), "path": p, "hash": h, "vector": v}
            for (p, h), v in zip(batch, vectors, strict=True)
        ]
        with store.writing():
            store.add_vectors(rows)
        report.embedded += len(rows)
        if progress:
            progress("embed", report.embedded, len(todo))
    orphans = sorted(stored - set(live))
    if len(orphans) > max(PRUNE_MIN, PRUNE_SHARE * len(live)):
        with store.writing():
            store.delete_vectors(orphans)
        report.pruned = len(orphans)
    report.seconds = time.monotonic() - t0
    if report.embedded or report.pruned:
        log.info(
            "embeddings: %d files embedded, %d pruned, %.1fs",
            report.embedded, report.pruned, report.seconds,
        )  # fmt: skip
    return report


def similar_files(store: Any, embedder: embed.Embedder, query: str, limit: int) -> dict[str, float]:
    """{path: cosine} for the files whose card is closest to `query`, current versions only."""
    if not store.has_vectors():
        return {}
    vector = embedder.embed_one(query)
    # Stale versions of a file (cached for checkouts) may crowd the top: ask for more.
    found = store.nearest(vector, int(limit * (1 + PRUNE_SHARE)) + PRUNE_MIN)
    if not found:
        return {}
    current = store.column("files", ["path", "hash"], sorted({p for p, _h, _c in found}))
    hashes = dict(zip(current["path"], current["hash"], strict=True))
    out: dict[str, float] = {}
    for path, h, cos in found:
        if hashes.get(path) == h and path not in out:
            out[path] = cos
            if len(out) >= limit:
                break
    return out
