"""Shared fixtures: real git repositories in tmp_path, hermetic per-user state."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from repomem import config
from repomem.config import Config


def wait_until(check: Callable[[], object], what: str, timeout: float = 120.0) -> None:
    """Poll `check` until it holds (what a background process does has no event to wait on);
    fail, naming `what`, after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not check():
        if time.monotonic() > deadline:
            pytest.fail(f"timed out waiting for {what}")
        time.sleep(0.05)


@pytest.fixture(autouse=True)
def _hermetic(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("REPOMEM_HOME", str(home / "repomem"))
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_CONFIG_NOSYSTEM", "1")
    monkeypatch.setenv("GIT_AUTHOR_NAME", "Test")
    monkeypatch.setenv("GIT_AUTHOR_EMAIL", "test@example.com")
    monkeypatch.setenv("GIT_COMMITTER_NAME", "Test")
    monkeypatch.setenv("GIT_COMMITTER_EMAIL", "test@example.com")
    for var in list(os.environ):
        if var.startswith("REPOMEM_") and var != "REPOMEM_HOME":
            monkeypatch.delenv(var)


# run in a child process: the memory file written, the process killed before anything else
_DIE_AFTER_MEMORY_WRITE = """\
import os, signal, sys
from repomem import config
from repomem.memory import access

written = access.atomic_write


def write_then_die(path, text):
    written(path, text)
    os.kill(os.getpid(), signal.SIGKILL)


access.atomic_write = write_then_die
cfg = config.load(sys.argv[1])
"""


def killed_after_memory_write(root: Path, call: str) -> None:
    """Run `call` (Python code; `cfg` is the config of `root`) in a child process that is
    killed with SIGKILL the moment it has written the memory file: the state a crash right
    after that write leaves on disk (what follows the write, such as removing a session's
    record, never happens)."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[1])}
    done = subprocess.run(
        [sys.executable, "-c", _DIE_AFTER_MEMORY_WRITE + call, str(root)],
        env=env, capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == -signal.SIGKILL, done.stderr


class Repo:
    """A real git repository in a temporary directory."""

    def __init__(self, root: Path, git: bool = True) -> None:
        self.root = root
        if git:
            self.git("init", "-q", "-b", "main")

    def git(self, *args: str) -> str:
        return subprocess.run(
            ["git", *args], cwd=self.root, check=True, capture_output=True, text=True
        ).stdout

    def write(self, rel: str, text: str | bytes) -> Path:
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            path.write_bytes(text)
        else:
            path.write_text(text, encoding="utf-8")
        return path

    def commit(self, message: str = "commit") -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD").strip()

    def config(self, **overrides: object) -> Config:
        return config.load(self.root, overrides=overrides)


@pytest.fixture
def repo(tmp_path: Path) -> Iterator[Repo]:
    root = tmp_path / "repo"
    root.mkdir()
    yield Repo(root)


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[Repo]:
    root = tmp_path / "folder"
    root.mkdir()
    yield Repo(root, git=False)


LOCAL_CLONES = ("-c", "protocol.file.allow=always")  # git refuses file:// submodules otherwise


@pytest.fixture
def superproject(tmp_path: Path) -> Repo:
    """A repository whose library is a checked-out submodule at `libs/core` (with a nested
    submodule at `libs/core/deep`), as `git submodule update --init --recursive` leaves it."""
    deep = Repo(_made(tmp_path / "deep"))
    deep.write("deep.py", "def deep_helper():\n    return 2\n")
    deep.commit("deep")
    lib = Repo(_made(tmp_path / "lib"))
    lib.write("pkg/core.py", "def core_helper():\n    return 1\n")
    lib.write("pkg/old.py", "def old_helper():\n    return 0\n")
    lib.write(".gitignore", "*.log\n")
    lib.git(*LOCAL_CLONES, "submodule", "add", "-q", str(deep.root), "deep")
    lib.commit("lib")
    sup = Repo(_made(tmp_path / "super"))
    sup.write("main.py", "from core import core_helper\n")
    sup.git(*LOCAL_CLONES, "submodule", "add", "-q", str(lib.root), "libs/core")
    sup.git(*LOCAL_CLONES, "submodule", "update", "-q", "--init", "--recursive")
    sup.commit("init")
    return sup


def _made(path: Path) -> Path:
    path.mkdir()
    return path
