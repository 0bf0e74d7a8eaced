from __future__ import annotations

import json

from typer.testing import CliRunner

from repomem.cli import app
from tests.conftest import Repo

runner = CliRunner()


def test_doctor_exits_1_on_a_problem_and_fix_repairs_it(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    pass\n")
    repo.commit()
    result = runner.invoke(app, ["-C", str(repo.root), "doctor"])
    assert result.exit_code == 1
    assert "PROBLEM  store     No index yet.  (--fix repairs this)" in result.stdout
    result = runner.invoke(app, ["-C", str(repo.root), "doctor", "--fix"])
    assert result.exit_code == 0, result.stdout
    assert "All checks pass after the repair." in result.stdout
    result = runner.invoke(app, ["-C", str(repo.root), "doctor", "--json"])
    data = json.loads(result.stdout)
    assert data["ok"] is True and {c["name"] for c in data["checks"]} >= {"rows", "hooks"}
