"""A worktree's first index started from a sibling worktree's store
(repomem/index/indexer/seed.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repomem.index import indexer
from repomem.index.indexer import seed
from repomem.index.store.guard import WriteLock
from repomem.llm import notes
from tests.conftest import Repo
from tests.index.indexer.cases import fresh_snapshot, populate, runs_at_once, snapshot


def _worktree(repo: Repo, name: str = "wt", rev: str = "HEAD") -> Repo:
    path = repo.root.parent / name
    repo.git("worktree", "add", "-q", "-b", name, str(path), rev)
    return Repo(path, git=False)


def _indexed_main(repo: Repo, n: int = 6) -> None:
    populate(repo, n)
    repo.commit()
    indexer.run(repo.config())


def test_a_new_worktree_starts_from_the_main_index_and_parses_only_what_differs(
    repo: Repo,
) -> None:
    _indexed_main(repo)
    notes.write_note(repo.config(), "pkg/mod_1.py", "Hand-written: mod_1 is the entry point.")
    wt = _worktree(repo)
    wt.write("pkg/mod_2.py", "def only_in_the_worktree():\n    return 2\n")
    wt.write("pkg/new.py", "def brand_new():\n    pass\n")
    (wt.root / "pkg" / "mod_5.py").unlink()

    report = indexer.run(wt.config())

    assert report.seeded_from == str(repo.root.resolve())
    assert not report.full
    assert report.parsed == 2
    assert report.modified == ["pkg/mod_2.py"] and report.added == ["pkg/new.py"]
    assert report.deleted == ["pkg/mod_5.py"]
    store = indexer.open_store(wt.config())
    assert snapshot(store) == fresh_snapshot(wt)
    assert store.get_meta("root") == str(wt.root)
    assert [n.text for n in notes.list_notes(wt.config(), ["pkg/mod_1.py"])] == [
        "Hand-written: mod_1 is the entry point."
    ]
    # the copy is this work tree's own: the main index still holds the main tree
    assert indexer.open_store(repo.config()).symbols_named("only_in_the_worktree") == []
    assert indexer.run(wt.config()).changed == 0


@pytest.mark.parametrize("back", [0, 1], ids=["same-commit", "one-file-differs"])
def test_a_copy_starts_its_own_count_of_runs_toward_a_compaction(repo: Repo, back: int) -> None:
    _indexed_main(repo)
    donor = indexer.open_store(repo.config())
    with donor.writing():
        donor.set_meta({"runs_since_optimize": "25"})  # many runs since it was last compacted
    wt = _worktree(repo)
    if back:
        wt.write("pkg/mod_0.py", "def only_in_the_worktree():\n    pass\n")

    report = indexer.run(wt.config())

    assert report.seeded_from and report.changed == back
    copy = indexer.open_store(wt.config())
    assert copy.get_meta("runs_since_optimize") == str(back)
    assert copy.get_meta("optimized_at") is None  # not compacted on its first run
    assert indexer.open_store(repo.config()).get_meta("runs_since_optimize") == "25"


def test_a_copy_keeps_the_rows_it_was_given_for_files_of_the_same_content(repo: Repo) -> None:
    _indexed_main(repo)
    wt = _worktree(repo)  # every file written anew: new mtimes, the donor's content
    donor = indexer.open_store(repo.config())
    rows = donor.current_versions()

    report = indexer.run(wt.config())

    assert report.seeded_from and report.changed == 0 and report.unchanged == 6
    copy = indexer.open_store(wt.config())
    assert copy.current_versions() == rows  # not one row written again
    assert all(lag == 0 for backlog in copy.fts_backlog().values() for lag, _ in backlog)
    states = copy.file_states()
    for rel, (size, mtime, _) in states.items():
        st = (wt.root / rel).stat()
        assert (size, mtime) == (st.st_size, st.st_mtime_ns), rel
    # the mtimes are this work tree's own: the donor's stay as they were
    assert not donor.stats_path.exists()
    assert indexer.prepare(wt.config(), indexer.reader(wt.config())).report is not None


def test_the_main_work_tree_can_start_from_a_linked_worktree(repo: Repo) -> None:
    populate(repo, 3)
    repo.commit()
    wt = _worktree(repo)
    indexer.run(wt.config())
    report = indexer.run(repo.config())
    assert report.seeded_from == str(wt.root.resolve())
    assert report.parsed == 0
    assert snapshot(indexer.open_store(repo.config())) == fresh_snapshot(repo)


def test_the_worktree_at_the_same_commit_is_preferred(repo: Repo) -> None:
    populate(repo, 3)
    first = repo.commit()
    repo.write("pkg/later.py", "def later():\n    pass\n")
    repo.commit()
    indexer.run(repo.config())  # at the second commit
    old = _worktree(repo, "old", first)
    indexer.run(old.config())  # indexed last, at the first commit
    report = indexer.run(_worktree(repo, "new", first).config())
    assert report.seeded_from == str(old.root.resolve())
    assert report.parsed == 0


@pytest.mark.parametrize(
    "why",
    ["full", "interrupted", "other rules", "store.path", "other schema", "no donor"],
)
def test_a_first_index_is_built_from_scratch_when_no_store_can_be_used(
    repo: Repo, why: str
) -> None:
    _indexed_main(repo, 3)
    main_state = repo.root / ".git" / "repomem"
    wt = _worktree(repo)
    overrides: dict[str, object] = {}
    if why == "interrupted":
        (main_state / "journal.json").write_text(json.dumps({"paths": ["pkg/mod_0.py"]}))
    elif why == "other rules":
        overrides["secrets.extra_patterns"] = ["ACME-[0-9]+"]
    elif why == "store.path":
        overrides["store.path"] = str(repo.root.parent / "elsewhere")
    elif why == "other schema":
        with indexer.open_store(repo.config()).writing():
            indexer.open_store(repo.config()).set_meta({"schema_version": "1"})
    elif why == "no donor":
        import shutil

        shutil.rmtree(main_state / "lance")
    report = indexer.run(wt.config(**overrides), full=why == "full")
    assert report.seeded_from == ""
    assert report.full and report.parsed == 3


def test_a_busy_donor_is_not_waited_for_long(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    _indexed_main(repo, 3)
    wt = _worktree(repo)
    monkeypatch.setattr(seed, "DONOR_LOCK_SECONDS", 0.2)
    with WriteLock(repo.root / ".git" / "repomem" / "index.lock", 1.0):
        report = indexer.run(wt.config())
    assert report.seeded_from == "" and report.parsed == 3
    state = repo.root / ".git" / "worktrees" / "wt" / "repomem"
    assert state.is_dir() and not list(state.glob(".lance.seed.*"))


def test_two_first_runs_at_once_seed_once_and_agree(repo: Repo) -> None:
    _indexed_main(repo, 8)
    wt = _worktree(repo)
    reports = runs_at_once(wt.config(**{"index.workers": 1}))
    assert sum(bool(r.seeded_from) for r in reports) == 1
    assert snapshot(indexer.open_store(wt.config())) == fresh_snapshot(wt)


def test_siblings_are_the_other_work_trees_git_directories(repo: Repo, tmp_path: Path) -> None:
    from repomem import vcs

    assert vcs.sibling_git_dirs(repo.root) == []
    repo.commit()
    a, b = _worktree(repo, "a"), _worktree(repo, "b")
    main_git = (repo.root / ".git").resolve()
    assert vcs.sibling_git_dirs(repo.root) == [
        main_git / "worktrees" / "a",
        main_git / "worktrees" / "b",
    ]
    assert vcs.sibling_git_dirs(a.root) == [main_git, main_git / "worktrees" / "b"]
    assert vcs.work_tree_of(main_git / "worktrees" / "b") == b.root.resolve()
    assert vcs.work_tree_of(main_git) == repo.root.resolve()
    assert vcs.sibling_git_dirs(tmp_path) == []
