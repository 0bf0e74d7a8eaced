"""The model's re-ranking of a pack's top files, against the fake Messages API."""

from __future__ import annotations

import json
import logging
from typing import Any

import pytest

from repomem.config import Config
from repomem.index import query
from repomem.llm import rerank
from repomem.pack import builder
from tests.conftest import Repo
from tests.llm.conftest import TEST_KEY
from tests.llm.fakeapi import SERVER_ERROR, FakeAnthropic

SECRET = "ghp_" + "A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6Q7r8"  # a GitHub token's shape


def _repo(repo: Repo) -> Config:
    """A shop whose task text names the cart, while the cause is in the tax module."""
    repo.write("shop/cart.py", "def cart_total(items):\n    return sum(items)\n")
    repo.write("shop/tax.py", "def tax_rate(region):\n    return 0.2\n")
    repo.write("shop/views.py", "def show_cart(cart):\n    return str(cart)\n")
    repo.commit()
    return repo.config(**{"pack.llm_rerank": True})


def _ranking(cfg: Config, task: str) -> dict[str, Any]:
    pack = builder.build(cfg, task, fmt="json")
    return dict(json.loads(pack.render("json")))


def _file_number(body: dict[str, Any], path: str) -> str:
    """The number the request gave `path`."""
    for line in body["messages"][0]["content"].splitlines():
        if line.split(" ", 1)[-1].startswith(path):
            return line.split(".", 1)[0]
    raise AssertionError(f"{path} not in the request")


def test_the_model_s_choice_leads_the_ranking_with_its_reason(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = _repo(repo)
    api_env.answer = lambda body: _file_number(body, "shop/tax.py")
    task = (
        f"The cart total is wrong for cart_total in shop/cart.py (token {SECRET}); "
        "we set DB_PASSWORD=hunter2xyz in prod"
    )
    out = _ranking(cfg, task)
    assert out["ranking"][0]["path"] == "shop/tax.py"
    (sent,) = api_env.posts()
    content = sent.body["messages"][0]["content"]
    assert "The cart total is wrong" in content and "shop/cart.py" in content
    assert "def cart_total(items)" in content  # the files' symbols go with them
    assert SECRET not in json.dumps(sent.body) and TEST_KEY not in json.dumps(sent.body)
    assert "hunter2xyz" not in json.dumps(sent.body)  # the task is prose: redacted as config
    reasons = {i["path"]: i["reason"] for i in out["items"] if i["kind"] == "file"}
    assert reasons["shop/tax.py"].startswith("placed 1 by the model")
    assert "placed" not in reasons["shop/cart.py"]
    scores = [r["score"] for r in out["ranking"]]
    assert scores == sorted(scores, reverse=True)  # the pack's scores follow the new order


def test_without_a_key_or_when_the_call_fails_the_offline_ranking_stands(
    repo: Repo, fake_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:  # fmt: skip
    cfg = _repo(repo)
    task = "The cart total is wrong for cart_total in shop/cart.py"
    offline = _ranking(repo.config(), task)["ranking"]
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_api.url)
    assert _ranking(cfg, task)["ranking"] == offline  # no key: nothing is sent
    assert not fake_api.posts()
    monkeypatch.setenv("ANTHROPIC_API_KEY", TEST_KEY)
    cfg = repo.config(**{"pack.llm_rerank": True, "llm.max_retries": 0})
    fake_api.script(SERVER_ERROR)
    with caplog.at_level(logging.WARNING, logger="repomem.llm.rerank"):
        assert _ranking(cfg, task)["ranking"] == offline
    assert "model re-ranking failed" in caplog.text
    fake_api.answer = lambda body: "I cannot tell."
    assert _ranking(cfg, task)["ranking"] == offline


def test_only_known_numbers_count_each_once_in_the_answer_s_order() -> None:
    assert rerank.parse("3, 1, 3, 0, 99, 2", 5) == [2, 0, 1]
    assert rerank.parse("Files: 12\n4", 20) == [11, 3]
    assert rerank.parse(", ".join(str(i) for i in range(1, 30)), 30) == list(range(rerank.PICK))
    assert rerank.parse("none", 5) == []


def test_each_request_s_cost_is_counted_and_the_daily_cap_stops_requests(
    repo: Repo, api_env: FakeAnthropic, caplog: pytest.LogCaptureFixture
) -> None:
    from repomem.llm.client import estimate_cost

    cfg = _repo(repo)
    task = "The cart total is wrong for cart_total in shop/cart.py"
    offline = _ranking(repo.config(), task)["ranking"]
    api_env.answer = lambda body: _file_number(body, "shop/tax.py")
    assert _ranking(cfg, task)["ranking"] != offline
    (sent,) = api_env.posts()
    billed = estimate_cost(len(sent.raw) // 4, 20, cfg.llm.model)  # what the fake reports
    assert rerank.spent_today(cfg) == pytest.approx(billed, abs=1e-6)
    spend = query.status(cfg)["llm_rerank"]  # what `repomem status` shows
    assert spend == {"spent_today_usd": round(billed, 4), "daily_usd": 0.5}
    capped = repo.config(**{"pack.llm_rerank": True, "pack.llm_rerank_daily_usd": billed * 1.01})
    with caplog.at_level(logging.WARNING, logger="repomem.llm.rerank"):
        assert _ranking(capped, task)["ranking"] == offline
    assert len(api_env.posts()) == 1  # the second request would pass the cap: not sent
    assert "pack.llm_rerank_daily_usd" in caplog.text
    assert rerank.spent_today(cfg) == pytest.approx(billed, abs=1e-6)


def test_an_earlier_day_s_or_an_unreadable_ledger_does_not_block_requests(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = _repo(repo)
    task = "The cart total is wrong for cart_total in shop/cart.py"
    ledger = rerank.ledger_path(cfg)
    ledger.parent.mkdir(parents=True, exist_ok=True)
    ledger.write_text(json.dumps({"day": "2000-01-01", "usd": 1000.0}), encoding="utf-8")
    _ranking(cfg, task)
    assert len(api_env.posts()) == 1
    first = rerank.spent_today(cfg)
    assert 0 < first < 1
    ledger.write_text("{not json", encoding="utf-8")
    _ranking(cfg, task)
    assert len(api_env.posts()) == 2
    assert rerank.spent_today(cfg) == pytest.approx(first, rel=0.2)  # counted again from 0
