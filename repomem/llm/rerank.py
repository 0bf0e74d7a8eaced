"""Optional: the model re-orders the best files of a pack's ranking (`pack.llm_rerank`).

The offline ranking finds the right file among its top 30 for most tasks but not always at the
top: the rest is telling a symptom from its cause, which reading the task and the files'
symbols does better than word statistics. With `pack.llm_rerank = true` and an API key, a pack
sends the task and the `TOP` best files (paths and their best symbols' signatures, redacted
like every request) and moves the files the model names, in its order, to the front; the others
keep their order behind them. Without a key, or when the call fails, the offline ranking stands
(the failure is logged; no file's `reason` then carries the model's mark).
"""

from __future__ import annotations

import logging
import re
from typing import Any

from repomem.config import Config
from repomem.errors import LLMError

log = logging.getLogger(__name__)

TOP = 30  # files shown to the model
PICK = 10  # files it may name
TASK_CHARS = 6000
SYMBOLS_PER_FILE = 4
MAX_OUTPUT_TOKENS = 60

SYSTEM = (
    "You help a coding assistant find where to work in a repository. You get a task and a "
    "numbered list of files from the repository, each with some of its symbols. Reply with "
    f"the numbers of the files most likely to need changes to complete the task, at most "
    f"{PICK}, most likely first, separated by commas, and nothing else. Prefer the code that "
    "causes the behaviour the task describes over the code that only shows it, and source "
    "over tests and documentation unless the task is about them."
)


def prompt(task: str, ranked: list[Any]) -> str:
    """The request's text: the task (cut at `TASK_CHARS`) and the numbered files."""
    lines = ["Task:", task.strip()[:TASK_CHARS], "", "Files:"]
    for i, c in enumerate(ranked[:TOP], 1):
        best = sorted(c.symbols.values(), key=lambda h: -h.score)[:SYMBOLS_PER_FILE]
        shown = "; ".join(" ".join((h.signature or h.qualname).split())[:120] for h in best)
        lines.append(f"{i}. {c.path}" + (f": {shown}" if shown else ""))
    return "\n".join(lines)


def parse(text: str, count: int) -> list[int]:
    """The 0-based indexes the answer names, in its order: known numbers only, each once."""
    picked: list[int] = []
    for word in re.findall(r"\d+", text):
        i = int(word) - 1
        if 0 <= i < count and i not in picked:
            picked.append(i)
    return picked[:PICK]


def rerank(cfg: Config, task: str, ranked: list[Any]) -> list[Any]:
    """`ranked` with the files the model names moved to the front in its order, each marked
    with its place (`Candidate.model_place`); scores are handed out again in the new order.
    Unchanged without a configured client or when the call fails."""
    from repomem.llm import client as llm

    head = ranked[:TOP]
    if len(head) < 2:
        return ranked
    api = llm.from_config(cfg)
    if api is None:
        log.info("pack.llm_rerank is on but no API key is set: the offline ranking stands")
        return ranked
    try:
        done = api.complete(SYSTEM, prompt(task, head), max_tokens=MAX_OUTPUT_TOKENS)
    except LLMError as e:
        log.warning("model re-ranking failed, the offline ranking stands: %s", e)
        return ranked
    finally:
        api.close()
    picked = parse(done.text, len(head))
    if not picked:
        log.warning("model re-ranking: no file numbers in the answer %r", done.text[:80])
        return ranked
    order = picked + [i for i in range(len(head)) if i not in picked]
    scores = sorted((c.score for c in head), reverse=True)
    out = [head[i] for i in order]
    for place, (c, score) in enumerate(zip(out, scores, strict=True), 1):
        c.score = score
        if place <= len(picked):
            c.model_place = place
    return out + ranked[TOP:]
