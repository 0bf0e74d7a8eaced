"""The memory's derived rows in the index store: rebuilt from the file, searchable."""

from __future__ import annotations

from repomem.index import indexer
from repomem.memory import derived, ops
from repomem.memory.model import Fact
from tests.conftest import Repo


def test_recall_finds_facts_and_sessions_and_skips_superseded_ones(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    return 1\n")
    repo.commit()
    cfg = repo.config()
    keep = ops.remember(cfg, "The scheduler retries failed jobs three times.").fact
    old = ops.remember(cfg, "The scheduler never retries jobs.").fact
    ops.supersede(cfg, old.id, "Retries were added to the scheduler.", why="changed")
    ops.remember(cfg, "Logging uses structlog.")
    hits = derived.recall(cfg, "scheduler retries")
    ids = [i.id for i, _ in hits]
    assert keep.id in ids and old.id not in ids
    assert all(isinstance(i, Fact) for i, _ in hits)
    assert all(s > 0 for _, s in hits)


def test_the_store_copy_follows_the_file_and_holds_no_forgotten_text(repo: Repo) -> None:
    repo.commit()
    cfg = repo.config()
    f = ops.remember(cfg, "The launch codes are kept by Mortimer Quibble.").fact
    assert derived.recall(cfg, "Quibble")
    store = indexer.open_store(cfg)
    assert not derived.ensure_synced(cfg, store)  # nothing changed since the last sync
    ops.forget(cfg, f.id)
    assert derived.ensure_synced(cfg, store)
    assert derived.recall(cfg, "Quibble") == []
    assert all("Quibble" not in r["text"] + r["data"] for r in store.memory_rows())
