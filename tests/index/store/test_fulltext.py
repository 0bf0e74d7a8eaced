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


def test_a_query_of_one_name_puts_the_definitions_so_named_first(repo: Repo) -> None:
    """`repomem search iter_commits` listed `iter_trees` first (its docstring says "commits"
    more often), `search mergeConfig` two other functions of `mergeConfig.js`, and `search
    Sources --kind property` missed the property `Sources` in its first 12 hits."""
    trees = '    def iter_trees(self):\n        """The trees of commits: iter commits."""\n'
    repo.write("repo.py", f"class Repo:\n{trees}\n    def iter_commits(self, rev):\n        pass\n")
    merge = "function {0}(a, b) {{\n  return mergeConfig(a, b);\n}}\n"
    repo.write("mergeConfig.js", "".join(merge.format(n) for n in ("getMerged", "mergeConfig")))
    prop = "    public string {0} {{ get; set; }}\n"
    for i in range(20):
        repo.write(f"Result{i}.cs", f"class Result{i} {{\n{prop.format('Source')}}}\n")
    doc = "    /// <summary>One or more source locations set by configuration</summary>\n"
    repo.write("Config.cs", f"class Config {{\n{doc}{prop.format('Sources')}}}\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    assert s.search("iter_commits")[0].name == "iter_commits"
    assert s.search("mergeConfig", kind="function")[0].name == "mergeConfig"
    assert s.search("mergeConfig()", kind="function")[0].name == "mergeConfig"
    assert [h.name for h in s.search("Sources", kind="property", limit=3)][:1] == ["Sources"]
    assert s.search("commits trees")[0].name == "iter_trees"  # words, not a name: as before
