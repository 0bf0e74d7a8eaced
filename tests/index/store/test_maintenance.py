"""Tests for repomem.index.store.maintenance: schema versions and migrations, rebuilds
readers do not see, and compaction (`optimize`)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from repomem.errors import StoreError
from repomem.index import discovery, indexer, query, schema, store, tokens
from repomem.index.indexer.apply import skip_row
from tests.conftest import Repo


def forget_manifest(repo: Repo) -> None:
    (repo.root / ".git" / "repomem" / "manifest.json").unlink()


def test_a_store_from_a_newer_repomem_is_refused_with_the_upgrade_command(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    pass\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    s.set_meta({"schema_version": str(schema.SCHEMA_VERSION + 1)})
    with pytest.raises(StoreError, match="pip install -U repomem"):
        indexer.run(repo.config(), full=True)


def test_an_older_schema_without_a_migration_is_rebuilt(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    pass\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    s.set_meta({"schema_version": "0"})
    forget_manifest(repo)  # as if written by an older repomem
    report = indexer.run(repo.config())
    assert report.full and report.added == ["a.py"]
    assert indexer.open_store(repo.config()).get_meta("schema_version") == str(
        schema.SCHEMA_VERSION
    )


def test_migrations_run_in_order_from_the_stored_version(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("a.py", "def a():\n    pass\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    s.set_meta({"schema_version": str(schema.SCHEMA_VERSION - 1 or 0)})
    ran: list[int] = []
    old = schema.SCHEMA_VERSION - 1
    if old < 1:
        # Pretend the current schema is 2 with a registered migration from 1.
        monkeypatch.setattr(schema, "SCHEMA_VERSION", 2)
        s.set_meta({"schema_version": "1"})
        old = 1
    monkeypatch.setitem(store.MIGRATIONS, old, lambda st: ran.append(old))
    # An older repomem wrote the store, and its manifest, which names the older schema too.
    (indexer.state_dir(repo.config()) / "manifest.json").unlink()
    report = indexer.run(repo.config())
    assert ran == [old]
    assert not report.full  # migrated in place, not rebuilt


def test_files_with_old_mac_line_ends_are_read_again_after_the_upgrade_not_rebuilt(
    repo: Repo,
) -> None:
    mac = "import os\r\rdef first():\r    return 1\r"
    big = "".join(f"def fn_{i}(x):\r    return x + {i}\r\r" for i in range(200))
    repo.write("mac.py", mac.encode())
    repo.write("big.py", big.encode())
    repo.write("a.py", "def a():\n    pass\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    s = indexer.open_store(cfg)
    # the store as schema 15 left it: mac.py's text stored as one line (its symbol on line 1),
    # big.py skipped as minified
    (old,) = s.rows_for_paths("files", ["mac.py"])
    st = os.stat(repo.root / "big.py")
    with s.writing():
        s.delete_paths(["mac.py", "big.py"])
        s.add("files", [{**old, "text": mac, "lines": 1, "symbols": 0}])
        s.add("files", [skip_row("big.py", "minified", st.st_size, st.st_mtime_ns)])
        s.set_meta({"schema_version": "15"})
    forget_manifest(repo)
    report = indexer.run(cfg)
    assert not report.full and sorted(report.added) == ["big.py", "mac.py"] and report.parsed == 2
    (first,) = query.symbol(cfg, "first")
    assert (first["start_line"], first["end_line"]) == (3, 4)
    assert query.symbol(cfg, "fn_199")[0]["start_line"] == 598
    assert indexer.open_store(cfg).get_meta("schema_version") == str(schema.SCHEMA_VERSION)


def test_builds_stored_before_the_upgrade_are_read_again_and_skipped_as_generated(
    repo: Repo,
) -> None:
    body = "function helper(x) {\n  return x + 1;\n}\n"
    repo.write("dist/lib.js", body)
    repo.write("src/lib.js", body)
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    s = indexer.open_store(cfg)
    # the store as schema 16 left it: the build indexed with its source-map comment
    (old,) = s.rows_for_paths("files", ["dist/lib.js"])
    built = (body + "//# sourceMappingURL=lib.js.map\n").encode()
    st = os.stat(repo.write("dist/lib.js", built))
    with s.writing():
        s.delete_paths(["dist/lib.js"])
        fresh = {"text": built.decode(), "hash": discovery.content_hash(built)}
        s.add("files", [{**old, **fresh, "size": st.st_size, "mtime_ns": st.st_mtime_ns}])
        s.set_meta({"schema_version": "16"})
    forget_manifest(repo)
    report = indexer.run(cfg)
    assert not report.full and sorted(report.skipped_paths["generated"]) == ["dist/lib.js"]
    assert [h["path"] for h in query.symbol(cfg, "helper")] == ["src/lib.js"]
    assert query.status(cfg)["skipped"] == {"generated": 1}


def left_by_older_schema(repo: Repo, path: str, version: int, **changed: Any) -> dict[str, Any]:
    """Index the repository, then leave `path`'s row (with the `changed` columns) and the
    store's version as an older repomem wrote them; the row as indexed now."""
    cfg = repo.config()
    indexer.run(cfg)
    s = indexer.open_store(cfg)
    (old,) = s.rows_for_paths("files", [path])
    with s.writing():
        s.delete_paths([path])
        s.add("files", [{**old, **changed}])
        s.set_meta({"schema_version": str(version)})
    forget_manifest(repo)
    return dict(old)


def test_files_holding_a_secret_the_new_rules_find_are_read_again_after_the_upgrade(
    repo: Repo,
) -> None:
    leak = 'пароль = "Xk29sLq0pW"\n\ndef login():\n    return 1\n'
    repo.write("auth.py", leak)
    repo.write("a.py", "def a():\n    pass\n")
    repo.commit()
    cfg = repo.config()
    # the store as schema 17 left it: the Russian name was not read, its value stored
    old = left_by_older_schema(repo, "auth.py", 17, text=leak)
    assert "Xk29sLq0pW" not in old["text"]
    report = indexer.run(cfg)
    assert not report.full and report.added == ["auth.py"]
    (new,) = indexer.open_store(cfg).rows_for_paths("files", ["auth.py"])
    assert "Xk29sLq0pW" not in new["text"] and "def login" in new["text"]
    assert indexer.open_store(cfg).get_meta("schema_version") == str(schema.SCHEMA_VERSION)


def test_commit_messages_holding_a_secret_the_new_rules_find_are_redacted_after_the_upgrade(
    repo: Repo,
) -> None:
    repo.write("a.py", "a = 1\n")
    clean = repo.commit("Add a")
    repo.write("b.py", "b = 2\n")
    in_body = repo.commit("Point b at staging on corp-7731\n\nsenha: Xk29sLq0pW")
    repo.write("c.py", "c = 3\n")
    in_subject = repo.commit("Set c up, sifre: Hq71mZpe4T")
    cfg = repo.config(**{"secrets.extra_patterns": [r"corp-\d+"]})
    indexer.run(cfg)
    s = indexer.open_store(cfg)
    rows = {r["sha"]: r for r in s.table("commits").to_arrow().to_pylist()}
    assert "xk29slq0pw" not in repr(rows).lower() and "7731" not in repr(rows)
    # the store as schema 18 left them: the names were not read, their values stored (the
    # extra pattern was applied then too)
    stale = []
    for sha, message in ((in_body, "Point b at staging on [REDACTED]\n\nsenha: Xk29sLq0pW"),
                         (in_subject, "Set c up, sifre: Hq71mZpe4T")):  # fmt: skip
        text = " ".join([tokens.document(message), *tokens.references(message)])
        stale.append({**rows[sha], "subject": message.split("\n")[0], "text": text})
    with s.writing():
        s.write_commits(stale, append=True)
        s.set_meta({"schema_version": "18"})
    assert "xk29slq0pw" in repr(s.table("commits").to_arrow().to_pylist()).lower()
    forget_manifest(repo)
    report = indexer.run(cfg)
    assert not report.full
    rows = {r["sha"]: r for r in indexer.open_store(cfg).table("commits").to_arrow().to_pylist()}
    dump = repr(rows).lower()
    assert "xk29slq0pw" not in dump and "hq71mzpe4t" not in dump and "7731" not in dump
    assert set(rows) == {clean, in_body, in_subject}  # read again, not lost
    assert rows[in_subject]["subject"] == "Set c up, sifre: [REDACTED]"
    assert [r["sha"] for r, _ in indexer.open_store(cfg).search_commits("staging", 5)] == [in_body]


def test_files_of_newly_parsed_languages_are_read_again_after_the_upgrade(repo: Repo) -> None:
    repo.write("app/Cart.kt", "class Cart {\n    fun add() {}\n}\n")
    repo.write("a.py", "def a():\n    pass\n")
    repo.commit()
    cfg = repo.config()
    left_by_older_schema(repo, "app/Cart.kt", 20)  # Kotlin was text then, without symbols
    report = indexer.run(cfg)
    assert not report.full and report.added == ["app/Cart.kt"]
    assert [h["qualname"] for h in query.symbol(cfg, "Cart.add")] == ["Cart.add"]


def test_a_full_rebuild_in_progress_is_invisible_to_readers(repo: Repo) -> None:
    repo.write("a.py", 'def first():\n    """The first one."""\n')
    repo.write("b.py", "def second():\n    pass\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    kept = indexer.reader(cfg)
    assert kept.symbols_named("first")
    writer = indexer.open_store(cfg)
    with writer.writing():
        writer.clear_derived()  # `index --full`, before it has written anything
        fresh = indexer.open_store(cfg)
        assert fresh.count("files") == 2 and fresh.symbols_named("first")
        assert [h["path"] for h in query.search(cfg, "first")][:1] == ["a.py"]
        assert indexer.reader(cfg) is kept and kept.count("files") == 2
    indexer.run(cfg, full=True)
    after = indexer.open_store(cfg)
    assert after.count("files") == 2 and after.symbols_named("second")
    assert [h["path"] for h in query.search(cfg, "second")][:1] == ["b.py"]
    assert not after.indexes_lagging(share=0.0, floor=0)


@pytest.mark.filterwarnings("ignore:optimize\\(cleanup_older_than=0\\):UserWarning")
def test_optimize_keeps_the_data_and_drops_old_versions(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    pass\n")
    cfg = repo.config(**{"store.optimize_every": 1000})
    indexer.run(cfg)
    for i in range(5):
        repo.write("a.py", f"def a{i}():\n    pass\n")
        indexer.run(cfg)
    s = indexer.open_store(cfg)
    before = s.table("symbols").version
    s.optimize(cleanup_seconds=0)
    assert s.table("symbols").version >= before
    assert [r["name"] for r in s.symbols_named("a4")] == ["a4"]
    assert len(s.table("symbols").list_versions()) <= 2


def test_rows_added_after_the_fulltext_index_are_folded_in_by_optimize(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    pass\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    for i in range(5):
        repo.write(f"m{i}.py", f"def beta_{i}():\n    pass\n")
    indexer.run(cfg)
    s = indexer.open_store(cfg)
    assert s.indexes_lagging(share=0.1, floor=1)
    assert [h["path"] for h in query.search(cfg, "beta_3")][:1] == ["m3.py"]
    s.optimize()
    assert not s.indexes_lagging(share=0.1, floor=1)
    assert [h["path"] for h in query.search(cfg, "beta_3")][:1] == ["m3.py"]


def test_a_schema_rebuild_forgets_which_tables_had_their_full_text_index(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    assert s.has_fts("symbols")  # remembered by this Store
    s.set_meta({"schema_version": "0"})
    with s.writing():
        assert s.ensure_schema()  # outdated: the derived tables are dropped and created again
    assert not s.has_fts("symbols")  # the new, empty table has no index yet


def test_the_size_of_a_store_given_as_a_file_uri_is_measured(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    cfg = repo.config()
    indexer.run(cfg)
    uri = indexer.store_uri(cfg)
    size = indexer.open_store(cfg).size_bytes()
    assert size
    assert store.Store("file://" + uri, indexer.state_dir(cfg)).size_bytes() == size
    assert store.Store("memory://x", indexer.state_dir(cfg)).size_bytes() is None


def test_kotlin_swift_and_lua_files_are_read_again_after_the_upgrade_to_22(repo: Repo) -> None:
    repo.write("Cart.kt", "class Cart {\n    constructor(id: Int)\n}\n")
    repo.write(
        "Vector.swift",
        "struct Vector {\n  static func + (a: Vector, b: Vector) -> Vector { a }\n}\n",
    )
    repo.write("m.lua", "local M = {}\nfunction M.new() end\nreturn M\n")
    repo.write("Cart.scala", "class Cart {\n  def add(): Unit = ()\n}\n")
    repo.write("a.py", "def a():\n    pass\n")
    repo.commit()
    cfg = repo.config()
    left_by_older_schema(repo, "m.lua", 21)  # `M.new` was a method, Swift's + no symbol
    report = indexer.run(cfg)
    assert not report.full and sorted(report.added) == ["Cart.kt", "Vector.swift", "m.lua"]
    assert [h["kind"] for h in query.symbol(cfg, "M.new")] == ["function"]
    assert [h["qualname"] for h in query.symbol(cfg, "Vector.+")] == ["Vector.+"]


def test_files_of_languages_parsed_anew_are_read_again_after_the_upgrade(repo: Repo) -> None:
    repo.write(
        "api.d.ts", "export declare function mount(el: Element,\n  hydrate?: boolean): void;\n"
    )
    repo.write("a.py", "def a():\n    pass\n")
    repo.write("notes.txt", "plain text\n")
    repo.commit()
    cfg = repo.config()
    left_by_older_schema(repo, "api.d.ts", 19)  # its signature was cut at the first line then
    report = indexer.run(cfg)
    assert not report.full and report.added == ["api.d.ts"] and report.parsed == 1
    (mount,) = query.symbol(cfg, "mount")
    assert mount["signature"] == "function mount(el: Element, hydrate?: boolean): void"
