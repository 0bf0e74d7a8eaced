"""The prompt that asks the model for one file's note.

The system prompt is the same for every file (sent with prompt caching); the per-file prompt holds
the path, the language, the symbols with their signatures and first docstring lines, people's
notes on the file, and the source cut to a token budget (cl100k, at a line end).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from repomem.llm.offline import first_line, line_count

MAX_PROMPT_SYMBOLS = 60

SYSTEM_PROMPT = """\
You write short notes about source files for a repository memory that coding assistants read
before they change the code. For the file you are given, answer in plain text with exactly
these three lines and nothing else:
Purpose: what the file is for, in one sentence.
Entry points: the main functions, classes or commands other code or users call (names only).
Gotchas: non-obvious behaviour, invariants, side effects or pitfalls, or "none noted".
Be specific to this file; do not guess beyond the source. Text shown as [REDACTED] is a removed
credential: never mention or reconstruct it. Notes from maintainers, when given, are facts."""


def build_prompt_counted(
    path: str,
    language: str,
    text: str,
    symbols: Sequence[dict[str, Any]],
    people_notes: Sequence[str],
    max_tokens: int,
) -> tuple[str, int]:
    """The per-file prompt (path, symbols with docstrings, people's notes, the source cut to
    `max_tokens`) and its cl100k token count (each part counted once)."""
    parts = [f"File: {path}", f"Language: {language or 'text'}"]
    if symbols:
        parts.append("Symbols:")
        for s in symbols[:MAX_PROMPT_SYMBOLS]:
            sig = (s.get("signature") or "").strip()
            sig = f": {sig.splitlines()[0][:160]}" if sig else ""
            doc = first_line(s.get("doc") or "")
            parts.append(
                f"- {s['kind']} {s['qualname']}, line {s['start_line']}{sig}"
                + (f" -- {doc}" if doc else "")
            )
        if len(symbols) > MAX_PROMPT_SYMBOLS:
            parts.append(f"- ... {len(symbols) - MAX_PROMPT_SYMBOLS} more")
    if people_notes:
        parts.append("Notes from maintainers:")
        parts.extend(f"- {n.strip()}" for n in people_notes)
    head = "\n".join(parts)
    from repomem.pack import tokens

    head_tokens = tokens.count(head)
    source, cut, source_tokens = _truncate(text, max(200, max_tokens - head_tokens))
    label = f"Source (lines 1-{line_count(source)} of {line_count(text)}):" if cut else "Source:"
    prompt = f"{head}\n{label}\n<source>\n{source.rstrip()}\n</source>\n"
    return prompt, head_tokens + source_tokens + tokens.count(label) + 12  # tags, line ends


def _truncate(text: str, budget: int) -> tuple[str, bool, int]:
    """At most `budget` cl100k tokens of `text`, cut at a line end; and its token count.

    A cl100k token is at least one character and rarely more than six, so a text longer than
    six characters per token of budget is cut before it is counted (files can be megabytes).
    """
    from repomem.pack import tokens

    cut = text if len(text) <= budget * 6 else text[: budget * 6]
    n = tokens.count(cut)
    if n <= budget and len(cut) == len(text):
        return text, False, n
    while n > budget and cut:
        cut = cut[: int(len(cut) * budget / n * 0.95)]
        line_end = cut.rfind("\n")
        if 0 < line_end < len(cut) - 1:
            cut = cut[: line_end + 1]
        n = tokens.count(cut)
    return cut, True, n
