"""The sample memory files in tests/memory/cases (kept byte for byte: `-text` in .gitattributes)."""

from __future__ import annotations

from pathlib import Path

CASES = Path(__file__).parents[1] / "cases"


def read(name: str) -> str:
    with open(CASES / name, encoding="utf-8", newline="") as fh:
        return fh.read()
