"""Tests for repomem.index.store.guard: LanceDB's failures as one `StoreError`."""

from __future__ import annotations

from pathlib import Path

import pytest

from repomem.errors import StoreError
from repomem.index import indexer, query
from tests.conftest import Repo


def test_damaged_table_files_are_one_error_that_says_how_to_repair(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    files = Path(indexer.store_uri(cfg)) / "files.lance" / "data"
    for data in files.iterdir():
        data.write_bytes(b"")  # truncated by a crash or a bad disk
    reader = indexer.open_store(cfg)
    with pytest.raises(StoreError, match=r"damaged.*repomem doctor --fix"):
        reader.texts(["a.py"])
    with pytest.raises(StoreError, match="doctor --fix"):
        query.require_store(cfg).file_states()
