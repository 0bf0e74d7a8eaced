"""Read-side queries over the index (the CLI's `search` and `symbol`)."""

from __future__ import annotations

import pytest

from repomem.errors import InputError, NotFoundError, StoreError
from repomem.index import indexer, query
from tests.conftest import Repo


def test_a_symbol_is_found_and_an_empty_name_is_an_input_error(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    indexer.run(repo.config())
    (found,) = query.symbol(repo.config(), "alpha")
    assert found["path"] == "a.py"
    with pytest.raises(InputError, match="symbol name is empty"):
        query.symbol(repo.config(), " ")  # it said "try `repomem search `"
    with pytest.raises(NotFoundError, match="repomem search beta"):
        query.symbol(repo.config(), "beta")


FORM_FEEDS = (
    "import os\n\x0c\ndef helper():\n    return 1\n\x0c\n"
    "def compute_total(items):\n    total = sum(items)  # \u2028 kept\n    return total * 1.2\n"
)


def test_line_numbers_count_newlines_only_past_form_feeds_and_separators(repo: Repo) -> None:
    repo.write("billing.py", FORM_FEEDS)
    indexer.run(repo.config())
    (found,) = query.symbol(repo.config(), "compute_total")
    assert (found["start_line"], found["end_line"]) == (6, 8)
    assert found["body"] == "\n".join(FORM_FEEDS.split("\n")[5:8])


MAC = "import os\r\r\rdef first():\r    return 1\r\r\rdef second(x):\r    return x * 2\r"


def test_old_mac_line_ends_number_lines_as_editors_do_and_crlf_is_unchanged(repo: Repo) -> None:
    # `second` was at mac.py:1-1 with the whole file as its body
    repo.write("mac.py", MAC.encode())
    repo.write("win.py", MAC.replace("\r", "\r\n").replace("second", "third").encode())
    cfg = repo.config()
    indexer.run(cfg)
    for name, path in (("second", "mac.py"), ("third", "win.py")):
        (found,) = query.symbol(cfg, name)
        assert (found["path"], found["start_line"], found["end_line"]) == (path, 8, 9)
        assert found["body"] == f"def {name}(x):\n    return x * 2"
    store = indexer.open_store(cfg)
    assert {r["path"]: r["lines"] for r in store.rows_for_paths("files", ["mac.py", "win.py"])} == {
        "mac.py": 9,
        "win.py": 9,
    }
    chunks = {(r["path"], r["start_line"], r["end_line"]) for r in store.rows_for_paths(
        "chunks", ["mac.py", "win.py"]
    )}  # fmt: skip
    assert chunks == {(p, a, b) for p in ("mac.py", "win.py") for a, b in ((1, 10), (4, 5), (8, 9))}


def test_an_index_of_an_older_schema_is_not_reported_fresh(repo: Repo) -> None:
    """The next index run rebuilds it (what it stored may predate today's secret rules)."""
    repo.write("a.py", "def alpha():\n    return 1\n")
    repo.commit("init")
    cfg = repo.config()
    indexer.run(cfg)
    assert query.status(cfg)["fresh"]
    indexer.open_store(cfg).set_meta({"schema_version": "3"})
    assert not query.status(repo.config())["fresh"]


def test_asking_a_folder_without_an_index_leaves_no_store_folder_behind(folder: Repo) -> None:
    folder.write("a.py", "def alpha():\n    return 1\n")
    cfg = folder.config()
    for ask in (query.status, lambda c: query.search(c, "alpha"), lambda c: query.symbol(c, "a")):
        with pytest.raises(StoreError, match="No index"):
            ask(cfg)
    assert not indexer.state_dir(cfg).exists()


def test_a_qualified_name_without_its_namespace_or_with_the_languages_separator_is_found(
    repo: Repo,
) -> None:
    """Ruby modules and PHP namespaces are part of the stored qualified name
    (`Shop.Cart.total`, `App\\Billing.Invoice.total`); a person asks for `Cart.total`,
    `Shop::Cart.total`, `Invoice::total` or `App\\Billing\\Invoice::total`."""
    repo.write(
        "lib/shop/cart.rb",
        "module Shop\n  class Cart\n    def total\n      1\n    end\n  end\nend\n",
    )
    repo.write(
        "src/Invoice.php",
        "<?php\nnamespace App\\Billing;\n\nclass Invoice\n{\n"
        "    public function total(): int\n    {\n        return 2;\n    }\n}\n",
    )
    repo.write("other.py", "class Other:\n    def total(self):\n        return 3\n")
    cfg = repo.config()
    indexer.run(cfg)
    for asked in ("Cart.total", "Shop::Cart#total", "Shop::Cart.total"):
        (found,) = query.symbol(cfg, asked)
        assert found["qualname"] == "Shop.Cart.total", asked
    for asked in ("Invoice.total", "Invoice::total", "App\\Billing\\Invoice::total"):
        (found,) = query.symbol(cfg, asked)
        assert found["qualname"] == "App\\Billing.Invoice.total", asked
    assert len(query.symbol(cfg, "total")) == 3  # a bare name still finds every definition
    with pytest.raises(NotFoundError, match="Shop.Invoice.total"):
        query.symbol(cfg, "Shop.Invoice.total")  # the parts must all match, in order


GO_TREE = """package tree

type Tree[T any] struct{ items []T }

type Command struct{ Use string }

func (t *Tree[T]) Delete(key string) bool {
\treturn false
}

func (c Command) Execute() error {
\treturn nil
}
"""


def test_a_go_method_named_as_go_names_it_is_found(repo: Repo) -> None:
    """Go's tools and panics name a method `(*Command).Execute`, with the package path in
    front in a stack trace (`github.com/spf13/cobra.(*Command).Execute`); `symbol` and MCP
    `get_symbol` said there was no such symbol."""
    repo.write("tree/tree.go", GO_TREE)
    cfg = repo.config()
    indexer.run(cfg)
    for asked in (
        "(*Tree).Delete",
        "(*Tree[...]).Delete",
        "example.com/x/tree.(*Tree[...]).Delete",
        "tree.(*Tree).Delete",
    ):
        (found,) = query.symbol(cfg, asked)
        assert found["qualname"] == "Tree.Delete", asked
    (found,) = query.symbol(cfg, "(Command).Execute")
    assert found["qualname"] == "Command.Execute"
    with pytest.raises(NotFoundError):
        query.symbol(cfg, "(*Tree).Execute")


def test_a_name_written_as_a_call_is_found_with_its_references(repo: Repo) -> None:
    """`AddCommand()`, as docs and issues write a function: `symbol` said no such symbol and
    MCP `find_references` "No references in the index" (cobra's has 135)."""
    repo.write("cmd.py", "class Command:\n    def add_command(self):\n        pass\n")
    repo.write("main.py", "from cmd import Command\n\nCommand().add_command()\n")
    cfg = repo.config()
    indexer.run(cfg)
    for asked in ("add_command()", "Command.add_command()", "add_command(self)"):
        (found,) = query.symbol(cfg, asked)
        assert found["qualname"] == "Command.add_command", asked
        assert [r["path"] for r in query.references(cfg, asked)] == ["main.py"], asked
    assert query.identifier("()") == "()"  # nothing before the parentheses: left as written


def test_an_interrupted_first_build_is_not_searched_as_if_it_were_an_index(repo: Repo) -> None:
    # Ctrl-C during the first `repomem init` of a large repository: `search` answered
    # "No matches." from the half-written tables (they have no full-text index yet)
    from tests.index.indexer.cases import build_and_kill, populate

    populate(repo, 300)
    repo.commit()
    build_and_kill(repo, full=False)
    cfg = repo.config()
    for ask in (
        lambda: query.search(cfg, "func_1"),
        lambda: query.symbol(cfg, "func_1"),
        lambda: query.status(cfg),
    ):
        with pytest.raises(StoreError, match=r"first build was interrupted.*repomem index` first"):
            ask()
    indexer.run(cfg)
    assert query.search(cfg, "func_1") and query.status(cfg)["fresh"]


def test_why_a_path_is_not_indexed_names_the_reason_status_counts(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    repo.write("Cargo.lock", "[[package]]\n")
    repo.write("REPOMEM.md", "# Memory\n")
    repo.write("logo.png", b"\x89PNG\r\n\x1a\n\0\0")
    repo.write("app.js", "var a=1;" * 2000)
    repo.write(".gitignore", "*.log\n")
    repo.write("debug.log", "x\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    repo.write("src/new.py", "x = 1\n")
    store = indexer.open_store(cfg)
    why = {p: query.why_not_indexed(cfg, store, p) for p in (
        "a.py", "Cargo.lock", "REPOMEM.md", "logo.png", "app.js", "debug.log", "src/new.py",
        "src", "nope.py",
    )}  # fmt: skip
    assert why == {
        "a.py": None,
        "Cargo.lock": "skipped as `generated` (a lock file or a generated file; see "
        "`index.skip_generated`)",
        "REPOMEM.md": "skipped as `memory` (the project memory file, packed and searched from "
        "its own table)",
        "logo.png": "skipped as `binary` (a binary file)",
        "app.js": "skipped as `minified` (minified: very long lines)",  # a row says so
        "debug.log": "not listed by git: ignored, or untracked while "
        "`index.include_untracked` is off",
        "src/new.py": "new since the last index run",
        "src": "a directory",
        "nope.py": "does not exist",
    }
    skips = query.status(cfg)["skipped"]
    assert {"generated", "memory", "binary", "minified"} <= set(skips)


def test_a_path_in_the_other_unicode_form_is_spelled_as_the_index_holds_it(repo: Repo) -> None:
    repo.write("cafe\u0301.py", "def brew():\n    return 1\n")
    repo.write("plain.py", "x = 1\n")
    cfg = repo.config()
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    assert query.indexed_spelling(store, "caf\u00e9.py") == "cafe\u0301.py"
    assert query.indexed_spelling(store, "cafe\u0301.py") == "cafe\u0301.py"
    assert query.indexed_spelling(store, "plain.py") == "plain.py"
    assert query.indexed_spelling(store, "th\u00e9.py") == "th\u00e9.py"  # not indexed


def test_a_skipped_file_deleted_is_no_pending_change(repo: Repo) -> None:
    """Nothing of a skipped file is searchable: its going changes no answer."""
    repo.write("a.py", "def alpha():\n    return 1\n")
    repo.write("huge.txt", "x" * 300_000 + "\n")  # one long line: skipped as minified
    repo.commit("init")
    cfg = repo.config()
    indexer.run(cfg)
    assert query.status(cfg)["skipped"] == {"minified": 1}
    (repo.root / "huge.txt").unlink()
    st = query.status(cfg)
    assert st["pending"] == {"changed": 0, "deleted": 0}
    assert st["fresh"] and st["skipped"] == {}
    (repo.root / "a.py").unlink()
    assert query.status(cfg)["pending"] == {"changed": 0, "deleted": 1}


def test_a_csharp_property_is_found_where_it_is_read_set_and_initialized(repo: Repo) -> None:
    repo.write("Order.cs", "class Order {\n  public decimal Total { get; set; }\n}\n")
    repo.write(
        "Cart.cs",
        "class Cart {\n  decimal Sum(Order o) {\n    o.Total = 1;\n    return o.Total;\n  }\n"
        "  Order Make() => new Order { Total = 2 };\n}\n",
    )
    cfg = repo.config()
    indexer.run(cfg)
    found = [(r["path"], r["line"], r["count"]) for r in query.references(cfg, "Order.Total")]
    assert found == [("Cart.cs", 3, 2), ("Cart.cs", 6, 1)]


def test_a_namespace_is_found_where_it_is_imported_by_its_whole_name(repo: Repo) -> None:
    """`using chocolatey.infrastructure.app.services;` is stored under the namespace's whole
    name: asked for by that name, find_references looked up `services` and found nothing."""
    repo.write("Svc.cs", "namespace Shop.App.Services {\n  class Svc {}\n}\n")
    repo.write("Use.cs", "using Shop.App.Services;\n\nclass Use {\n  Svc s;\n}\n")
    cfg = repo.config()
    indexer.run(cfg)
    found = [(r["path"], r["kind"]) for r in query.references(cfg, "Shop.App.Services")]
    assert found == [("Use.cs", "import")]
    assert [r["path"] for r in query.references(cfg, "Svc")] == ["Use.cs"]
