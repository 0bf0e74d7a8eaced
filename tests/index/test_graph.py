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
    index = graph.module_index(paths)
    assert graph.resolve_import(module, importer, index) == expected
