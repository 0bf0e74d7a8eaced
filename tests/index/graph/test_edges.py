"""Tests for repomem.index.graph.edges: uses point at their definers, weights shared among
them, names defined too widely left out."""

from __future__ import annotations

import pytest

from repomem.index import graph, indexer
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
