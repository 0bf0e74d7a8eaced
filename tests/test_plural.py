"""Counts said in words: one thing, several things."""

from __future__ import annotations

from repomem.plural import counted, plural


def test_one_thing_is_said_in_the_singular() -> None:
    assert counted(1, "session") == "1 session"
    assert counted(1, "fact") == "1 fact"


def test_none_or_several_things_are_said_in_the_plural() -> None:
    assert counted(0, "file") == "0 files"
    assert counted(2, "commit") == "2 commits"


def test_nouns_ending_in_s_or_a_consonant_and_y_take_their_english_plural() -> None:
    assert plural("class") == "classes"
    assert plural("property") == "properties"
    assert plural("key") == "keys"
    assert counted(3, "symbol change") == "3 symbol changes"
