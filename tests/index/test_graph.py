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
