"""The memory's values (repomem/memory/model.py): citations as text."""

from __future__ import annotations

from repomem.memory import model
from repomem.memory.model import Citation


def test_citation_text_round_trips() -> None:
    for c in (
        Citation("a/b.py"),
        Citation("a/b.py", "C.m", 3, 9, "0123456789ab"),
        Citation("x.go", "", 4, 4, "ffffffffffff"),
    ):
        assert model.parse_citation(c.render()) == c
    assert model.parse_citation("`a.py` L9-3") is None
