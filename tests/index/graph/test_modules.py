"""Tests for repomem.index.graph.modules: imports resolved to the repository's files, module
names matched by whole parts."""

from __future__ import annotations

import pytest

from repomem.index import graph


@pytest.mark.parametrize(
    ("module", "importer", "expected"),
    [
        ("pkg.core", "x.py", ["pkg/core.py"]),
        (".core", "pkg/web.py", ["pkg/core.py"]),
        ("..core", "pkg/sub/m.py", ["pkg/core.py"]),
        ("./util", "src/app.ts", ["src/util.ts"]),
        ("../lib", "src/app.ts", ["lib/index.js"]),
        ("numpy", "x.py", []),
        (
            "okhttp3.internal.connection.RealCall",
            "x.kt",
            ["okhttp/src/main/kotlin/okhttp3/internal/connection/RealCall.kt"],
        ),
        ("sttp.client4.Request", "x.scala", ["core/src/main/scala/sttp/client4/Request.scala"]),
        ("plenary.path", "lua/plenary/job.lua", ["lua/plenary/path.lua"]),
        ("plenary", "lua/plenary/job.lua", ["lua/plenary/init.lua"]),
        ("./lib/common.sh", "scripts/deploy.sh", ["scripts/lib/common.sh"]),
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
        "okhttp/src/main/kotlin/okhttp3/internal/connection/RealCall.kt",
        "core/src/main/scala/sttp/client4/Request.scala",
        "lua/plenary/init.lua",
        "lua/plenary/path.lua",
        "lua/plenary/job.lua",
        "scripts/lib/common.sh",
        "scripts/deploy.sh",
    ]
    index = graph.ModuleIndex(paths)
    assert graph.resolve_import(module, importer, index) == expected


def test_module_names_match_whole_parts_in_either_spelling() -> None:
    index = graph.ModuleIndex(["a/b.c/d.py", "x/d.py", "pkg/__init__.py", "README.md"])
    assert index.get("b.c.d") == ["a/b.c/d.py"]
    assert index.get("a/b.c/d") == ["a/b.c/d.py"]
    assert index.get("d") == ["a/b.c/d.py", "x/d.py"]
    assert index.get("c.d") == []  # `c` is not a part of the path: `b.c` is
    assert index.get("pkg") == ["pkg/__init__.py"]
    assert index.get("README") == []
