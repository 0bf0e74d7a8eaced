"""Writing generated notes (repomem/llm/generation/writing.py): deterministic offline notes,
people's notes never replaced, generated notes of deleted files pruned."""

from __future__ import annotations

import pytest

from repomem.config import Config
from repomem.index import indexer
from repomem.llm import notes, offline
from tests.conftest import Repo
from tests.llm.fakeapi import FakeAnthropic
from tests.llm.generation.cases import FILES, by_path, run, setup_repo


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


def offline_notes(
    repo: Repo, monkeypatch: pytest.MonkeyPatch, files: dict[str, str]
) -> dict[str, list[str]]:
    """The lines of the offline note written for each of `files`, committed and indexed."""
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    cfg = setup_repo(repo, files)
    run(cfg)
    return {path: ns[0].text.splitlines() for path, ns in by_path(cfg).items()}


MAGIC = {
    "lib/shop/cart.rb": "# frozen_string_literal: true\n\nrequire 'set'\n\n"
    "class Cart\n  def add(item)\n  end\nend\n",
    "lib/shop/till.rb": "# encoding: utf-8\n# typed: strict\n\nclass Till\nend\n",
    "cmd/tool.go": "//go:build linux\n// +build linux\n\npackage main\n\nfunc main() {}\n",
    "app/lint.py": "# pylint: disable=invalid-name\n# Tax rules per country.\n\nRATE = 1\n",
}


def test_offline_notes_do_not_take_a_magic_comment_for_the_files_purpose(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # sinatra's base.rb got "Purpose: frozen_string_literal: true"
    found = {path: lines[0] for path, lines in offline_notes(repo, monkeypatch, MAGIC).items()}
    assert found["lib/shop/cart.rb"] == "Purpose: ruby file, 8 lines, defining 1 class."
    assert found["lib/shop/till.rb"] == "Purpose: ruby file, 5 lines, defining 1 class."
    assert found["cmd/tool.go"] == "Purpose: go file, 6 lines, defining 1 function."
    assert found["app/lint.py"] == "Purpose: Tax rules per country."


NAMESPACED = {
    "lib/shop/cart.rb": "module Shop\n  class Cart\n    def add(item)\n    end\n  end\n\n"
    "  class Till\n  end\nend\n",
    "src/Invoice.php": "<?php\n\nnamespace App\\Billing;\n\nfinal class Invoice\n{\n"
    "    public function total(): int\n    {\n        return 0;\n    }\n}\n",
    "src/Shapes.cs": "namespace Geo.Shapes\n{\n    public class Circle { }\n"
    "    public interface IShape { }\n}\n",
}


def test_offline_notes_describe_what_a_files_only_namespace_or_module_holds(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Slim's App.php was "defining 1 namespace" with "Entry points: namespace Slim", and
    # sinatra's base.rb had "Entry points: module Sinatra": nothing of what they define
    found = offline_notes(repo, monkeypatch, NAMESPACED)
    assert found["lib/shop/cart.rb"] == [
        "Purpose: ruby file, 9 lines, defining 2 classes.",
        "Entry points: class Cart, class Till",
    ]
    assert found["src/Invoice.php"] == [
        "Purpose: php file, 11 lines, defining 1 class.",
        "Entry points: class Invoice",
    ]
    assert found["src/Shapes.cs"] == [
        "Purpose: csharp file, 5 lines, defining 1 class, 1 interface.",
        "Entry points: class Circle, interface IShape",
    ]


def older_offline_note(cfg: Config, path: str, text: str) -> None:
    """An offline note on `path` as an older offline generator left it: other text, and no
    record of the rules it was written under."""
    store = indexer.open_store(cfg)
    (file_hash,) = store.column("files", ["hash"], [path])["hash"]
    with store.writing():
        store.delete_notes([path], list(notes.GENERATED))
        store.add(
            "notes", [notes.Note(path, notes.GENERATED_OFFLINE, text, file_hash, 1.0).as_row()]
        )


def test_offline_notes_of_an_older_generator_are_rewritten_at_the_next_run(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    cfg = setup_repo(repo, NAMESPACED)
    notes.write_note(cfg, "src/Invoice.php", "Totals are in cents.")
    older_offline_note(cfg, "src/Invoice.php", "Purpose: php file, defining 1 namespace.")
    report = run(cfg)
    assert report.written_offline == len(NAMESPACED) and report.plan.fresh == 0
    found = by_path(cfg)["src/Invoice.php"]
    assert [(n.source, n.text.splitlines()[0]) for n in found] == [
        ("human", "Totals are in cents."),
        ("generated-offline", "Purpose: php file, 11 lines, defining 1 class."),
    ]
    again = run(cfg)
    assert again.written_offline == 0 and again.plan.fresh == len(NAMESPACED)


def test_a_newer_offline_generator_rewrites_the_notes_of_the_one_before_once(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ANTHROPIC_API_KEY", raising=False)
    cfg = setup_repo(repo, NAMESPACED)
    run(cfg)
    people = notes.write_note(cfg, "src/Shapes.cs", "Shapes are immutable.")[0]
    monkeypatch.setattr(offline, "VERSION", offline.VERSION + 1)
    some = run(cfg, paths=["src/Shapes.cs"])  # a run over some files only
    assert some.written_offline == 1
    rest = run(cfg)  # the others' notes are still the older generator's
    assert rest.written_offline == len(NAMESPACED) - 1 and rest.plan.fresh == 1
    assert run(cfg).written_offline == 0
    assert [n for n in notes.list_notes(cfg) if n.source == "human"] == [people]
