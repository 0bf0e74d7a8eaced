"""Tests for repomem.index.store.tables: where the store is, the versions readers see
(published updates only, kept readers), and a missing table."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from repomem.errors import StoreError
from repomem.index import indexer, query
from tests.conftest import Repo


def test_a_store_path_in_the_config_moves_the_index(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    cfg = repo.config(**{"store.path": "../elsewhere"})
    indexer.run(cfg)
    assert (repo.root.parent / "elsewhere").is_dir()
    assert not (repo.root / ".git" / "repomem" / "lance").exists()
    assert query.status(cfg)["files"] == 1


def test_readers_see_the_last_published_update_not_one_in_progress(repo: Repo) -> None:
    repo.write("a.py", "def first():\n    pass\n")
    repo.write("b.py", "def second():\n    pass\n")
    indexer.run(repo.config())
    writer = indexer.open_store(repo.config())
    with writer.writing():
        writer.delete_paths(["a.py"])  # half of an update: rows gone, nothing added yet
        reader = indexer.open_store(repo.config())
        assert reader.count("files") == 2 and reader.symbols_named("first")
        writer.publish()
        assert reader.count("files") == 2  # an open reader keeps its snapshot...
        reader.refresh()
        assert reader.count("files") == 1  # ...until it refreshes
        assert indexer.open_store(repo.config()).count("symbols") == 1


def test_a_kept_reader_follows_published_updates_only(repo: Repo) -> None:
    repo.write("a.py", "def first():\n    pass\n")
    indexer.run(repo.config())
    reader = indexer.reader(repo.config())
    assert reader.symbols_named("first") and reader.count("files") == 1
    assert indexer.reader(repo.config()) is reader  # kept, nothing changed
    # another writer, half-way through an update: the kept reader does not see it
    writer = indexer.open_store(repo.config())
    with writer.writing():
        writer.delete_paths(["a.py"])
        assert indexer.reader(repo.config()).count("files") == 1
    # a whole index run, published: the same reader sees it (its meta table is read afresh)
    repo.write("a.py", "def first():\n    pass\n\n\ndef second():\n    pass\n")
    indexer.run(repo.config())
    again = indexer.reader(repo.config())
    assert again is reader
    assert again.symbols_named("second") and again.count("files") == 1


def test_a_kept_reader_survives_its_store_being_deleted_and_rebuilt(repo: Repo) -> None:
    import shutil

    repo.write("a.py", "def first():\n    pass\n")
    indexer.run(repo.config())
    assert indexer.reader(repo.config()).symbols_named("first")
    shutil.rmtree(repo.root / ".git" / "repomem")
    repo.write("a.py", "def renamed():\n    pass\n")
    indexer.run(repo.config())
    reader = indexer.reader(repo.config())
    assert reader.symbols_named("renamed") and not reader.symbols_named("first")


def test_a_missing_table_names_the_repair_that_works(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    shutil.rmtree(Path(indexer.store_uri(cfg)) / "symbols.lance")
    with pytest.raises(StoreError, match=r"doctor --fix.*index --full"):
        indexer.open_store(cfg).table("symbols")


def test_a_damaged_published_value_reads_the_latest_versions(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    cfg = repo.config()
    indexer.run(cfg)
    indexer.open_store(cfg).set_meta({"published": '{"symbols": "not a version"}'})
    reader = indexer.open_store(cfg)
    assert reader.published() == {}
    assert reader.symbols_named("alpha")
