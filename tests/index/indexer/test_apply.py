"""Writing a run's results: added, modified, deleted, renamed and copied files, in
batches that a killed run leaves recoverable (repomem/index/indexer/apply.py)."""

from __future__ import annotations

import os

import pytest

from repomem.index import indexer, query
from tests.conftest import Repo
from tests.index.indexer.cases import (
    MODULE,
    build_and_kill,
    fresh_snapshot,
    populate,
    snapshot,
)


def test_added_modified_and_deleted_files_are_picked_up(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    indexer.run(repo.config())
    repo.write("pkg/new.py", "def brand_new():\n    pass\n")
    repo.write("pkg/mod_1.py", "def replaced():\n    return 1\n")
    (repo.root / "pkg/mod_2.py").unlink()
    report = indexer.run(repo.config())
    assert report.added == ["pkg/new.py"]
    assert report.modified == ["pkg/mod_1.py"]
    assert report.deleted == ["pkg/mod_2.py"]
    assert report.parsed == 2
    store = indexer.open_store(repo.config())
    assert store.symbols_named("brand_new")
    assert store.symbols_named("replaced")
    assert not store.symbols_named("func_1")
    assert not store.symbols_named("func_2")
    assert snapshot(store) == fresh_snapshot(repo)


def test_a_rename_copies_rows_without_parsing(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    indexer.run(repo.config())
    repo.git("mv", "pkg/mod_0.py", "pkg/renamed.py")
    report = indexer.run(repo.config())
    assert report.renamed == [("pkg/mod_0.py", "pkg/renamed.py")]
    assert report.parsed == 0
    assert report.deleted == []
    store = indexer.open_store(repo.config())
    (sym,) = store.symbols_named("func_0")
    assert sym["path"] == "pkg/renamed.py"
    assert snapshot(store) == fresh_snapshot(repo)


def test_a_branch_switch_leaves_the_index_equal_to_a_fresh_build(repo: Repo) -> None:
    populate(repo, 6)
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "feature")
    for i in range(3):
        repo.write(f"pkg/mod_{i}.py", f"def feature_{i}():\n    return {i}\n")
    (repo.root / "pkg/mod_5.py").unlink()
    repo.write("pkg/extra.py", "class Extra:\n    pass\n")
    repo.commit("feature")
    indexer.run(repo.config())
    repo.git("checkout", "-q", "main")
    report = indexer.run(repo.config())
    assert sorted(report.modified) == ["pkg/mod_0.py", "pkg/mod_1.py", "pkg/mod_2.py"]
    assert report.deleted == ["pkg/extra.py"]
    assert report.added == ["pkg/mod_5.py"]
    store = indexer.open_store(repo.config())
    assert snapshot(store) == fresh_snapshot(repo)
    assert query.status(repo.config())["fresh"]


def test_kill_during_a_build_then_the_next_run_completes_it(repo: Repo) -> None:
    populate(repo, 400)
    repo.commit()
    build_and_kill(repo, full=False)
    report = indexer.run(repo.config())
    assert report.recovered > 0 or report.full
    store = indexer.open_store(repo.config())
    assert snapshot(store) == fresh_snapshot(repo)
    assert store.count("files") == 400


def test_kill_during_a_run_that_also_found_files_only_touched_loses_nothing(
    repo: Repo,
) -> None:
    populate(repo, 400)
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    for i in range(400):
        path = repo.root / f"pkg/mod_{i}.py"
        if i % 2:  # a new mtime only, for the stat cache
            st = path.stat()
            os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
        else:
            repo.write(f"pkg/mod_{i}.py", MODULE.format(n=i) + f"\nEXTRA_{i} = {i}\n")
    build_and_kill(repo, full=False)  # mid-batch: before the stat cache is written
    report = indexer.run(cfg)
    assert report.recovered > 0
    store = indexer.open_store(cfg)
    states = store.file_states()
    for i in range(400):
        st = (repo.root / f"pkg/mod_{i}.py").stat()
        assert states[f"pkg/mod_{i}.py"][:2] == (st.st_size, st.st_mtime_ns)
    assert indexer.run(cfg).changed == 0
    assert snapshot(store) == fresh_snapshot(repo)


def test_copies_and_renames_in_a_run_of_many_batches_match_a_fresh_build(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    populate(repo, 12)
    repo.write("a_src.py", "def version_one_fn():\n    return 1\n")
    repo.write("r.py", "def unique_zeppelin_fn():\n    return 2\n")
    repo.commit()
    cfg = repo.config(**{"index.workers": 1})
    indexer.run(cfg)
    monkeypatch.setattr(indexer.apply, "BATCH_FILES", 2)  # every few files a batch is written
    repo.write("zz_backup.py", "def version_one_fn():\n    return 1\n")  # a copy of a_src.py
    repo.write("a_src.py", "def version_two_fn():\n    return 1\n")
    repo.git("mv", "r.py", "zz_moved.py")
    for i in range(12):
        repo.write(f"pkg/mod_{i}.py", MODULE.format(n=i) + f"\nEXTRA_{i} = {i}\n")
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    assert [r["path"] for r in store.symbols_named("version_one_fn")] == ["zz_backup.py"]
    assert [r["path"] for r in store.symbols_named("unique_zeppelin_fn")] == ["zz_moved.py"]
    assert snapshot(store) == fresh_snapshot(repo)
