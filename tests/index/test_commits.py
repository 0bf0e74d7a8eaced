"""Commit messages in the index: stored by `indexer.run`, appended, rebuilt, redacted."""

from __future__ import annotations

import json

from repomem.index import commits, indexer
from tests.conftest import Repo


def _stored(repo: Repo, **overrides: object) -> dict[str, tuple[str, list[str]]]:
    store = indexer.open_store(repo.config(**overrides))
    rows = store.table("commits").to_arrow().to_pylist()
    return {r["sha"]: (r["subject"], r["files"]) for r in rows}


def test_a_run_stores_the_messages_and_files_of_the_commits(repo: Repo) -> None:
    repo.write("pkg/mod.py", "def mod(a, b):\n    return a % b\n")
    first = repo.commit("Add mod")
    repo.write("pkg/mod.py", "def mod(a, b):\n    return a - b * (a // b)\n")
    second = repo.commit("Fix Mod of negative integers\n\nFloor division rounds down.")
    indexer.run(repo.config())
    assert _stored(repo) == {
        first: ("Add mod", ["pkg/mod.py"]),
        second: ("Fix Mod of negative integers", ["pkg/mod.py"]),
    }
    store = indexer.open_store(repo.config())
    assert store.get_meta(commits.META_HEAD) == second
    found = store.search_commits("negative floor", 5)
    assert [r["sha"] for r, _score in found] == [second]


def _indexed_then_one_more(repo: Repo) -> tuple[str, str]:
    """A commit indexed, then one more on top of it not yet indexed: their shas."""
    repo.write("a.py", "a = 1\n")
    base = repo.commit("Start")
    indexer.run(repo.config())
    repo.write("b.py", "b = 1\n")
    return base, repo.commit("Add b")


def test_new_commits_are_appended_and_another_branch_rebuilds(repo: Repo) -> None:
    base, ahead = _indexed_then_one_more(repo)
    indexer.run(repo.config())
    assert set(_stored(repo)) == {base, ahead}
    repo.git("checkout", "-q", "-b", "other", base)
    repo.write("c.py", "c = 1\n")
    other = repo.commit("Add c")
    indexer.run(repo.config())
    assert set(_stored(repo)) == {base, other}  # `ahead` is not in this history


def _unindexed(repo: Repo) -> int:
    """Commit rows not yet in the messages' full-text index (0 after a rebuild)."""
    tbl = indexer.open_store(repo.config()).table("commits")
    (ix,) = [i for i in tbl.list_indices() if i.columns == ["text"]]
    return int(tbl.index_stats(ix.name).num_unindexed_rows)


def _mark(repo: Repo, sha: str) -> None:
    """Change a stored row so that a test can tell it was kept rather than read again."""
    store = indexer.open_store(repo.config())
    with store.writing():
        store.table("commits").update(where=f"sha = '{sha}'", values={"subject": "kept"})


def test_another_branch_keeps_the_shared_commits_and_reads_only_its_own(repo: Repo) -> None:
    shared = []
    for i in range(4):
        repo.write(f"s{i}.py", f"s = {i}\n")
        shared.append(repo.commit(f"Shared step {i}"))
    repo.write("main.py", "m = 1\n")
    ahead = repo.commit("Parse quaternions on main")
    indexer.run(repo.config())
    assert ahead in _stored(repo)
    _mark(repo, shared[0])
    before = _unindexed(repo)  # the marked row, rewritten
    repo.git("checkout", "-q", "-b", "other", shared[-1])
    repo.write("c.py", "c = 1\n")
    other = repo.commit("Render octonions on the side branch")
    indexer.run(repo.config())
    stored = _stored(repo)
    assert set(stored) == {*shared, other}
    assert stored[shared[0]][0] == "kept"  # not read again
    store = indexer.open_store(repo.config())
    assert [r["sha"] for r, _ in store.search_commits("render octonions", 5)] == [other]
    assert store.search_commits("parse quaternions", 5) == []  # the dropped row is not found
    assert store.get_meta(commits.META_HEAD) == other
    assert _unindexed(repo) == before + 1  # appended, not rebuilt


def test_a_branch_with_mostly_new_history_is_read_again(repo: Repo) -> None:
    repo.write("a.py", "a = 1\n")
    old = repo.commit("Start")
    indexer.run(repo.config())
    repo.git("checkout", "-q", "--orphan", "fresh")
    repo.write("b.py", "b = 1\n")
    new = [repo.commit("Fresh start")]
    repo.write("b.py", "b = 2\n")
    new.append(repo.commit("Fresh follow-up"))
    indexer.run(repo.config())
    assert set(_stored(repo)) == set(new) and old not in _stored(repo)
    assert _unindexed(repo) == 0  # rebuilt, index and all


def test_a_switch_repeated_after_a_crash_stores_each_commit_once(repo: Repo) -> None:
    base, _ahead = _indexed_then_one_more(repo)
    indexer.run(repo.config())
    repo.git("checkout", "-q", "-b", "other", base)
    repo.write("c.py", "c = 1\n")
    other = repo.commit("Add c")
    cfg = repo.config()
    store = indexer.open_store(cfg)
    with store.writing():
        commits.sync(store, cfg.root, other, limit=cfg.index.commit_history)  # not published
    indexer.run(cfg)
    shas = indexer.open_store(cfg).column("commits", ["sha"])["sha"]
    assert sorted(shas) == sorted([base, other])


def test_appended_commits_are_found_before_their_rows_are_indexed(repo: Repo) -> None:
    _indexed_then_one_more(repo)
    for i in range(4):
        repo.write(f"c{i}.py", f"c = {i}\n")
        repo.commit(f"Add c{i}")
    indexer.run(repo.config())  # most commits new: rebuilt, all indexed
    for i, word in enumerate(("sorted", "unsorted")):  # one file: other tables gain a row
        repo.write("b.py", f"b = {i + 2}\n")
        sha = repo.commit(f"Merge overlapping {word} intervals")
    indexer.run(repo.config())
    assert _unindexed(repo) == 2  # appended, not rebuilt
    store = indexer.open_store(repo.config())
    found = store.search_commits("overlapping unsorted intervals", 5)
    assert found[0][0]["sha"] == sha
    assert not store.indexes_lagging()
    assert store.indexes_lagging(floor=2)  # three: `optimize` folds them in once they are many


def test_an_append_repeated_after_a_crash_stores_each_commit_once(repo: Repo) -> None:
    base, ahead = _indexed_then_one_more(repo)
    cfg = repo.config()
    store = indexer.open_store(cfg)
    with store.writing():
        commits.sync(store, cfg.root, ahead, limit=100)  # stored, but never published
    indexer.run(cfg)
    shas = indexer.open_store(cfg).column("commits", ["sha"])["sha"]
    assert sorted(shas) == sorted([base, ahead])


def test_the_limit_keeps_the_newest_and_zero_keeps_none(repo: Repo) -> None:
    shas = []
    for i in range(4):
        repo.write(f"f{i}.py", f"x = {i}\n")
        shas.append(repo.commit(f"Commit {i}"))
    indexer.run(repo.config(**{"index.commit_history": 2}))
    assert set(_stored(repo)) == set(shas[2:])
    indexer.run(repo.config(**{"index.commit_history": 0}))
    assert _stored(repo) == {}


def test_a_full_rebuild_rereads_the_history(repo: Repo) -> None:
    repo.write("a.py", "a = 1\n")
    sha = repo.commit("Start")
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    with store.writing():
        store.write_commits([], append=False)  # lost rows, same HEAD
    indexer.run(repo.config())
    assert _stored(repo) == {}  # nothing moved: nothing reread
    indexer.run(repo.config(), full=True)
    assert set(_stored(repo)) == {sha}


def test_secrets_in_messages_never_reach_the_store(repo: Repo) -> None:
    key = "AKIA" + "Q3EGRT7ZXM4PLJ2B"
    repo.write("deploy.py", "REGION = 'eu'\n")
    repo.commit(f"Rotate the deploy key {key}\n\ntoken = ghp_{'a1B2c3D4e5' * 4}")
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    rows = store.table("commits").to_arrow().to_pylist()
    assert len(rows) == 1
    dump = repr(rows).lower()
    assert key.lower() not in dump and "a1b2c3d4e5" not in dump
    assert rows[0]["subject"].startswith("Rotate the deploy key")


def test_a_password_written_into_a_message_as_prose_never_reaches_the_store(repo: Repo) -> None:
    repo.write("deploy.py", "REGION = 'eu'\n")
    repo.commit("Staging: DB_PASSWORD=Pw9Hj3commit and password: Colon4Dfcommit\n")
    indexer.run(repo.config())
    rows = indexer.open_store(repo.config()).table("commits").to_arrow().to_pylist()
    dump = repr(rows).lower()
    assert "pw9hj3commit" not in dump and "colon4dfcommit" not in dump
    assert "staging" in dump


def test_extra_secret_patterns_apply_to_messages(repo: Repo) -> None:
    repo.write("a.py", "a = 1\n")
    repo.commit("Use the internal host corp-7731.internal for builds")
    indexer.run(repo.config(**{"secrets.extra_patterns": [r"corp-\d+\.internal"]}))
    rows = indexer.open_store(repo.config()).table("commits").to_arrow().to_pylist()
    assert "corp-7731" not in repr(rows) and "internal host" in rows[0]["subject"]


def test_a_folder_outside_git_has_no_commits(folder: Repo) -> None:
    folder.write("a.py", "a = 1\n")
    indexer.run(folder.config())
    assert _stored(folder) == {}


def test_commits_stored_in_an_older_format_are_read_again(repo: Repo) -> None:
    repo.write("a.py", "a = 1\n")
    sha = repo.commit("Fix #42: a was wrong")
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    assert [r["sha"] for r, _ in store.search_commits("ref42", 5)] == [sha]
    # as an index written before issue numbers were tokens left it
    store.write_commits([{**r, "text": "fix a was wrong"} for r in
                         store.table("commits").to_arrow().to_pylist()], append=False)  # fmt: skip
    store.set_meta({commits.META_FORMAT: "1"})
    manifest = indexer.manifest._manifest_path(repo.config())
    data = json.loads(manifest.read_text(encoding="utf-8"))
    del data["commits_format"]
    manifest.write_text(json.dumps(data), encoding="utf-8")
    assert indexer.open_store(repo.config()).search_commits("ref42", 5) == []
    indexer.run(repo.config())
    store = indexer.open_store(repo.config())
    assert [r["sha"] for r, _ in store.search_commits("ref42", 5)] == [sha]
    assert store.get_meta(commits.META_FORMAT) == commits.FORMAT


def test_the_table_is_the_last_commits_whatever_the_checkouts_before(repo: Repo) -> None:
    shas = []
    for i in range(8):
        repo.write(f"f{i}.py", f"x = {i}\n")
        shas.append(repo.commit(f"Change {i}"))
    cfg = repo.config(**{"index.commit_history": 4})
    for stop in (shas[3], shas[5]):  # forward two commits
        repo.git("checkout", "-q", stop)
        indexer.run(cfg)
    stepped = sorted(_stored(repo, **{"index.commit_history": 4}))
    assert stepped == sorted(shas[2:6])  # before: up to 1.5 times the limit, the oldest kept
