"""People's notes: written with `repomem note` (or MCP `write_note`), read back with their
staleness; real git repos and real LanceDB."""

from __future__ import annotations

import pytest

from repomem.config import Config
from repomem.errors import InputError, NotFoundError
from repomem.index import indexer
from repomem.llm import notes
from tests.conftest import Repo


def setup_repo(repo: Repo) -> Config:
    repo.write("app/cart.py", '"""Shopping cart."""\n\n\ndef total(cart):\n    return 0\n')
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    return cfg


def test_note_paths_must_be_inside_the_repository(repo: Repo, tmp_path: object) -> None:
    cfg = setup_repo(repo)
    with pytest.raises(InputError, match="outside the repository"):
        notes.write_note(cfg, repo.root.parent / "elsewhere.py", "x")
    with pytest.raises(InputError, match="inside the repository"):
        notes.write_note(cfg, "../elsewhere.py", "x")
    with pytest.raises(NotFoundError, match="does not exist"):
        notes.write_note(cfg, "app/nope.py", "x")
    with pytest.raises(InputError, match="empty"):
        notes.write_note(cfg, "app/cart.py", "  ")
    folder_note, _ = notes.write_note(cfg, "app", "The shop's Python code.")
    assert folder_note.path == "app" and not notes.list_notes(cfg, ["app"])[0].stale


def test_replace_drops_earlier_notes_of_the_same_source_only(repo: Repo) -> None:
    cfg = setup_repo(repo)
    notes.write_note(cfg, "app/cart.py", "one")
    notes.write_note(cfg, "app/cart.py", "two", source="assistant")
    notes.write_note(cfg, "app/cart.py", "three", replace=True)
    assert [(n.source, n.text) for n in notes.list_notes(cfg, ["app/cart.py"])] == [
        ("human", "three"),
        ("assistant", "two"),
    ]


def test_a_note_goes_stale_when_its_file_changes(repo: Repo) -> None:
    cfg = setup_repo(repo)
    written, _ = notes.write_note(cfg, "app/cart.py", "Totals ignore tax.")
    assert written.file_hash and not notes.best_notes(cfg, ["app/cart.py"])["app/cart.py"].stale
    repo.write("app/cart.py", '"""Shopping cart."""\n\n\ndef total(cart):\n    return 1\n')
    indexer.run(cfg)
    assert notes.best_notes(cfg, ["app/cart.py"])["app/cart.py"].stale


def test_a_note_written_before_the_index_catches_up_describes_the_file_as_it_is(
    repo: Repo,
) -> None:
    cfg = setup_repo(repo)
    repo.write("app/cart.py", '"""Shopping cart."""\n\n\ndef total(cart):\n    return 2\n')
    notes.write_note(cfg, "app/cart.py", "Totals are doubled.")
    assert not notes.best_notes(cfg, ["app/cart.py"])["app/cart.py"].stale
    indexer.run(cfg)
    assert not notes.best_notes(cfg, ["app/cart.py"])["app/cart.py"].stale


def test_a_note_on_a_file_the_index_skips_is_not_stale(repo: Repo) -> None:
    repo.write(".gitignore", "build/\n")
    repo.write("build/out.txt", "generated output\n")
    cfg = setup_repo(repo)
    notes.write_note(cfg, "build/out.txt", "Made by `make`; never edit by hand.")
    (found,) = notes.list_notes(cfg, ["build/out.txt"])
    assert not found.stale


def test_a_password_in_a_notes_prose_is_redacted_as_in_a_fact(repo: Repo) -> None:
    cfg = setup_repo(repo)
    note, redacted = notes.write_note(cfg, "app/cart.py", "uses password=SuperSecret123 for db")
    assert redacted == 1
    assert "SuperSecret123" not in note.text
    assert all("SuperSecret123" not in n.text for n in notes.list_notes(cfg, ["app/cart.py"]))


def test_a_note_longer_than_the_limit_is_refused(repo: Repo) -> None:
    cfg = setup_repo(repo)
    with pytest.raises(InputError, match="characters long"):
        notes.write_note(cfg, "app/cart.py", "x" * (notes.MAX_NOTE_CHARS + 1))


def test_a_note_stored_before_the_limit_is_read_back_cut_to_it(repo: Repo) -> None:
    cfg = setup_repo(repo)
    store = indexer.open_store(cfg)
    huge = notes.Note("app/cart.py", notes.HUMAN, "y" * 300_000, "", 0.0)
    with store.writing():
        store.add("notes", [huge.as_row()])
    [note] = notes.list_notes(cfg, ["app/cart.py"])
    assert len(note.text) < notes.MAX_NOTE_CHARS + 100
    assert note.text.startswith("y" * 100) and "280,000 more characters" in note.text
