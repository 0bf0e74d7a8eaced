"""The memory's derived rows in the index store: rebuilt from the file, searchable."""

from __future__ import annotations

from pathlib import Path

from repomem.index import indexer
from repomem.memory import access, derived, ops
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


def test_rows_a_resync_replaces_leave_no_trace_in_the_store(repo: Repo) -> None:
    # a store written before its memory rows were redacted (or a fact later forgotten): the
    # old rows' bytes must not stay behind in older table versions
    token = "ghp_" + "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij"
    cfg = repo.config()
    ops.remember(cfg, "The parser is incremental.")
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    with store.writing():  # what an older repomem wrote
        store.replace_memory(
            [dict(r, text=f"{r['text']} {token}") for r in derived.rows(access.load(cfg))]
        )
        store.set_meta({derived.META_KEY: "old"})
    assert derived.ensure_synced(cfg, store)
    stored = b"".join(
        p.read_bytes() for p in Path(indexer.store_uri(cfg)).rglob("*") if p.is_file()
    )
    assert token.encode() not in stored
    assert derived.recall(cfg, "parser incremental")
