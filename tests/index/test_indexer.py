from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from repomem.index import indexer, query
from repomem.index.store import Store
from tests.conftest import Repo

MODULE = '''"""Module {n}."""


def func_{n}(x):
    """Return x plus {n}."""
    return helper_{n}(x) + {n}


def helper_{n}(x):
    return x


class Thing{n}:
    def method(self):
        return func_{n}(1)
'''


def snapshot(store: Store) -> dict[str, Any]:
    """The store's content, independent of row order and timestamps."""
    files = store.column("files", ["path", "hash", "skip", "symbols", "lines", "text"])
    symbols = store.column("symbols", ["path", "qualname", "kind", "start_line", "end_line"])
    refs = store.column("refs", ["path", "name", "kind", "scope", "line", "count"])
    return {
        "files": sorted(zip(*files.values(), strict=True)),
        "symbols": sorted(zip(*symbols.values(), strict=True)),
        "refs": sorted(zip(*refs.values(), strict=True)),
    }


def fresh_snapshot(repo: Repo) -> dict[str, Any]:
    """What a from-scratch index of the same tree holds."""
    cfg = repo.config(**{"store.path": str(repo.root.parent / "fresh-store")})
    indexer.run(cfg, full=True)
    return snapshot(indexer.open_store(cfg))


def populate(repo: Repo, n: int) -> None:
    for i in range(n):
        repo.write(f"pkg/mod_{i}.py", MODULE.format(n=i))


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


def test_store_lives_in_the_git_directory_so_it_is_never_committed(repo: Repo) -> None:
    populate(repo, 1)
    repo.commit()
    indexer.run(repo.config())
    assert (repo.root / ".git" / "repomem" / "lance").is_dir()
    assert repo.git("status", "--porcelain") == ""


def test_a_run_with_no_change_parses_nothing(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    indexer.run(repo.config())
    report = indexer.run(repo.config())
    assert report.parsed == 0
    assert report.changed == 0
    assert report.unchanged == 3


def test_touching_a_file_without_changing_it_parses_nothing(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    indexer.run(repo.config())
    path = repo.root / "pkg/mod_0.py"
    os.utime(path, ns=(time.time_ns(), time.time_ns() + 5_000_000_000))
    report = indexer.run(repo.config())
    assert report.parsed == 0
    again = indexer.run(repo.config())
    assert again.unchanged == 2 and again.parsed == 0


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


def test_status_reports_pending_changes_and_a_moved_head(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    indexer.run(repo.config())
    repo.write("pkg/mod_0.py", "x = 1\n")
    status = query.status(repo.config())
    assert status["fresh"] is False
    assert status["pending"] == {"changed": 1, "deleted": 0}
    indexer.run(repo.config())
    repo.commit("second")
    status = query.status(repo.config())
    assert status["pending"] == {"changed": 0, "deleted": 0}
    assert status["indexed_commit"] != status["head"]
    assert status["fresh"] is False


def test_full_rebuild_gives_the_same_store(repo: Repo) -> None:
    populate(repo, 4)
    repo.commit()
    indexer.run(repo.config())
    before = snapshot(indexer.open_store(repo.config()))
    report = indexer.run(repo.config(), full=True)
    assert report.full and report.parsed == 4
    assert snapshot(indexer.open_store(repo.config())) == before


def test_a_plain_folder_is_indexed_with_git_features_off(folder: Repo) -> None:
    folder.write("a.py", "def in_folder():\n    pass\n")
    folder.write(".gitignore", "ignored/\n*.log\n")
    folder.write("ignored/b.py", "def hidden():\n    pass\n")
    folder.write("run.log", "log line\n")
    report = indexer.run(folder.config())
    assert report.git is False
    assert sorted(report.added) == [".gitignore", "a.py"]
    assert query.symbol(folder.config(), "in_folder")


def test_parallel_build_matches_serial_build(repo: Repo) -> None:
    populate(repo, indexer.PARALLEL_MIN_FILES + 6)
    repo.commit()
    indexer.run(repo.config(**{"index.workers": 2}))
    parallel = snapshot(indexer.open_store(repo.config()))
    indexer.run(repo.config(**{"index.workers": 1}), full=True)
    assert snapshot(indexer.open_store(repo.config())) == parallel


def test_kill_during_a_build_then_the_next_run_completes_it(repo: Repo) -> None:
    populate(repo, 400)
    repo.commit()
    journal = repo.root / ".git" / "repomem" / "journal.json"
    code = (
        "import sys; from repomem import config; from repomem.index import indexer;"
        "indexer.BATCH_FILES = 25;"
        "indexer.run(config.load(sys.argv[1], overrides={'index.workers': 1}))"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    proc = subprocess.Popen([sys.executable, "-c", code, str(repo.root)], env=env)
    kill_mid_batch(proc, journal, "the build")
    report = indexer.run(repo.config())
    assert report.recovered > 0 or report.full
    store = indexer.open_store(repo.config())
    assert snapshot(store) == fresh_snapshot(repo)
    assert store.count("files") == 400


def test_two_concurrent_runs_do_not_corrupt_the_store(repo: Repo) -> None:
    populate(repo, 30)
    repo.commit()
    errors: list[BaseException] = []

    def run() -> None:
        try:
            indexer.run(repo.config(**{"index.workers": 1}))
        except BaseException as exc:  # noqa: BLE001 - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, daemon=True) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads), "an index run hung"
    assert not errors
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
        env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
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


def test_a_lock_left_by_a_killed_process_is_recovered(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    indexer.run(repo.config())
    code = (
        "import sys, time; from repomem import config; from repomem.index import indexer\n"
        "store = indexer.open_store(config.load(sys.argv[1]))\n"
        "with store.writing():\n print('locked', flush=True); time.sleep(600)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
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


def kill_mid_batch(proc: subprocess.Popen[bytes], journal: Path, what: str) -> None:
    """kill -9 `proc` while a batch is being written (its journal exists), after a few landed."""
    deadline = time.monotonic() + 120
    seen = 0
    while time.monotonic() < deadline and proc.poll() is None:
        if journal.exists():
            seen += 1
            if seen >= 3:
                break
            while journal.exists() and time.monotonic() < deadline:
                time.sleep(0.001)
        time.sleep(0.001)
    if proc.poll() is not None:
        pytest.fail(f"{what} finished before it could be killed")
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()


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
