"""Code-aware tokens for full-text search.

Identifiers are kept whole (lower-cased) and also split into their snake_case / camelCase parts,
so `parseConfig`, `parse_config` and "parse config" all meet. The store's full-text index then
tokenizes on whitespace only, so this module alone decides what a token is, for documents and
queries alike.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_PART = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
MAX_TOKEN = 40


@lru_cache(maxsize=200_000)
def expand(word: str) -> str:
    """The search tokens of one identifier, space separated ("" for noise like `x` or `_`)."""
    if word.isalpha() and (word.islower() or word.isupper() or word.istitle()):
        # One plain word (most identifiers in prose and code): nothing to split.
        return word.lower() if 1 < len(word) <= MAX_TOKEN else ""
    low = word.lower()
    parts = [p.lower() for p in _PART.findall(word)]
    parts = [p for p in parts if len(p) > 1 and not p.isdigit()]
    out: list[str] = []
    if len(low.strip("_")) > 1 and len(low) <= MAX_TOKEN:
        out.append(low)
    if len(parts) > 1 or (parts and parts[0] != low):
        out.extend(p for p in parts if p != low)
    return " ".join(out)


def tokens(text: str) -> list[str]:
    """All search tokens of a text, in order (used for queries and short fields)."""
    out: list[str] = []
    for word in _WORD.findall(text):
        exp = expand(word)
        if exp:
            out.extend(exp.split(" "))
    return out


def document(text: str) -> str:
    """A whitespace-tokenized document for the full-text index.

    Order is not kept (the index stores no positions), and a token repeated n times is written
    about 1 + log2(n) times: BM25 saturates term frequency anyway, and the index stays small.
    """
    counts = Counter(_WORD.findall(text))
    chunks: list[str] = []
    for word, n in counts.items():
        exp = expand(word)
        if exp:
            chunks.append(
                (exp + " ") * _REPEATS[n]
                if n < len(_REPEATS)
                else (exp + " ") * (1 + n.bit_length())
            )
    return "".join(chunks)


_REPEATS = [0] + [n if n <= 2 else 1 + n.bit_length() for n in range(1, 256)]


def path_tokens(path: str) -> str:
    """Tokens of a repository path: each component, its stem, and the identifier parts."""
    return " ".join(tokens(path.replace("/", " ").replace(".", " ").replace("-", "_")))


def unindexed(text: str) -> list[str]:
    """The identifiers of a text that have no token of their own, in order, once each: one
    character (`f`, `x`, `T`: a token for them would match nearly everything) or longer than
    `MAX_TOKEN`. Search finds them by exact definition name instead."""
    seen: dict[str, None] = {}
    for word in _WORD.findall(text):
        if word.lower() not in expand(word).split(" "):
            seen.setdefault(word, None)
    return list(seen)


def query(text: str) -> str:
    """A full-text query string from free text: its distinct tokens, in order of appearance."""
    seen: dict[str, None] = {}
    for tok in tokens(text):
        seen.setdefault(tok, None)
    return " ".join(seen)


# `#123`, `gh-123`, "issue 123", "pull request #123", ".../issues/123", ".../pull/123"
_REFERENCE = re.compile(
    r"(?<![\w&/#])(?:#|gh-)(\d{1,6})\b"
    r"|\b(?:issues?|pull request|PR|bug|ticket)\s+#?(\d{1,6})\b"
    r"|/(?:issues|pull)/(\d{1,6})\b",
    re.IGNORECASE,
)


def references(text: str) -> list[str]:
    """Search tokens for the issue and pull request numbers a text refers to (`ref123`, in
    order, once each): a commit message and a task naming the same issue meet on them."""
    seen: dict[str, None] = {}
    for m in _REFERENCE.finditer(text):
        seen.setdefault("ref" + str(int(next(g for g in m.groups() if g))), None)
    return list(seen)
