from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from repomem.index import indexer
from repomem.pack import tokens

TEXT = "def total(items):\n    return sum(i.price for i in items)  # cl100k counts this\n"


def _fresh() -> int:
    tokens._encoder.cache_clear()
    return tokens.count(TEXT)


def test_the_tokenizer_is_cached_after_its_first_load_and_counts_the_same() -> None:
    first = _fresh()
    copies = list((indexer.home_dir() / "cache").glob("cl100k-*.marshal"))
    assert len(copies) == 1
    assert _fresh() == first == 22


def test_a_damaged_tokenizer_copy_is_rebuilt(tmp_path: Path) -> None:
    expected = _fresh()
    (copy,) = (indexer.home_dir() / "cache").glob("cl100k-*.marshal")
    copy.write_bytes(b"\x00not marshal")
    assert _fresh() == expected
    assert copy.stat().st_size > 1_000_000


def test_the_margin_rounds_up() -> None:
    assert tokens.count(TEXT, 1.1) == 25  # 22 * 1.1 = 24.2
    assert tokens.count("") == 0


@pytest.fixture(autouse=True)
def _reset_encoder() -> Iterator[None]:
    yield
    tokens._encoder.cache_clear()
