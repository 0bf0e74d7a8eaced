"""The `notes` and `note` commands."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator

import pytest
from typer.testing import CliRunner

from repomem.cli import app
from tests.conftest import Repo
from tests.llm.conftest import TEST_KEY
from tests.llm.fakeapi import UNAUTHORIZED, FakeAnthropic

runner = CliRunner()


@pytest.fixture(autouse=True)
def _no_real_api(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in ("ANTHROPIC_API_KEY", "ANTHROPIC_AUTH_TOKEN", "ANTHROPIC_BASE_URL"):
        monkeypatch.delenv(var, raising=False)


@pytest.fixture
def api_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeAnthropic]:
    with FakeAnthropic() as fake:
        monkeypatch.setenv("ANTHROPIC_API_KEY", TEST_KEY)
        monkeypatch.setenv("ANTHROPIC_BASE_URL", fake.url)
        yield fake


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def shop(repo: Repo) -> Repo:
    repo.write("shop/cart.py", '"""Cart totals."""\n\n\ndef total(items):\n    return sum(items)\n')
    repo.write("shop/tax.py", "# Tax rules.\n\n\ndef rate():\n    return 0.2\n")
    repo.commit()
    return repo


def test_offline_notes_are_written_and_shown(shop: Repo) -> None:
    code, out, err = run("-C", str(shop.root), "notes")
    assert code == 0, err
    assert "Model: none (offline notes" in out and "2 offline" in out
    code, out, _ = run("-C", str(shop.root), "notes", "--show", "shop/cart.py")
    assert code == 0
    assert "shop/cart.py\n  [generated-offline]\n    Purpose: Cart totals." in out
    assert "shop/tax.py" not in out


def test_show_says_why_a_path_has_no_notes_and_fails_for_one_that_does_not_exist(
    shop: Repo,
) -> None:
    # each answered "No notes; run `repomem notes` to generate them." with status 0
    shop.write("Cargo.lock", "[[package]]\n")
    shop.commit()
    run("-C", str(shop.root), "index", "-q")
    code, out, err = run("-C", str(shop.root), "notes", "--show", "nope.php")
    assert (code, out) == (1, "")
    assert err == f"Error: `nope.php` does not exist in `{shop.root}`; check the path.\n"
    code, out, _ = run("-C", str(shop.root), "notes", "--show", "Cargo.lock", "shop/cart.py")
    assert code == 0
    assert out.splitlines() == [
        "No notes on `Cargo.lock`: it is not indexed, skipped as `generated` (a lock file or a "
        "generated file; see `index.skip_generated`).",
        "No notes on `shop/cart.py`; run `repomem notes shop/cart.py` to generate one.",
    ]
    run("-C", str(shop.root), "notes", "--no-refresh", "shop")
    code, out, _ = run("-C", str(shop.root), "note", "shop/cart.py")  # `note PATH` shows too
    assert code == 0 and out.startswith("shop/cart.py\n  [generated-offline]\n")
    code, _, err = run("-C", str(shop.root), "note", "nope.php")
    assert code == 1 and "`nope.php` does not exist" in err


def test_show_marks_a_note_stale_once_its_file_is_edited_before_any_index_run(
    shop: Repo,
) -> None:
    run("-C", str(shop.root), "notes")
    _, out, _ = run("-C", str(shop.root), "notes", "--show", "shop/cart.py")
    assert "[generated-offline]" in out
    before = (shop.root / "shop/cart.py").read_text()
    shop.write("shop/cart.py", before.replace("sum(items)", "sum(items) * 2"))
    _, out, _ = run("-C", str(shop.root), "notes", "--show", "shop/cart.py")
    assert "[generated-offline, stale]" in out
    shop.write("shop/cart.py", before)  # the same text again, a newer mtime
    _, out, _ = run("-C", str(shop.root), "notes", "--show", "--json", "shop/cart.py")
    assert [n["stale"] for n in json.loads(out)] == [False]
    (shop.root / "shop/cart.py").unlink()
    _, out, _ = run("-C", str(shop.root), "notes", "--show", "shop/cart.py")
    assert "[generated-offline, stale]" in out


def test_dry_run_lists_files_tokens_and_cost_without_a_key(shop: Repo) -> None:
    code, out, err = run("-C", str(shop.root), "index", "-q")
    code, out, err = run("-C", str(shop.root), "notes", "--llm", "--dry-run")
    assert code == 0, err
    assert "Model: claude-haiku-4-5 ($1 / $5 per million input / output tokens)" in out
    assert "Would send 2 file(s): about" in out and "at most $0.00" in out
    assert "shop/cart.py" in out and "shop/tax.py" in out
    code, out, _ = run("-C", str(shop.root), "notes", "--show")
    assert "No notes" in out


def test_dry_run_with_a_key_uses_the_model_and_sends_nothing(
    shop: Repo, api_env: FakeAnthropic
) -> None:
    code, out, err = run("-C", str(shop.root), "notes", "--dry-run")
    assert code == 0, err
    assert "Model: claude-haiku-4-5" in out and "Would send 2 file(s): about" in out
    assert api_env.requests == []
    # an estimate builds no client, so the SDK is never imported
    script = (
        "import sys; from typer.testing import CliRunner; from repomem.cli import app; "
        f"r = CliRunner().invoke(app, ['-C', {str(shop.root)!r}, 'notes', '--dry-run']); "
        "print(r.exit_code, 'Would send' in r.stdout, 'anthropic' in sys.modules)"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert done.stdout.split() == ["0", "True", "False"], done.stderr
    code, out, err = run("-C", str(shop.root), "notes", "--dry-run", "--no-llm")
    assert code == 0, err
    assert "Model: none" in out and "Would send" not in out


def test_llm_without_a_key_is_a_one_line_error(shop: Repo) -> None:
    code, out, err = run("-C", str(shop.root), "notes", "--llm")
    assert code == 1
    assert err.strip().startswith("Error: --llm needs the model, but ANTHROPIC_API_KEY is not set")
    assert len(err.strip().splitlines()) == 1


def test_model_notes_through_the_command_and_a_refused_key(
    shop: Repo, api_env: FakeAnthropic, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPOMEM_LLM_MAX_RETRIES", "0")
    code, out, err = run("-C", str(shop.root), "notes", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["written_llm"] == 2 and data["requests"] == 2
    assert data["plan"]["send"][0]["path"] == "shop/cart.py"
    shop.write("shop/tax.py", "# Tax rules.\n\n\ndef rate():\n    return 0.25\n")
    api_env.script(UNAUTHORIZED)
    code, out, err = run("-C", str(shop.root), "notes")
    assert code == 1
    assert "refused the key in ANTHROPIC_API_KEY (401)" in err
    assert TEST_KEY not in out + err
    assert "Notes written: 1 offline." in out


def test_note_writes_a_human_note_and_shows_it(shop: Repo) -> None:
    run("-C", str(shop.root), "index", "-q")
    secret = "ghp_" + "Zx9Yw8Vu7Ts6Rq5Po4Nm3Lk2Ji1Hg0FeDcBa"
    code, out, err = run("-C", str(shop.root), "note", "shop/cart.py", f"Uses {secret} in CI.")
    assert code == 0, err
    assert "Noted on shop/cart.py (human)." in out and "Redacted 1 secret(s)" in out
    code, out, _ = run("-C", str(shop.root), "note", "shop/cart.py")
    assert "[human]\n    Uses [REDACTED] in CI." in out and secret not in out


def test_note_outside_the_repository_is_refused(shop: Repo) -> None:
    run("-C", str(shop.root), "index", "-q")
    code, _, err = run("-C", str(shop.root), "note", str(shop.root.parent), "x")
    assert code == 1 and "outside the repository" in err


def test_max_files_caps_a_run_from_the_command_line(shop: Repo, api_env: FakeAnthropic) -> None:
    code, out, err = run("-C", str(shop.root), "notes", "--max-files", "1", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert data["requests"] == 1 and data["written_llm"] == 1 and data["written_offline"] == 1
    assert data["plan"]["capped"] == ["shop/tax.py"]
    assert len(api_env.posts()) == 1


def test_show_finds_the_notes_of_a_file_named_in_the_other_unicode_form(repo: Repo) -> None:
    repo.write("cafe\u0301.py", '"""Brews coffee."""\n\n\ndef brew():\n    return 1\n')
    repo.commit()
    code, _, err = run("-C", str(repo.root), "notes")
    assert code == 0, err
    code, out, err = run("-C", str(repo.root), "notes", "--show", "caf\u00e9.py")
    assert code == 0, err
    assert "Purpose: Brews coffee." in out
