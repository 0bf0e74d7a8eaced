"""Function-sized pieces of a file, for full-text search below the file level.

A long file matches a task through one function, and whole-file BM25 dilutes that match in
the rest of the file (or lets a big file match everything a little). Each outermost function or
method is one chunk; the lines outside them go in windows of `WINDOW` lines. Ranking scores a
file by its best chunk.
"""

from __future__ import annotations

from collections.abc import Iterable

KINDS = ("function", "method")  # the symbol kinds that make a chunk of their own
WINDOW = 80
MAX_CHUNK_LINES = 400  # a longer function is searched in windows of this size


Span = tuple[int, int, list[int]]


def spans(line_count: int, functions: Iterable[tuple[int, int]]) -> list[Span]:
    """(first line, last line, lines) of each chunk; lines are 1-based.

    `functions` are (start, end) line spans of functions and methods; nested ones fall inside
    their outermost function's chunk.
    """
    outer: list[tuple[int, int]] = []
    for start, end in sorted(functions):
        start, end = max(1, start), min(line_count, end)
        if start > end or (outer and start <= outer[-1][1]):
            continue
        outer.append((start, end))
    out: list[Span] = []
    covered = bytearray(line_count + 1)
    for start, end in outer:
        for s in range(start, end + 1, MAX_CHUNK_LINES):
            e = min(end, s + MAX_CHUNK_LINES - 1)
            out.append((s, e, list(range(s, e + 1))))
        covered[start : end + 1] = b"\1" * (end - start + 1)
    rest: list[int] = []
    for line in range(1, line_count + 1):
        if not covered[line]:
            rest.append(line)
            if len(rest) >= WINDOW:
                out.append((rest[0], rest[-1], rest))
                rest = []
    if rest:
        out.append((rest[0], rest[-1], rest))
    out.sort(key=lambda s: s[0])
    return out


def split(text: str, functions: Iterable[tuple[int, int]]) -> list[tuple[int, int, str]]:
    """(first line, last line, text) of each chunk of `text` that is not blank."""
    lines = text.split("\n")
    out = []
    for start, end, numbers in spans(len(lines), functions):
        body = "\n".join(lines[n - 1] for n in numbers)
        if body.strip():
            out.append((start, end, body))
    return out
