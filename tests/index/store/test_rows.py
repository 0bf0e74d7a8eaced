"""Tests for repomem.index.store.rows: rows written and read by path and column."""

from __future__ import annotations

from repomem.index import indexer, query
from tests.conftest import Repo


def test_paths_with_quotes_and_spaces_are_stored_and_removed(repo: Repo) -> None:
    repo.write("it's a file.py", "def quoted():\n    pass\n")
    indexer.run(repo.config())
    assert query.symbol(repo.config(), "quoted")[0]["path"] == "it's a file.py"
    (repo.root / "it's a file.py").unlink()
    report = indexer.run(repo.config())
    assert report.deleted == ["it's a file.py"]
    assert indexer.open_store(repo.config()).count("symbols") == 0


def test_coded_columns_of_some_paths_hold_only_their_rows(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    b()\n")
    repo.write("it's b.py", "def b():\n    pass\n")
    repo.write("c.py", "def c():\n    pass\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    codes, values = s.coded_columns("symbols", ["path", "name"], ["a.py", "it's b.py"])["name"]
    assert sorted(values[i] for i in codes.tolist()) == ["a", "b"]
    assert all(len(c[0]) == 0 for c in s.coded_columns("refs", ["path", "name"], []).values())
