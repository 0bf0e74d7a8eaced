"""The stat cache beside the tables: recorded sizes and mtimes read into `files` rows while the
hashes agree (repomem/index/store/stats.py)."""

from __future__ import annotations

import json
import logging
import os

import pytest

from repomem.index import discovery, indexer
from repomem.index.store import Store
from tests.conftest import Repo


def _store(repo: Repo) -> Store:
    """Two files indexed; the store, for writing."""
    repo.write("a.py", "def a():\n    return 1\n")
    repo.write("b.py", "def b():\n    return 2\n")
    repo.commit()
    indexer.run(repo.config())
    store: Store = indexer.open_store(repo.config())
    return store


def test_a_recorded_stat_stands_in_for_its_row_only_while_the_hashes_agree(repo: Repo) -> None:
    store = _store(repo)
    rows = store.file_states()
    (_, _, a_hash), (b_size, b_mtime, b_hash) = rows["a.py"], rows["b.py"]
    with store.writing():
        store.record_stats({"a.py": (7, 11, a_hash), "b.py": (8, 12, "other content")})
    states = store.file_states()
    assert states["a.py"] == (7, 11, a_hash)
    assert states["b.py"] == (b_size, b_mtime, b_hash)  # recorded for content it no longer has
    assert store.file_states(["a.py"]) == {"a.py": (7, 11, a_hash)}


def test_every_read_of_the_files_table_sees_the_recorded_stat(repo: Repo) -> None:
    store = _store(repo)
    a_hash, b_size = store.file_states()["a.py"][2], store.file_states()["b.py"][0]
    with store.writing():
        store.record_stats({"a.py": (7, 11, a_hash)})
    assert store.column("files", ["mtime_ns", "path"], ["a.py"]) == {
        "mtime_ns": [11], "path": ["a.py"]
    }  # fmt: skip
    sizes = store.column("files", ["size"])  # the hash and path it needs are not returned
    assert list(sizes) == ["size"] and sorted(sizes["size"]) == sorted([7, b_size])
    row = store.file("a.py")
    assert row is not None and (row["size"], row["mtime_ns"]) == (7, 11)
    codes, values = store.coded_columns("files", ["path", "mtime_ns"], ["a.py"])["mtime_ns"]
    assert [values[i] for i in codes.tolist()] == [11]
    assert store.column("files", ["path", "hash"], []) == {"path": [], "hash": []}


@pytest.mark.parametrize(
    "text",
    [
        "",
        '{"version": 1, "files": {"a.py": [7, 1',  # cut short
        '{"version": 99, "files": {"a.py": [7, 11, "HASH"]}}',  # a later layout
        '{"version": 2, "files": {"a.py": [7, 11, "HASH"]}, "skipped": []}',
        '[["a.py", 7, 11, "HASH"]]',
        '{"version": 1, "files": ["a.py"]}',
    ],
    ids=["empty", "cut-short", "other-version", "skipped-a-list", "a-list", "files-a-list"],
)
def test_a_damaged_or_other_version_cache_reads_as_empty(repo: Repo, text: str) -> None:
    store = _store(repo)
    rows = store.file_states()
    store.stats_path.write_text(text.replace("HASH", rows["a.py"][2]), encoding="utf-8")
    assert store.recorded_stats() == {}
    assert store.file_states() == rows
    with store.writing():  # the next recording replaces it
        store.record_stats({"b.py": (8, 12, rows["b.py"][2])})
    assert store.recorded_stats() == {"b.py": (8, 12, rows["b.py"][2])}


def test_entries_of_the_wrong_shape_are_left_out(repo: Repo) -> None:
    store = _store(repo)
    entries = {"a.py": [1, 2, "h"], "b.py": [1, "2", "h"], "c.py": [1, 2], "d.py": [True, 2, "h"]}
    store.stats_path.write_text(json.dumps({"version": 1, "files": entries}), encoding="utf-8")
    assert store.recorded_stats() == {"a.py": (1, 2, "h")}


def test_recording_nothing_new_leaves_the_file_as_it_was(repo: Repo) -> None:
    store = _store(repo)
    a_hash = store.file_states()["a.py"][2]
    with store.writing():
        store.record_stats({}, {"a.py": None})
        assert not store.stats_path.exists()
        store.record_stats({"a.py": (7, 11, a_hash)})
        inode = store.stats_path.stat().st_ino
        store.record_stats({}, {"b.py": (1, 2, "h"), "gone.py": None})  # no entry of theirs
        store.record_stats({}, {"a.py": (7, 11, a_hash)})  # written as the entry says
        assert store.stats_path.stat().st_ino == inode
        store.record_stats({}, {"a.py": None})
    assert store.recorded_stats() == {}


@pytest.mark.parametrize(
    "state",
    [(7, 12, "HASH"), (8, 11, "HASH"), (7, 11, "other content"), (7, 11, ""), None],
    ids=["newer-mtime", "other-size", "other-content", "skipped", "deleted"],
)
def test_a_written_path_keeps_its_entry_only_when_the_row_was_written_as_it_says(
    repo: Repo, state: tuple[int, int, str] | None
) -> None:
    store = _store(repo)
    a_hash = store.file_states()["a.py"][2]
    with store.writing():
        store.record_stats({"a.py": (7, 11, a_hash)})
        if state is not None:
            state = (state[0], state[1], state[2].replace("HASH", a_hash))
        store.record_stats({}, {"a.py": state})
    assert store.recorded_stats() == {}


def test_a_cache_that_cannot_be_written_costs_reading_again_not_the_run(
    repo: Repo, caplog: pytest.LogCaptureFixture
) -> None:
    store = _store(repo)
    store.stats_path.mkdir()  # where the file goes: a write fails there (even as root)
    with store.writing(), caplog.at_level(logging.WARNING):
        store.record_stats({"a.py": (7, 11, "h")})
    assert "cannot record the stat cache" in caplog.text
    assert store.recorded_stats() == {}
    (repo.root / "a.py").write_text("def a():\n    return 3\n", encoding="utf-8")
    assert indexer.run(repo.config()).modified == ["a.py"]


def test_a_full_build_keeps_the_entries_its_rows_agree_with_and_drops_the_others(
    repo: Repo,
) -> None:
    store = _store(repo)
    st = (repo.root / "a.py").stat()
    os.utime(repo.root / "a.py", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    indexer.run(repo.config())  # a.py only touched: its new stat goes to the cache
    a_entry = store.recorded_stats()["a.py"]
    b_hash = store.file_states()["b.py"][2]
    with store.writing():
        store.record_stats({"b.py": (8, 12, b_hash)})  # not b.py's stat: found false
    indexer.run(repo.config(), full=True)
    assert store.recorded_stats() == {"a.py": a_entry}
    st_b = (repo.root / "b.py").stat()
    assert store.file_states()["b.py"] == (st_b.st_size, st_b.st_mtime_ns, b_hash)


def test_a_cache_of_the_first_layout_is_read_as_it_is(repo: Repo) -> None:
    store = _store(repo)
    a_hash = store.file_states()["a.py"][2]
    first = {"version": 1, "files": {"a.py": [7, 11, a_hash]}}
    store.stats_path.write_text(json.dumps(first), encoding="utf-8")
    assert store.file_states()["a.py"] == (7, 11, a_hash)
    assert store.recorded_skips() == {}


def _skipped_store(repo: Repo) -> tuple[Store, tuple[int, int], str]:
    """A store with one skip row (`app.js`, minified); its row's stat and content hash."""
    repo.write("app.js", "var a=1;" * 2000)
    store = _store(repo)
    size, mtime, stored = store.file_states()["app.js"]
    assert stored == ""  # a skip row has no hash
    return store, (size, mtime), discovery.content_hash((repo.root / "app.js").read_bytes())


def test_a_skip_row_takes_the_recorded_stat_only_for_the_content_it_was_written_for(
    repo: Repo,
) -> None:
    store, row, content = _skipped_store(repo)
    assert store.recorded_skips() == {"app.js": [(*row, content)]}  # recorded as it was read
    assert store.skip_contents({"app.js": (*row, "")}) == {"app.js": content}
    with store.writing():
        store.record_stats({"app.js": (row[0], row[1] + 5, content)})
    assert store.file_states()["app.js"] == (row[0], row[1] + 5, "")
    assert store.skip_contents(store.file_states()) == {"app.js": content}
    with store.writing():  # the file later held other content
        store.record_stats({"app.js": (row[0], row[1] + 9, "other content")})
    assert store.file_states()["app.js"] == (*row, "")
    # written for content recorded under another stat: not this row's
    facts = {"version": 2, "files": {"app.js": [row[0], row[1] + 5, content]},
             "skipped": {"app.js": [[row[0], row[1] + 1, content]]}}  # fmt: skip
    store.stats_path.write_text(json.dumps(facts), encoding="utf-8")
    assert store.file_states()["app.js"] == (*row, "")
    assert store.skip_contents(store.file_states()) == {}


def test_what_skip_rows_were_written_for_is_kept_newest_first_and_forgotten_with_them(
    repo: Repo,
) -> None:
    store, row, content = _skipped_store(repo)
    with store.writing():
        for i in range(1, 6):  # other stores of the tree wrote their skip rows of app.js
            store.record_stats({}, {"app.js": (row[0], row[1] + i, content)},
                               {"app.js": [(row[0], row[1] + i, content)]})  # fmt: skip
        assert [m - row[1] for _s, m, _h in store.recorded_skips()["app.js"]] == [5, 4, 3, 2]
        store.record_stats({}, {"app.js": (row[0], row[1], "indexed now")})
        assert store.recorded_skips() == {}


def test_the_cache_is_parsed_again_only_when_the_file_changed(repo: Repo) -> None:
    store = _store(repo)
    a_hash = store.file_states()["a.py"][2]
    with store.writing():
        store.record_stats({"a.py": (7, 11, a_hash)})
    assert store.file_states()["a.py"] == (7, 11, a_hash)
    # the same size, mtime and inode: taken for the file read before (the memo)
    st = store.stats_path.stat()
    text = store.stats_path.read_text(encoding="utf-8")
    with open(store.stats_path, "r+", encoding="utf-8") as fh:
        fh.write(text.replace("[7,11,", "[8,12,"))
    os.utime(store.stats_path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert store.file_states()["a.py"] == (7, 11, a_hash)
    # replaced, as every write replaces it (another process's run): read again
    fresh = indexer.open_store(repo.config())
    with fresh.writing():
        fresh.record_stats({"a.py": (9, 13, a_hash)})
    assert store.file_states()["a.py"] == (9, 13, a_hash)
