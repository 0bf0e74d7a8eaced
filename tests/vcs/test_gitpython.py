"""The GitPython boundary: opening a repository, and git's failures as one-line errors."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from repomem import vcs
from tests.conftest import Repo


def test_a_git_repository_without_git_on_path_is_refused_not_indexed_as_a_folder(
    repo: Repo,
) -> None:
    import os
    import sys

    repo.write("a.py", "x = 1\n")
    repo.commit()
    env = {**os.environ, "PATH": "/nonexistent", "PYTHONPATH": str(Path(__file__).parents[2])}
    env.pop("GIT_PYTHON_GIT_EXECUTABLE", None)
    out = subprocess.run(
        [sys.executable, "-m", "repomem", "-C", str(repo.root), "index"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert "`git` command is not on PATH" in out.stderr
    # no second index was built anywhere (a plain folder's store goes under REPOMEM_HOME)
    assert not (repo.root / ".git" / "repomem").exists()
    assert not (Path(os.environ["REPOMEM_HOME"]) / "stores").exists()


def test_a_git_command_git_refuses_is_a_repomem_error_naming_gits_words(repo: Repo) -> None:
    import pytest

    from repomem.errors import GitError

    repo.write("a.py", "x = 1\n")
    repo.commit()
    with open(repo.root / ".git" / "config", "a", encoding="utf-8") as fh:
        fh.write("garbage [[[\n")
    with pytest.raises(GitError) as err:
        vcs.list_files(repo.root)  # every public function, whoever calls it
    assert str(err.value).startswith("git failed (fatal: bad config line")
    assert "\n" not in str(err.value)


def test_a_repository_whose_path_holds_a_dollar_is_opened_at_that_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """GitPython expands `$NAME` in a path (and warns on every call) unless told not to."""
    monkeypatch.setenv("HUNT_DIR", "elsewhere")
    root = tmp_path / "a$HUNT_DIR b"
    (tmp_path / "aelsewhere b").mkdir()  # where an expanded path would lead
    root.mkdir()
    repo = Repo(root)
    repo.write("a.py", "a = 1\n")
    head = repo.commit()
    info = vcs.open_repo(root)  # filterwarnings = error: a warning fails here
    assert info is not None and info.head == head
    assert vcs.list_files(root) == ["a.py"]
