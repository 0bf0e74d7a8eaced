from __future__ import annotations

import json

from typer.testing import CliRunner

from repomem.cli import app
from tests.conftest import Repo

runner = CliRunner()


def test_hooks_install_status_and_uninstall(repo: Repo) -> None:
    result = runner.invoke(app, ["-C", str(repo.root), "hooks", "install"])
    assert result.exit_code == 0, result.stderr
    assert result.stdout.count(" installed") == 4 and "Log:" in result.stdout
    result = runner.invoke(app, ["-C", str(repo.root), "hooks", "status", "--json"])
    data = json.loads(result.stdout)
    assert [h["state"] for h in data["hooks"]] == ["installed"] * 4
    assert data["merge_driver"] == {"driver": None, "gitattributes": False}
    result = runner.invoke(app, ["-C", str(repo.root), "hooks", "uninstall"])
    assert result.exit_code == 0 and result.stdout.count("not installed") == 4


def test_hooks_outside_git_exit_1_with_one_line(folder: Repo) -> None:
    result = runner.invoke(app, ["-C", str(folder.root), "hooks", "install"])
    assert result.exit_code == 1
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1


def test_a_hook_of_the_users_own_is_not_called_a_replacement_after_uninstall(repo: Repo) -> None:
    hook = repo.root / ".git" / "hooks" / "post-commit"
    hook.write_text("#!/bin/sh\necho mine\n", encoding="utf-8")
    hook.chmod(0o755)
    runner.invoke(app, ["-C", str(repo.root), "hooks", "install"])
    result = runner.invoke(app, ["-C", str(repo.root), "hooks", "uninstall"])
    assert result.exit_code == 0 and hook.read_text(encoding="utf-8").endswith("echo mine\n")
    (line,) = [x for x in result.stdout.splitlines() if x.startswith("post-commit")]
    assert "replaced" not in line and "another hook (install keeps it" in line


def test_the_text_output_says_whether_the_merge_driver_is_registered(repo: Repo) -> None:
    # `install --merge-driver` printed the hooks only: nothing said the driver was registered
    r = str(repo.root)
    out = runner.invoke(app, ["-C", r, "hooks", "install", "--merge-driver"]).stdout
    assert "Merge driver: registered for REPOMEM.md" in out, out
    out = runner.invoke(app, ["-C", r, "hooks", "uninstall"]).stdout
    assert "Merge driver: not registered" in out and "--merge-driver" in out, out


def test_a_memory_file_outside_the_repository_is_one_line_not_a_traceback(repo: Repo) -> None:
    repo.write(".repomem", '[memory]\nfile = "../outside.md"\n')
    for extra in ([], ["--json"]):
        result = runner.invoke(app, ["-C", str(repo.root), "hooks", "status", *extra])
        assert result.exit_code == 1 and isinstance(result.exception, SystemExit), result
        assert result.stderr.startswith("Error: `memory.file`"), result.stderr
        assert result.stderr.count("\n") == 1, result.stderr
