"""Tests for repomem.index.store.fulltext: full-text search over code-aware tokens."""

from __future__ import annotations

from repomem.index import indexer
from tests.conftest import Repo


def test_search_finds_split_identifiers_and_whole_ones(repo: Repo) -> None:
    repo.write("a.py", "def parseConfigFile(path):\n    pass\n")
    repo.write("b.py", "def load_user_settings():\n    pass\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    assert s.search("config file", kind="function")[0].name == "parseConfigFile"
    assert s.search("parseConfigFile", kind="function")[0].name == "parseConfigFile"
    assert s.search("user settings", kind="function")[0].name == "load_user_settings"
    assert s.search("load_user_settings", kind="function")[0].name == "load_user_settings"
    assert s.search("settings loading", kind="function")[0].name == "load_user_settings"  # stem
