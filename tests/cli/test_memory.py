"""The memory and session commands, end to end through the CLI."""

from __future__ import annotations

import json
import os

import pytest

from tests.cli.test_index import run
from tests.conftest import Repo, killed_after_memory_write


def test_a_three_session_scenario_through_the_cli(repo: Repo) -> None:
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.commit("init")
    r = str(repo.root)
    code, out, _ = run("-C", r, "session", "start", "--title", "Floats", "--agent", "test")
    assert code == 0 and out.startswith("Started s-")
    code, out, _ = run("-C", r, "remember", "add() is pure.", "--cite", "calc.py:add")
    assert code == 0 and "Remembered f-" in out
    fid = out.split()[1]
    repo.write("calc.py", "def add(a, b):\n    return float(a) + b\n")
    repo.commit("Make add float-safe")
    code, out, _ = run("-C", r, "session", "end", "--summary", "Floats.", "--learned",
                       "add() converts to float.", "--next", "Add sub()")  # fmt: skip
    assert code == 0 and "1 commit, 1 file, " in out and "1 fact (version" in out
    code, out, _ = run("-C", r, "memory", "check")
    assert code == 0 and f"STALE {fid}" in out
    code, out, _ = run("-C", r, "memory", "confirm", fid)
    assert code == 0
    run("-C", r, "session", "start", "--title", "Second")
    code, out, _ = run("-C", r, "memory", "supersede", fid, "add() is pure and float-safe.",
                       "--why", "floats")  # fmt: skip
    assert code == 0 and f"Superseded {fid}" in out
    run("-C", r, "session", "end")
    run("-C", r, "session", "start", "--title", "Third")
    run("-C", r, "session", "end", "--summary", "Nothing much.")
    code, out, _ = run("-C", r, "session", "list", "--json")
    data = json.loads(out)
    assert [s["title"] for s in data["sessions"]] == ["Third", "Second", "Floats"]
    code, out, _ = run("-C", r, "session", "list")
    assert "Floats  (1 commit)" in out and "Third  (0 commits)" in out
    code, out, _ = run("-C", r, "memory", "show", "--json")
    shown = json.loads(out)
    assert shown["version"] >= 7 and [n["text"] for n in shown["next_steps"]] == ["Add sub()"]
    assert fid not in [f["id"] for f in shown["facts"]]  # superseded: only with --all
    code, out, _ = run("-C", r, "memory", "show", "--all")
    assert f"{fid}  superseded" in out
    code, out, _ = run("-C", r, "memory", "recall", "float")
    assert code == 0 and "float" in out
    code, out, _ = run("-C", r, "memory", "log")
    assert code == 0 and "working" in out
    code, out, _ = run("-C", r, "memory", "diff")
    assert code == 0 and "~ " + fid + ": valid -> superseded" in out


def test_mistakes_get_one_line_errors(repo: Repo) -> None:
    r = str(repo.root)
    for args, words in [
        (("remember", "x", "--cite", "nope.py"), "no such file"),
        (("remember", "token ghp_aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"), "credential"),
        (("remember", "x", "--kind", "rumour"), "Unknown kind"),
        (("memory", "forget", "f-missing"), "No fact `f-missing`"),
        (("memory", "confirm", "f-missing"), "No fact"),
        (("session", "end"), "No session is open"),
        (("memory", "diff", "42"), "No version 42"),
        (("memory", "merge", "a"), "give all three"),
    ]:
        code, _, err = run("-C", r, *args)
        assert code == 1, args
        assert err.startswith("Error: ") and words in err and err.count("\n") == 1, (args, err)


def test_memory_merge_without_conflicts_says_so(repo: Repo) -> None:
    run("-C", str(repo.root), "remember", "A fact.")
    code, out, _ = run("-C", str(repo.root), "memory", "merge")
    assert code == 0 and "No conflict markers" in out


def test_memory_show_and_recall_redact_a_credential_written_into_the_file_by_hand(
    repo: Repo,
) -> None:
    token = "ghp_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.commit("init")
    r = str(repo.root)
    assert run("-C", r, "remember", "add() is pure.")[0] == 0
    path = repo.root / "REPOMEM.md"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            "is pure.", f"is pure ({token}); export DB_PASSWORD=Sup3rS3cretPw"
        ),
        encoding="utf-8",
    )
    run("-C", r, "session", "start", "--title", f"Rotate {token}")
    for args in (["memory", "show"], ["memory", "show", "--json"], ["memory", "recall", "pure"]):
        code, out, _ = run("-C", r, *args)
        assert code == 0 and "is pure" in out, (args, out)
        assert token not in out and "Sup3rS3cretPw" not in out and "[REDACTED]" in out, (
            args,
            out,
        )


def test_a_citation_typed_in_a_subfolder_is_taken_from_there_like_a_notes_path(
    repo: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo.write("src/pkg/calc.py", "def add(a, b):\n    return a + b\n")
    repo.write("top.py", "def top():\n    return 1\n")
    repo.commit("init")
    monkeypatch.chdir(repo.root / "src" / "pkg")
    code, out, err = run("remember", "add() is pure.", "--cite", "calc.py:add")
    assert code == 0, err
    code, out, err = run("remember", "top() is one.", "--cite", "../../top.py:top",
                         "--cite", "src/pkg/calc.py")  # fmt: skip
    assert code == 0, err  # a path from the root still works when none is here
    monkeypatch.chdir(repo.root.parent)  # `-C` with a relative path: from that folder
    code, out, err = run("-C", f"{repo.root.name}/src", "remember", "add() adds.",
                         "--cite", "pkg/calc.py:add")  # fmt: skip
    assert code == 0, err
    code, out, _ = run("-C", str(repo.root), "memory", "show", "--json")
    cites = [c["path"] for f in json.loads(out)["facts"] for c in f["cites"]]
    assert cites == ["src/pkg/calc.py", "top.py", "src/pkg/calc.py", "src/pkg/calc.py"]


@pytest.mark.skipif(os.name == "nt", reason="no SIGKILL on Windows")
def test_session_end_after_an_end_that_died_says_the_session_was_recorded_already(
    repo: Repo,
) -> None:
    repo.write("calc.py", "def add(a, b):\n    return a + b\n")
    repo.commit("init")
    r = str(repo.root)
    run("-C", r, "session", "start", "--title", "Crashes")
    repo.write("calc.py", "def add(a, b):\n    return b + a\n")
    killed_after_memory_write(repo.root, (
        "from repomem.memory import session\nsession.end(cfg, summary='First try.')\n"
    ))  # fmt: skip
    code, out, _ = run("-C", r, "session", "end", "--summary", "Second try.")
    assert code == 0 and "was recorded already (in Sessions)" in out
    assert "the summary, facts and next steps given now are not recorded" in out
    code, out, _ = run("-C", r, "session", "list", "--json")
    data = json.loads(out)
    assert data["open"] is None and [s["summary"] for s in data["sessions"]] == ["First try."]


def test_bytes_that_are_not_utf8_in_a_fact_step_or_note_are_written_as_replacements(
    code: Repo,
) -> None:
    r = str(code.root)
    # how Python passes a byte 0xff of the command line (a Latin-1 terminal's `ÿ`)
    assert run("-C", r, "remember", "Adds \udcff numbers.", "--topic", "m\udcff")[0] == 0
    assert run("-C", r, "memory", "next", "Check \udcff")[0] == 0
    code_, _, err = run("-C", r, "note", "calc.py", "Helpers \udcff.")
    assert code_ == 0, err
    memory = (code.root / "REPOMEM.md").read_text(encoding="utf-8")
    assert "Adds \ufffd numbers." in memory and "Check \ufffd" in memory
