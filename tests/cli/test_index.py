from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from repomem.cli import app
from repomem.index import indexer
from tests.conftest import Repo

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def all_commands() -> dict[str, Any]:
    """Every command, sub-commands of groups (`hooks install`) included: {words: command}."""
    out: dict[str, Any] = {}
    for c in app.registered_commands:
        out[c.name or c.callback.__name__] = c  # type: ignore[union-attr]
    for group in app.registered_groups:
        sub = group.typer_instance
        assert group.name and sub is not None and sub.info.help, group
        for c in sub.registered_commands:
            out[f"{group.name} {c.name or c.callback.__name__}"] = c  # type: ignore[union-attr]
    return out


def command_names() -> list[str]:
    return sorted(all_commands())


@pytest.mark.parametrize("name", sorted(all_commands()))
def test_every_command_has_help_text(name: str) -> None:
    code, out, _ = run(*name.split(), "--help")
    assert code == 0
    assert "Usage" in out
    cmd = all_commands()[name]
    assert cmd.callback is not None and cmd.callback.__doc__


@pytest.mark.parametrize("name", sorted(all_commands()))
def test_every_command_is_summed_up_in_one_line(name: str) -> None:
    # The command list shows a docstring's first paragraph with its line breaks kept: a summary
    # wrapped in the source wraps mid-sentence in `repomem --help`.
    doc = all_commands()[name].callback.__doc__ or ""
    summary = doc.strip().split("\n\n")[0]
    assert "\n" not in summary, summary


def test_command_groups_are_listed_with_their_sub_commands() -> None:
    assert {"hooks install", "hooks uninstall", "hooks status", "watch"} <= set(command_names())


def test_dash_c_runs_as_if_started_in_that_directory(repo: Repo) -> None:
    repo.write("lib.py", "def located_here():\n    return 1\n")
    repo.commit()
    code, out, _ = run("-C", str(repo.root), "index", "--quiet")
    assert code == 0 and out == ""
    code, out, _ = run("-C", str(repo.root), "symbol", "located_here", "--json")
    assert code == 0
    (sym,) = json.loads(out)
    assert sym["path"] == "lib.py"
    assert sym["body"] == "def located_here():\n    return 1"


def test_init_writes_the_config_and_builds_the_index(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    pass\n")
    code, out, _ = run("-C", str(repo.root), "init")
    assert code == 0, out
    assert (repo.root / ".repomem").is_file()
    assert "Indexed" in out and "Next:" in out and ' pack "the task"' in out
    assert "Redacted" not in out  # the example config holds no secret
    code, out, _ = run("-C", str(repo.root), "status", "--json")
    data = json.loads(out)
    assert data["files"] == 1 and data["skipped"]["repomem"] == 1  # a.py; the new .repomem not


def test_init_names_the_folder_it_was_given_in_its_next_steps(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    pass\n")
    code, out, _ = run("-C", str(repo.root), "init")
    assert code == 0, out
    steps = out[out.index("Next:") :].splitlines()[1:]
    assert len(steps) == 5
    assert all(line.strip().startswith(f"repomem -C {repo.root} ") for line in steps), steps


def test_status_json_has_the_documented_keys(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    pass\n")
    repo.commit()
    run("-C", str(repo.root), "index", "-q")
    code, out, _ = run("-C", str(repo.root), "status", "--json")
    assert code == 0
    data = json.loads(out)
    assert set(data) == {
        "root",
        "git",
        "store",
        "schema_version",
        "files",
        "symbols",
        "references",
        "commits",
        "languages",
        "skipped",
        "store_bytes",
        "head",
        "indexed_commit",
        "indexed_at",
        "age_seconds",
        "pending",
        "fresh",
        "llm_rerank",
    }
    assert data["llm_rerank"] is None  # off by default
    assert data["fresh"] is True
    assert data["commits"] == 1


def test_search_json_filters_by_kind_and_path(repo: Repo) -> None:
    repo.write("src/parse.py", "def parse_config(path):\n    '''Read the config.'''\n")
    repo.write("src/other.py", "class ConfigParser:\n    pass\n")
    repo.write("tests/test_parse.py", "def test_parse_config():\n    pass\n")
    run("-C", str(repo.root), "index", "-q")
    code, out, _ = run("-C", str(repo.root), "search", "parseConfig", "--json")
    hits = json.loads(out)
    assert code == 0 and hits[0]["name"] in ("parse_config", "test_parse_config")
    assert set(hits[0]) == {
        "type",
        "path",
        "name",
        "qualname",
        "kind",
        "signature",
        "doc",
        "start_line",
        "end_line",
        "score",
    }
    code, out, _ = run("-C", str(repo.root), "search", "config", "--kind", "class", "--json")
    assert [h["name"] for h in json.loads(out)] == ["ConfigParser"]
    code, out, _ = run("-C", str(repo.root), "search", "config", "--path", "src/*", "--json")
    assert json.loads(out) and all(h["path"].startswith("src/") for h in json.loads(out))
    code, out, err = run("-C", str(repo.root), "search", "config", "--path", "[[")
    assert (code, out) == (1, "")  # was "No matches." with status 0
    assert err.startswith("Error: The path glob `[[` has a `[` that is never closed")
    assert err.count("\n") == 1


def test_unknown_symbol_exits_1_with_one_line(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    run("-C", str(repo.root), "index", "-q")
    code, out, err = run("-C", str(repo.root), "symbol", "nothing_like_this")
    assert code == 1
    assert err.strip().count("\n") == 0 and err.startswith("Error: No symbol named")


def test_symbol_says_when_there_are_no_references_and_how_many_it_left_out(repo: Repo) -> None:
    callers = "".join(f"def use_{i}():\n    return helper()\n\n" for i in range(53))
    repo.write("lib.py", "def helper():\n    return 1\n\n\ndef lonely():\n    return 2\n")
    repo.write("use.py", "from lib import helper\n\n" + callers)
    run("-C", str(repo.root), "index", "-q")
    code, out, _ = run("-C", str(repo.root), "symbol", "lonely")
    assert code == 0 and out.rstrip().endswith("No references in the index.")
    code, out, _ = run("-C", str(repo.root), "symbol", "helper", "--no-body")
    shown = [line for line in out.splitlines() if line.startswith("  use.py:")]
    assert len(shown) == 50
    assert out.rstrip().endswith("… 4 more (all of them with --json)")  # 53 calls + 1 import


def test_searching_before_indexing_says_what_to_do(repo: Repo) -> None:
    code, _, err = run("-C", str(repo.root), "search", "x")
    assert code == 1
    assert "run `repomem index` first" in err


def test_a_bad_config_is_a_one_line_error_not_a_traceback(repo: Repo) -> None:
    repo.write(".repomem", "[index]\nworkers = 'two'\n")
    code, _, err = run("-C", str(repo.root), "index")
    assert code == 1
    assert err.startswith("Error: Config key `index.workers`")
    assert "Traceback" not in err


def test_a_missing_directory_is_a_one_line_error(tmp_path: object) -> None:
    code, _, err = run("-C", "/nonexistent/place", "status")
    assert code == 1 and "does not exist" in err


def test_unknown_kind_is_rejected(repo: Repo) -> None:
    code, _, err = run("-C", str(repo.root), "search", "x", "--kind", "gizmo")
    assert code == 1 and "unknown kind" in err


def test_the_console_script_runs_and_help_does_not_import_lancedb() -> None:
    code = (
        "import sys; from repomem.cli import app;"
        "sys.argv=['repomem','--help'];"
        "import contextlib, io\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        "  try: app()\n"
        "  except SystemExit: pass\n"
        "print('lancedb' in sys.modules, 'anthropic' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False False"


def test_pack_prints_markdown_and_writes_json_to_a_file(repo: Repo) -> None:
    repo.write("calc.py", "def add_numbers(a, b):\n    '''Add.'''\n    return a + b\n")
    repo.commit()
    code, out, err = run("-C", str(repo.root), "pack", "add_numbers is wrong", "--budget", "500")
    assert code == 0, err
    assert out.startswith("# Context pack: add_numbers is wrong")
    assert "def add_numbers" in out
    target = repo.root.parent / "pack.json"
    code, out, _ = run(
        "-C", str(repo.root), "pack", "add", "--format", "json", "--out", str(target)
    )
    assert code == 0 and out == ""
    assert json.loads(target.read_text(encoding="utf-8"))["ranking"][0]["path"] == "calc.py"


def test_a_task_file_in_the_checkout_is_left_out_of_its_own_pack(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("calc.py", "def add_numbers(a, b):\n    return a + b\n")
    repo.write("TASK.md", "add_numbers adds the numbers wrong\n")
    monkeypatch.chdir(repo.root)
    code, out, err = run("pack", "--task-file", "TASK.md", "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [r["path"] for r in data["ranking"]] == ["calc.py"]
    assert data["uncommitted"] == ["calc.py"]


def test_pack_reads_the_task_from_a_file_and_reports_bad_input(repo: Repo) -> None:
    repo.write("calc.py", "def add_numbers(a, b):\n    return a + b\n")
    task = repo.root.parent / "task.txt"
    task.write_text("fix add_numbers\n", encoding="utf-8")
    code, out, _ = run("-C", str(repo.root), "pack", "--task-file", str(task))
    assert code == 0 and "add_numbers" in out
    code, _, err = run("-C", str(repo.root), "pack", "--task-file", str(task) + ".missing")
    assert code == 1 and err.startswith("Error: Cannot read the task file")
    code, _, err = run("-C", str(repo.root), "pack", "other words", "--task-file", str(task))
    assert code == 1 and "not both" in err
    code, _, err = run("-C", str(repo.root), "pack", "x", "--budget", "5")
    assert code == 1 and "below the smallest pack budget of 200" in err
    code, _, err = run("-C", str(repo.root), "pack")
    assert code == 1 and "No task given" in err


TOO_SMALL = "is 50 tokens, below the smallest pack budget of 200; give at least 200.\n"


def test_a_pack_budget_below_the_minimum_gets_one_message_however_it_is_given(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    # `--budget 0` was click's "greater than or equal to 1", `--budget 50` "the minimum is
    # 200", and REPOMEM_PACK_BUDGET=-1 "must be at least 0"
    repo.write("calc.py", "def add_numbers(a, b):\n    return a + b\n")
    repo.commit()
    pack = ("-C", str(repo.root), "pack", "add numbers")
    for budget in ("0", "-1", "50"):
        code, out, err = run(*pack, "--budget", budget)
        assert (code, out) == (1, "")
        assert err == f"Error: `--budget` {TOO_SMALL.replace('50', budget, 1)}"
    monkeypatch.setenv("REPOMEM_PACK_BUDGET", "50")
    code, _, err = run(*pack)
    assert code == 1
    env = "environment variable REPOMEM_PACK_BUDGET"
    assert err == f"Error: Config key `pack.budget` in {env} {TOO_SMALL}"
    monkeypatch.delenv("REPOMEM_PACK_BUDGET")
    repo.write(".repomem", "[server]\nmax_pack_tokens = 50\n")
    code, _, err = run(*pack)
    where = repo.root / ".repomem"
    assert err == f"Error: Config key `server.max_pack_tokens` in `{where}` {TOO_SMALL}"
    assert code == 1
    repo.write(".repomem", "")
    code, out, _ = run(*pack, "--budget", "200")  # the minimum itself is a budget
    assert code == 0 and "add_numbers" in out


def test_status_says_when_the_index_was_last_updated(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    pass\n")
    repo.commit()
    run("-C", str(repo.root), "index", "-q")
    code, out, _ = run("-C", str(repo.root), "status")
    assert code == 0
    (line,) = [x for x in out.splitlines() if x.startswith("Updated:")]
    assert line.endswith(" s ago)")


def test_status_says_an_index_of_an_older_schema_is_stale_and_why(repo: Repo) -> None:
    repo.write("a.py", "def a():\n    pass\n")
    repo.commit()
    run("-C", str(repo.root), "index", "-q")
    indexer.open_store(repo.config()).set_meta({"schema_version": "3"})
    code, out, _ = run("-C", str(repo.root), "status")
    assert code == 0
    (line,) = [x for x in out.splitlines() if x.startswith("Commit:")]
    assert line.endswith("(stale: 0 changed, 0 deleted, older index schema)")


def test_undecodable_bytes_in_a_symbol_name_and_an_unwritable_out_are_one_line_errors(
    repo: Repo, tmp_path: Path
) -> None:
    repo.write("a.py", "def get_value():\n    return 1\n")
    r = str(repo.root)
    assert run("-C", r, "index", "--quiet")[0] == 0
    code, _, err = run("-C", r, "symbol", "get\udcffValue")  # how Python passes byte 0xff
    assert code == 1 and err.startswith("Error: No symbol named `get\ufffdValue`"), err
    missing = tmp_path / "no-such-dir" / "pack.md"
    code, _, err = run("-C", r, "pack", "get_value", "--out", str(missing), "--no-refresh")
    assert code == 1 and err.strip().count("\n") == 0
    assert f"cannot write `{missing}` (No such file or directory)" in err, err


def test_a_repository_git_itself_refuses_is_one_line_naming_gits_error(repo: Repo) -> None:
    repo.write("a.py", "x = 1\n")
    repo.commit()
    with open(repo.root / ".git" / "config", "a", encoding="utf-8") as fh:
        fh.write("garbage [[[\n")
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    out = subprocess.run(
        [sys.executable, "-m", "repomem", "-C", str(repo.root), "index"],
        capture_output=True, text=True, env=env, check=False,
    )  # fmt: skip
    assert out.returncode == 1 and "Traceback" not in out.stderr
    assert out.stderr.startswith("Error: git failed (fatal: bad config line")


def test_git_location_variables_from_a_surrounding_git_do_not_redirect_repomem(
    repo: Repo, tmp_path: Path
) -> None:
    # A hook manager or `git rebase --exec` runs repomem with GIT_DIR and GIT_WORK_TREE set,
    # here relative to a sub-folder: repomem's git commands must still be about this work
    # tree (they listed every file as uncommitted), and another repository's GIT_DIR is not
    # followed either.
    repo.write("src/pkg/mod.py", "def handler():\n    return 1\n")
    repo.write("README.md", "# Demo\n")
    repo.commit()
    other = tmp_path / "other"
    other.mkdir()
    subprocess.run(["git", "init", "-q", str(other)], check=True)
    cwd = repo.root / "src" / "pkg"
    base = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}

    def cli(env: dict[str, str], *args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "repomem", *args], cwd=cwd, env={**base, **env},
            capture_output=True, text=True, check=True,
        )  # fmt: skip
        return done.stdout

    relative = {"GIT_DIR": "../../.git", "GIT_WORK_TREE": "../.."}
    cli(relative, "index")
    pack = json.loads(cli(relative, "pack", "handler", "--format", "json", "--no-refresh"))
    assert pack["uncommitted"] == []
    status = json.loads(cli({"GIT_DIR": str(other / ".git")}, "status", "--json"))
    assert Path(status["root"]) == repo.root and status["fresh"] is True
    assert status["head"] == repo.git("rev-parse", "HEAD").strip()


def ctrl_c_index(repo: Repo, *args: str, started: Any) -> tuple[int, str, str]:
    """`repomem index ARGS` in a process group of its own, sent a terminal's Ctrl-C once
    `started()` holds and its parse pool's workers run: its status, stdout and stderr."""
    import signal
    import time

    from tests.index.indexer.test_parse import workers_of

    proc = subprocess.Popen(
        [sys.executable, "-m", "repomem", "-C", str(repo.root), "index", *args],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ),
        start_new_session=True,  # its own process group, which a terminal's Ctrl-C reaches
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    deadline = time.monotonic() + 120
    while not started() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.005)
    # the parse pool's workers started (a Ctrl-C while they start is ignored by design)
    listed = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").exists()  # Linux
    while listed and not workers_of(proc.pid) and proc.poll() is None:
        if time.monotonic() > deadline:
            break
        time.sleep(0.005)
    time.sleep(0.3)  # into the parse
    os.killpg(proc.pid, signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        pytest.fail("the run hung after Ctrl-C")
    return proc.returncode, out, err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_ctrl_c_during_a_full_build_says_the_next_run_starts_it_over(repo: Repo) -> None:
    from tests.index.indexer.cases import populate, rebuilding

    populate(repo, 1200)
    repo.commit()
    journal = repo.root / ".git" / "repomem" / "journal.json"
    code, out, err = ctrl_c_index(repo, "--full", started=lambda: rebuilding(journal))
    assert code == 130, (code, out, err)
    assert err.startswith("Interrupted: a full build is not resumed, so its work so far is lost")
    assert "Traceback" not in err, err
    code, out, _ = run("-C", str(repo.root), "index")
    assert code == 0 and "(full build)" in out  # what the message said


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and process groups")
def test_ctrl_c_during_an_update_says_its_finished_work_is_kept(repo: Repo) -> None:
    from tests.index.indexer.cases import MODULE, populate

    populate(repo, 1200)
    repo.commit()
    indexer.run(repo.config())
    for i in range(1200):
        repo.write(f"pkg/mod_{i}.py", MODULE.format(n=i) + "\nEDITED = 1\n")
    code, out, err = ctrl_c_index(repo, started=lambda: True)
    assert code == 130, (code, out, err)
    assert err.startswith("Interrupted: finished work is kept") and "Traceback" not in err, err
    code, out, _ = run("-C", str(repo.root), "index")
    assert code == 0 and "(full build)" not in out, out


def test_a_huge_symbol_name_is_said_back_cut_on_one_line(repo: Repo) -> None:
    repo.write("a.py", "def alpha():\n    return 1\n")
    run("-C", str(repo.root), "index", "-q")
    code, _, err = run("-C", str(repo.root), "symbol", "beta_" + "x" * 5000 + "\nmore")
    assert code == 1 and err.count("\n") == 1 and len(err) < 600 and "…" in err, err[:300]
