"""Optional: the model re-orders the best files of a pack's ranking (`pack.llm_rerank`).

The offline ranking finds the right file among its top 30 for most tasks but not always at the
top: the rest is telling a symptom from its cause, which reading the task and the files'
symbols does better than word statistics. With `pack.llm_rerank = true` and an API key, a pack
sends the task and the `TOP` best files (paths and their best symbols' signatures, redacted
like every request) and moves the files the model names, in its order, to the front; the others
keep their order behind them. Without a key, or when the call fails, the offline ranking stands
(the failure is logged; no file's `reason` then carries the model's mark).

Spending is capped per UTC day (`pack.llm_rerank_daily_usd`) across every process that packs
for the repository (CLI, MCP server, library): a ledger in the state directory, updated under a
lock, reserves each request's estimated cost before it is sent and settles it at the billed
tokens after; a failed request stays counted (it may have been billed). Once the next request
would pass the cap, packs keep the offline ranking until the day ends.
"""

from __future__ import annotations

import datetime
import json
import logging
import math
import re
from pathlib import Path
from typing import Any

from repomem import secrets
from repomem.config import Config
from repomem.errors import LLMError, LockTimeoutError
from repomem.fsutil import FileLock, atomic_write

log = logging.getLogger(__name__)

TOP = 30  # files shown to the model
PICK = 10  # files it may name
TASK_CHARS = 6000
SYMBOLS_PER_FILE = 4
MAX_OUTPUT_TOKENS = 60
LEDGER = "llm-rerank-spend.json"
LOCK_TIMEOUT = 5.0

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
    # the task is prose: `DB_PASSWORD=x` in it counts, as in facts and notes
    task = secrets.redact(task, config_like=True, extra_patterns=cfg.secrets.extra_patterns)[0]
    text = prompt(task, head)
    try:
        estimate = _estimate(cfg, text)
        if not _reserve(cfg, estimate):
            return ranked
        try:
            done = api.complete(SYSTEM, text, max_tokens=MAX_OUTPUT_TOKENS)
        except LLMError as e:
            log.warning("model re-ranking failed, the offline ranking stands: %s", e)
            return ranked
        billed = llm.estimate_cost(done.input_tokens, done.output_tokens, cfg.llm.model)
        _settle(cfg, billed - estimate)
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


def _estimate(cfg: Config, text: str) -> float:
    """An upper bound of a request's cost: its tokens with the pack's margin, a full answer."""
    from repomem.llm import client as llm
    from repomem.pack import tokens

    sent = math.ceil((tokens.count(SYSTEM) + tokens.count(text)) * cfg.pack.token_margin)
    return llm.estimate_cost(sent, MAX_OUTPUT_TOKENS, cfg.llm.model)  # as the notes runs do


def ledger_path(cfg: Config) -> Path:
    """Where today's spend is kept (in the repository's state directory)."""
    from repomem.index.state import state_dir

    return state_dir(cfg) / LEDGER


def spent_today(cfg: Config) -> float:
    """Estimated USD spent on re-ranking today (UTC), by every process of this repository."""
    return _read(ledger_path(cfg), _today())


def _today() -> str:
    return datetime.datetime.now(datetime.timezone.utc).date().isoformat()


def _read(path: Path, day: str) -> float:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if data.get("day") == day:
            return max(0.0, float(data.get("usd", 0.0)))
    except FileNotFoundError:
        pass
    except (OSError, ValueError, TypeError, AttributeError) as exc:
        log.warning("cannot read the re-ranking spend ledger %s (%s): counting from 0", path, exc)
    return 0.0


def _change(cfg: Config, amount: float, *, cap: float | None) -> bool:
    """Add `amount` to today's spend unless that would pass `cap`; False when refused or the
    ledger cannot be locked or written (then nothing is sent: the cap must hold)."""
    path = ledger_path(cfg)
    try:
        with FileLock(path.with_suffix(".lock"), LOCK_TIMEOUT):
            day = _today()
            spent = _read(path, day)
            if cap is not None and spent + amount > cap:
                log.warning(
                    "model re-ranking skipped: today's estimated spend $%.4f plus $%.4f would "
                    "pass pack.llm_rerank_daily_usd = $%g; the offline ranking stands",
                    spent, amount, cap,
                )  # fmt: skip
                return False
            atomic_write(path, json.dumps({"day": day, "usd": round(max(0.0, spent + amount), 6)}))
    except (OSError, LockTimeoutError) as exc:
        log.warning("model re-ranking skipped: cannot update the spend ledger %s: %s", path, exc)
        return False
    return True


def _reserve(cfg: Config, estimate: float) -> bool:
    return _change(cfg, estimate, cap=cfg.pack.llm_rerank_daily_usd)


def _settle(cfg: Config, difference: float) -> None:
    _change(cfg, difference, cap=None)
