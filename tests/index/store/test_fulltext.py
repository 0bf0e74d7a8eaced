"""Tests for repomem.index.store.fulltext: full-text search over code-aware tokens."""

from __future__ import annotations

from repomem.index import indexer
from tests.conftest import Repo


def test_search_finds_split_identifiers_and_whole_ones(repo: Repo) -> None:
    repo.write("a.py", "def parseConfigFile(path):\n    pass\n")
    repo.write("b.py", "def load_user_settings():\n    pass\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    assert s.search("config file", kind="function")[0].name == "parseConfigFile"
    assert s.search("parseConfigFile", kind="function")[0].name == "parseConfigFile"
    assert s.search("user settings", kind="function")[0].name == "load_user_settings"
    assert s.search("load_user_settings", kind="function")[0].name == "load_user_settings"
    assert s.search("settings loading", kind="function")[0].name == "load_user_settings"  # stem


SHORT_NAMES = """def f(x):
    return x


class T:
    pass


def render_shape(a):
    return f(a)
"""


def test_a_one_letter_name_finds_its_definitions_by_exact_name(repo: Repo) -> None:
    """The index holds no token for `f`, `x` or `T` (they would match everything); a query of
    such names alone lists the definitions so named, the typed case first."""
    repo.write("shapes.py", SHORT_NAMES)
    repo.write("other.py", "def t():\n    return 1\n\n\ndef fetch_all():\n    return []\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    assert [(h.path, h.name) for h in s.search("f")] == [("shapes.py", "f")]
    assert [(h.path, h.name) for h in s.search("f()")] == [("shapes.py", "f")]
    assert [(h.path, h.name) for h in s.search("T")] == [("shapes.py", "T"), ("other.py", "t")]
    assert [h.name for h in s.search("T", kind="class")] == ["T"]
    assert s.search("T", kind="file") == []
    assert s.search("x") == []  # a parameter is not a definition


def test_a_one_letter_name_in_a_longer_query_lifts_its_definitions_and_adds_no_others(
    repo: Repo,
) -> None:
    repo.write("shapes.py", SHORT_NAMES)
    repo.write("other.py", "def f():\n    return 1\n\n\ndef fetch_all():\n    return []\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    plain = s.search("shapes")
    lifted = s.search("shapes f")
    assert (lifted[0].path, lifted[0].name) == ("shapes.py", "f")
    assert lifted[0].score > lifted[1].score
    # the `f` of other.py matches no other word of the query: it is not added
    assert {(h.path, h.name) for h in lifted} == {(h.path, h.name) for h in plain}
