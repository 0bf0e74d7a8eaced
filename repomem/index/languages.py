"""Which language a file is in, and the tree-sitter grammar and tag query for it.

Grammars come from the per-language wheels on PyPI (`tree-sitter-python`, ...), which carry a
compiled parser and load offline. Tag queries are our own `.scm` data files in `queries/`, one per
language, written to a shared capture convention (see `repomem/index/parser.py`).
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path, PurePosixPath
from typing import Any

from tree_sitter import Language

from repomem.errors import ParseError

QUERY_DIR = Path(__file__).with_name("queries")

# How languages join a qualified name: `Shop::Cart#total`, `App\Billing\Invoice->total`, Lua's
# `Job:start`; the index joins the parts with dots and keeps a PHP namespace whole
# (`App\Billing.Invoice.total`).
_NAME_JOINS = re.compile(r"::|->|[.#:\\]")


# Go names a method by its receiver's type, pointer or not, with any type parameters and the
# package path in front in stack traces: `github.com/spf13/cobra.(*Command).Execute`.
_GO_RECEIVER = re.compile(r"\(\*?([A-Za-z_]\w*)(?:\[[^\]]*\])?\)\.([A-Za-z_]\w*)$")


# A name written as a call, as docs and issues write functions: `AddCommand()`, `add(a, b)`
_CALLED = re.compile(r"(?<=\w)\([^()]*\)$")


def name_parts(name: str) -> list[str]:
    """The parts of a qualified name however its language joins them (`Db::new` and
    `Db.new` give `["Db", "new"]`, Go's `pkg.(*Db).New` `["Db", "New"]`, a call `Db.new()`
    the name), to compare a name a person wrote with a stored one."""
    name = _CALLED.sub("", name.strip())
    go = _GO_RECEIVER.search(name)
    if go:
        return [go.group(1), go.group(2)]
    return [p for p in _NAME_JOINS.split(name) if p]


@dataclass(frozen=True)
class LanguageSpec:
    """A language repomem parses into symbols."""

    name: str
    module: str
    loader: str
    extensions: tuple[str, ...]
    filenames: tuple[str, ...] = ()
    query_files: tuple[str, ...] = ()
    doc_style: str = "comment"  # "python": docstring in the body; "comment": leading comments
    class_like: tuple[str, ...] = ()  # extra definition kinds whose functions are methods

    @property
    def queries(self) -> tuple[str, ...]:
        return self.query_files or (self.name,)


LANGUAGES: tuple[LanguageSpec, ...] = (
    LanguageSpec(
        "python", "tree_sitter_python", "language", (".py", ".pyi", ".pyw"), doc_style="python"
    ),
    LanguageSpec(
        "javascript", "tree_sitter_javascript", "language", (".js", ".mjs", ".cjs", ".jsx")
    ),
    LanguageSpec(
        "typescript",
        "tree_sitter_typescript",
        "language_typescript",
        (".ts", ".mts", ".cts"),
        query_files=("javascript", "typescript"),
    ),
    LanguageSpec(
        "tsx",
        "tree_sitter_typescript",
        "language_tsx",
        (".tsx",),
        query_files=("javascript", "typescript"),
    ),
    LanguageSpec("go", "tree_sitter_go", "language", (".go",)),
    LanguageSpec("rust", "tree_sitter_rust", "language", (".rs",)),
    LanguageSpec("java", "tree_sitter_java", "language", (".java",)),
    LanguageSpec("c", "tree_sitter_c", "language", (".c", ".h")),
    LanguageSpec(
        "cpp",
        "tree_sitter_cpp",
        "language",
        (".cc", ".cpp", ".cxx", ".c++", ".hpp", ".hh", ".hxx", ".h++", ".ipp", ".inl"),
    ),
    LanguageSpec("csharp", "tree_sitter_c_sharp", "language", (".cs",)),
    LanguageSpec(
        "ruby",
        "tree_sitter_ruby",
        "language",
        (".rb", ".rake", ".gemspec", ".ru"),
        filenames=("Rakefile", "Gemfile", "Guardfile", "Vagrantfile"),
    ),
    LanguageSpec("php", "tree_sitter_php", "language_php", (".php", ".phtml", ".php5", ".php7")),
    LanguageSpec("kotlin", "tree_sitter_kotlin", "language", (".kt", ".kts")),
    LanguageSpec("swift", "tree_sitter_swift", "language", (".swift",)),
    LanguageSpec("scala", "tree_sitter_scala", "language", (".scala", ".sc")),
    LanguageSpec("lua", "tree_sitter_lua", "language", (".lua",)),
    LanguageSpec("bash", "tree_sitter_bash", "language", (".sh", ".bash")),
)

# Text files indexed without symbols: a language label by extension, for filters and stats.
TEXT_LANGUAGES: dict[str, str] = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".rst": "rst",
    ".txt": "text",
    ".adoc": "asciidoc",
    ".toml": "toml",
    ".yaml": "yaml",
    ".yml": "yaml",
    ".json": "json",
    ".jsonc": "json",
    ".ini": "ini",
    ".cfg": "ini",
    ".conf": "ini",
    ".properties": "ini",
    ".xml": "xml",
    ".html": "html",
    ".htm": "html",
    ".css": "css",
    ".scss": "css",
    ".less": "css",
    ".zsh": "shell",
    ".fish": "shell",
    ".ps1": "powershell",
    ".sql": "sql",
    ".graphql": "graphql",
    ".proto": "protobuf",
    ".pl": "perl",
    ".pm": "perl",
    ".r": "r",
    ".jl": "julia",
    ".ex": "elixir",
    ".exs": "elixir",
    ".erl": "erlang",
    ".hs": "haskell",
    ".ml": "ocaml",
    ".clj": "clojure",
    ".dart": "dart",
    ".vue": "vue",
    ".svelte": "svelte",
    ".tf": "terraform",
    ".cmake": "cmake",
    ".mk": "make",
    ".gradle": "gradle",
    ".m": "objc",
    ".mm": "objc",
    ".zig": "zig",
    ".nim": "nim",
    ".v": "verilog",
    ".tex": "latex",
    ".csv": "csv",
    ".tsv": "csv",
    ".pyx": "cython",
    ".pxd": "cython",
    ".j2": "jinja",
    ".jinja": "jinja",
    ".tmpl": "template",
}
TEXT_FILENAMES: dict[str, str] = {
    "Makefile": "make",
    "GNUmakefile": "make",
    "Dockerfile": "docker",
    "CMakeLists.txt": "cmake",
    "README": "text",
    "LICENSE": "text",
    "COPYING": "text",
    "AUTHORS": "text",
    "CHANGES": "text",
    "Jenkinsfile": "groovy",
    "Procfile": "text",
    "MANIFEST.in": "text",
}

_BY_EXT: dict[str, LanguageSpec] = {ext: spec for spec in LANGUAGES for ext in spec.extensions}
_BY_NAME: dict[str, LanguageSpec] = {n: spec for spec in LANGUAGES for n in spec.filenames}
_BY_LANG: dict[str, LanguageSpec] = {spec.name: spec for spec in LANGUAGES}


def language_names() -> list[str]:
    """Names of the languages parsed into symbols."""
    return [spec.name for spec in LANGUAGES]


def spec_for(language: str) -> LanguageSpec | None:
    """The parsed-language spec of that name, or None for text languages."""
    return _BY_LANG.get(language)


def detect(relpath: str) -> str:
    """The language label of a path: a parsed language, a text language, or "text"."""
    p = PurePosixPath(relpath)
    name = p.name
    if name in _BY_NAME:
        return _BY_NAME[name].name
    if name in TEXT_FILENAMES:
        return TEXT_FILENAMES[name]
    suffix = p.suffix.lower()
    spec = _BY_EXT.get(suffix)
    if spec is not None:
        return spec.name
    return TEXT_LANGUAGES.get(suffix, "text")


@cache
def grammar(language: str) -> Language:
    """The tree-sitter Language for a parsed language.

    Raises:
        ParseError: if the grammar package is missing or does not load.
    """
    spec = _BY_LANG.get(language)
    if spec is None:
        raise ParseError(f"No grammar for language `{language}`; it is indexed as text.")
    try:
        module = importlib.import_module(spec.module)
        loader: Callable[[], Any] = getattr(module, spec.loader)
        return Language(loader())
    except (ImportError, AttributeError, ValueError) as exc:
        raise ParseError(
            f"The grammar for `{language}` ({spec.module}) does not load ({exc}); "
            f"reinstall repomem with `pip install --force-reinstall repomem`."
        ) from exc


@cache
def query_source(language: str) -> str:
    """The tag query text for a parsed language (its `.scm` files concatenated)."""
    spec = _BY_LANG[language]
    parts = []
    for name in spec.queries:
        path = QUERY_DIR / f"{name}.scm"
        parts.append(path.read_text(encoding="utf-8"))
    return "\n".join(parts)


# Also the JVM's test source sets (`src/test/`, Kotlin's `src/jvmTest/`, Android's
# `src/androidTest/`) and test classes (`CartTest.kt`, `CartTests.java`, `CartIT.java`), and
# Swift packages' test targets (`Tests/ShopTests/`, Xcode's `ShopUITests/`, `CartTests.swift`),
# Scala's specs and suites (`CartSpec.scala`, `CartSuite.scala`), and busted's `path_spec.lua`.
_TEST_PATH = re.compile(
    r"(^|/)(tests?|testing|spec|__tests__)(/|$)|(^|/)src/\w*Test/|(^|/)[^/]*Tests/"
    r"|(^|/)(test_[^/]*|[^/]*_(test|spec)\.\w+|[^/]*\.(test|spec)\.\w+|conftest\.py"
    r"|\w*(Tests?|IT)\.(java|kt|kts|swift|scala)|\w*(Spec|Suite)\.scala)$"
)


def is_test_path(path: str) -> bool:
    """Whether a path is a test file (`tests/`, `test_x.py`, `x_test.go`, `a.spec.ts`,
    `src/test/kotlin/`, `CartTest.kt`)."""
    return bool(_TEST_PATH.search(path))
