"""Where the store lives, the settings its content is built under, and the reader kept
for the life of a process (repomem/index/indexer/location.py)."""

from __future__ import annotations

import time

from repomem.index import indexer, query
from tests.conftest import Repo
from tests.index.indexer.cases import (
    populate,
    rebuilding,
    start_build,
)


def test_store_lives_in_the_git_directory_so_it_is_never_committed(repo: Repo) -> None:
    populate(repo, 1)
    repo.commit()
    indexer.run(repo.config())
    assert (repo.root / ".git" / "repomem" / "lance").is_dir()
    assert repo.git("status", "--porcelain") == ""


def test_changing_the_settings_that_decide_file_content_rebuilds_the_index(repo: Repo) -> None:
    repo.write("conf.py", 'INTERNAL_CODE = "ACME-7734-SECRET"\n')
    repo.write("README.md", "# Zebra\n\nAbout zebras.\n")
    repo.commit()
    indexer.run(repo.config())
    cfg = repo.config(**{"secrets.extra_patterns": ["ACME-[0-9]+-SECRET"]})
    assert query.status(cfg)["fresh"] is False
    assert indexer.run(cfg).full
    assert "ACME-7734" not in (indexer.open_store(cfg).file("conf.py") or {})["text"]
    assert query.status(cfg)["fresh"] is True
    off = repo.config(
        **{"secrets.extra_patterns": ["ACME-[0-9]+-SECRET"], "index.index_text_files": False}
    )
    indexer.run(off)
    on = repo.config(**{"secrets.extra_patterns": ["ACME-[0-9]+-SECRET"]})
    indexer.run(on)
    assert [h["path"] for h in query.search(on, "zebras")][:1] == ["README.md"]


def test_readers_keep_the_published_index_while_a_full_rebuild_runs(repo: Repo) -> None:
    populate(repo, 400)
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    journal = repo.root / ".git" / "repomem" / "journal.json"
    proc = start_build(repo, full=True)
    during = missing = 0
    reader = indexer.reader(cfg)  # kept, as the MCP server keeps it
    while proc.poll() is None:
        in_rebuild = rebuilding(journal)
        found = bool(reader.symbols_named("func_7")) and bool(query.search(cfg, "helper_7"))
        if in_rebuild and rebuilding(journal):  # the whole read fell inside the rebuild
            during += 1
            missing += not found
        time.sleep(0.01)
    _, err = proc.communicate()
    assert proc.returncode == 0, err.decode()
    assert during > 0, "no read fell inside the rebuild"
    assert missing == 0, f"{missing} of {during} reads during the rebuild found nothing"
