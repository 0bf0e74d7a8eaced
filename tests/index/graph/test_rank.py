"""Tests for repomem.index.graph.rank: PageRank, plain and personalized."""

from __future__ import annotations

import pytest

from repomem.index import graph, indexer
from tests.conftest import Repo


def test_pagerank_ranks_the_most_used_file_first(repo: Repo) -> None:
    repo.write("core.py", "def util():\n    pass\n")
    for i in range(4):
        repo.write(f"user_{i}.py", f"from core import util\n\ndef f{i}():\n    util()\n")
    repo.write("lonely.py", "def alone():\n    pass\n")
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    ranks = graph.pagerank(graph.build(store), nodes=store.column("files", ["path"])["path"])
    assert max(ranks, key=lambda p: ranks[p]) == "core.py"
    assert ranks["core.py"] > 3 * ranks["lonely.py"]
    assert sum(ranks.values()) == pytest.approx(1.0)


def test_personalization_pulls_rank_towards_the_seed() -> None:
    g = {"a": {"hub": 1.0}, "b": {"hub": 1.0}, "seed": {"b": 1.0}}
    plain = graph.pagerank(g)
    seeded = graph.pagerank(g, personalization={"seed": 1.0})
    assert seeded["b"] > plain["b"]
    assert seeded["a"] < plain["a"]
