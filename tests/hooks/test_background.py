"""What a hook starts: the refresh, queued once, started in the background."""

from __future__ import annotations

import os
from pathlib import Path

from repomem import hooks
from repomem.hooks import background
from repomem.index import indexer, query
from tests.conftest import Repo, wait_until


def test_a_queued_refresh_absorbs_later_hooks(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.commit()
    hooks.install(repo.config())
    log = hooks.log_path(repo.config())
    marker = log.parent / "hooks.pending"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(f"{os.getpid()}\n")  # a live process is "waiting for the lock"
    repo.commit("absorbed")
    assert "post-commit: a refresh is already queued" in log.read_text()
    assert "repomem index" not in log.read_text()
    marker.write_text("999999999\n")  # that process died: the next hook starts a refresh
    head = repo.commit("started")
    wait_until(lambda: "Indexed" in log.read_text(), "the background index")
    assert query.status(repo.config())["indexed_commit"] == head
    assert not marker.exists()  # the refresh cleared it once it held the lock


def test_refresh_clears_only_its_own_marker(repo: Repo, tmp_path: Path) -> None:
    repo.write("a.py", "x = 1\n")
    marker = tmp_path / "pending"
    marker.write_text("12345\n")
    report = hooks.refresh(repo.config(), marker)
    assert report.added == ["a.py"]
    assert marker.exists()
    marker.write_text(f"{os.getpid()}\n")
    hooks.refresh(repo.config(), marker)
    assert not marker.exists()


def cache_files(repo: Repo) -> dict[str, tuple[int, int]]:
    """The pack caches in the state folder: name -> (inode, mtime)."""
    from repomem.index import indexer

    state = indexer.state_dir(repo.config())
    return {
        p.name: (p.stat().st_ino, p.stat().st_mtime_ns)
        for p in (state / "graph.pickle", state / "history.json")
        if p.exists()
    }


def test_a_refresh_folds_rows_the_fulltext_index_lacks_into_it(repo: Repo) -> None:
    repo.write("a.py", "def first():\n    pass\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    repo.write("a.py", "def second():\n    pass\n")
    indexer.update(cfg, ["a.py"], optimize=False)  # a watcher's save, say
    assert indexer.open_store(cfg).indexes_lagging(share=0.0, floor=0)
    hooks.refresh(cfg)
    assert not indexer.open_store(cfg).indexes_lagging(share=0.0, floor=0)


def test_a_refresh_prepares_what_the_next_pack_reads(repo: Repo) -> None:
    from repomem.index.graph import cache as graph_cache
    from repomem.pack import builder

    repo.write("a.py", "from b import helper\n\ndef main():\n    return helper()\n")
    repo.write("b.py", "def helper():\n    return 1\n")
    repo.commit("first")
    for change in ("second", "third"):
        hooks.refresh(repo.config())
        ready = cache_files(repo)
        assert set(ready) == {"graph.pickle", "history.json"}
        graph_cache._MEMO.clear()  # a new process: only the files on disk
        builder.build(repo.config(), "why does main call helper", refresh=False)
        assert cache_files(repo) == ready  # taken as they were, not built again
        repo.write("b.py", f"def helper():\n    return 2\n\ndef {change}():\n    pass\n")
        repo.commit(change)  # the index and HEAD move: the next refresh renews both


def test_start_refresh_runs_the_hooks_refresh_in_the_background_unless_one_is_queued(
    repo: Repo,
) -> None:
    repo.write("a.py", "x = 1\n")
    head = repo.commit()
    cfg = repo.config()
    log = hooks.log_path(cfg)
    marker = log.parent / "hooks.pending"
    marker.parent.mkdir(parents=True, exist_ok=True)
    marker.write_text(f"{os.getpid()}\n")  # a live process is "waiting for the lock"
    hooks.start_refresh(cfg, name="test")
    wait_until(lambda: log.exists() and "test: a refresh is already queued" in log.read_text(),
               "the queued line")  # fmt: skip
    assert "test: repomem index" not in log.read_text()
    marker.write_text("999999999\n")  # that process died
    hooks.start_refresh(cfg, name="test")
    wait_until(lambda: "test: repomem index" in log.read_text(), "the started line")
    wait_until(lambda: "Indexed" in log.read_text(), "the background index")
    assert query.status(cfg)["indexed_commit"] == head
    wait_until(lambda: not marker.exists(), "the marker cleared")  # the refresh wrote its pid


def test_start_refresh_in_a_folder_without_git_runs_the_refresh_too(folder: Repo) -> None:
    folder.write("a.py", "x = 1\n")
    cfg = folder.config()
    hooks.start_refresh(cfg, name="test")
    log = hooks.log_path(cfg)
    assert "test: repomem index" in log.read_text()
    wait_until(lambda: "Indexed" in log.read_text(), "the background index")
    for proc in background._STARTED:  # a child of this process: reaped here, not at exit
        proc.wait(timeout=60)
    assert query.status(cfg)["files"] == 1


def test_a_worktree_added_gets_its_index_from_the_main_one_in_the_background(
    repo: Repo,
) -> None:
    from repomem.index import indexer

    repo.write("a.py", "def first():\n    pass\n")
    repo.commit()
    indexer.run(repo.config())
    hooks.install(repo.config())
    path = repo.root.parent / "wt"
    repo.git("worktree", "add", "-q", "-b", "wt", str(path))
    wt = Repo(path, git=False)
    log = hooks.log_path(wt.config())
    wait_until(lambda: log.exists() and "Indexed" in log.read_text(), "the worktree's index")
    assert "post-checkout: repomem index" in log.read_text()
    assert f"Started from the index of the worktree at {repo.root.resolve()}" in log.read_text()
    assert query.status(wt.config())["fresh"]
