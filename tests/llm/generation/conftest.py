"""Every client a generation test makes is closed after it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.llm.generation.cases import _clients


@pytest.fixture(autouse=True)
def _close_clients() -> Iterator[None]:
    yield
    while _clients:
        _clients.pop().close()
