"""Generating per-file notes, end to end: real git repos, real LanceDB, the real anthropic SDK
against the fake Messages API on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from repomem.config import Config
from repomem.index import indexer
from repomem.llm import client as llm
from repomem.llm import generation, notes
from repomem.llm.client import LLMClient
from repomem.llm.generation import planning
from repomem.llm.prompt import SYSTEM_PROMPT
from repomem.pack import tokens
from tests.conftest import Repo
from tests.llm.conftest import TEST_KEY
from tests.llm.fakeapi import MALFORMED, OVERLOADED, UNAUTHORIZED, FakeAnthropic

AWS_KEY = "AKIAIOSFODNN7EXAMPLF"
GITHUB_TOKEN = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa"

FILES = {
    "app/cli.py": '"""Command line entry for the shop."""\n\nimport argparse\n\n\n'
    "def main():\n    parser = argparse.ArgumentParser()\n    return parser\n\n\n"
    'if __name__ == "__main__":\n    main()\n',
    "app/cart.py": '"""Shopping cart: add items and total them with tax."""\n\n\n'
    "class Cart:\n    def add(self, item):\n        pass\n\n\n"
    "def total(cart):\n    # TODO: rounding of half cents\n    return 0\n\n\n"
    "def _private():\n    return 1\n",
    "app/tax.py": "# Tax rules per country.\n\nRATE = 0.2\n\n\n"
    "def apply_tax(x):\n    return x * 1.2\n",
    "web/main.js": "/**\n * Browser entry: mounts the shop widget.\n */\n"
    "export function mount(el) {\n  return el;\n}\n",
    "README.md": "# Shop\n\nA tiny shop used in tests.\n",
}

_clients: list[LLMClient] = []


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while _clients:
        _clients.pop().close()


def setup_repo(repo: Repo, files: dict[str, str] = FILES, settings: str = "") -> Config:
    """The sample files committed and indexed; then `settings` go into `.repomem` (unindexed)."""
    for rel, text in files.items():
        repo.write(rel, text)
    repo.commit()
    indexer.run(repo.config())
    if settings:
        repo.write(".repomem", settings)
    return repo.config()


def client_for(cfg: Config) -> LLMClient | None:
    client = llm.from_config(cfg, sleep=lambda s: None)
    if client is not None:
        _clients.append(client)
    return client


def run(cfg: Config, **kw: object) -> generation.NotesReport:
    return generation.generate(cfg, client=client_for(cfg), **kw)  # type: ignore[arg-type]


def by_path(cfg: Config) -> dict[str, list[notes.Note]]:
    out: dict[str, list[notes.Note]] = {}
    for n in notes.list_notes(cfg):
        out.setdefault(n.path, []).append(n)
    return out


# ----------------------------------------------------------------------------- offline


def test_without_a_key_every_file_gets_an_offline_note_and_nothing_is_sent(
    repo: Repo, fake_api: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    monkeypatch.setenv("ANTHROPIC_BASE_URL", fake_api.url)
    cfg = setup_repo(repo)
    report = run(cfg)
    assert report.plan.model is None
    assert report.written_offline == len(FILES) and report.requests == 0
    assert fake_api.requests == []
    found = by_path(cfg)
    assert {n.source for ns in found.values() for n in ns} == {"generated-offline"}
    cli = found["app/cli.py"][0].text
    assert "Purpose: Command line entry for the shop." in cli
    assert "main()" in cli and "runs as a script" in cli
    cart = found["app/cart.py"][0].text
    assert "class Cart" in cart and "function total" in cart and "_private" not in cart
    assert "TODO rounding of half cents" in cart
    assert "Tax rules per country." in found["app/tax.py"][0].text
    assert "Browser entry: mounts the shop widget." in found["web/main.js"][0].text
    assert "Shop: A tiny shop used in tests." in found["README.md"][0].text
    again = run(cfg)
    assert again.written_offline == 0 and again.plan.fresh == len(FILES)


def test_offline_notes_are_deterministic(repo: Repo) -> None:
    cfg = setup_repo(repo)
    run(cfg)
    first = {n.path: n.text for n in notes.list_notes(cfg)}
    with indexer.open_store(cfg).writing():
        indexer.open_store(cfg).delete_notes(list(first), list(notes.GENERATED))
    run(cfg)
    assert {n.path: n.text for n in notes.list_notes(cfg)} == first


# ----------------------------------------------------------------------------- with the model


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


def test_secrets_in_sources_and_notes_never_reach_the_api(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    leaky = dict(FILES)
    leaky["app/aws.py"] = (
        f'"""Talks to S3."""\n\nAWS_ACCESS_KEY_ID = "{AWS_KEY}"\n'
        f'GITHUB = "{GITHUB_TOKEN}"\n\n\ndef upload(x):\n    return x\n'
    )
    cfg = setup_repo(repo, leaky)
    note, redacted = notes.write_note(
        cfg, "app/aws.py", f"Rotate {GITHUB_TOKEN} and {AWS_KEY} monthly.", source="assistant"
    )
    assert redacted == 2 and GITHUB_TOKEN not in note.text
    report = run(cfg)
    assert report.requests == len(leaky)
    aws_prompt = next(r for r in api_env.posts() if "app/aws.py" in r.raw.decode())
    assert (
        "[REDACTED]" in aws_prompt.raw.decode() and "Rotate [REDACTED]" in aws_prompt.raw.decode()
    )
    for sent in api_env.all_text():
        assert AWS_KEY not in sent and GITHUB_TOKEN not in sent
    for n in notes.list_notes(cfg):
        assert AWS_KEY not in n.text and GITHUB_TOKEN not in n.text


def test_a_file_whose_credential_survives_redaction_is_skipped_not_the_whole_run(
    repo: Repo, fake_api: FakeAnthropic
) -> None:
    plain_key = "proxy0token0without0a0known0shape"  # nothing the secret filter would spot
    cfg = setup_repo(repo, {**FILES, "app/proxy.py": f"# upstream: {plain_key}\n"})
    for batch_threshold in (0, 2):  # one message per file, then one Message Batch
        client = LLMClient(
            api_key=plain_key, model=cfg.llm.model, base_url=fake_api.url, sleep=lambda s: None
        )
        _clients.append(client)
        run_cfg = repo.config(**{"llm.batch_threshold": batch_threshold})
        report = generation.generate(run_cfg, client=client)
        assert report.error is None and report.plan.batch == (batch_threshold > 0)
        assert report.written_llm == len(FILES)
        assert list(report.failed) == ["app/proxy.py"]
        assert "survived redaction" in report.failed["app/proxy.py"]
        assert plain_key not in report.failed["app/proxy.py"]
        sources = {p: [n.source for n in ns] for p, ns in by_path(cfg).items()}
        assert sources["app/proxy.py"] == ["generated-offline"]
        assert all(s == ["generated-llm"] for p, s in sources.items() if p != "app/proxy.py")
        assert all(plain_key.encode() not in r.raw for r in fake_api.requests)  # bodies
        store = indexer.open_store(cfg)
        with store.writing():  # start the second round with no notes
            store.delete_notes(sorted(by_path(cfg)), list(notes.GENERATED))


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


def test_people_notes_take_precedence_and_are_never_overwritten(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo)
    notes.write_note(cfg, "app/cart.py", "Totals must stay in cents.")
    notes.write_note(
        cfg, repo.root / "app" / "cart.py", "Cart is not thread-safe.", source="assistant"
    )
    run(cfg)
    repo.write("app/cart.py", FILES["app/cart.py"] + "\n# more\n")
    indexer.run(cfg)
    run(cfg)
    mine = by_path(cfg)["app/cart.py"]
    assert [n.source for n in mine] == ["human", "assistant", "generated-llm"]
    assert mine[0].text == "Totals must stay in cents." and mine[0].stale
    assert not mine[2].stale
    assert notes.best_notes(cfg, ["app/cart.py", "app/tax.py"])["app/cart.py"].source == "human"
    assert notes.best_notes(cfg, ["app/tax.py"])["app/tax.py"].source == "generated-llm"
    prompt = api_env.posts()[-1].body["messages"][0]["content"]
    assert "Notes from maintainers:\n- Totals must stay in cents." in prompt


def test_deleted_files_lose_generated_notes_but_keep_people_notes(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    cfg = setup_repo(repo)
    notes.write_note(cfg, "app/tax.py", "Rates change every January.")
    run(cfg)
    (repo.root / "app" / "tax.py").unlink()
    repo.commit()
    indexer.run(cfg)
    report = run(cfg)
    assert report.removed == 1 and report.requests == 0
    left = by_path(cfg)["app/tax.py"]
    assert [(n.source, n.stale) for n in left] == [("human", True)]


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


# ----------------------------------------------------------------------------- batches


def test_large_runs_use_one_message_batch(repo: Repo, api_env: FakeAnthropic) -> None:
    setup_repo(repo)
    repo.write(".repomem", "[llm]\nbatch_threshold = 3\n")
    cfg = repo.config()
    report = run(cfg)
    assert report.plan.batch and report.written_llm == len(FILES) and not report.batch_pending
    # create, status (in progress), status (ended), status + results file
    assert report.requests == len(api_env.requests) == 5
    assert api_env.posts() == []
    (create,) = api_env.posts("/v1/messages/batches")
    assert len(create.body["requests"]) == len(FILES)
    assert {n.source for n in notes.list_notes(cfg)} == {"generated-llm"}
    assert run(cfg).requests == 0


def test_an_unfinished_batch_is_collected_by_the_next_run_not_resubmitted(
    repo: Repo, api_env: FakeAnthropic
) -> None:
    setup_repo(repo)
    repo.write(".repomem", "[llm]\nbatch_threshold = 3\nbatch_wait = 0.0\n")
    cfg = repo.config()
    api_env.batch_polls_before_end = 1
    first = run(cfg)
    assert first.batch_pending and first.written_llm == 0
    assert len(api_env.posts("/v1/messages/batches")) == 1
    second = run(cfg)
    assert second.collected == len(FILES) and second.plan.send == []
    assert len(api_env.posts("/v1/messages/batches")) == 1
    assert {n.source for n in notes.list_notes(cfg)} == {"generated-llm"}


# ----------------------------------------------------------------------------- people's notes


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
