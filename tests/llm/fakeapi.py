"""A fake Anthropic Messages API on 127.0.0.1, served by `http.server` in a thread.

It records every request (method, path, headers, raw body) and answers like the real API:
`POST /v1/messages`, and for the Message Batches API `POST /v1/messages/batches`,
`GET /v1/messages/batches/{id}` and `GET /v1/messages/batches/{id}/results` (JSON lines).

Script it with `fake.script(...)`: each queued `Reply` answers one `POST /v1/messages` (or any
path given), in order; when the queue is empty a successful message is returned whose text comes
from `fake.answer(request_body)`. Replies can be errors (429 with retry-after, 529, 500, 401,
404), malformed bodies, or slow (held until the test ends or `release()` is called, so the
client's timeout fires; no sleeping).
"""

from __future__ import annotations

import json
import threading
from collections import deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Recorded:
    method: str
    path: str
    headers: dict[str, str]
    raw: bytes

    @property
    def body(self) -> Any:
        return json.loads(self.raw) if self.raw else None

    @property
    def text(self) -> str:
        """Everything sent: headers and body, for leak checks."""
        head = "\n".join(f"{k}: {v}" for k, v in self.headers.items())
        return f"{self.method} {self.path}\n{head}\n\n{self.raw.decode('utf-8', 'replace')}"


@dataclass
class Reply:
    status: int = 200
    body: Any = None  # dict -> JSON; bytes -> sent as is
    headers: dict[str, str] = field(default_factory=dict)
    slow: bool = False  # hold the connection until release()
    path: str = "/v1/messages"


def error(status: int, kind: str, message: str, **headers: str) -> Reply:
    body = {"type": "error", "error": {"type": kind, "message": message}}
    return Reply(status, body, {k.replace("_", "-"): v for k, v in headers.items()})


RATE_LIMITED = error(429, "rate_limit_error", "Number of requests has exceeded your rate limit")
OVERLOADED = error(529, "overloaded_error", "Overloaded")
SERVER_ERROR = error(500, "api_error", "Internal server error")
UNAUTHORIZED = error(401, "authentication_error", "invalid x-api-key")
MALFORMED = Reply(200, b'{"id": "msg_1", "type": "message", "content": [{"type": "te')
SLOW = Reply(slow=True)


def message(text: str, model: str = "claude-haiku-4-5", input_tokens: int = 10,
            output_tokens: int = 3) -> dict[str, Any]:  # fmt: skip
    return {
        "id": "msg_fake",
        "type": "message",
        "role": "assistant",
        "model": model,
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "stop_sequence": None,
        "usage": {"input_tokens": input_tokens, "output_tokens": output_tokens},
    }


def default_answer(body: dict[str, Any]) -> str:
    prompt = body["messages"][0]["content"]
    first = prompt.splitlines()[0] if prompt else ""
    return f"Purpose: a note from the model about {first}\nEntry points: -\nGotchas: none noted"


class FakeAnthropic:
    """The fake server; use as a context manager or via the `fake_api` fixture."""

    def __init__(self, answer: Callable[[dict[str, Any]], str] = default_answer) -> None:
        self.answer = answer
        self.requests: list[Recorded] = []
        self.batch_polls_before_end = 1  # GET /batches/{id} answers in_progress this many times
        self._queue: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._release = threading.Event()
        self._batches: dict[str, dict[str, Any]] = {}
        fake = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:
                fake._handle(self, "POST")

            def do_GET(self) -> None:
                fake._handle(self, "GET")

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}"

    def start(self) -> FakeAnthropic:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._release.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FakeAnthropic:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def script(self, *replies: Reply) -> None:
        with self._lock:
            self._queue.extend(replies)

    def release(self) -> None:
        self._release.set()

    # ------------------------------------------------------------------ views
    def posts(self, path: str = "/v1/messages") -> list[Recorded]:
        return [r for r in self.requests if r.method == "POST" and r.path == path]

    def all_text(self) -> Iterator[str]:
        for r in self.requests:
            yield r.text

    # ------------------------------------------------------------------ serving
    def _handle(self, h: BaseHTTPRequestHandler, method: str) -> None:
        length = int(h.headers.get("content-length") or 0)
        raw = h.rfile.read(length) if length else b""
        rec = Recorded(method, h.path, dict(h.headers.items()), raw)
        with self._lock:
            self.requests.append(rec)
            reply = None
            if self._queue and self._queue[0].path == h.path:
                reply = self._queue.popleft()
        if reply is None:
            reply = self._default(method, h.path, rec)
        if reply.slow:
            self._release.wait(timeout=30)
            reply = Reply(200, message("late"))
        data = reply.body if isinstance(reply.body, bytes) else json.dumps(reply.body).encode()
        try:
            h.send_response(reply.status)
            ctype = "application/binary" if h.path.endswith("/results") else "application/json"
            h.send_header("content-type", ctype)
            for k, v in reply.headers.items():
                h.send_header(k, v)
            h.send_header("content-length", str(len(data)))
            h.end_headers()
            h.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):  # the client timed out and left
            pass

    def _default(self, method: str, path: str, rec: Recorded) -> Reply:
        if method == "POST" and path == "/v1/messages":
            body = rec.body
            return Reply(200, message(self.answer(body), body["model"], len(rec.raw) // 4, 20))
        if method == "POST" and path == "/v1/messages/batches":
            with self._lock:
                batch_id = f"msgbatch_{len(self._batches) + 1}"
                self._batches[batch_id] = {"requests": rec.body["requests"], "polls": 0}
            return Reply(200, self._batch_json(batch_id, ended=False))
        parts = path.strip("/").split("/")
        if method == "GET" and len(parts) >= 4 and parts[:3] == ["v1", "messages", "batches"]:
            batch = self._batches.get(parts[3])
            if batch is None:
                return error(404, "not_found_error", "no such batch")
            if len(parts) == 4:
                batch["polls"] += 1
                ended = batch["polls"] > self.batch_polls_before_end
                return Reply(200, self._batch_json(parts[3], ended=ended))
            if parts[4:] == ["results"]:
                lines = []
                for req in batch["requests"]:
                    params = req["params"]
                    msg = message(self.answer(params), params["model"], 100, 20)
                    result = {"type": "succeeded", "message": msg}
                    lines.append({"custom_id": req["custom_id"], "result": result})
                return Reply(200, "\n".join(json.dumps(x) for x in lines).encode() + b"\n")
        return error(404, "not_found_error", f"no route {method} {path}")

    def _batch_json(self, batch_id: str, *, ended: bool) -> dict[str, Any]:
        n = len(self._batches[batch_id]["requests"])
        return {
            "id": batch_id,
            "type": "message_batch",
            "processing_status": "ended" if ended else "in_progress",
            "request_counts": {
                "processing": 0 if ended else n,
                "succeeded": n if ended else 0,
                "errored": 0,
                "canceled": 0,
                "expired": 0,
            },
            "created_at": "2026-11-22T00:00:00Z",
            "expires_at": "2026-11-23T00:00:00Z",
            "ended_at": "2026-11-22T00:01:00Z" if ended else None,
            "archived_at": None,
            "cancel_initiated_at": None,
            "results_url": f"{self.url}/v1/messages/batches/{batch_id}/results" if ended else None,
        }
