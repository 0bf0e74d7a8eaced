"""Fixtures for the MCP server tests: an indexed repository and a way to talk to its server."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
import pytest
from mcp import Client

from repomem.index import indexer
from repomem.server.mcp import build_server
from tests.conftest import Repo

CALC = '''"""Arithmetic helpers."""


def add(a, b):
    """Add two numbers."""
    return a + b


class Calculator:
    def total(self, items):
        return sum(add(0, i) for i in items)
'''
MAIN = "from calc import add\n\n\ndef main():\n    print(add(1, 2))\n"


@pytest.fixture
def code(repo: Repo) -> Repo:
    """A small committed, indexed repository."""
    repo.write("calc.py", CALC)
    repo.write("app/main.py", MAIN)
    repo.commit("init")
    indexer.run(repo.config())
    return repo


def talk(repo: Repo, body: Callable[[Client], Awaitable[Any]], **kwargs: Any) -> Any:
    """Run `body(client)` against the repository's server, in memory."""

    async def main() -> Any:
        async with Client(build_server(repo.config(), **kwargs)) as client:
            return await body(client)

    return anyio.run(main)


def text(result: Any) -> str:
    return "\n".join(c.text for c in result.content)
