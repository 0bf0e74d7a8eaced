"""Ranking a test repository: shared by the tests of the ranking's modules."""

from __future__ import annotations

from repomem.index import indexer
from repomem.pack import rank
from repomem.pack import task as tasks
from tests.conftest import Repo


def index_by_path(ranked: list[rank.Candidate]) -> dict[str, rank.Candidate]:
    return {c.path: c for c in ranked}


def ranked_in(repo: Repo, text: str) -> list[rank.Candidate]:
    cfg = repo.config()
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    return rank.rank(store, tasks.analyse(text), graph_cache=indexer.state_dir(cfg))
