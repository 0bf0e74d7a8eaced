from __future__ import annotations

import pytest

from repomem.pack import candidates
from tests.conftest import Repo
from tests.pack.ranking import index_by_path, ranked_in


def test_the_best_chunk_scores_its_file_and_names_its_function(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(candidates.WEIGHTS, "bm25_chunk", 1.0)
    filler = "".join(f"def step_{i}(data):\n    return data + {i}\n\n" for i in range(40))
    body = "    # renew the expired certificate chain before the handshake\n    return chain\n"
    repo.write("pkg/big.py", f"{filler}def refresh(chain):\n{body}\n{filler}")
    repo.write("pkg/other.py", "def certificate_path():\n    return 'x'\n")
    repo.commit()
    ranked = index_by_path(ranked_in(repo, "Renewing an expired certificate chain fails"))
    big = ranked["pkg/big.py"]
    assert big.signals["bm25_chunk"] == pytest.approx(1.0)
    (hit,) = [h for h in big.symbols.values() if h.name == "refresh"]
    assert hit.reason == "has a body that matches the task"
    assert hit.start_line == 121


def test_no_chunk_search_while_its_weight_is_zero(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(candidates.WEIGHTS, "bm25_chunk", 0.0)
    repo.write("pkg/a.py", "def refresh(chain):\n    return 'renew expired certificate chain'\n")
    repo.commit()
    assert all("bm25_chunk" not in c.signals for c in ranked_in(repo, "renew expired certificate"))


def test_a_task_naming_an_issue_finds_the_commits_that_name_it(repo: Repo) -> None:
    for name in ("shapes", "colors", "units", "values", "bases"):
        repo.write(f"pkg/{name}.py", f"def {name}_value(x):\n    return x\n")
    repo.commit("Start")
    repo.write("pkg/bases.py", "def bases_value(x):\n    return -x\n")
    fix = repo.commit("Keep the dotted names of stand-ins (#8164)")
    repo.write("pkg/units.py", "def units_value(x):\n    return x + 1\n")
    repo.commit("Tidy #816 and #81640")
    task = "Subclass documentation shows a truncated parent, a regression of #8164"
    ranked = ranked_in(repo, task)
    assert ranked[0].path == "pkg/bases.py"
    assert f"past commit like the task ({fix[:10]} “Keep the dotted names" in ranked[0].reason
    assert "commits" not in next(c for c in ranked if c.path == "pkg/units.py").signals


def test_files_changed_by_commits_like_the_task_rise(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("shapes", "colors", "units", "values"):
        repo.write(f"pkg/{name}.py", f"def {name}_value(x):\n    return x\n")
    repo.commit("Start")
    repo.write("pkg/values.py", "def values_value(x):\n    return -x\n")
    fix = repo.commit("Fix the remainder of negative operands\n\nIt rounded toward zero.")
    repo.write("pkg/shapes.py", "def shapes_value(x):\n    return x + 1\n")
    repo.write("pkg/colors.py", "def colors_value(x):\n    return x + 1\n")
    repo.commit("Remainder cleanup")
    repo.write("pkg/shapes.py", "def shapes_value(x):\n    return x + 2\n")
    repo.write("pkg/units.py", "def units_value(x):\n    return x + 1\n")
    repo.commit("Remainder cleanup")  # shapes' second match: its best commit counts, not both
    task = "The remainder of negative operands is wrong"
    ranked = ranked_in(repo, task)
    signal = {c.path: c.signals.get("commits", 0.0) for c in ranked}
    assert ranked[0].path == "pkg/values.py"  # last by name: only its history lifts it
    assert signal["pkg/values.py"] == pytest.approx(1.0)
    # weaker matches, each shared by two files
    assert 0 < signal["pkg/shapes.py"] == signal["pkg/colors.py"] == signal["pkg/units.py"] < 0.5
    assert f"past commit like the task ({fix[:10]} “Fix the remainder" in ranked[0].reason
    monkeypatch.setitem(candidates.WEIGHTS, "commits", 0.0)
    assert all("commits" not in c.signals for c in ranked_in(repo, task))
