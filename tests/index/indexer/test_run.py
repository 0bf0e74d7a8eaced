"""The entry points: whole-tree runs, path updates, the write lock and compaction
(repomem/index/indexer/__init__.py)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from repomem.config import Config
from repomem.index import indexer, query
from tests.conftest import Repo
from tests.index.indexer.cases import (
    build_and_kill,
    fresh_snapshot,
    populate,
    runs_at_once,
    snapshot,
)


def test_first_run_builds_the_index(repo: Repo) -> None:
    populate(repo, 3)
    repo.write("README.md", "# Demo\n\nSome text.\n")
    repo.commit()
    report = indexer.run(repo.config())
    assert report.full
    assert sorted(report.added) == ["README.md", "pkg/mod_0.py", "pkg/mod_1.py", "pkg/mod_2.py"]
    status = query.status(repo.config())
    assert status["files"] == 4
    assert status["languages"] == {"python": 3, "markdown": 1}
    assert status["symbols"] == 3 * 4
    assert status["fresh"] is True


def test_full_rebuild_gives_the_same_store(repo: Repo) -> None:
    populate(repo, 4)
    repo.commit()
    indexer.run(repo.config())
    before = snapshot(indexer.open_store(repo.config()))
    report = indexer.run(repo.config(), full=True)
    assert report.full and report.parsed == 4
    assert snapshot(indexer.open_store(repo.config())) == before


def test_two_concurrent_runs_do_not_corrupt_the_store(repo: Repo) -> None:
    populate(repo, 30)
    repo.commit()
    runs_at_once(repo.config(**{"index.workers": 1}))
    store = indexer.open_store(repo.config())
    assert store.count("files") == 30
    assert snapshot(store) == fresh_snapshot(repo)


def test_a_held_lock_gives_a_clear_error(repo: Repo) -> None:
    populate(repo, 1)
    repo.commit()
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    with store.writing():
        code = (
            "import sys; from repomem import config; from repomem.index import indexer;"
            "from repomem.errors import LockTimeoutError\n"
            "try:\n indexer.run(config.load(sys.argv[1], overrides={'index.lock_timeout': 0.2}),"
            " full=True)\nexcept LockTimeoutError as e:\n print(e)"
        )
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])}
        out = subprocess.run(
            [sys.executable, "-c", code, str(repo.root)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
            check=True,
        ).stdout
    assert "locked by another repomem process" in out
    assert f"pid {os.getpid()}" in out


def test_a_lock_left_by_a_killed_process_is_recovered(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    indexer.run(repo.config())
    code = (
        "import sys, time; from repomem import config; from repomem.index import indexer\n"
        "store = indexer.open_store(config.load(sys.argv[1]))\n"
        "with store.writing():\n print('locked', flush=True); time.sleep(600)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])}
    proc = subprocess.Popen(
        [sys.executable, "-c", code, str(repo.root)], env=env, stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout is not None and proc.stdout.readline().strip() == "locked"
    cfg = repo.config(**{"index.lock_timeout": 0.2})
    from repomem.errors import LockTimeoutError

    with pytest.raises(LockTimeoutError):
        indexer.run(cfg, full=True)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    proc.stdout.close()
    lock = repo.root / ".git" / "repomem" / "index.lock"
    assert lock.read_text().strip() == str(proc.pid)  # the file stays; the kernel freed the lock
    report = indexer.run(cfg, full=True)
    assert report.full and report.parsed == 2


def test_a_full_rebuild_killed_midway_is_started_over_by_the_next_run(repo: Repo) -> None:
    populate(repo, 400)
    repo.commit()
    indexer.run(repo.config())
    build_and_kill(repo, full=True)
    report = indexer.run(repo.config())
    assert report.full
    store = indexer.open_store(repo.config())
    assert store.count("files") == 400
    assert snapshot(store) == fresh_snapshot(repo)


def test_a_path_update_equals_a_full_index(repo: Repo) -> None:
    populate(repo, 6)
    repo.write("notes.txt", "plain text\n")
    repo.commit()
    indexer.run(repo.config())
    repo.write("pkg/mod_1.py", "def updated_one():\n    return 1\n")
    repo.write("pkg/added.py", "class Added:\n    pass\n")
    (repo.root / "pkg/mod_2.py").unlink()
    os.rename(repo.root / "pkg/mod_3.py", repo.root / "pkg/renamed.py")
    repo.write("image.png", b"\x89PNG\0\0")  # path-level skip
    repo.write(".gitignore", "build/\n")
    repo.write("build/out.py", "def ignored():\n    pass\n")  # git-ignored: not indexed
    paths = ["pkg/mod_1.py", "pkg/added.py", "pkg/mod_2.py", "pkg/mod_3.py", "pkg/renamed.py",
             "image.png", "build/out.py", "pkg/not_there.py"]  # fmt: skip
    report = indexer.update(repo.config(), paths)
    assert report.modified == ["pkg/mod_1.py"]
    assert report.added == ["pkg/added.py"]
    assert report.deleted == ["pkg/mod_2.py"]
    assert report.renamed == [("pkg/mod_3.py", "pkg/renamed.py")]
    assert report.parsed == 2
    indexer.update(repo.config(), [".gitignore"])
    # The no-change manifest was dropped (its size grows with the repository); it comes back.
    manifest = repo.root / ".git" / "repomem" / "manifest.json"
    assert not manifest.exists()
    assert indexer.write_manifest(repo.config())
    assert manifest.exists() and not indexer.write_manifest(repo.config())
    store = indexer.open_store(repo.config())
    assert snapshot(store) == fresh_snapshot(repo)
    again = indexer.run(repo.config())
    assert again.changed == 0 and again.parsed == 0


def test_a_path_update_with_nothing_changed_writes_nothing(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    versions = store.current_versions(), store.table("meta").version
    report = indexer.update(repo.config(), ["pkg/mod_0.py", "missing.py"])
    assert report.changed == 0 and report.parsed == 0
    store = indexer.open_store(repo.config())
    assert (store.current_versions(), store.table("meta").version) == versions


def test_a_path_update_after_head_moved_is_a_whole_tree_run(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    indexer.run(repo.config())
    repo.write("pkg/mod_0.py", "def on_commit():\n    pass\n")
    repo.write("pkg/mod_1.py", "def not_in_the_paths():\n    pass\n")
    head = repo.commit("second")
    report = indexer.update(repo.config(), ["pkg/mod_0.py"])
    assert sorted(report.modified) == ["pkg/mod_0.py", "pkg/mod_1.py"]
    assert query.status(repo.config())["indexed_commit"] == head
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def _touch(path: Path) -> None:
    """A new mtime, the same content (`touch`, a checkout that rewrote the file)."""
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))


def _indexed(repo: Repo, n: int) -> Config:
    """`n` modules committed and indexed; the repository's configuration."""
    populate(repo, n)
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    return cfg


def _recorded(repo: Repo, rel: str) -> tuple[int, int]:
    """The size and mtime the index holds for `rel`."""
    size, mtime, _ = indexer.open_store(repo.config()).file_states()[rel]
    return size, mtime


def _on_disk(repo: Repo, rel: str) -> tuple[int, int]:
    st = (repo.root / rel).stat()
    return st.st_size, st.st_mtime_ns


@pytest.mark.parametrize("manifest", [True, False], ids=["from-the-manifest", "from-the-store"])
def test_a_run_follows_the_plan_prepared_before_it_while_the_store_is_unchanged(
    repo: Repo, manifest: bool
) -> None:
    cfg = _indexed(repo, 3)
    if not manifest:
        (repo.root / ".git" / "repomem" / "manifest.json").unlink()
    repo.write("pkg/mod_0.py", "def planned():\n    pass\n")
    prepared = indexer.prepare(cfg, indexer.reader(cfg))
    assert prepared.plan.changed == ["pkg/mod_0.py"] and prepared.report is None
    repo.write("pkg/mod_1.py", "def after_the_plan():\n    pass\n")
    # the run does not plan again: what changed after the plan waits for the next run
    assert indexer.run(cfg, prepared=prepared).modified == ["pkg/mod_0.py"]
    assert indexer.run(cfg).modified == ["pkg/mod_1.py"]
    assert snapshot(indexer.open_store(cfg)) == fresh_snapshot(repo)


def test_a_run_plans_again_when_the_store_changed_since_its_plan_was_prepared(
    repo: Repo,
) -> None:
    cfg = _indexed(repo, 3)
    repo.write("pkg/mod_0.py", "def planned():\n    pass\n")
    prepared = indexer.prepare(cfg, indexer.reader(cfg))
    assert indexer.run(cfg).modified == ["pkg/mod_0.py"]  # another run wrote meanwhile
    repo.write("pkg/mod_1.py", "def after_the_plan():\n    pass\n")
    assert indexer.run(cfg, prepared=prepared).modified == ["pkg/mod_1.py"]
    assert snapshot(indexer.open_store(cfg)) == fresh_snapshot(repo)


def test_files_only_touched_are_recorded_without_rewriting_their_rows(repo: Repo) -> None:
    cfg = _indexed(repo, 3)
    store = indexer.open_store(cfg)
    assert not store.stats_path.exists()  # a full build: each row holds its file's own stat
    rows = store.rows_for_paths("files", ["pkg/mod_0.py", "pkg/mod_1.py"])
    touched = ["pkg/mod_0.py", "pkg/mod_1.py"]
    for rel in touched:
        _touch(repo.root / rel)
    repo.write("pkg/mod_2.py", "def edited():\n    pass\n")
    report = indexer.run(cfg)
    assert report.modified == ["pkg/mod_2.py"] and report.unchanged == 2
    store = indexer.open_store(cfg)
    assert [_recorded(repo, rel) for rel in touched] == [_on_disk(repo, rel) for rel in touched]
    # the rows stay as written (the stat cache holds the new stat): when they were indexed
    again = store.rows_for_paths("files", touched)
    assert [r["indexed_at"] for r in again] == [r["indexed_at"] for r in rows]
    assert indexer.prepare(cfg, indexer.reader(cfg)).report is not None  # nothing left to do
    assert snapshot(store) == fresh_snapshot(repo)


def test_a_run_that_finds_files_only_touched_writes_no_table_and_compacts_nothing(
    repo: Repo,
) -> None:
    populate(repo, 30)
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    versions = store.current_versions()
    for i in range(30):  # a new worktree's checkout: every file has a new mtime
        _touch(repo.root / f"pkg/mod_{i}.py")
    report = indexer.run(cfg)
    assert report.changed == 0 and report.parsed == 0 and report.unchanged == 30
    store = indexer.open_store(cfg)
    assert store.current_versions() == versions
    # no row the full-text indexes lack: no compaction due, even by the idle policy (which
    # any lacking row makes due)
    assert all(lag == 0 for backlog in store.fts_backlog().values() for lag, _ in backlog)
    assert store.get_meta("runs_since_optimize") == "1"  # the full build's run only
    assert indexer.optimize_if_due(cfg, idle=True) is False
    assert all(_recorded(repo, f"pkg/mod_{i}.py") == _on_disk(repo, f"pkg/mod_{i}.py")
               for i in range(30))  # fmt: skip


def test_a_path_update_records_a_file_only_touched_without_writing_a_table(repo: Repo) -> None:
    cfg = _indexed(repo, 2)
    store = indexer.open_store(cfg)
    versions = store.current_versions(), store.table("meta").version
    _touch(repo.root / "pkg/mod_0.py")
    report = indexer.update(cfg, ["pkg/mod_0.py"])
    assert report.changed == 0 and report.unchanged == 1
    store = indexer.open_store(cfg)
    assert (store.current_versions(), store.table("meta").version) == versions
    assert _recorded(repo, "pkg/mod_0.py") == _on_disk(repo, "pkg/mod_0.py")


def test_a_file_written_again_drops_its_recorded_stat(repo: Repo) -> None:
    cfg = _indexed(repo, 2)
    _touch(repo.root / "pkg/mod_0.py")
    _touch(repo.root / "pkg/mod_1.py")
    indexer.run(cfg)
    assert sorted(indexer.open_store(cfg).recorded_stats()) == ["pkg/mod_0.py", "pkg/mod_1.py"]
    repo.write("pkg/mod_0.py", "def edited():\n    pass\n")
    (repo.root / "pkg/mod_1.py").unlink()
    indexer.run(cfg)
    assert indexer.open_store(cfg).recorded_stats() == {}  # their rows hold their stat now
    assert _recorded(repo, "pkg/mod_0.py") == _on_disk(repo, "pkg/mod_0.py")


def test_a_full_build_of_another_store_of_the_tree_leaves_this_stores_files_unread(
    repo: Repo,
) -> None:
    cfg = _indexed(repo, 3)
    touched = ["pkg/mod_0.py", "pkg/mod_1.py"]
    for rel in touched:
        _touch(repo.root / rel)
    indexer.run(cfg)
    other = repo.config(**{"store.path": str(repo.root.parent / "other-store")})
    assert indexer.run(other, full=True).parsed == 3  # the same work tree, state folder
    store = indexer.open_store(cfg)
    assert sorted(store.recorded_stats()) == touched
    assert indexer.make_plan(cfg, store.file_states()).changed == []  # nothing to read
    assert [_recorded(repo, rel) for rel in touched] == [_on_disk(repo, rel) for rel in touched]


def test_files_a_prepared_plan_found_unchanged_are_recorded_without_being_read(
    repo: Repo,
) -> None:
    cfg = _indexed(repo, 2)
    _touch(repo.root / "pkg/mod_0.py")
    prepared = indexer.prepare(cfg, indexer.reader(cfg))
    assert indexer.really_changed(cfg, prepared.plan, prepared.states) == []
    prepared.same = frozenset(prepared.plan.changed)
    # other bytes after the check, with the size and mtime the plan saw: a run that read the
    # file again would parse it; this one trusts the check, as a plan trusts size and mtime
    path = repo.root / "pkg/mod_0.py"
    seen = prepared.plan.current["pkg/mod_0.py"]
    path.write_text(path.read_text(encoding="utf-8").replace("Module", "Modulo"), "utf-8")
    os.utime(path, ns=(seen.st_atime_ns, seen.st_mtime_ns))
    report = indexer.run(cfg, prepared=prepared)
    assert report.changed == 0 and report.parsed == 0 and report.unchanged == 2
    assert _recorded(repo, "pkg/mod_0.py") == _on_disk(repo, "pkg/mod_0.py")


def test_compaction_runs_at_most_once_per_cleanup_window(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    cfg = repo.config(**{"store.optimize_every": 1})
    indexer.run(cfg)
    repo.write("pkg/mod_0.py", "def one():\n    pass\n")
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    first = store.get_meta("optimized_at")
    assert first is not None and store.get_meta("runs_since_optimize") == "0"
    repo.write("pkg/mod_0.py", "def two():\n    pass\n")
    indexer.update(cfg, ["pkg/mod_0.py"])
    store = indexer.open_store(cfg)
    assert store.get_meta("optimized_at") == first  # within the window: no second compaction
    assert store.get_meta("runs_since_optimize") == "1"


def test_a_path_update_can_leave_compaction_for_later(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    cfg = repo.config(**{"store.optimize_every": 1})
    indexer.run(cfg)
    repo.write("pkg/mod_0.py", "def later():\n    pass\n")
    indexer.update(cfg, ["pkg/mod_0.py"], optimize=False)
    store = indexer.open_store(cfg)
    assert store.get_meta("optimized_at") is None  # the full build counted one run, this one more
    assert store.get_meta("runs_since_optimize") == "2"
    assert indexer.optimize_if_due(cfg)
    assert not indexer.optimize_if_due(cfg)  # nothing changed since
    assert indexer.open_store(cfg).get_meta("runs_since_optimize") == "0"


def test_an_idle_moment_folds_in_any_row_the_fulltext_index_lacks_once_per_window(
    repo: Repo,
) -> None:
    populate(repo, 3)
    repo.commit()
    cfg = repo.config()  # optimize_every is far off
    indexer.run(cfg)
    repo.write("pkg/mod_0.py", "def edited():\n    pass\n")
    indexer.update(cfg, ["pkg/mod_0.py"], optimize=False)
    store = indexer.open_store(cfg)
    assert store.indexes_lagging(share=0.0, floor=0) and not store.indexes_lagging()
    assert not indexer.optimize_if_due(cfg)  # someone waits for it: a few rows can wait
    assert indexer.optimize_if_due(cfg, idle=True)
    assert not indexer.open_store(cfg).indexes_lagging(share=0.0, floor=0)
    repo.write("pkg/mod_1.py", "def edited_again():\n    pass\n")
    indexer.update(cfg, ["pkg/mod_1.py"], optimize=False)
    assert not indexer.optimize_if_due(cfg, idle=True)  # once per cleanup window


def test_a_path_update_that_adds_many_rows_folds_them_into_the_fulltext_index(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    cfg = repo.config()  # optimize_every is far off: only the rows missing from the index count
    indexer.run(cfg)
    body = "".join(f"def many_{i}():\n    pass\n" for i in range(1200))
    repo.write("pkg/many.py", body)
    indexer.update(cfg, ["pkg/many.py"])
    store = indexer.open_store(cfg)
    assert store.get_meta("optimized_at") is not None
    assert not store.indexes_lagging()
    assert [h["path"] for h in query.search(cfg, "many_1100")][:1] == ["pkg/many.py"]


def test_compaction_keeps_versions_younger_than_the_cleanup_window_read_when_it_runs(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("a.py", "def a():\n    return 1\n")
    cfg = repo.config()
    indexer.run(cfg)
    repo.write("a.py", "def a():\n    return 2\n")
    indexer.run(cfg)
    store = indexer.open_store(cfg)

    def versions() -> int:
        return len(store.table("files").list_versions())

    with store.writing():
        store.publish(indexer.compact(store))  # the default window: recent versions stay
    kept = versions()
    assert kept > 1
    monkeypatch.setattr(indexer, "CLEANUP_SECONDS", 0.05)  # as bench/watch_bench.py sets it
    with store.writing():
        store.publish(indexer.compact(store))
    assert versions() < kept


def test_a_superprojects_index_holds_its_submodules_files_and_follows_their_changes(
    superproject: Repo,
) -> None:
    cfg = superproject.config()
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    assert {"core_helper", "deep_helper"} <= set(store.column("symbols", ["name"])["name"])
    superproject.write("libs/core/pkg/core.py", "def core_helper_changed():\n    return 3\n")
    superproject.write("libs/core/pkg/added.py", "def added_helper():\n    return 4\n")
    (superproject.root / "libs/core/pkg/old.py").unlink()
    report = indexer.update(
        cfg, ["libs/core/pkg/core.py", "libs/core/pkg/added.py", "libs/core/pkg/old.py"]
    )
    assert report.modified == ["libs/core/pkg/core.py"]
    assert report.added == ["libs/core/pkg/added.py"]
    assert report.deleted == ["libs/core/pkg/old.py"]
    assert snapshot(indexer.open_store(cfg)) == fresh_snapshot(superproject)
    # a commit made in the submodule is not one of the superproject: nothing to index again
    sub = Repo(superproject.root / "libs/core", git=False)
    sub.commit("in the submodule")
    assert query.status(cfg)["fresh"]
    assert indexer.run(cfg).changed == 0
    off = indexer.run(superproject.config(**{"index.submodules": False}))
    assert "libs/core/pkg/core.py" in off.deleted
    paths = indexer.open_store(cfg).column("files", ["path"])["path"]
    assert not [p for p in paths if p.startswith("libs/core/")]


def test_the_files_a_run_reports_are_those_status_counts_without_the_skipped_ones(
    repo: Repo,
) -> None:
    # a binary with a .py name and a lock file are skipped when read: the run said
    # "Indexed 3 files" and "Skipped: 1 binary, 1 generated" while status counted 1 file
    repo.write("app.py", "def app():\n    return 1\n")
    repo.write("blob.py", b"\x00\x01\x02binary\x00" * 100)
    repo.write("poetry.lock", "# This file is automatically @generated by Poetry\n")
    repo.commit()
    cfg = repo.config()
    first = indexer.run(cfg)
    assert first.skipped == {"binary": 1, "generated": 1}
    assert first.files_seen == query.status(cfg)["files"] == 1
    assert indexer.run(cfg).files_seen == 1  # nothing changed: from the manifest
    repo.write("app.py", "def app():\n    return 2\n")
    assert indexer.run(cfg).files_seen == 1
