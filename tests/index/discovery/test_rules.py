"""The reasons a path is not indexed by its name, through a real run on a real repository."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from repomem.index import discovery, indexer, query
from repomem.index.discovery import rules
from tests.conftest import Repo
from tests.index.discovery.skips import skipped


def test_vendored_folders_are_skipped(repo: Repo) -> None:
    repo.write("vendor/lib/x.go", "package lib\n")
    repo.write("node_modules/pkg/index.js", "module.exports = 1\n")
    repo.write("src/main.go", "package main\n")
    assert skipped(repo)["vendored"] == ["node_modules/pkg/index.js", "vendor/lib/x.go"]


def test_secret_files_are_never_read(repo: Repo) -> None:
    repo.write(".env", "API_KEY=abc\n")
    repo.write("config/.env.production", "X=1\n")
    repo.write("certs/server.pem", "-----BEGIN CERTIFICATE-----\n")
    repo.write("keys/id_rsa", "-----BEGIN OPENSSH PRIVATE KEY-----\n")
    repo.write("keys/id_rsa.pub", "ssh-rsa AAAA test\n")
    result = skipped(repo)
    assert result["secret"] == [".env", "certs/server.pem", "config/.env.production", "keys/id_rsa"]
    assert query.search(repo.config(), "ssh rsa")  # the public key is indexed


def test_gitignore_and_repomemignore_are_respected(repo: Repo) -> None:
    repo.write(".gitignore", "build/\n")
    repo.write("build/out.py", "def built():\n    pass\n")
    repo.write(".repomemignore", "docs/\n*.txt\n")
    repo.write("docs/guide.md", "# Guide\n")
    repo.write("notes.txt", "notes\n")
    repo.write("src/a.py", "def a():\n    pass\n")
    result = skipped(repo)
    assert result["ignored"] == ["docs/guide.md", "notes.txt"]
    report_paths = query.status(repo.config())
    assert report_paths["files"] == 2  # .gitignore and src/a.py; nothing built
    with pytest.raises(Exception, match="No symbol"):
        query.symbol(repo.config(), "built")


def test_repomems_own_settings_are_not_indexed_as_the_projects_files(repo: Repo) -> None:
    repo.write(".repomem", "[index]\nmax_file_size = 200000  # server port and host\n")
    repo.write(".repomemignore", "build/\n")
    repo.write("sub/.repomem", "# a file of the project that shares the name\n")
    repo.write("app.py", "PORT = 8080\n")
    assert skipped(repo)["repomem"] == [".repomem", ".repomemignore"]
    assert "sub/.repomem" not in str(skipped(repo))


def test_an_edited_repomemignore_takes_effect_in_the_same_process(repo: Repo) -> None:
    # path verdicts are remembered per settings: a changed ignore file is a new setting
    repo.write("docs/guide.md", "# Guide\n")
    repo.write("src/a.py", "def a():\n    pass\n")
    assert "ignored" not in skipped(repo)
    repo.write(".repomemignore", "docs/\n")
    assert skipped(repo)["ignored"] == ["docs/guide.md"]
    assert skipped(repo, **{"index.exclude": ["src/"]})["ignored"] == [
        "docs/guide.md", "src/a.py",
    ]  # fmt: skip
    repo.write(".repomemignore", "")
    assert "ignored" not in skipped(repo)


def _new_process() -> None:
    rules._SPECS.clear()  # what a new CLI process starts with


def test_path_verdicts_are_saved_for_the_next_process(repo: Repo) -> None:
    repo.write("src/a.py", "def a():\n    pass\n")
    repo.write("src/b.py", "def b():\n    pass\n")
    cfg = repo.config()
    indexer.run(cfg)
    memo = indexer.state_dir(cfg) / "verdicts.json"
    saved = json.loads(memo.read_text(encoding="utf-8"))
    assert saved["verdicts"]["src/a.py"] is None
    # the next process takes them instead of matching each path again: shown by a saved
    # verdict no rule would give
    saved["verdicts"]["src/b.py"] = "ignored"
    memo.write_text(json.dumps(saved), encoding="utf-8")
    _new_process()
    listing = discovery.list_candidates(cfg, ["src/a.py", "src/b.py"], memo)
    assert listing.paths == ["src/a.py"]
    # saved under other settings (or other code): not taken
    saved["key"] = "0" * 32
    memo.write_text(json.dumps(saved), encoding="utf-8")
    _new_process()
    listing = discovery.list_candidates(cfg, ["src/a.py", "src/b.py"], memo)
    assert listing.paths == ["src/a.py", "src/b.py"]


def test_saved_verdicts_follow_changed_settings_and_new_files(repo: Repo) -> None:
    repo.write("docs/guide.md", "# Guide\n")
    repo.write("src/a.py", "def a():\n    pass\n")
    assert "ignored" not in skipped(repo)
    _new_process()
    repo.write(".repomemignore", "docs/\n")
    assert skipped(repo)["ignored"] == ["docs/guide.md"]
    _new_process()
    assert skipped(repo, **{"index.exclude": ["src/"]})["ignored"] == [
        "docs/guide.md", "src/a.py",
    ]  # fmt: skip
    _new_process()
    repo.write(".env.local", "TOKEN=x\n")  # a new path is judged, not taken as known
    assert skipped(repo)["secret"] == [".env.local"]


def test_config_exclude_globs_are_respected(repo: Repo) -> None:
    repo.write("tests/test_x.py", "def test_x():\n    pass\n")
    repo.write("src/x.py", "def x():\n    pass\n")
    assert skipped(repo, **{"index.exclude": ["tests/"]})["ignored"] == ["tests/test_x.py"]


def test_symlinks_escaping_the_repo_and_loops_are_skipped(repo: Repo, tmp_path: Path) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("SECRET_OUTSIDE = 1\n", encoding="utf-8")
    repo.write("real.py", "def real():\n    pass\n")
    os.symlink(outside, repo.root / "escape.py")
    os.symlink("loop_b", repo.root / "loop_a")
    os.symlink("loop_a", repo.root / "loop_b")
    os.symlink("missing.py", repo.root / "dangling.py")
    os.symlink("real.py", repo.root / "alias.py")
    (repo.root / "pkg").mkdir()
    os.symlink("pkg", repo.root / "pkg_link")
    result = skipped(repo)
    assert result["symlink-outside"] == ["escape.py"]
    assert result["symlink-loop"] == ["loop_a", "loop_b"]
    assert result["symlink-broken"] == ["dangling.py"]
    assert result["symlink-dir"] == ["pkg_link"]
    assert query.search(repo.config(), "SECRET_OUTSIDE") == []
    assert {d["path"] for d in query.symbol(repo.config(), "real")} == {"alias.py", "real.py"}


def test_a_symlink_to_a_credential_file_is_skipped_as_one(repo: Repo) -> None:
    repo.write(".env", "DB_PASSWORD=supersecretvalue99\n")
    (repo.root / "src").mkdir()
    os.symlink("../.env", repo.root / "src" / "settings.py")  # named like code
    os.symlink(".env", repo.root / "notes.txt")
    result = skipped(repo)
    assert sorted(result["secret"]) == [".env", "notes.txt", "src/settings.py"]
    assert query.search(repo.config(), "supersecretvalue99") == []


def test_a_store_path_inside_the_repository_is_never_indexed(repo: Repo) -> None:
    from repomem.index import indexer

    repo.write("app.py", "def transactions():\n    return 1\n")
    repo.write(".repomem", '[store]\npath = "idx"\n')
    cfg = repo.config()
    for _ in range(3):
        report = indexer.run(cfg)
    assert report.files_seen == 1 and report.changed == 0  # app.py, stable
    assert not [
        p for p in indexer.open_store(cfg).column("files", ["path"])["path"] if p.startswith("idx/")
    ]


def test_a_file_name_that_is_not_utf8_is_skipped_and_the_rest_indexed(repo: Repo) -> None:
    from repomem.memory import session

    repo.write("ok.py", "def ok():\n    return 1\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    session.start(cfg, title="edit")
    bad = os.path.join(os.fsencode(repo.root), b"latin1_\xe9.py")
    with open(bad, "wb") as f:
        f.write(b"def hidden():\n    return 2\n")
    repo.write("ok.py", "def ok():\n    return 3\n")
    report = indexer.run(cfg)
    assert report.skipped.get("bad-name") == 1
    assert query.search(cfg, "ok") and not query.search(cfg, "hidden")
    ended = session.end(cfg, summary="edited ok")  # the memory file cannot hold the name
    assert ended.session.modified == ["ok.py"] and ended.session.added == []
    session.start(cfg, title="rename")
    repo.git("mv", "ok.py", os.fsdecode(b"ok\xff.py"))
    repo.commit("rename to a name that is not UTF-8")
    ended = session.end(cfg, summary="renamed")
    assert ended.session.deleted == ["ok.py"] and ended.session.renamed == []
