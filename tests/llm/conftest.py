"""Fixtures for the LLM tests: the fake Messages API and a test key; no real network."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm.fakeapi import FakeAnthropic

# Shaped like a real key, so a leak would be caught by the secret filter too.
TEST_KEY = "sk-ant-api03-TESTKEY0123456789abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.fixture(autouse=True)
def _no_real_api(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL",
                "ANTHROPIC_PROFILE", "ANTHROPIC_CUSTOM_HEADERS"):  # fmt: skip
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def fake_api() -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as fake:
        yield fake


@pytest.fixture
def api_env(fake_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch) -> FakeAnthropic:
    """The key and base URL set in the environment, pointing at the fake."""
    monkeypatch.setenv("ANTHROPIC_API_KEY", TEST_KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_api.url)
    return fake_api
