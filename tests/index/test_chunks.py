from __future__ import annotations

from repomem.index import chunks, indexer
from tests.conftest import Repo


def test_each_outermost_function_is_a_chunk_and_the_rest_goes_in_windows() -> None:
    got = chunks.spans(200, [(10, 20), (12, 15), (30, 40)])
    # the nested function (12-15) stays inside its outer one
    assert [(s, e) for s, e, _ in got] == [(1, 102), (10, 20), (30, 40), (103, 182), (183, 200)]
    assert got[0][2] == [*range(1, 10), *range(21, 30), *range(41, 103)][: chunks.WINDOW]
    lines = [n for _s, _e, ns in got for n in ns]
    assert sorted(lines) == list(range(1, 201))  # every line in exactly one chunk
    assert [(s, e) for s, e, _ in chunks.spans(200, [])] == [(1, 80), (81, 160), (161, 200)]


def test_a_very_long_function_is_split_and_spans_past_the_end_are_clipped() -> None:
    got = chunks.spans(1000, [(1, 5000)])
    assert [(s, e) for s, e, _ in got] == [(1, 400), (401, 800), (801, 1000)]


def test_blank_chunks_are_dropped() -> None:
    text = "def f():\n    return 1\n\n\n\n"
    assert [(s, e) for s, e, _ in chunks.split(text, [(1, 2)])] == [(1, 2)]


def test_chunks_follow_their_file_through_edits_renames_and_deletes(repo: Repo) -> None:
    repo.write("pkg/a.py", "def alpha():\n    return 'needle_word'\n\nLIMIT_VALUE = 1\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    rows = store.rows_for_path("chunks", "pkg/a.py")
    assert sorted((r["start_line"], r["end_line"]) for r in rows) == [(1, 2), (3, 5)]
    hits = store.table("chunks").search("needle_word", query_type="fts").to_list()
    assert [(h["path"], h["start_line"]) for h in hits] == [("pkg/a.py", 1)]

    repo.git("mv", "pkg/a.py", "pkg/b.py")
    repo.commit()
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    assert store.rows_for_path("chunks", "pkg/a.py") == []
    assert len(store.rows_for_path("chunks", "pkg/b.py")) == 2

    (repo.root / "pkg" / "b.py").unlink()
    indexer.run(cfg)
    assert indexer.open_store(cfg).count("chunks") == 0
