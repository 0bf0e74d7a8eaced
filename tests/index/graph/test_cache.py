"""Tests for repomem.index.graph.cache: the cached graph, updated in place after a change
to equal a graph built from scratch, and rebuilt when its file is damaged or of another format.

The in-memory cache is patched and cleared in `repomem.index.graph.cache`, the module that
reads it."""

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


def test_a_graph_cache_that_cannot_be_written_leaves_no_temp_file(
    repo: Repo, project: Path
) -> None:
    repo.write("tools.py", "def render(x):\n    helper()\n")
    indexer.run(repo.config())
    (project / "graph.pickle").unlink()
    (project / "graph.pickle").mkdir()  # the temp file is written, its replace fails
    graph_cache._MEMO.clear()
    store = indexer.open_store(repo.config())
    assert_built_from_scratch(store, graph.cached(store, project))
    assert sorted(p.name for p in project.iterdir()) == ["graph.pickle"]
