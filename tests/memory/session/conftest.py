"""A repository with some code committed, for the session tests; and their helpers."""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from repomem.errors import InputError
from tests.conftest import Repo

BASE = """\
def keep():
    return 1


def change():
    return 2


def drop():
    return 3
"""


@pytest.fixture
def code(repo: Repo) -> Repo:
    repo.write("app.py", BASE)
    repo.write("old_name.py", "def moved():\n    return 4\n")
    repo.write("gone.py", "x = 1\n")
    repo.write("wip.py", "def wip():\n    return 0\n")
    repo.commit("init")
    return repo


def at_once(n: int, fn: Callable[[], object]) -> list[object]:
    """`fn()` in `n` threads released together: what each returned or raised."""
    gate = threading.Barrier(n)
    out: list[object] = []

    def run() -> None:
        gate.wait()
        try:
            out.append(fn())
        except InputError as exc:
            out.append(exc)

    threads = [threading.Thread(target=run) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return out
