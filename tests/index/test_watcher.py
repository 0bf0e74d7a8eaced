from __future__ import annotations

import os
import shutil
import subprocess
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from repomem.errors import LockTimeoutError
from repomem.index import indexer, query
from repomem.index.watcher import Batch, Watcher
from tests.conftest import Repo
from tests.index.indexer.cases import fresh_snapshot, populate, snapshot

TIMEOUT = 180.0  # a deadline for slow, shared machines, not a timing claim


class Recorder:
    """Collects the watcher's callbacks; tests wait on conditions, never on time."""

    def __init__(self) -> None:
        self.batches: list[Batch] = []
        self.errors: list[Exception] = []
        self.memory: list[Path] = []
        self.cond = threading.Condition()

    def on_batch(self, batch: Batch) -> None:
        with self.cond:
            self.batches.append(batch)
            self.cond.notify_all()

    def on_error(self, exc: Exception) -> None:
        with self.cond:
            self.errors.append(exc)
            self.cond.notify_all()

    def on_memory(self, path: Path) -> None:
        with self.cond:
            self.memory.append(path)
            self.cond.notify_all()

    def wait_for(self, check: Callable[[], bool], what: str) -> None:
        """Wait until `check()` holds; it is evaluated after every batch or error."""
        deadline = time.monotonic() + TIMEOUT
        with self.cond:
            while not check():
                left = deadline - time.monotonic()
                if left <= 0:
                    pytest.fail(f"timed out waiting for {what}; batches: {self.batches}")
                self.cond.wait(min(left, 0.5))

    def mark(self) -> int:
        with self.cond:
            return len(self.batches)

    def since(self, mark: int) -> list[Batch]:
        with self.cond:
            return list(self.batches[mark:])


@pytest.fixture
def watched(repo: Repo) -> Iterator[tuple[Repo, Recorder, Watcher]]:
    populate(repo, 5)
    repo.write("README.md", "# Demo\n")
    repo.commit("base")
    rec = Recorder()
    w = Watcher(
        repo.config(**{"index.workers": 1}),
        on_batch=rec.on_batch,
        on_error=rec.on_error,
        on_memory_change=rec.on_memory,
        debounce_ms=100,
    )
    w.start()
    rec.wait_for(lambda: len(rec.batches) >= 1, "the catch-up batch")
    assert rec.batches[0].reconciled and rec.batches[0].reason == "start"
    yield repo, rec, w
    w.stop(timeout=60)
    assert not w.alive


def names(repo: Repo) -> set[str]:
    store = indexer.open_store(repo.config())
    return set(store.column("symbols", ["name"])["name"])


def test_an_edit_is_picked_up_as_a_path_update(watched: tuple[Repo, Recorder, Watcher]) -> None:
    repo, rec, _ = watched
    mark = rec.mark()
    repo.write("pkg/mod_1.py", "def edited_here():\n    return 1\n")
    rec.wait_for(lambda: "edited_here" in names(repo), "the edit")
    batch = rec.since(mark)[-1]
    assert not batch.reconciled
    assert "pkg/mod_1.py" in batch.paths
    assert batch.report.modified == ["pkg/mod_1.py"]
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def test_creates_deletes_and_renames_are_picked_up(
    watched: tuple[Repo, Recorder, Watcher],
) -> None:
    repo, rec, _ = watched
    repo.write("pkg/created.py", "def created_file():\n    pass\n")
    rec.wait_for(lambda: "created_file" in names(repo), "the create")
    (repo.root / "pkg/mod_2.py").unlink()
    rec.wait_for(lambda: "func_2" not in names(repo), "the delete")
    mark = rec.mark()
    os.rename(repo.root / "pkg/mod_3.py", repo.root / "pkg/moved.py")
    store_paths: Callable[[], set[str]] = lambda: set(  # noqa: E731
        indexer.open_store(repo.config()).column("files", ["path"])["path"]
    )
    rec.wait_for(lambda: "pkg/moved.py" in store_paths(), "the rename")
    renames = [r for b in rec.since(mark) for r in b.report.renamed]
    assert renames == [("pkg/mod_3.py", "pkg/moved.py")]
    assert "pkg/mod_3.py" not in store_paths()
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def test_an_atomic_save_counts_as_one_change_of_the_file(
    watched: tuple[Repo, Recorder, Watcher],
) -> None:
    repo, rec, _ = watched
    mark = rec.mark()
    tmp = repo.root / "pkg" / ".mod_0.py.swp~"
    tmp.write_text("def saved_atomically():\n    pass\n", encoding="utf-8")
    os.replace(tmp, repo.root / "pkg" / "mod_0.py")
    rec.wait_for(lambda: "saved_atomically" in names(repo), "the save")
    reports = [b.report for b in rec.since(mark)]
    assert [p for r in reports for p in r.modified] == ["pkg/mod_0.py"]
    assert not [p for r in reports for p in r.added]
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def test_a_deleted_folder_does_not_stop_the_watcher(
    watched: tuple[Repo, Recorder, Watcher],
) -> None:
    repo, rec, w = watched
    repo.write("extra/deep/one.py", "def in_extra():\n    pass\n")
    rec.wait_for(lambda: "in_extra" in names(repo), "the new folder")
    shutil.rmtree(repo.root / "extra")
    rec.wait_for(lambda: "in_extra" not in names(repo), "the deleted folder")
    shutil.rmtree(repo.root / "pkg")
    rec.wait_for(lambda: not any(n.startswith("func_") for n in names(repo)), "pkg deleted")
    repo.write("pkg/back.py", "def came_back():\n    pass\n")  # a re-created folder is watched
    rec.wait_for(lambda: "came_back" in names(repo), "the re-created folder")
    repo.write("pkg/again.py", "def written_later():\n    pass\n")
    rec.wait_for(lambda: "written_later" in names(repo), "a later file in it")
    assert w.alive and not rec.errors
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def test_git_internals_and_an_in_tree_store_are_ignored(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    rec = Recorder()
    cfg = repo.config(**{"store.path": ".repomem-store", "index.exclude": [".repomem-store/"]})
    with Watcher(cfg, on_batch=rec.on_batch, debounce_ms=50):
        rec.wait_for(lambda: len(rec.batches) >= 1, "the catch-up batch")
        repo.git("add", "-A")
        repo.git("gc", "-q")  # rewrites .git/objects and packs
        repo.write("pkg/mod_0.py", "def marker():\n    pass\n")
        rec.wait_for(lambda: any("pkg/mod_0.py" in b.paths for b in rec.batches), "the marker edit")
    seen = {p for b in rec.batches for p in b.paths}
    assert seen == {"pkg/mod_0.py"}


def test_a_submodules_edits_are_path_updates_and_its_commits_move_no_head(
    superproject: Repo, tmp_path: Path
) -> None:
    # a submodule added where a clone was already: its git files are in its own folder
    own = superproject.root / "libs/own"
    subprocess.run(["git", "clone", "-q", str(tmp_path / "lib"), str(own)], check=True)
    superproject.git("submodule", "add", "-q", str(tmp_path / "lib"), "libs/own")
    superproject.commit("own")
    assert (own / ".git").is_dir()
    rec = Recorder()
    cfg = superproject.config(**{"index.workers": 1})
    sub = Repo(own, git=False)
    with Watcher(cfg, on_batch=rec.on_batch, on_error=rec.on_error, debounce_ms=50):
        rec.wait_for(lambda: len(rec.batches) >= 1, "the catch-up batch")
        assert "core_helper" in names(superproject)
        sub.write("pkg/core.py", "def edited_in_the_submodule():\n    return 1\n")
        rec.wait_for(lambda: "edited_in_the_submodule" in names(superproject), "the edit")
        mark = rec.mark()
        sub.commit("in the submodule")  # its index, objects and refs: none of the superproject's
        superproject.write("main.py", "def marker():\n    pass\n")
        rec.wait_for(lambda: "marker" in names(superproject), "the marker edit")
    batches = rec.batches[1:]
    assert all(b.reason == "paths" for b in batches), batches
    assert {p for b in rec.since(mark) for p in b.paths} == {"main.py"}
    assert not rec.errors
    assert snapshot(indexer.open_store(cfg)) == fresh_snapshot(superproject)


def test_a_commit_moves_head_and_the_index_follows(
    watched: tuple[Repo, Recorder, Watcher],
) -> None:
    repo, rec, _ = watched
    repo.write("pkg/mod_1.py", "def committed():\n    pass\n")
    rec.wait_for(lambda: "committed" in names(repo), "the edit")
    mark = rec.mark()
    head = repo.commit("second")
    rec.wait_for(lambda: any(b.head == head for b in rec.since(mark)), "the new HEAD")
    assert any(b.reconciled and b.reason == "head" for b in rec.since(mark))
    status = query.status(repo.config())
    assert status["indexed_commit"] == head and status["fresh"]


def test_a_branch_switch_of_hundreds_of_files_ends_in_one_consistent_store(repo: Repo) -> None:
    populate(repo, 300)
    repo.commit("base")
    repo.git("checkout", "-q", "-b", "feature")
    for i in range(0, 300, 1):
        repo.write(f"pkg/mod_{i}.py", f"def feature_{i}():\n    return {i}\n")
    for i in range(20):
        repo.write(f"feat/new_{i}.py", f"class New{i}:\n    pass\n")
    feature = repo.commit("feature")
    repo.git("checkout", "-q", "main")
    rec = Recorder()
    with Watcher(repo.config(**{"index.workers": 1}), on_batch=rec.on_batch, debounce_ms=200) as w:
        rec.wait_for(lambda: len(rec.batches) >= 1, "the catch-up batch")
        mark = rec.mark()
        repo.git("checkout", "-q", "feature")

        def switched() -> bool:
            if not any(b.head == feature for b in rec.since(mark)):
                return False  # checked first: a status is not free while the watcher works
            status = query.status(repo.config())
            return bool(status["indexed_commit"] == feature and status["fresh"])

        rec.wait_for(switched, "the switched branch")
        after = rec.since(mark)
        # Hundreds of changed files are whole-tree runs, never hundreds of path updates.
        assert after[0].reconciled
        assert len(after) < 10
        assert sum(len(b.report.modified) for b in after) == 300
        assert w.errors == 0
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def test_the_memory_file_change_calls_the_hook(watched: tuple[Repo, Recorder, Watcher]) -> None:
    repo, rec, _ = watched
    # the start syncs the memory's rows in case it changed unwatched, but does not claim it did
    rec.wait_for(lambda: bool(rec.memory), "the start's memory sync")
    assert not rec.batches[0].memory_changed and not (repo.root / "REPOMEM.md").exists()
    repo.write("REPOMEM.md", "# Project memory\n\n- a fact\n")
    rec.wait_for(lambda: len(rec.memory) == 2, "the memory hook")
    assert rec.memory == [repo.root.resolve() / "REPOMEM.md"] * 2
    assert any(b.memory_changed for b in rec.batches)


def test_a_locked_store_is_reported_and_the_batch_retried(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    indexer.run(repo.config())
    rec = Recorder()
    cfg = repo.config(**{"index.lock_timeout": 0.2})
    store = indexer.open_store(cfg)
    with Watcher(cfg, on_batch=rec.on_batch, on_error=rec.on_error, debounce_ms=50) as w:
        rec.wait_for(lambda: len(rec.batches) >= 1, "the catch-up batch")
        with store.writing():
            repo.write("pkg/mod_0.py", "def after_the_lock():\n    pass\n")
            rec.wait_for(lambda: bool(rec.errors), "the lock error")
        assert isinstance(rec.errors[0], LockTimeoutError)
        rec.wait_for(lambda: "after_the_lock" in names(repo), "the retried batch")
        assert w.alive


def test_stop_finishes_cleanly_and_leaves_a_consistent_store(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    rec = Recorder()
    w = Watcher(repo.config(), on_batch=rec.on_batch, debounce_ms=0)
    w.start()
    rec.wait_for(lambda: len(rec.batches) >= 1, "the catch-up batch")
    for i in range(20):
        repo.write(f"pkg/mod_{i % 3}.py", f"def v{i}():\n    pass\n")
    w.stop(timeout=60)
    assert not w.alive
    # Whatever was pending is left for the next run; nothing is half-written.
    indexer.run(repo.config())
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def test_a_stop_during_a_full_build_cuts_it_short_and_says_so_once(repo: Repo) -> None:
    """A full build is not resumed: a stop does not wait minutes for one (it waited for the
    whole first build, or the parse workers' death decided, depending on the signal)."""
    from tests.conftest import wait_until
    from tests.index.indexer.cases import rebuilding

    populate(repo, 600)
    repo.commit()
    cfg = repo.config(**{"index.workers": 1})
    rec = Recorder()
    w = Watcher(cfg, on_batch=rec.on_batch, on_error=rec.on_error, debounce_ms=0)
    w.start()
    try:
        wait_until(lambda: rebuilding(repo.root / ".git" / "repomem" / "journal.json"), "build")
        assert w.begin_stop() == "cut"
    finally:
        w.stop(timeout=120)
    assert not w.alive
    assert w.begin_stop() == "cut"  # decided once
    assert rec.batches == [] and rec.errors == []
    assert indexer.lost_build(cfg, "the next run") is not None


def test_a_stop_during_an_update_lets_it_finish_and_a_stop_when_idle_says_so(
    repo: Repo,
) -> None:
    populate(repo, 3)
    repo.commit()
    indexer.run(repo.config())
    in_batch, go_on = threading.Event(), threading.Event()

    def on_batch(batch: Batch) -> None:
        in_batch.set()
        assert go_on.wait(TIMEOUT)

    w = Watcher(repo.config(), on_batch=on_batch, debounce_ms=0)
    w.start()  # its catch-up is an incremental run of the whole tree: the index exists
    try:
        assert in_batch.wait(TIMEOUT)
        assert w.begin_stop() == "finish"
    finally:
        go_on.set()
        w.stop(timeout=60)
    assert not w.alive and w.batches == 1
    idle = Watcher(repo.config(), debounce_ms=0)
    idle.start(catch_up=False)
    idle.stop(timeout=60)
    assert idle.begin_stop() == "idle"


# With optimize_every far off (the default), the rows the full-text index lacks make it due.
@pytest.mark.parametrize("every", [1, 20])
def test_compaction_waits_for_an_idle_moment(repo: Repo, every: int) -> None:
    populate(repo, 2)
    repo.commit()
    cfg = repo.config(**{"store.optimize_every": every})
    rec = Recorder()
    with Watcher(cfg, on_batch=rec.on_batch, debounce_ms=20, idle_seconds=0.2):
        rec.wait_for(lambda: len(rec.batches) >= 1, "the catch-up batch")
        repo.write("pkg/mod_0.py", "def edited():\n    pass\n")
        rec.wait_for(lambda: "edited" in names(repo), "the edit")
        # The save itself did not compact (runs pile up); the idle moment after it does.
        rec.wait_for(
            lambda: indexer.open_store(cfg).get_meta("optimized_at") is not None, "compaction"
        )
    store = indexer.open_store(cfg)
    assert store.get_meta("runs_since_optimize") == "0"
    assert not store.indexes_lagging(share=0.0, floor=0)
    assert snapshot(store) == fresh_snapshot(repo)


def test_a_quiet_moment_after_changes_calls_on_idle_once(repo: Repo) -> None:
    populate(repo, 2)
    repo.commit()
    rec = Recorder()
    idle: list[int] = []

    def on_idle() -> None:
        with rec.cond:
            idle.append(len(rec.batches))  # the batches the index had taken in by then
            rec.cond.notify_all()

    with Watcher(
        repo.config(), on_batch=rec.on_batch, on_idle=on_idle, debounce_ms=20, idle_seconds=0.2
    ):
        rec.wait_for(lambda: len(idle) >= 1, "the idle call after the catch-up")
        repo.write("pkg/mod_0.py", "def edited():\n    pass\n")
        rec.wait_for(lambda: len(idle) >= 2, "the idle call after the edit")
        assert "edited" in names(repo)  # called after the index took the edit in
        time.sleep(0.6)  # three idle periods without changes
    assert len(idle) == 2
    assert idle[1] == len(rec.batches)


def test_changed_ignore_rules_and_settings_are_taken_up_by_the_running_watcher(
    watched: tuple[Repo, Recorder, Watcher],
) -> None:
    repo, rec, _ = watched
    repo.write(".repomemignore", "gen/\n")
    rec.wait_for(lambda: any(b.reason == "ignore-rules" for b in rec.batches), "the new rules")
    repo.write("gen/x.py", "def gen_alpha_fn():\n    return 1\n")
    repo.write("pkg/mod_1.py", "def marker_one():\n    return 1\n")
    rec.wait_for(lambda: "marker_one" in names(repo), "an edit after the rules")
    assert "gen_alpha_fn" not in names(repo)
    repo.write(".repomemignore", "")  # gen/ is code again, and its edits count
    rec.wait_for(lambda: "gen_alpha_fn" in names(repo), "the emptied rules")
    repo.write("gen/x.py", "def gen_beta_fn():\n    return 2\n")
    rec.wait_for(lambda: "gen_beta_fn" in names(repo), "an edit under gen/")
    repo.write(".repomem", '[index]\nexclude = ["pkg/**"]\n')
    rec.wait_for(lambda: "marker_one" not in names(repo), "the new exclude setting")
    assert not rec.errors
