"""Planning a notes run (repomem/llm/generation/planning.py): reused notes, prompts and their
budget, the per-run file, cost and batch caps, excluded and empty files."""

from __future__ import annotations

import pytest

from repomem.index import indexer
from repomem.llm import client as llm
from repomem.llm import generation, notes
from repomem.llm.generation import planning
from repomem.llm.prompt import SYSTEM_PROMPT
from repomem.pack import tokens
from tests.conftest import Repo
from tests.llm.fakeapi import FakeAnthropic
from tests.llm.generation.cases import FILES, by_path, run, setup_repo


def test_a_renamed_file_reuses_its_note_without_a_request(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo)
    run(cfg)
    sent = len(api_env.posts())
    repo.git("mv", "app/tax.py", "app/taxes.py")
    repo.commit()
    indexer.run(cfg)
    report = run(cfg)
    assert report.requests == 0 and report.reused == 1 and report.removed == 1
    assert len(api_env.posts()) == sent
    assert by_path(cfg)["app/taxes.py"][0].source == "generated-llm"
    assert "app/tax.py" not in by_path(cfg)


def test_the_prompt_carries_path_symbols_docstrings_and_the_cached_system_prompt(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo)
    run(cfg, paths=["app/cart.py"])
    (req,) = api_env.posts()
    body = req.body
    assert body["system"][0]["cache_control"] == {"type": "ephemeral"}
    assert body["system"][0]["text"] == SYSTEM_PROMPT
    prompt = body["messages"][0]["content"]
    assert prompt.startswith("File: app/cart.py\nLanguage: python\nSymbols:\n")
    assert "- class Cart, line 4: class Cart" in prompt
    assert "- method Cart.add, line 5: def add(self, item)" in prompt
    assert "- function total, line 9: def total(cart)" in prompt
    assert "<source>" in prompt and "# TODO: rounding of half cents" in prompt
    assert body["max_tokens"] == cfg.llm.max_output_tokens


def test_long_sources_are_truncated_to_the_input_budget(repo: Repo, api_env: FakeAnthropic) -> None:
    big = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(3000))
    cfg = setup_repo(repo, {"big.py": big})
    repo.write(".repomem", "[llm]\nmax_input_tokens = 1500\n")
    cfg = repo.config()
    report = run(cfg)
    assert report.requests == 1
    prompt = api_env.posts()[0].body["messages"][0]["content"]
    assert "Source (lines 1-" in prompt and "of 9000)" in prompt
    assert tokens.count(prompt) < 2000


def test_the_per_run_file_cap_is_respected_and_the_rest_follow_in_later_runs(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo)
    first = run(cfg, max_files=2)
    assert first.requests == 2 and len(api_env.posts()) == 2
    assert len(first.plan.capped) == len(FILES) - 2
    sources = {n.path: n.source for n in notes.list_notes(cfg)}
    assert sorted(sources.values()).count("generated-llm") == 2
    assert sorted(sources.values()).count("generated-offline") == len(FILES) - 2
    repo.write(".repomem", "[llm]\nmax_files_per_run = 2\n")
    cfg = repo.config()
    second = run(cfg)
    assert second.requests == 2 and len(api_env.posts()) == 4
    third = run(cfg)
    assert third.requests == 1 and len(api_env.posts()) == len(FILES)
    assert {n.source for n in notes.list_notes(cfg)} == {"generated-llm"}


def test_the_cost_cap_stops_a_run_before_it_would_spend_more(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo)
    dry = run(cfg, dry_run=True)
    per_file = max(
        llm.estimate_cost(p.input_tokens, cfg.llm.max_output_tokens, cfg.llm.model)
        for p in dry.plan.send
    )
    repo.write(".repomem", f"[llm]\nmax_cost_usd = {per_file * 1.5}\n")
    report = run(repo.config())
    assert report.requests == 1
    assert report.plan.cost_usd <= per_file * 1.5


def test_excluded_paths_are_never_sent_and_get_offline_notes(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo, settings='[llm]\nexclude = ["web", "*.md"]\n')
    report = run(cfg)
    assert sorted(report.plan.excluded) == ["README.md", "web/main.js"]
    assert report.requests == len(FILES) - 2
    for sent in api_env.all_text():
        assert "web/main.js" not in sent and "README.md" not in sent
    sources = {n.path: n.source for n in notes.list_notes(cfg)}
    assert sources["web/main.js"] == sources["README.md"] == "generated-offline"


def test_exclude_globs_match_paths_folders_and_names() -> None:
    assert generation.excluded("a/b/c.py", ["a"])
    assert generation.excluded("a/b/c.py", ["a/b/"])
    assert generation.excluded("a/b/c.py", ["*.py"])
    assert generation.excluded("a/b/c.py", ["a/*/c.py"])
    assert generation.excluded("a/b/c.py", ["/a"])
    assert not generation.excluded("a/b/c.py", ["b/c.py", "*.js", "", " / "])


def test_empty_files_get_offline_notes_and_are_never_sent(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo, {**FILES, "app/__init__.py": ""})
    report = run(cfg)
    assert report.requests == len(FILES)
    assert all("app/__init__.py" not in r.raw.decode() for r in api_env.posts())
    (note,) = by_path(cfg)["app/__init__.py"]
    assert (note.source, note.text) == ("generated-offline", "Purpose: empty file.")
    assert run(cfg).requests == 0


def test_a_capped_run_still_fills_up_to_the_cap_when_the_cost_cap_skips_a_big_file(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    big = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(400))
    cfg = setup_repo(repo, {"a_big.py": big, "b.py": "x = 1\n", "c.py": "y = 2\n"})
    small = llm.estimate_cost(400, cfg.llm.max_output_tokens, cfg.llm.model)
    repo.write(".repomem", f"[llm]\nmax_cost_usd = {small * 2.5}\nmax_files_per_run = 2\n")
    report = run(repo.config())
    assert sorted(p.path for p in report.plan.send) == ["b.py", "c.py"]
    assert report.plan.capped == ["a_big.py"] and report.requests == 2


def test_one_batch_per_run_holds_at_most_max_batch_requests(
    repo: Repo, api_env: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(planning, "MAX_BATCH_REQUESTS", 3)  # read by planning._plan
    setup_repo(repo)
    repo.write(".repomem", "[llm]\nbatch_threshold = 2\n")
    report = run(repo.config())
    assert len(report.plan.send) == 3 and len(report.plan.capped) == len(FILES) - 3
    (create,) = api_env.posts("/v1/messages/batches")
    assert len(create.body["requests"]) == 3
