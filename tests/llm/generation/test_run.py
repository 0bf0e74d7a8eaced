"""Running notes generation end to end (repomem/llm/generation/run.py): model notes
written then never sent again, the dry run, and errors that stop a run keeping what was done;
real git repos, real LanceDB, the real anthropic SDK against the fake Messages API."""

from __future__ import annotations

import pytest

from repomem.index import indexer
from repomem.llm import client as llm
from repomem.llm import notes
from tests.conftest import Repo
from tests.llm.conftest import TEST_KEY
from tests.llm.fakeapi import MALFORMED, OVERLOADED, UNAUTHORIZED, FakeAnthropic
from tests.llm.generation.cases import FILES, by_path, run, setup_repo


def test_model_notes_are_generated_then_never_sent_again_for_unchanged_files(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo)
    first = run(cfg)
    assert first.error is None
    assert first.written_llm == len(FILES)
    assert len(api_env.posts()) == len(FILES) == first.requests
    assert first.cost_usd == pytest.approx(
        llm.estimate_cost(first.input_tokens, first.output_tokens, "claude-haiku-4-5")
    )
    assert first.output_tokens == 20 * len(FILES)  # what the fake reports per message
    assert {n.source for n in notes.list_notes(cfg)} == {"generated-llm"}
    assert "a note from the model about File: app/cart.py" in by_path(cfg)["app/cart.py"][0].text

    second = run(cfg)
    assert second.requests == 0 and second.plan.fresh == len(FILES)
    assert len(api_env.posts()) == len(FILES)

    repo.write("app/tax.py", FILES["app/tax.py"] + "\n\ndef refund(x):\n    return -x\n")
    indexer.run(cfg)
    stale = [n for n in notes.list_notes(cfg) if n.stale]
    assert [n.path for n in stale] == ["app/tax.py"]
    third = run(cfg)
    assert third.requests == 1 and third.written_llm == 1
    assert len(api_env.posts()) == len(FILES) + 1
    assert "app/tax.py" in api_env.posts()[-1].body["messages"][0]["content"]
    assert not any(n.stale for n in notes.list_notes(cfg))


def test_dry_run_estimates_tokens_and_cost_and_sends_nothing(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo)
    report = run(cfg, dry_run=True)
    assert report.dry_run and api_env.requests == []
    plan = report.plan
    assert sorted(p.path for p in plan.send) == sorted(FILES)
    assert plan.input_tokens > 0 and plan.output_tokens == len(FILES) * cfg.llm.max_output_tokens
    assert plan.cost_usd == pytest.approx(
        llm.estimate_cost(plan.input_tokens, plan.output_tokens, cfg.llm.model)
    )
    assert notes.list_notes(cfg) == []


def test_a_persistent_overload_stops_the_run_with_bounded_retries(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo, settings="[llm]\nmax_retries = 2\n")
    api_env.script(*[OVERLOADED] * 3)  # more than max_retries allows
    report = run(cfg)
    assert report.error is not None and "overloaded (529)" in report.error
    assert "after 3 attempts" in report.error
    assert len(api_env.posts()) == 3 == report.requests
    # Every file still has a note; the model retries them on a later run.
    assert {n.source for n in notes.list_notes(cfg)} == {"generated-offline"}
    later = run(cfg)
    assert later.error is None and later.written_llm == len(FILES)


def test_a_refused_key_stops_the_run_and_never_shows_the_key(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo)
    api_env.script(UNAUTHORIZED)
    report = run(cfg)
    assert report.error is not None and "ANTHROPIC_API_KEY" in report.error
    assert TEST_KEY not in report.error
    assert len(api_env.posts()) == 1


def test_a_malformed_answer_keeps_earlier_notes(repo: Repo, api_env: FakeAnthropic) -> None:
    cfg = setup_repo(repo)
    run(cfg, paths=["app/cart.py"])
    api_env.script(MALFORMED)
    report = run(cfg)
    assert report.error is not None and "malformed" in report.error
    assert by_path(cfg)["app/cart.py"][0].source == "generated-llm"
