"""The candidate files: git's listing (untracked too, or not) and the walk of a plain folder."""

from __future__ import annotations

import os

from repomem.index import discovery, indexer
from tests.conftest import Repo


def test_symlink_loops_in_a_plain_folder_do_not_hang_the_walk(folder: Repo) -> None:
    folder.write("a/x.py", "def x():\n    pass\n")
    os.symlink("..", folder.root / "a" / "up")
    report = indexer.run(folder.config())
    assert report.added == ["a/x.py"]


def test_untracked_files_can_be_left_out(repo: Repo) -> None:
    repo.write("tracked.py", "def tracked():\n    pass\n")
    repo.commit()
    repo.write("scratch.py", "def scratch():\n    pass\n")
    report = indexer.run(repo.config(**{"index.include_untracked": False}))
    assert report.added == ["tracked.py"]
    report = indexer.run(repo.config())
    assert report.added == ["scratch.py"]


def test_the_files_git_lists_for_a_config_follow_its_untracked_setting(repo: Repo) -> None:
    repo.write("tracked.py", "def tracked():\n    pass\n")
    repo.write(".gitignore", "*.log\n")
    repo.commit()
    repo.write("scratch.py", "def scratch():\n    pass\n")
    repo.write("run.log", "ignored\n")
    cfg = repo.config()
    assert sorted(discovery.git_files(cfg)) == [".gitignore", "scratch.py", "tracked.py"]
    assert discovery.git_files(cfg, ["scratch.py", "run.log"]) == ["scratch.py"]
    tracked_only = repo.config(**{"index.include_untracked": False})
    assert sorted(discovery.git_files(tracked_only)) == [".gitignore", "tracked.py"]
    assert discovery.git_files(tracked_only, ["scratch.py"]) == []
