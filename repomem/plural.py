"""Counts said in words ("1 session", "2 sessions"): what the memory file, the CLI and a pack
say of how many things there are, said one way everywhere."""

from __future__ import annotations


def plural(noun: str) -> str:
    """The English plural of a (last) word: class -> classes, property -> properties."""
    if noun.endswith(("s", "x", "ch", "sh")):
        return noun + "es"
    if noun.endswith("y") and noun[-2:-1] not in ("a", "e", "i", "o", "u", ""):
        return noun[:-1] + "ies"
    return noun + "s"


def counted(n: int, noun: str) -> str:
    """`n` and the noun, singular for one: counted(1, "fact") == "1 fact"."""
    return f"{n} {noun if n == 1 else plural(noun)}"
