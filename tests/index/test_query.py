"""Read-side queries over the index (the CLI's `search` and `symbol`)."""

from __future__ import annotations

import pytest

from repomem.errors import InputError, NotFoundError
from repomem.index import indexer, query
from tests.conftest import Repo


def test_a_symbol_is_found_and_an_empty_name_is_an_input_error(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    indexer.run(repo.config())
    (found,) = query.symbol(repo.config(), "alpha")
    assert found["path"] == "a.py"
    with pytest.raises(InputError, match="symbol name is empty"):
        query.symbol(repo.config(), " ")  # it said "try `repomem search `"
    with pytest.raises(NotFoundError, match="repomem search beta"):
        query.symbol(repo.config(), "beta")
