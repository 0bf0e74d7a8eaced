from __future__ import annotations

import math

import pytest

from repomem.index import indexer
from repomem.pack import rank
from repomem.pack import task as tasks
from tests.conftest import Repo
from tests.pack.ranking import ranked_in


def test_a_file_referenced_by_many_loses_by_how_many(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = "def parse_config(path):\n    '''Read the settings file.'''\n    return path\n"
    repo.write("pkg/hub.py", text)
    repo.write("pkg/leaf.py", text.replace("parse_config", "load_config"))
    for i in range(15):  # 15 modules use the hub
        repo.write(f"pkg/user_{i}.py", f"from pkg.hub import parse_config\n\nX{i} = parse_config\n")
    repo.write("pkg/caller.py", "from pkg.leaf import load_config\n\nY = load_config\n")
    repo.commit()
    task = "Reading the settings file fails"
    monkeypatch.setattr(rank, "HUB_WEIGHT", 0.0)
    plain = {c.path: c.score for c in ranked_in(repo, task)}
    monkeypatch.setattr(rank, "HUB_WEIGHT", 0.12)
    damped = {c.path: c.score for c in ranked_in(repo, task)}
    assert plain["pkg/hub.py"] - damped["pkg/hub.py"] == pytest.approx(0.12 * math.log(16))
    assert plain["pkg/leaf.py"] - damped["pkg/leaf.py"] == pytest.approx(0.12 * math.log(2))
    monkeypatch.setattr(rank, "HUB_WEIGHT", 10.0)  # more than any file's score: floored at 0
    floored = {c.path: c.score for c in ranked_in(repo, task)}
    assert floored["pkg/hub.py"] == 0.0 and plain["pkg/hub.py"] > 0


def test_uncommitted_work_rises_without_seeding_anything(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("pkg/parser.py", "def parse_header(line):\n    return line.split(':')\n")
    repo.write("pkg/wip.py", "from pkg.helpers import tidy\n\ndef draft():\n    return tidy()\n")
    repo.write("pkg/helpers.py", "def tidy():\n    return 1\n")
    for i in range(12):
        repo.write(f"pkg/other_{i}.py", f"def header_{i}(line):\n    return line\n")
    repo.commit()
    cfg = repo.config()
    indexer.run(cfg)
    store = indexer.open_store(cfg)
    signals = tasks.analyse("parse_header drops the value of a header line")
    state = indexer.state_dir(cfg)
    clean = {c.path: c for c in rank.rank(store, signals, graph_cache=state)}
    ranked = rank.rank(
        store, signals, graph_cache=state, uncommitted=["pkg/wip.py", "gone.py", ".env"]
    )
    work = {c.path: c for c in ranked}
    assert ranked[0].path == "pkg/parser.py"  # the match still leads
    assert work["pkg/wip.py"].signals["work"] == 1.0
    assert "has uncommitted changes" in work["pkg/wip.py"].reason
    assert work["pkg/wip.py"].score > clean.get("pkg/wip.py", rank.Candidate("")).score
    assert "gone.py" not in work and ".env" not in work  # only indexed files
    # a prior, not evidence: what it imports gains nothing from it
    assert work["pkg/helpers.py"].score == clean["pkg/helpers.py"].score
    # a change sweeping over many files says less of each
    sweep = [f"pkg/other_{i}.py" for i in range(12)] + ["pkg/wip.py"]
    spread = rank.rank(store, signals, graph_cache=state, uncommitted=sweep)
    assert {c.signals.get("work") for c in spread if c.path in sweep} == {1.0}  # 13 <= 20
    monkeypatch.setattr(rank, "WORK_FILES", 4)
    spread = rank.rank(store, signals, graph_cache=state, uncommitted=sweep)
    assert {c.signals.get("work") for c in spread if c.path in sweep} == {4 / 13}
