"""The real anthropic SDK against the fake Messages API on 127.0.0.1."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import pytest

from repomem.config import Config
from repomem.errors import LLMError
from repomem.llm import client as llm
from repomem.llm.client import BatchItem, LLMClient
from tests.conftest import Repo
from tests.llm.conftest import TEST_KEY
from tests.llm.fakeapi import (
    MALFORMED,
    OVERLOADED,
    SERVER_ERROR,
    SLOW,
    UNAUTHORIZED,
    FakeAnthropic,
    Reply,
    error,
)

AWS_KEY = "AKIAIOSFODNN7EXAMPLF"
GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"


_open: list[LLMClient] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while _open:
        _open.pop().close()


def make(fake: FakeAnthropic, sleeps: list[float] | None = None, **kw: object) -> LLMClient:
    opts: dict[str, object] = {"model": "claude-haiku-4-5", "max_retries": 3, "timeout": 5.0}
    opts.update(kw)
    client = LLMClient(
        api_key=TEST_KEY,
        base_url=fake.url,
        sleep=(sleeps if sleeps is not None else []).append,
        jitter=lambda: 1.0,
        **opts,  # type: ignore[arg-type]
    )
    _open.append(client)
    return client


def configured(cfg: Config) -> LLMClient | None:
    client = llm.from_config(cfg)
    if client is not None:
        _open.append(client)
    return client


def test_complete_returns_the_text_and_usage_and_caches_the_system_prompt(
    fake_api: FakeAnthropic,
) -> None:
    done = make(fake_api).complete("You write notes.", "Path: a.py", max_tokens=50)
    assert done.text.startswith("Purpose: a note from the model about Path: a.py")
    assert done.input_tokens > 0 and done.output_tokens == 20
    (req,) = fake_api.posts()
    body = req.body
    assert body["model"] == "claude-haiku-4-5" and body["max_tokens"] == 50
    assert body["system"] == [
        {"type": "text", "text": "You write notes.", "cache_control": {"type": "ephemeral"}}
    ]
    assert body["messages"] == [{"role": "user", "content": "Path: a.py"}]
    assert req.headers["Authorization"] == f"Bearer {TEST_KEY}"


def test_no_client_without_a_key_or_when_disabled(
    repo: Repo, fake_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    assert configured(repo.config()) is None
    assert not llm.configured(repo.config())
    monkeypatch.setenv("ANTHROPIC_API_KEY", "  ")
    assert configured(repo.config()) is None
    assert not llm.configured(repo.config())
    monkeypatch.setenv("ANTHROPIC_API_KEY", TEST_KEY)
    assert configured(repo.config(**{"llm.enabled": False})) is None
    assert not llm.configured(repo.config(**{"llm.enabled": False}))
    assert configured(repo.config()) is not None
    assert llm.configured(repo.config())


def test_base_url_comes_from_repomem_before_the_environment(
    repo: Repo, fake_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ANTHROPIC_API_KEY", TEST_KEY)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", "http://127.0.0.1:9")  # nothing listens there
    repo.write(".repomem", f'[llm]\nbase_url = "{fake_api.url}"\n')
    client = configured(repo.config())
    assert client is not None
    assert client.complete("s", "p", max_tokens=5).text
    assert len(fake_api.posts()) == 1


def test_environment_base_url_is_used_when_repomem_has_none(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    client = configured(repo.config())
    assert client is not None
    client.complete("s", "p", max_tokens=5)
    assert len(api_env.posts()) == 1


def test_rate_limit_waits_as_long_as_retry_after_says(fake_api: FakeAnthropic) -> None:
    limited = error(429, "rate_limit_error", "slow down", retry_after="7")
    fake_api.script(limited)
    sleeps: list[float] = []
    done = make(fake_api, sleeps).complete("s", "p", max_tokens=5)
    assert done.text
    assert sleeps == [7.0]
    assert len(fake_api.posts()) == 2


def test_retry_after_ms_is_honoured(fake_api: FakeAnthropic) -> None:
    fake_api.script(error(429, "rate_limit_error", "slow", retry_after_ms="250"))
    sleeps: list[float] = []
    make(fake_api, sleeps).complete("s", "p", max_tokens=5)
    assert sleeps == [0.25]


def test_overload_and_server_errors_back_off_exponentially_then_succeed(
    fake_api: FakeAnthropic,
) -> None:
    fake_api.script(OVERLOADED, SERVER_ERROR, OVERLOADED)
    sleeps: list[float] = []
    done = make(fake_api, sleeps, max_retries=3).complete("s", "p", max_tokens=5)
    assert done.text
    assert sleeps == [0.5, 1.0, 2.0]  # jitter pinned to the top of each step
    assert len(fake_api.posts()) == 4


def test_retries_are_bounded_and_the_error_says_how_many_attempts(
    fake_api: FakeAnthropic,
) -> None:
    fake_api.script(*[OVERLOADED] * 10)
    sleeps: list[float] = []
    with pytest.raises(LLMError, match=r"overloaded \(529\).*after 3 attempts"):
        make(fake_api, sleeps, max_retries=2).complete("s", "p", max_tokens=5)
    assert len(fake_api.posts()) == 3
    assert len(sleeps) == 2


def test_backoff_never_waits_longer_than_retry_max_wait(fake_api: FakeAnthropic) -> None:
    fake_api.script(*[SERVER_ERROR] * 6)
    sleeps: list[float] = []
    with pytest.raises(LLMError):
        make(fake_api, sleeps, max_retries=5, retry_max_wait=1.5).complete("s", "p", max_tokens=5)
    assert sleeps == [0.5, 1.0, 1.5, 1.5, 1.5]


def test_a_retry_after_beyond_the_limit_gives_up_at_once(fake_api: FakeAnthropic) -> None:
    fake_api.script(error(429, "rate_limit_error", "slow", retry_after="3600"))
    sleeps: list[float] = []
    with pytest.raises(LLMError, match="asks to wait 3600s"):
        make(fake_api, sleeps, retry_max_wait=60).complete("s", "p", max_tokens=5)
    assert sleeps == []
    assert len(fake_api.posts()) == 1


def test_a_slow_server_times_out_and_is_retried_a_bounded_number_of_times(
    fake_api: FakeAnthropic,
) -> None:
    fake_api.script(SLOW, SLOW)
    with pytest.raises(LLMError, match="timed out after 0.3s"):
        make(fake_api, max_retries=1, timeout=0.3).complete("s", "p", max_tokens=5)
    assert len(fake_api.posts()) == 2


def test_a_malformed_body_is_a_clear_error_and_not_retried(fake_api: FakeAnthropic) -> None:
    fake_api.script(MALFORMED)
    with pytest.raises(LLMError, match="malformed response"):
        make(fake_api).complete("s", "p", max_tokens=5)
    assert len(fake_api.posts()) == 1


def test_a_body_that_is_not_a_message_is_malformed(fake_api: FakeAnthropic) -> None:
    fake_api.script(Reply(200, {"content": [{"type": "text", "text": "x"}]}))  # no usage
    with pytest.raises(LLMError, match="malformed response"):
        make(fake_api).complete("s", "p", max_tokens=5)


def test_an_empty_answer_is_malformed_not_a_note(fake_api: FakeAnthropic) -> None:
    usage = {"input_tokens": 5, "output_tokens": 0}
    fake_api.script(
        Reply(200, {"type": "message", "role": "assistant", "model": "m", "usage": usage,
                    "content": [{"type": "text", "text": "  \n"}], "stop_reason": "end_turn"})
    )  # fmt: skip
    with pytest.raises(LLMError, match="malformed response"):
        make(fake_api).complete("s", "p", max_tokens=5)


def test_a_refused_key_names_the_variable_but_never_the_key(
    fake_api: FakeAnthropic, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake_api.script(UNAUTHORIZED)
    with pytest.raises(LLMError) as err:
        make(fake_api).complete("s", "p", max_tokens=5)
    message = str(err.value)
    assert "ANTHROPIC_API_KEY" in message and "(401)" in message
    assert TEST_KEY not in message
    assert err.value.__cause__ is None and err.value.__suppress_context__
    assert len(fake_api.posts()) == 1
    assert TEST_KEY not in caplog.text
    assert TEST_KEY not in repr(make(fake_api))


def test_a_server_echoing_the_key_does_not_leak_it_into_errors_or_logs(
    fake_api: FakeAnthropic, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    fake_api.script(
        error(500, "api_error", f"bad key {TEST_KEY}"), error(403, "permission_error", TEST_KEY)
    )
    with pytest.raises(LLMError) as err:
        make(fake_api).complete("s", "p", max_tokens=5)
    assert "(403)" in str(err.value)
    assert TEST_KEY not in str(err.value)
    assert TEST_KEY not in caplog.text


def test_an_unknown_model_says_to_change_llm_model(fake_api: FakeAnthropic) -> None:
    fake_api.script(error(404, "not_found_error", "model: claude-nope"))
    with pytest.raises(LLMError, match="does not know model `claude-nope`.*llm.model"):
        make(fake_api, model="claude-nope").complete("s", "p", max_tokens=5)


def test_a_rejected_request_is_not_retried(fake_api: FakeAnthropic) -> None:
    fake_api.script(error(400, "invalid_request_error", "max_tokens too large"))
    with pytest.raises(LLMError, match=r"rejected a message \(400\) \(max_tokens too large\)"):
        make(fake_api).complete("s", "p", max_tokens=5)
    assert len(fake_api.posts()) == 1


def test_secrets_are_redacted_before_anything_is_sent(fake_api: FakeAnthropic) -> None:
    prompt = f'aws_key = "{AWS_KEY}"\ntoken = "{GITHUB_TOKEN}"\nprint(1)\n'
    make(fake_api).complete(f"system with {GITHUB_TOKEN}", prompt, max_tokens=5)
    (req,) = fake_api.posts()
    sent = req.raw.decode()
    assert AWS_KEY not in sent and GITHUB_TOKEN not in sent
    assert sent.count("[REDACTED]") == 3
    assert "print(1)" in sent


@pytest.mark.parametrize(
    ("prompt", "leaked", "kept"),
    [
        pytest.param(
            '__author__ = "Jane Roe <jane.roe@corp.example>"\n'
            'subprocess.run("PGPASSWORD=pgS3cret99 psql -h db", shell=True)\n'
            "# the staging password is Tr0ub4dor&3\n",
            ("jane.roe@corp.example", "pgS3cret99", "Tr0ub4dor&3"),
            ("[EMAIL]", "Jane Roe"),
            id="personal_data_and_command_line_passwords",
        ),
        pytest.param(
            "Task: the deploy fails since DB_PASSWORD=Hq71mZpe4T went in prod\n"
            "Notes: the staging password: hunter2hunter (rotated)\n"
            "def deploy():\n    return connect()\n",
            ("Hq71mZpe4T", "hunter2hunter"),
            ("def deploy():", "the deploy fails"),
            id="credentials_written_in_prose",
        ),
    ],
)
def test_personal_data_and_credentials_in_code_or_prose_are_not_sent(
    fake_api: FakeAnthropic, prompt: str, leaked: tuple[str, ...], kept: tuple[str, ...]
) -> None:
    make(fake_api).complete("s", prompt, max_tokens=5)
    sent = fake_api.posts()[0].raw.decode()
    assert not [x for x in leaked if x in sent]
    assert all(x in sent for x in kept)


def test_extra_patterns_are_redacted_too(fake_api: FakeAnthropic) -> None:
    make(fake_api, extra_patterns=[r"internal-[0-9]{6}"]).complete(
        "s", "host internal-123456 is ours", max_tokens=5
    )
    assert "internal-123456" not in fake_api.posts()[0].raw.decode()


def test_connection_failures_are_retried_then_reported(fake_api: FakeAnthropic) -> None:
    dead = LLMClient(
        api_key=TEST_KEY, model="m", base_url="http://127.0.0.1:9", max_retries=1,
        timeout=2.0, sleep=lambda s: None,
    )  # fmt: skip
    _open.append(dead)
    with pytest.raises(LLMError, match=r"Cannot reach .* at http://127.0.0.1:9.*2 attempts"):
        dead.complete("s", "p", max_tokens=5)


def test_batches_are_submitted_polled_and_collected(fake_api: FakeAnthropic) -> None:
    fake_api.batch_polls_before_end = 2
    sleeps: list[float] = []
    client = make(fake_api, sleeps)
    items = [BatchItem(f"n{i}", "sys", f"Path: f{i}.py", 50) for i in range(3)]
    batch_id = client.submit_batch(items)
    outcome = client.collect_batch(batch_id, wait=60, poll=5)
    assert outcome.ended and not outcome.errors
    assert sorted(outcome.results) == ["n0", "n1", "n2"]
    assert "f1.py" in outcome.results["n1"].text
    assert sleeps == [5, 5]
    (create,) = fake_api.posts("/v1/messages/batches")
    params = create.body["requests"][0]["params"]
    assert params["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert fake_api.posts() == []  # no single-message requests


def test_an_unfinished_batch_is_reported_as_not_ended(fake_api: FakeAnthropic) -> None:
    fake_api.batch_polls_before_end = 5
    client = make(fake_api)
    batch_id = client.submit_batch([BatchItem("a", "s", "p", 10)])
    outcome = client.collect_batch(batch_id, wait=0)
    assert not outcome.ended and outcome.results == {}


def test_cost_estimates_use_the_price_table() -> None:
    assert llm.estimate_cost(1_000_000, 0, "claude-haiku-4-5") == pytest.approx(1.0)
    assert llm.estimate_cost(0, 1_000_000, "claude-haiku-4-5-20251001") == pytest.approx(5.0)
    assert llm.estimate_cost(1_000_000, 1_000_000, "claude-sonnet-5-5") == pytest.approx(12.0)
    assert llm.estimate_cost(2_000_000, 0, "claude-haiku-4-5", batch=True) == pytest.approx(1.0)
    price, known = llm.price_for("some-future-model")
    assert not known and price == llm.FALLBACK_PRICE
    assert llm.price_for("claude-opus-4-1-20250805")[0] == llm.Price(15.0, 75.0)
    assert llm.price_for("claude-opus-4-5")[0] == llm.Price(5.0, 25.0)


def test_importing_the_llm_modules_does_not_import_the_sdk() -> None:
    import subprocess
    import sys

    code = (
        "import sys, repomem.llm.client, repomem.llm.notes, repomem.llm.generation; "
        "from repomem.cli import app; print('anthropic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_text_holding_the_api_key_itself_is_refused_and_nothing_is_sent(
    fake_api: FakeAnthropic,
) -> None:
    plain_key = "proxy0token0without0a0known0shape"  # nothing the secret filter would spot
    client = LLMClient(api_key=plain_key, model="m", base_url=fake_api.url, sleep=lambda s: None)
    _open.append(client)
    with pytest.raises(LLMError, match="survived redaction") as err:
        client.complete("s", f"config: {plain_key}", max_tokens=5)
    assert plain_key not in str(err.value)
    assert fake_api.requests == []
