from __future__ import annotations

from pathlib import Path

import pytest

from repomem import doctor, hooks
from repomem.index import indexer
from tests.conftest import Repo
from tests.index.indexer.cases import fresh_snapshot, populate, snapshot


def by_name(checks: list[doctor.Check]) -> dict[str, doctor.Check]:
    return {c.name: c for c in checks}


def test_a_healthy_index_passes_every_check(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    indexer.run(repo.config())
    hooks.install(repo.config(), python="/bin/true")
    checks = by_name(doctor.diagnose(repo.config()))
    assert all(c.ok for c in checks.values()), checks
    assert checks["rows"].status == "ok" and checks["fresh"].status == "ok"
    assert checks["hooks"].status == "ok"
    assert "last updated" in checks["fresh"].message


def test_no_index_is_found_and_fixed(repo: Repo) -> None:
    populate(repo, 2)
    checks = by_name(doctor.diagnose(repo.config()))
    assert checks["store"].status == "problem" and checks["store"].fix == "index"
    assert not (indexer.state_dir(repo.config()) / "lance").exists()  # asking built nothing
    doctor.repair(repo.config())
    assert all(c.ok for c in doctor.diagnose(repo.config()))


def test_a_left_over_journal_is_found_and_completed(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    store.write_journal(["pkg/mod_1.py"])
    checks = by_name(doctor.diagnose(repo.config()))
    assert checks["journal"].status == "problem"
    fixed = by_name(doctor.repair(repo.config()))
    assert fixed["journal"].fixed
    assert by_name(doctor.diagnose(repo.config()))["journal"].status == "ok"
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def test_an_interrupted_full_build_is_named_as_such_not_as_one_path(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    indexer.run(repo.config())
    indexer.open_store(repo.config()).write_journal(["*"])  # what a full build journals
    check = by_name(doctor.diagnose(repo.config()))["journal"]
    assert check.status == "problem" and "full build" in check.message
    assert "1 path" not in check.message


def test_rows_that_disagree_are_found_and_rebuilt_from_the_files(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    with store.writing():
        store.delete_rows("symbols", ["pkg/mod_0.py"])
        store.add_columns("refs", {"path": ["ghost.py"], "name": ["x"], "kind": ["call"],
                                   "scope": [""], "line": [1], "count": [1]})  # fmt: skip
        store.add_columns("chunks", {"path": ["spook.py"], "start_line": [1], "end_line": [2],
                                     "file_hash": ["h"], "search": ["boo"]})  # fmt: skip
        store.publish()
    rows = by_name(doctor.diagnose(repo.config()))["rows"]
    assert rows.status == "problem"
    assert "symbols do not match" in rows.message and "ghost.py" in rows.message
    assert "chunks of 1 unstored file(s), e.g. `spook.py`" in rows.message
    doctor.repair(repo.config())
    assert by_name(doctor.diagnose(repo.config()))["rows"].status == "ok"
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def test_a_store_with_missing_data_files_is_rebuilt(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    indexer.run(repo.config())
    for f in (repo.root / ".git/repomem/lance/files.lance/data").iterdir():
        f.unlink()
    checks = doctor.diagnose(repo.config())
    assert not all(c.ok for c in checks)
    doctor.repair(repo.config(), checks)
    assert all(c.ok for c in doctor.diagnose(repo.config()))
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


@pytest.mark.filterwarnings("ignore:optimize\\(cleanup_older_than=0\\):UserWarning")
def test_piled_up_versions_are_compacted(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    populate(repo, 2)
    repo.commit()
    cfg = repo.config(**{"store.optimize_every": 1000})
    indexer.run(cfg)
    for i in range(4):
        repo.write("pkg/mod_0.py", f"def v{i}():\n    pass\n")
        indexer.run(cfg)
    monkeypatch.setattr(doctor, "MAX_VERSIONS", 3)
    monkeypatch.setattr(doctor, "CLEANUP_SECONDS", 0.0)
    assert by_name(doctor.diagnose(cfg))["versions"].status == "problem"
    doctor.repair(cfg)
    assert by_name(doctor.diagnose(cfg))["versions"].status == "ok"
    store = indexer.open_store(cfg)  # the compaction is recorded like the indexer's own
    assert store.get_meta("optimized_at") is not None
    assert store.get_meta("runs_since_optimize") == "0"


def test_damaged_hooks_are_reinstalled(repo: Repo) -> None:
    populate(repo, 1)
    repo.commit()
    indexer.run(repo.config())
    hooks.install(repo.config(), python="/bin/true")
    (repo.root / ".git/hooks/post-merge").chmod(0o644)
    check = by_name(doctor.diagnose(repo.config()))["hooks"]
    assert check.status == "problem" and "post-merge broken" in check.message
    doctor.repair(repo.config())
    assert by_name(doctor.diagnose(repo.config()))["hooks"].status == "ok"


def test_hooks_never_installed_are_only_a_note(repo: Repo) -> None:
    populate(repo, 1)
    repo.commit()
    indexer.run(repo.config())
    check = by_name(doctor.repair(repo.config()))["hooks"]
    assert check.status == "note" and not check.fixed
    assert not (repo.root / ".git/hooks/post-commit").exists()


def test_a_memory_file_linked_outside_is_a_problem_not_the_end_of_the_checks(
    repo: Repo, tmp_path: Path
) -> None:
    (tmp_path / "elsewhere.md").write_text("x\n", encoding="utf-8")
    (repo.root / "REPOMEM.md").symlink_to(tmp_path / "elsewhere.md")
    checks = by_name(doctor.diagnose(repo.config()))
    assert checks["memory"].status == "problem" and "symbolic link" in checks["memory"].message
    assert "store" in checks


def test_a_broken_memory_file_is_a_problem_and_fix_resyncs_a_good_one(repo: Repo) -> None:
    from repomem.memory import derived, ops

    repo.write("REPOMEM.md", "# not really a memory file\n<<<<<<< conflict\n")
    check = by_name(doctor.diagnose(repo.config()))["memory"]
    assert check.status == "problem" and "REPOMEM.md does not parse" in check.message
    assert "conflict markers" in check.message
    (repo.root / "REPOMEM.md").unlink()
    cfg = repo.config()
    ops.remember(cfg, "Doctor resyncs the memory rows.")
    indexer.run(cfg)
    fixed = by_name(doctor.repair(cfg))["memory"]
    assert fixed.ok and fixed.fixed
    again = by_name(doctor.repair(cfg))["memory"]
    assert again.ok and not again.fixed  # nothing lagged: nothing is reported as fixed
    assert [f.text for f, _ in derived.recall(cfg, "doctor resyncs")] == [
        "Doctor resyncs the memory rows."
    ]


def test_a_store_that_cannot_be_written_is_a_finding_and_the_read_checks_still_run(
    repo: Repo,
) -> None:
    # A read-only checkout: the lock cannot be taken (a folder where the lock file goes fails
    # for root too). `repomem doctor` said only "Cannot write .../index.lock" and checked nothing.
    populate(repo, 2)
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    lock = indexer.state_dir(cfg) / "index.lock"
    lock.unlink(missing_ok=True)
    lock.mkdir()
    checks = by_name(doctor.diagnose(cfg))
    writer = checks["writer"]
    assert writer.status == "problem" and "index.lock" in writer.message
    assert "writable" in writer.message
    assert checks["rows"].status == "ok" and checks["fresh"].status == "ok"
    assert checks["memory"].ok
    assert by_name(doctor.repair(cfg))["writer"].status == "problem"  # no repair is tried


def test_an_exclude_pattern_that_matches_no_file_is_a_note_naming_it(repo: Repo) -> None:
    repo.write("src/app.py", "def app():\n    return 1\n")
    repo.write("docs/conf.py", "project = 'x'\n")
    repo.commit()
    cfg = repo.config(**{"index.exclude": ["docs/", "dcos/", "*.min.js"]})
    indexer.run(cfg)
    check = by_name(doctor.diagnose(cfg))["exclude"]
    assert check.status == "note" and check.ok
    assert "`dcos/`" in check.message and "`*.min.js`" in check.message
    assert "`docs/`" not in check.message  # it excluded docs/conf.py
    cfg = repo.config(**{"index.exclude": ["docs/"]})
    assert by_name(doctor.diagnose(cfg))["exclude"].status == "ok"
    assert "exclude" not in by_name(doctor.diagnose(repo.config()))  # none set: no check
