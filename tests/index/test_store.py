from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from repomem.errors import StoreError
from repomem.index import indexer, query, schema, store
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


def test_paths_with_quotes_and_spaces_are_stored_and_removed(repo: Repo) -> None:
    repo.write("it's a file.py", "def quoted():\n    pass\n")
    indexer.run(repo.config())
    assert query.symbol(repo.config(), "quoted")[0]["path"] == "it's a file.py"
    (repo.root / "it's a file.py").unlink()
    report = indexer.run(repo.config())
    assert report.deleted == ["it's a file.py"]
    assert indexer.open_store(repo.config()).count("symbols") == 0


def test_coded_columns_of_some_paths_hold_only_their_rows(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    b()\n")
    repo.write("it's b.py", "def b():\n    pass\n")
    repo.write("c.py", "def c():\n    pass\n")
    indexer.run(repo.config())
    s = indexer.open_store(repo.config())
    codes, values = s.coded_columns("symbols", ["path", "name"], ["a.py", "it's b.py"])["name"]
    assert sorted(values[i] for i in codes.tolist()) == ["a", "b"]
    assert all(len(c[0]) == 0 for c in s.coded_columns("refs", ["path", "name"], []).values())


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


def test_a_store_path_in_the_config_moves_the_index(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    cfg = repo.config(**{"store.path": "../elsewhere"})
    indexer.run(cfg)
    assert (repo.root.parent / "elsewhere").is_dir()
    assert not (repo.root / ".git" / "repomem" / "lance").exists()
    assert query.status(cfg)["files"] == 1


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


def test_readers_see_the_last_published_update_not_one_in_progress(repo: Repo) -> None:
    repo.write("a.py", "def first():\n    pass\n")
    repo.write("b.py", "def second():\n    pass\n")
    indexer.run(repo.config())
    writer = indexer.open_store(repo.config())
    with writer.writing():
        writer.delete_paths(["a.py"])  # half of an update: rows gone, nothing added yet
        reader = indexer.open_store(repo.config())
        assert reader.count("files") == 2 and reader.symbols_named("first")
        writer.publish()
        assert reader.count("files") == 2  # an open reader keeps its snapshot...
        reader.refresh()
        assert reader.count("files") == 1  # ...until it refreshes
        assert indexer.open_store(repo.config()).count("symbols") == 1


def test_a_kept_reader_follows_published_updates_only(repo: Repo) -> None:
    repo.write("a.py", "def first():\n    pass\n")
    indexer.run(repo.config())
    reader = indexer.reader(repo.config())
    assert reader.symbols_named("first") and reader.count("files") == 1
    assert indexer.reader(repo.config()) is reader  # kept, nothing changed
    # another writer, half-way through an update: the kept reader does not see it
    writer = indexer.open_store(repo.config())
    with writer.writing():
        writer.delete_paths(["a.py"])
        assert indexer.reader(repo.config()).count("files") == 1
    # a whole index run, published: the same reader sees it (its meta table is read afresh)
    repo.write("a.py", "def first():\n    pass\n\n\ndef second():\n    pass\n")
    indexer.run(repo.config())
    again = indexer.reader(repo.config())
    assert again is reader
    assert again.symbols_named("second") and again.count("files") == 1


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


def test_a_kept_reader_survives_its_store_being_deleted_and_rebuilt(repo: Repo) -> None:
    import shutil

    repo.write("a.py", "def first():\n    pass\n")
    indexer.run(repo.config())
    assert indexer.reader(repo.config()).symbols_named("first")
    shutil.rmtree(repo.root / ".git" / "repomem")
    repo.write("a.py", "def renamed():\n    pass\n")
    indexer.run(repo.config())
    reader = indexer.reader(repo.config())
    assert reader.symbols_named("renamed") and not reader.symbols_named("first")


def test_opening_the_store_skips_the_namespace_rest_client_until_it_is_used() -> None:
    code = (
        "import sys\n"
        "import repomem.index.store\n"
        "print('lance_namespace_urllib3_client.api' in sys.modules)\n"
        "import lance_namespace_urllib3_client as client\n"
        "print(client.ApiClient.__name__)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.split()
    assert out == ["False", "ApiClient"]


def test_damaged_table_files_are_one_error_that_says_how_to_repair(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    files = Path(indexer.store_uri(cfg)) / "files.lance" / "data"
    for data in files.iterdir():
        data.write_bytes(b"")  # truncated by a crash or a bad disk
    reader = indexer.open_store(cfg)
    with pytest.raises(StoreError, match=r"damaged.*repomem doctor --fix"):
        reader.texts(["a.py"])
    with pytest.raises(StoreError, match="doctor --fix"):
        query.require_store(cfg).file_states()


def test_a_missing_table_names_the_repair_that_works(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    shutil.rmtree(Path(indexer.store_uri(cfg)) / "symbols.lance")
    with pytest.raises(StoreError, match=r"doctor --fix.*index --full"):
        indexer.open_store(cfg).table("symbols")
