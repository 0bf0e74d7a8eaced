"""Compaction written by the model through the real anthropic client (fake API on 127.0.0.1)."""

from __future__ import annotations

import pytest

from repomem.memory import access, compact, session
from tests.conftest import Repo
from tests.llm.conftest import TEST_KEY
from tests.llm.fakeapi import FakeAnthropic, error


@pytest.fixture
def api(monkeypatch: pytest.MonkeyPatch) -> object:
    with FakeAnthropic(
        answer=lambda body: "Model summary: sessions 0-2 set up the project."
    ) as fake:
        monkeypatch.setenv("ANTHROPIC_API_KEY", TEST_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
        yield fake


def _sessions(cfg: object, n: int) -> None:
    for i in range(n):
        session.start(cfg, f"session number {i}")  # type: ignore[arg-type]
        session.end(cfg, summary=f"Did thing {i}.")  # type: ignore[arg-type]


def test_the_model_writes_the_summary_when_configured(repo: Repo, api: FakeAnthropic) -> None:
    repo.commit("init")
    plain = repo.config()
    _sessions(plain, 3)
    cfg = repo.config(**{"memory.keep_sessions": 1, "memory.compact_after_bytes": 10,
                         "llm.max_retries": 0})  # fmt: skip
    summarizer = compact.default_summarizer(cfg)
    assert summarizer is not None
    with access.editing(cfg) as doc:
        s = doc.sessions()[0]
        s.summary = "Rotated the key AKIAIOSFODNN7EXAMPLE."  # a hand edit that slipped through
        doc.touch(s)
        assert compact.maybe_compact(cfg, doc, summarizer) == 2
    (h,) = access.load(cfg).history()
    assert h.summary == "Model summary: sessions 0-2 set up the project."
    assert h.by == cfg.llm.model
    (req,) = api.posts()
    sent = req.raw.decode()
    assert "session number 0" in sent and "session number 1" in sent
    assert "AKIAIOSFODNN7EXAMPLE" not in req.text and TEST_KEY not in sent


def test_an_api_failure_falls_back_to_the_offline_summary(repo: Repo, api: FakeAnthropic) -> None:
    repo.commit("init")
    _sessions(repo.config(), 2)
    cfg = repo.config(**{"memory.keep_sessions": 0, "memory.compact_after_bytes": 10,
                         "llm.max_retries": 0})  # fmt: skip
    api.script(error(529, "overloaded_error", "Overloaded"))
    with access.editing(cfg) as doc:
        assert compact.maybe_compact(cfg, doc, compact.default_summarizer(cfg)) == 2
    (h,) = access.load(cfg).history()
    assert h.by == "repomem" and "session number 1" in h.summary


def test_without_a_key_there_is_no_model(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert compact.default_summarizer(repo.config()) is None


def test_a_history_entry_folding_one_session_says_one_session(repo: Repo) -> None:
    repo.commit("init")
    _sessions(repo.config(), 1)
    cfg = repo.config(**{"memory.keep_sessions": 0, "memory.compact_after_bytes": 10})
    with access.editing(cfg) as doc:
        assert compact.maybe_compact(cfg, doc) == 1
    (h,) = access.load(cfg).history()
    assert h.label.startswith("1 session, ")
