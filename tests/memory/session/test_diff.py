"""What a session changed: commits, files and symbols, its own work told from others'."""

from __future__ import annotations

import pytest

from repomem.errors import InputError
from repomem.memory import access, session
from repomem.memory.session_record import record_path
from tests.conftest import Repo
from tests.memory.session.conftest import BASE


def test_end_records_commits_files_and_symbols_changed_since_start(code: Repo) -> None:
    cfg = code.config()
    code.write("wip.py", "def wip():\n    return 'dirty before the session'\n")
    rec = session.start(cfg, "Rework app", agent="claude-code")
    assert set(rec["dirty"]) == {"wip.py"}
    code.write("app.py", BASE.replace("return 2", "return 20").replace(
        "def drop():\n    return 3\n", "def added():\n    return 5\n"))  # fmt: skip
    code.git("mv", "old_name.py", "new_name.py")
    (code.root / "gone.py").unlink()
    code.write("fresh.py", "def fresh():\n    pass\n")
    code.commit("Rework app")
    code.write("app.py", (code.root / "app.py").read_text() + "\n\ndef late():\n    pass\n")
    res = session.end(cfg, summary="Reworked app.py.", learned=["change() now returns 20."],
                      next_steps=["Document added()"])  # fmt: skip
    s = res.session
    assert s.title == "Rework app" and s.agent == "claude-code" and s.summary == "Reworked app.py."
    assert [c.split(" ", 1)[1] for c in s.commits] == ["Rework app"]
    assert s.added == ["fresh.py"] and s.deleted == ["gone.py"] and s.modified == ["app.py"]
    assert s.renamed == ["old_name.py -> new_name.py"]
    assert set(s.symbols) == {"+added", "+late", "~change", "-drop", "+fresh", "-x"}
    assert "wip.py" not in s.modified  # dirty before, untouched during
    doc = access.load(cfg)
    (fact,) = doc.facts()
    assert fact.source == f"session {s.id}" and s.learned == [fact.id]
    assert [n.text for n in doc.next_steps()] == ["Document added()"]
    assert session.open_session(cfg) is None
    (stored,) = doc.sessions()
    assert stored == s


def test_a_file_dirty_at_start_and_edited_during_counts_with_its_own_symbols(code: Repo) -> None:
    cfg = code.config()
    code.write("wip.py", "def wip():\n    return 'dirty'\n\n\ndef wip2():\n    pass\n")
    session.start(cfg)
    code.write("wip.py", "def wip():\n    return 'dirty'\n\n\ndef wip3():\n    pass\n")
    s = session.end(cfg).session
    assert s.modified == ["wip.py"] and set(s.symbols) == {"+wip3", "-wip2"}
    assert s.summary == "1 file changed."


def test_a_rename_staged_before_the_session_is_not_its_work(code: Repo) -> None:
    cfg = code.config()
    code.git("mv", "old_name.py", "new_name.py")
    code.write("new_name.py", "def moved():\n    return 4\n\n\ndef before():\n    pass\n")
    session.start(cfg)
    s = session.end(cfg).session
    assert s.renamed == [] and s.modified == [] and s.symbols == []


def test_a_file_renamed_before_the_session_and_edited_during_is_modified(code: Repo) -> None:
    cfg = code.config()
    code.git("mv", "old_name.py", "new_name.py")
    session.start(cfg)
    code.write("new_name.py", "def moved():\n    return 4\n\n\ndef during():\n    pass\n")
    s = session.end(cfg).session
    assert s.renamed == [] and s.modified == ["new_name.py"]
    assert s.symbols == ["+during"]


def test_a_session_ended_late_counts_its_own_commits_and_not_the_next_sessions(
    code: Repo,
) -> None:
    cfg = code.config()
    rec = session.start(cfg, "Rework app", agent="claude-code", owner="claude-1")
    code.write("app.py", BASE.replace("return 2", "return 20"))
    mine = code.commit("Change change")
    code.write("wip.py", "def wip():\n    return 'left uncommitted'\n")
    kept = session.set_aside(cfg, record_path(cfg).parent / "aside.json")
    assert kept["end_head"] == mine and isinstance(kept["end_reflog"], int)
    session.start(cfg, "next")
    code.write("extra.py", "def extra():\n    return 1\n")
    code.write("app.py", BASE.replace("return 3", "return 30"))
    code.commit("The next session's work")
    code.write("gone.py", "x = 2\n")  # and its edit in progress
    s = session.end(cfg, record=kept, summary="Changed change().").session
    assert (s.id, s.ended, s.end_head) == (rec["id"], kept["ended"], mine[:12])
    assert [c.split(" ", 1)[1] for c in s.commits] == ["Change change"]
    # HEAD moved on: its commits are its end; the work tree is the next session's now
    assert (s.added, s.modified, s.symbols) == ([], ["app.py"], ["~change"])


def test_a_session_ended_late_counts_the_work_tree_while_head_has_not_moved(code: Repo) -> None:
    cfg = code.config()
    session.start(cfg, "wip", owner="claude-1")
    code.write("wip.py", "def wip():\n    return 'edited'\n")
    kept = session.set_aside(cfg, record_path(cfg).parent / "aside.json")
    s = session.end(cfg, record=kept, summary="Edited wip().").session
    assert (s.commits, s.modified, s.symbols) == ([], ["wip.py"], ["~wip"])


def test_changes_are_empty_without_commits_or_files(code: Repo) -> None:
    cfg = code.config()
    code.write("wip.py", "def wip():\n    return 'dirty before'\n")
    rec = session.start(cfg)
    assert session.changes(cfg, rec).empty  # dirty before, untouched since
    code.write("wip.py", "def wip():\n    return 'and during'\n")
    assert not session.changes(cfg, rec).empty
    assert "owner" not in rec  # opened by hand
    session.discard(cfg)
    with pytest.raises(InputError, match="No session is open"):
        session.retitle(cfg, "x")
    with pytest.raises(InputError, match="nothing to set aside"):
        session.set_aside(cfg, code.root / "x.json")


def test_commit_subjects_are_recorded_with_credentials_and_addresses_redacted(code: Repo) -> None:
    cfg = code.config()
    token = "ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789AB"
    session.start(cfg, "rotate")
    code.write("app.py", BASE.replace("return 2", "return 5"))
    code.commit(f"rotate token {token}, ping bob@corp.example.com")
    session.end(cfg)
    text = access.memory_path(cfg).read_text(encoding="utf-8")
    assert token not in text and "bob@corp.example.com" not in text
    (s,) = access.load(cfg).sessions()
    assert len(s.commits) == 1 and "rotate token [REDACTED]" in s.commits[0]
    assert "[EMAIL]" in s.summary


def test_a_branch_switch_alone_is_not_the_sessions_work(code: Repo) -> None:
    cfg = code.config()
    code.git("branch", "old")
    code.write("app.py", BASE.replace("return 2", "return 5"))
    code.write("extra.py", "def extra():\n    return 1\n")
    code.commit("main work")
    session.start(cfg, "look around")
    code.git("checkout", "-q", "old")
    s = session.end(cfg, summary="Only read code.").session
    assert (s.commits, s.added, s.modified, s.deleted, s.symbols) == ([], [], [], [], [])


def test_commits_made_on_another_branch_during_the_session_are_its_work(code: Repo) -> None:
    cfg = code.config()
    session.start(cfg, "gamma")
    code.git("checkout", "-q", "-b", "topic")
    code.write("gamma.py", "def gamma():\n    return 3\n")
    code.write("app.py", BASE.replace("return 2", "return 22"))
    code.commit("add gamma")
    code.git("checkout", "-q", "-")
    code.write("wip.py", "def wip():\n    return 'edited on main'\n")
    s = session.end(cfg, summary="Added gamma.").session
    assert [c.split(" ", 1)[1] for c in s.commits] == ["add gamma"]
    assert s.added == ["gamma.py"] and s.modified == ["app.py", "wip.py"] and s.deleted == []
    assert set(s.symbols) == {"+gamma", "~change", "~wip"}


def test_commits_pulled_in_during_the_session_are_not_its_work(code: Repo) -> None:
    cfg = code.config()
    code.git("checkout", "-q", "-b", "upstream")
    code.write("theirs.py", "def theirs():\n    return 1\n")
    code.commit("their work")
    code.git("checkout", "-q", "-")
    session.start(cfg, "pull and edit")
    code.git("merge", "-q", "--ff-only", "upstream")  # what `git pull` does
    code.write("app.py", BASE.replace("return 1", "return 10"))
    s = session.end(cfg, summary="Pulled, then edited keep().").session
    assert s.commits == [] and s.added == [] and s.modified == ["app.py"]
    assert s.symbols == ["~keep"]
