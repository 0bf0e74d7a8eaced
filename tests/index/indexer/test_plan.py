"""What a run has to do: unchanged, touched and unreadable files, pending changes
(repomem/index/indexer/plan.py)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from repomem.index import indexer, query
from tests.conftest import Repo
from tests.index.indexer.cases import (
    populate,
)


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


def test_a_plain_folder_is_indexed_with_git_features_off(folder: Repo) -> None:
    folder.write("a.py", "def in_folder():\n    pass\n")
    folder.write(".gitignore", "ignored/\n*.log\n")
    folder.write("ignored/b.py", "def hidden():\n    pass\n")
    folder.write("run.log", "log line\n")
    report = indexer.run(folder.config())
    assert report.git is False
    assert sorted(report.added) == [".gitignore", "a.py"]
    assert query.symbol(folder.config(), "in_folder")


def _unprivileged_cli(repo: Repo) -> Callable[..., str]:
    """`repomem -C repo ...` in a child process for which file permissions bite (as root,
    with the capabilities that override them dropped); skips the test where that cannot be."""
    import shutil

    drop: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("setpriv") is None:
            pytest.skip("root reads unreadable files and setpriv is missing")
        caps = "-dac_override,-dac_read_search,-fowner"
        drop = ["setpriv", f"--bounding-set={caps}", f"--inh-caps={caps}"]
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[3])}

    def cli(*args: str) -> str:
        cmd = [*drop, sys.executable, "-m", "repomem", "-C", str(repo.root), *args]
        done = subprocess.run(cmd, capture_output=True, text=True, env=env, check=True)
        return done.stdout

    return cli


def test_a_file_skipped_as_unreadable_is_indexed_once_it_can_be_read(repo: Repo) -> None:
    cli = _unprivileged_cli(repo)
    repo.write("ok.py", "def ok():\n    return 1\n")
    repo.commit()
    late = repo.write("late.py", "def late_fn():\n    return 2\n")
    late.chmod(0)
    try:
        assert "1 unreadable" in cli("index")
    finally:
        late.chmod(0o644)  # size and mtime unchanged
    assert '"fresh": false' in cli("status", "--json")
    cli("index")
    assert "late.py" in cli("search", "late_fn")


def test_an_unreadable_file_only_touched_keeps_its_row(repo: Repo) -> None:
    cli = _unprivileged_cli(repo)
    repo.write("ok.py", "def ok():\n    return 1\n")
    locked = repo.write("locked.py", "def secret_fn():\n    return 2\n")
    repo.commit()
    locked.chmod(0)
    try:
        assert "1 unreadable" in cli("index")
        versions = indexer.open_store(repo.config()).current_versions()
        st = locked.stat()
        os.utime(locked, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
        assert '"fresh": true' in cli("status", "--json")
        assert "1 unreadable" in cli("index")
        assert indexer.open_store(repo.config()).current_versions() == versions
    finally:
        locked.chmod(0o644)
    cli("index")  # readable again: indexed, though its size and recorded mtime are as they were
    assert "locked.py" in cli("search", "secret_fn")


def test_status_is_fresh_after_a_file_is_only_touched(repo: Repo) -> None:
    path = repo.write("a.py", "def a():\n    return 1\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    st = path.stat()
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))  # `touch`
    assert query.status(cfg)["fresh"]
    path.write_text("def a():\n    return 2\n", encoding="utf-8")  # same size, new content
    status = query.status(cfg)
    assert not status["fresh"] and status["pending"]["changed"] == 1
