"""Sending prompts (repomem/llm/generation/sending.py): no secret reaches the API, a prompt
the client refuses is skipped alone, large runs go in one Message Batch, collected later if
unfinished."""

from __future__ import annotations

from repomem.index import indexer
from repomem.llm import generation, notes
from repomem.llm.client import LLMClient
from tests.conftest import Repo
from tests.llm.fakeapi import FakeAnthropic
from tests.llm.generation.cases import (
    AWS_KEY,
    FILES,
    GITHUB_TOKEN,
    _clients,
    by_path,
    run,
    setup_repo,
)


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
