from __future__ import annotations

import logging
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from repomem.index import graph, indexer
from repomem.index.graph import cache as graph_cache
from tests.conftest import Repo


def test_uses_point_at_the_files_that_define_them(repo: Repo) -> None:
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/core.py", "def compute(x):\n    return x\n\nclass Engine:\n    pass\n")
    repo.write("pkg/cli.py", "from pkg.core import compute\n\ndef main():\n    compute(1)\n")
    repo.write("pkg/web.py", "from .core import Engine\n\ndef serve():\n    Engine()\n")
    indexer.run(repo.config())
    g = graph.build(indexer.open_store(repo.config()))
    assert set(g["pkg/cli.py"]) == {"pkg/core.py"}
    assert set(g["pkg/web.py"]) == {"pkg/core.py"}
    assert "pkg/core.py" not in g  # core uses nothing defined elsewhere


def test_pagerank_ranks_the_most_used_file_first(repo: Repo) -> None:
    repo.write("core.py", "def util():\n    pass\n")
    for i in range(4):
        repo.write(f"user_{i}.py", f"from core import util\n\ndef f{i}():\n    util()\n")
    repo.write("lonely.py", "def alone():\n    pass\n")
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    ranks = graph.pagerank(graph.build(store), nodes=store.column("files", ["path"])["path"])
    assert max(ranks, key=lambda p: ranks[p]) == "core.py"
    assert ranks["core.py"] > 3 * ranks["lonely.py"]
    assert sum(ranks.values()) == pytest.approx(1.0)


def test_personalization_pulls_rank_towards_the_seed() -> None:
    g = {"a": {"hub": 1.0}, "b": {"hub": 1.0}, "seed": {"b": 1.0}}
    plain = graph.pagerank(g)
    seeded = graph.pagerank(g, personalization={"seed": 1.0})
    assert seeded["b"] > plain["b"]
    assert seeded["a"] < plain["a"]


@pytest.mark.parametrize(
    ("module", "importer", "expected"),
    [
        ("pkg.core", "x.py", ["pkg/core.py"]),
        (".core", "pkg/web.py", ["pkg/core.py"]),
        ("..core", "pkg/sub/m.py", ["pkg/core.py"]),
        ("./util", "src/app.ts", ["src/util.ts"]),
        ("../lib", "src/app.ts", ["lib/index.js"]),
        ("numpy", "x.py", []),
    ],
)
def test_imports_resolve_to_repository_files(
    module: str, importer: str, expected: list[str]
) -> None:
    paths = [
        "pkg/__init__.py",
        "pkg/core.py",
        "pkg/web.py",
        "pkg/sub/m.py",
        "src/util.ts",
        "src/app.ts",
        "lib/index.js",
        "x.py",
    ]
    index = graph.ModuleIndex(paths)
    assert graph.resolve_import(module, importer, index) == expected


def test_edge_weights_share_a_name_among_its_definers_and_add_imports(repo: Repo) -> None:
    repo.write("b.py", "def helper():\n    pass\n")
    repo.write("c.py", "def helper():\n    pass\n")
    repo.write("a.py", "import b\n\ndef f():\n" + "    helper()\n" * 4)
    repo.write("d.py", "def helper():\n    return helper()\n")  # its own name: no edge to itself
    indexer.run(repo.config())
    g = graph.build(indexer.open_store(repo.config()))
    # helper(): sqrt(4 uses) shared by its three definers; `import b` adds IMPORT_WEIGHT
    share = 2.0 / 3
    assert g["a.py"] == pytest.approx(
        {"b.py": graph.IMPORT_WEIGHT + share, "c.py": share, "d.py": share}
    )
    assert set(g["d.py"]) == {"b.py", "c.py"}


def test_a_name_defined_in_too_many_files_points_nowhere(repo: Repo) -> None:
    for i in range(graph.MAX_DEFINERS + 1):
        repo.write(f"m{i}.py", "def run():\n    pass\n")
    repo.write("main.py", "def go():\n    run()\n")
    indexer.run(repo.config())
    assert "main.py" not in graph.build(indexer.open_store(repo.config()))


def test_module_names_match_whole_parts_in_either_spelling() -> None:
    index = graph.ModuleIndex(["a/b.c/d.py", "x/d.py", "pkg/__init__.py", "README.md"])
    assert index.get("b.c.d") == ["a/b.c/d.py"]
    assert index.get("a/b.c/d") == ["a/b.c/d.py"]
    assert index.get("d") == ["a/b.c/d.py", "x/d.py"]
    assert index.get("c.d") == []  # `c` is not a part of the path: `b.c` is
    assert index.get("pkg") == ["pkg/__init__.py"]
    assert index.get("README") == []


# ----------------------------------------------------------------- the cached graph, updated


@pytest.fixture
def project(repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A small indexed repository and its graph cached in the returned folder."""
    monkeypatch.setattr(graph_cache, "_MEMO", {})
    repo.write("core.py", "def helper():\n    pass\n\nclass Engine:\n    pass\n")
    repo.write("app.py", "import core\nimport util.strings\n\ndef main():\n    helper()\n")
    repo.write("pkg/__init__.py", "")
    repo.write("pkg/web.py", "from .views import page\n\ndef serve():\n    render(Engine())\n")
    repo.write("tools.py", "def run():\n    helper()\n    helper()\n")
    indexer.run(repo.config())
    cache = tmp_path / "cache"
    graph.cached(indexer.open_store(repo.config()), cache)
    yield cache


def updated(
    repo: Repo, cache: Path, caplog: pytest.LogCaptureFixture, *, new_process: bool = True
) -> graph.Cached:
    """Index again, then the cached graph: asserted updated from the cache (not built from
    scratch) and equal to a graph built from scratch."""
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    if new_process:
        graph_cache._MEMO.clear()
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="repomem.index.graph"):
        got = graph.cached(store, cache)
    assert "graph updated" in caplog.text
    assert_built_from_scratch(store, got)
    return got


def assert_built_from_scratch(store: Any, got: graph.Cached) -> None:
    want = graph.compute(store)
    fresh = graph.build(store)  # each source's weights scaled to sum to 1, as PageRank walks
    assert links(got).keys() == fresh.keys()
    for source, targets in fresh.items():
        total = sum(targets.values())
        assert links(got)[source] == pytest.approx({t: w / total for t, w in targets.items()})
    assert got.ranks == pytest.approx(want.ranks, rel=1e-6, abs=1e-9)
    assert got.nodes == want.nodes
    assert got.indegree == want.indegree
    assert got.modules.get("core") == want.modules.get("core")


def links(cache: graph.Cached) -> dict[str, dict[str, float]]:
    """The graph PageRank walks: {source: {target: share of the source's weight}}."""
    c = cache.compiled
    out: dict[str, dict[str, float]] = {}
    for s, t, w in zip(c.src.tolist(), c.dst.tolist(), c.weights.tolist(), strict=True):
        out.setdefault(c.names[s], {})[c.names[t]] = w
    return out


def test_a_file_that_starts_defining_a_used_name_gains_its_users(
    repo: Repo, project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repo.write("tools.py", "def run():\n    helper()\n    helper()\n\ndef render(x):\n    pass\n")
    g = links(updated(repo, project, caplog))
    assert "tools.py" in g["pkg/web.py"]
    repo.write("extra.py", "def helper():\n    pass\n")  # a second definer halves the share
    g = links(updated(repo, project, caplog))
    assert g["app.py"]["extra.py"] == pytest.approx(0.5 / 3)  # `import core`: 2, core 0.5


def test_a_file_that_starts_using_a_name_points_at_its_definer(
    repo: Repo, project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repo.write("app.py", "import core\nimport util.strings\n\ndef main():\n    run()\n")
    g = links(updated(repo, project, caplog))
    assert set(g["app.py"]) == {"core.py", "tools.py"}  # `import core`; run() (helper() gone)


def test_a_deleted_file_whose_names_were_used_takes_its_edges_along(
    repo: Repo, project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (repo.root / "core.py").unlink()
    g = links(updated(repo, project, caplog))
    assert "app.py" not in g and "tools.py" not in g


def test_an_import_target_that_appears_draws_its_importers(
    repo: Repo, project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repo.write("pkg/views.py", "X = 1\n")  # relative: `from .views import page`
    repo.write("util/strings.py", "Y = 2\n")  # absolute: `import util.strings`
    g = links(updated(repo, project, caplog))
    assert set(g["pkg/web.py"]) == {"pkg/views.py", "core.py"}  # Engine()
    assert set(g["app.py"]) == {"core.py", "util/strings.py"}


def test_a_file_that_becomes_skipped_leaves_the_graph(
    repo: Repo, project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repo.write("core.py", "# @generated\ndef helper():\n    pass\n\nclass Engine:\n    pass\n")
    got = updated(repo, project, caplog)
    assert "core.py" not in got.nodes
    assert not any("core.py" in targets for targets in links(got).values())


def test_a_renamed_file_keeps_its_users_under_its_new_name(
    repo: Repo, project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    (repo.root / "core.py").rename(repo.root / "engine.py")
    g = links(updated(repo, project, caplog))
    assert set(g["app.py"]) == {"engine.py"}  # `import core` names no file now


def test_the_graph_kept_in_memory_is_updated_too(
    repo: Repo, project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    repo.write("pkg/views.py", "def render(x):\n    pass\n")
    updated(repo, project, caplog, new_process=False)
    (repo.root / "tools.py").unlink()
    updated(repo, project, caplog, new_process=False)


@pytest.mark.parametrize("damage", ["garbage", "half written"])
def test_a_damaged_graph_cache_is_built_again(
    repo: Repo, project: Path, caplog: pytest.LogCaptureFixture, damage: str
) -> None:
    repo.write("tools.py", "def render(x):\n    helper()\n")
    indexer.run(repo.config())
    file = project / "graph.pickle"
    data = file.read_bytes()
    file.write_bytes(b"\x80\x05garbage" if damage == "garbage" else data[: len(data) // 2])
    graph_cache._MEMO.clear()
    store = indexer.open_store(repo.config())
    assert_built_from_scratch(store, graph.cached(store, project))
    (repo.root / "core.py").unlink()  # and the graph built again is updated from
    updated(repo, project, caplog)


def test_a_graph_cache_of_another_format_is_not_read(
    repo: Repo, project: Path, caplog: pytest.LogCaptureFixture
) -> None:
    before = graph.compute(indexer.open_store(repo.config()))
    repo.write("tools.py", "def render(x):\n    helper()\n")
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    graph.cached(store, project)
    # the graph from before the change, filed under today's index versions by another format
    file = project / "graph.pickle"
    with open(file, "rb") as fh:
        reader = pickle.Unpickler(fh)
        (_, schema, versions), _ = reader.load()
        inputs = reader.load()
    with open(file, "wb") as fh:
        writer = pickle.Pickler(fh)
        writer.dump(((graph.CACHE_VERSION - 1, schema, versions), before))
        writer.dump(inputs)
    graph_cache._MEMO.clear()
    assert_built_from_scratch(store, graph.cached(store, project))
    (repo.root / "app.py").unlink()
    updated(repo, project, caplog)
