"""The Anthropic API client (the only module importing `anthropic`).

A small, typed surface over the SDK for the rest of repomem:

    client = from_config(cfg)            # None without ANTHROPIC_API_KEY (callers go offline)
    done = client.complete(system, prompt, max_tokens=300)
    done.text, done.input_tokens, done.output_tokens

What it guarantees:

* Nothing leaves unredacted. Every outgoing text goes through `repomem.secrets.redact` (read as
  prose, which may quote code: a task's `DB_PASSWORD=x in prod` counts; with the user's extra
  patterns) and `redact_personal` (e-mail addresses, phone numbers), and a final
  `contains_secret` check refuses to send what is left.
* The key comes from `ANTHROPIC_API_KEY` only (never from `.repomem`) and never appears in a log
  line or an error message.
* Bounded retries on rate limits (429), overload (529), server errors (5xx), timeouts and
  connection failures: exponential backoff with jitter, `retry-after` honoured, at most
  `llm.max_retries` retries. The SDK's own retries are off so the count is ours.
* Clear `LLMError`s: a refused key (401/403), an unknown model (404), a rejected request (400),
  a malformed response body, retries exhausted.
* The shared system instructions are sent with `cache_control: ephemeral` (prompt caching).
* The Message Batches API for large runs (`submit_batch` / `collect_batch`).

`estimate_cost` prices a call from a table of current Claude models; tokens are estimated with
`repomem.pack.tokens.count` (cl100k), since Claude's tokenizer is not public.
"""

from __future__ import annotations

import logging
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from typing import Any, TypeVar

from repomem import secrets
from repomem.config import Config
from repomem.errors import LLMError

log = logging.getLogger(__name__)

T = TypeVar("T")

API_KEY_ENV = "ANTHROPIC_API_KEY"
BASE_URL_ENV = "ANTHROPIC_BASE_URL"
DEFAULT_BASE_URL = "https://api.anthropic.com"
# First backoff step in seconds; step n waits BASE_DELAY * 2**(n-1), with jitter, capped.
BASE_DELAY = 0.5
# Statuses worth retrying besides 5xx: request timeout, conflict, rate limit.
RETRY_STATUSES = frozenset({408, 409, 429})


# --------------------------------------------------------------------------- prices


@dataclass(frozen=True)
class Price:
    """USD per million tokens."""

    input: float
    output: float


# List prices per million tokens (input / output), from the model overview pages of the Claude
# platform docs (platform.claude.com/docs/.../models/*/overview), read on 2026-11-22. Prompt
# caching and the Batches API change them: cache writes cost 1.25x input, cache reads 0.1x, and
# batches half of both. Haiku 5.5 costs more on prompts over 100k tokens (0.50 / 2.50); notes
# prompts are far below that. Matched by longest prefix of the model name, so dated ids
# (claude-haiku-4-5-20251001) find their row.
PRICES: dict[str, Price] = {
    "claude-fable-5-1": Price(10.0, 50.0),
    "claude-opus-5-5": Price(4.0, 20.0),
    "claude-opus-5": Price(5.0, 25.0),
    "claude-sonnet-5-5": Price(2.0, 10.0),
    "claude-sonnet-5": Price(2.0, 10.0),
    "claude-haiku-5-5": Price(0.10, 0.50),
    "claude-opus-4-8": Price(5.0, 25.0),
    "claude-opus-4-7": Price(5.0, 25.0),
    "claude-opus-4-6": Price(5.0, 25.0),
    "claude-opus-4-5": Price(5.0, 25.0),
    "claude-opus-4-1": Price(15.0, 75.0),
    "claude-opus-4": Price(15.0, 75.0),
    "claude-sonnet-4": Price(3.0, 15.0),
    "claude-haiku-4-5": Price(1.0, 5.0),
    "claude-3-5-haiku": Price(0.80, 4.0),
    "claude-3-haiku": Price(0.25, 1.25),
}
# An unknown model is priced like the dearest known one, so an estimate is never too low.
FALLBACK_PRICE = Price(15.0, 75.0)
BATCH_DISCOUNT = 0.5


def price_for(model: str) -> tuple[Price, bool]:
    """The price of `model` and whether it is known (else the conservative fallback)."""
    name = model.strip().lower()
    best = max((p for p in PRICES if name.startswith(p)), key=len, default=None)
    return (PRICES[best], True) if best is not None else (FALLBACK_PRICE, False)


def estimate_cost(
    input_tokens: int, output_tokens: int, model: str, *, batch: bool = False
) -> float:
    """Estimated USD for this many tokens on `model` (uncached list price; batches half)."""
    price, _known = price_for(model)
    cost = (input_tokens * price.input + output_tokens * price.output) / 1_000_000
    return cost * BATCH_DISCOUNT if batch else cost


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class Completion:
    """One model answer and what it cost."""

    text: str
    input_tokens: int
    output_tokens: int
    cache_creation_input_tokens: int = 0
    cache_read_input_tokens: int = 0
    stop_reason: str = ""


@dataclass(frozen=True)
class BatchItem:
    """One request of a Message Batch; `custom_id` matches its result (`[A-Za-z0-9_-]{1,64}`)."""

    custom_id: str
    system: str
    prompt: str
    max_tokens: int


@dataclass
class BatchOutcome:
    """A batch's results so far: `ended` is False when it is still processing."""

    batch_id: str
    ended: bool
    results: dict[str, Completion] = field(default_factory=dict)
    errors: dict[str, str] = field(default_factory=dict)


@dataclass
class Usage:
    """What a client has sent so far (every HTTP attempt counts as a request)."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0


# --------------------------------------------------------------------------- the client


def from_config(
    cfg: Config,
    environ: Mapping[str, str] | None = None,
    *,
    sleep: Callable[[float], None] = time.sleep,
) -> LLMClient | None:
    """A client when `llm.enabled` and `ANTHROPIC_API_KEY` is set, else None (go offline).

    The base URL is `llm.base_url`, else `ANTHROPIC_BASE_URL`, else the SDK's default.
    """
    env = os.environ if environ is None else environ
    if not configured(cfg, env):
        return None
    return LLMClient(
        api_key=env[API_KEY_ENV].strip(),
        model=cfg.llm.model,
        base_url=cfg.llm.base_url.strip() or env.get(BASE_URL_ENV, "").strip() or None,
        timeout=cfg.llm.timeout,
        max_retries=cfg.llm.max_retries,
        retry_max_wait=cfg.llm.retry_max_wait,
        extra_patterns=tuple(cfg.secrets.extra_patterns),
        sleep=sleep,
    )


def configured(cfg: Config, environ: Mapping[str, str] | None = None) -> bool:
    """True when `from_config` would build a client: `llm.enabled` and a key is set.

    Builds nothing (no SDK import), for callers that only need to know, like `--dry-run`.
    """
    env = os.environ if environ is None else environ
    return cfg.llm.enabled and bool(env.get(API_KEY_ENV, "").strip())


class LLMClient:
    """A configured Anthropic client with redaction, bounded retries and clear errors."""

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 4,
        retry_max_wait: float = 60.0,
        extra_patterns: Sequence[str] = (),
        sleep: Callable[[float], None] = time.sleep,
        jitter: Callable[[], float] = random.random,
    ) -> None:
        if not api_key:
            raise LLMError(f"No API key; set {API_KEY_ENV} or leave the model off.")
        import anthropic

        self.model = model
        self.base_url = base_url or DEFAULT_BASE_URL
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self.retry_max_wait = retry_max_wait
        self.usage = Usage()
        self._key = api_key
        self._extra = tuple(extra_patterns)
        self._sleep = sleep
        self._jitter = jitter
        self._sdk: Any = anthropic.Anthropic(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=0
        )

    def __repr__(self) -> str:  # never show the key
        return f"LLMClient(model={self.model!r}, base_url={self.base_url!r})"

    def close(self) -> None:
        self._sdk.close()

    # ------------------------------------------------------------------ messages
    def complete(self, system: str, prompt: str, *, max_tokens: int) -> Completion:
        """Send one message and return the model's text.

        `system` holds instructions shared across calls (sent with prompt caching); `prompt` is
        this call's input. Both are redacted before sending.

        Raises:
            LLMError: the key is refused, the model unknown, the request rejected, the body
                malformed, or the API kept failing after `max_retries` retries.
        """
        params = self._params(system, prompt, max_tokens)
        raw = self._call(lambda: self._sdk.messages.create(**params), "a message")
        done = _completion(raw)
        self.usage.input_tokens += done.input_tokens
        self.usage.output_tokens += done.output_tokens
        return done

    def _params(self, system: str, prompt: str, max_tokens: int) -> dict[str, Any]:
        return {
            "model": self.model,
            "max_tokens": max_tokens,
            "system": [
                {"type": "text", "text": self.clean(system), "cache_control": {"type": "ephemeral"}}
            ],
            "messages": [{"role": "user", "content": self.clean(prompt)}],
        }

    def clean(self, text: str) -> str:
        """`text` as it may be sent: secrets redacted; refuses what still looks secret.

        Raises:
            LLMError: if a credential survives redaction (nothing is sent).
        """
        # prose: a prompt is code and what people wrote (a task, notes, facts), where a bare
        # `DB_PASSWORD=x ...` or "the password: x (rotated)" is a credential too
        cleaned, found = secrets.redact(text, prose=True, extra_patterns=self._extra)
        if found:
            log.info("redacted %d secret(s) before sending to the model", found)
        # Personal data is not the model's business either (a file header's author e-mail).
        cleaned = secrets.redact_personal(cleaned)[0]
        if secrets.contains_secret(cleaned) or self._key in cleaned:
            raise LLMError(
                "A credential survived redaction in text meant for the model; nothing was sent "
                "(add a pattern to `secrets.extra_patterns` or exclude the file with "
                "`llm.exclude`)."
            )
        return cleaned

    # ------------------------------------------------------------------ batches
    def submit_batch(self, items: Sequence[BatchItem]) -> str:
        """Create a Message Batch; returns its id.

        Raises:
            LLMError: as for `complete`.
        """
        requests = [
            {"custom_id": it.custom_id, "params": self._params(it.system, it.prompt, it.max_tokens)}
            for it in items
        ]
        raw = self._call(
            lambda: self._sdk.messages.batches.create(requests=requests), "a message batch"
        )
        batch_id = getattr(raw, "id", None)
        if not isinstance(batch_id, str) or not batch_id:
            raise LLMError(_malformed("a message batch"))
        log.info("submitted message batch %s with %d request(s)", batch_id, len(requests))
        return batch_id

    def collect_batch(self, batch_id: str, *, wait: float, poll: float = 10.0) -> BatchOutcome:
        """Poll a batch for up to `wait` seconds; its results once it has ended.

        Raises:
            LLMError: as for `complete`.
        """
        deadline = time.monotonic() + max(0.0, wait)
        while True:
            raw = self._call(
                lambda: self._sdk.messages.batches.retrieve(batch_id), "the batch status"
            )
            status = getattr(raw, "processing_status", None)
            if status == "ended":
                break
            if status not in ("in_progress", "canceling"):
                raise LLMError(_malformed("the batch status"))
            left = deadline - time.monotonic()
            if left <= 0:
                return BatchOutcome(batch_id, ended=False)
            self._sleep(min(poll, left))
        lines = self._call(
            lambda: list(self._sdk.messages.batches.results(batch_id)), "the batch results"
        )
        self.usage.requests += 1  # results() fetches the batch again before the results file
        outcome = BatchOutcome(batch_id, ended=True)
        for line in lines:
            custom_id = getattr(line, "custom_id", None)
            result = getattr(line, "result", None)
            kind = getattr(result, "type", None)
            if not isinstance(custom_id, str) or kind is None:
                raise LLMError(_malformed("the batch results"))
            if kind == "succeeded":
                done = _completion(getattr(result, "message", None))
                outcome.results[custom_id] = done
                self.usage.input_tokens += done.input_tokens
                self.usage.output_tokens += done.output_tokens
            else:
                body = getattr(getattr(result, "error", None), "error", None)
                error = getattr(body, "message", "")
                outcome.errors[custom_id] = self._scrub(f"{kind}: {error}" if error else str(kind))
        return outcome

    # ------------------------------------------------------------------ retries and errors
    def _call(self, fn: Callable[[], T], what: str) -> T:
        import anthropic

        attempt = 0
        while True:
            attempt += 1
            self.usage.requests += 1
            try:
                return fn()
            except (anthropic.AnthropicError, ValueError) as exc:
                retry, message, retry_after = self._classify(exc, what)
            log.debug("request for %s failed: %s", what, message)
            if not retry:
                raise LLMError(message) from None
            if attempt > self.max_retries:
                raise LLMError(
                    f"{message} after {attempt} attempts; try again later or raise "
                    "`llm.max_retries`."
                ) from None
            if retry_after is not None:
                if retry_after > self.retry_max_wait:
                    raise LLMError(
                        f"{message}; the API asks to wait {retry_after:g}s, longer than "
                        f"`llm.retry_max_wait` ({self.retry_max_wait:g}s); try again later."
                    ) from None
                delay = retry_after
            else:
                step = min(self.retry_max_wait, BASE_DELAY * 2 ** (attempt - 1))
                delay = step * (0.5 + 0.5 * self._jitter())  # jitter: half to all of the step
            log.warning("%s; retry %d of %d in %.1fs", message, attempt, self.max_retries, delay)
            self._sleep(delay)

    def _classify(self, exc: Exception, what: str) -> tuple[bool, str, float | None]:
        """(retry?, one-sentence message without the key, retry-after seconds)."""
        import anthropic

        if isinstance(exc, anthropic.APITimeoutError):
            return True, f"The Anthropic API timed out after {self.timeout:g}s on {what}", None
        if isinstance(exc, anthropic.APIConnectionError):
            return True, f"Cannot reach the Anthropic API at {self.base_url}", None
        if isinstance(exc, anthropic.APIStatusError):
            status = exc.status_code
            detail = self._scrub(str(getattr(exc, "api_message", None) or ""))
            detail = f" ({detail})" if detail else ""
            if status == 401:
                return (
                    False,
                    (
                        f"The Anthropic API refused the key in {API_KEY_ENV} (401){detail}; set a "
                        f"valid key, or unset it to use offline notes."
                    ),
                    None,
                )
            if status == 403:
                return (
                    False,
                    (
                        f"The key in {API_KEY_ENV} may not use this API or model (403){detail}; "
                        "check the key's workspace and permissions."
                    ),
                    None,
                )
            if status == 404:
                return (
                    False,
                    (
                        f"The Anthropic API does not know model `{self.model}` (404){detail}; set "
                        "`llm.model` in .repomem to a current model such as claude-haiku-4-5."
                    ),
                    None,
                )
            if status in RETRY_STATUSES or status >= 500:
                kind = {429: "rate-limited", 529: "overloaded"}.get(status, "failing")
                return True, f"The Anthropic API is {kind} ({status}){detail}", _retry_after(exc)
            return (
                False,
                (
                    f"The Anthropic API rejected {what} ({status}){detail}; check `llm.model` and "
                    "`llm.max_output_tokens`."
                ),
                None,
            )
        # ValueError (a body that is not JSON) or a response that fails the SDK's validation.
        return False, _malformed(what), None

    def _scrub(self, text: str) -> str:
        return secrets.redact(text.replace(self._key, "[REDACTED]"))[0]


def _malformed(what: str) -> str:
    return (
        f"The Anthropic API sent a malformed response for {what}; check `llm.base_url` "
        "(a proxy may be answering) or try again."
    )


def _retry_after(exc: Any) -> float | None:
    """Seconds from `retry-after-ms` or `retry-after` (seconds or an HTTP date)."""
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    raw_ms = headers.get("retry-after-ms")
    if raw_ms:
        try:
            return max(0.0, float(raw_ms) / 1000)
        except ValueError:
            pass
    raw = headers.get("retry-after")
    if not raw:
        return None
    try:
        return max(0.0, float(raw))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(raw)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())


def _completion(raw: Any) -> Completion:
    """Check a Message's shape (the SDK does not) and keep what we use."""
    content = getattr(raw, "content", None)
    usage = getattr(raw, "usage", None)
    if not isinstance(content, list) or usage is None:
        raise LLMError(_malformed("a message"))
    texts = [
        b.text
        for b in content
        if getattr(b, "type", None) == "text" and isinstance(getattr(b, "text", None), str)
    ]
    input_tokens = getattr(usage, "input_tokens", None)
    output_tokens = getattr(usage, "output_tokens", None)
    if (
        not "".join(texts).strip()  # an empty answer is no answer (it would be stored as one)
        or not isinstance(input_tokens, int)
        or not isinstance(output_tokens, int)
    ):
        raise LLMError(_malformed("a message"))
    return Completion(
        text="".join(texts).strip(),
        input_tokens=input_tokens,
        output_tokens=output_tokens,
        cache_creation_input_tokens=getattr(usage, "cache_creation_input_tokens", None) or 0,
        cache_read_input_tokens=getattr(usage, "cache_read_input_tokens", None) or 0,
        stop_reason=str(getattr(raw, "stop_reason", "") or ""),
    )
