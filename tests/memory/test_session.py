"""Sessions: start, end with computed changes, crash leftovers, compaction."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable

import pytest

from repomem.errors import InputError
from repomem.memory import access, compact, session
from repomem.memory import file as mfile
from repomem.memory.compact import Summary
from repomem.memory.model import Session
from tests.conftest import Repo, killed_after_memory_write

BASE = """\
def keep():
    return 1


def change():
    return 2


def drop():
    return 3
"""


@pytest.fixture
def code(repo: Repo) -> Repo:
    repo.write("app.py", BASE)
    repo.write("old_name.py", "def moved():\n    return 4\n")
    repo.write("gone.py", "x = 1\n")
    repo.write("wip.py", "def wip():\n    return 0\n")
    repo.commit("init")
    return repo


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


def test_a_next_step_ticked_off_before_is_opened_again_by_a_session_end(code: Repo) -> None:
    from repomem.memory import ops

    cfg = code.config()
    ops.add_next_step(cfg, "Document added()")
    ops.add_next_step(cfg, "Rename drop()")
    ops.complete_next_step(cfg, "Document added()")
    session.start(cfg, "More work")
    session.end(cfg, summary="Did more.", next_steps=["Document added()", "Rename drop()",
                                                      "Test late()", "Test late()"])  # fmt: skip
    steps = [(n.text, n.done) for n in access.load(cfg).next_steps()]
    assert steps == [("Document added()", False), ("Rename drop()", False), ("Test late()", False)]


def test_a_file_dirty_at_start_and_edited_during_counts_with_its_own_symbols(code: Repo) -> None:
    cfg = code.config()
    code.write("wip.py", "def wip():\n    return 'dirty'\n\n\ndef wip2():\n    pass\n")
    session.start(cfg)
    code.write("wip.py", "def wip():\n    return 'dirty'\n\n\ndef wip3():\n    pass\n")
    s = session.end(cfg).session
    assert s.modified == ["wip.py"] and set(s.symbols) == {"+wip3", "-wip2"}
    assert s.summary == "1 file(s) changed."


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


def test_a_session_left_open_is_reported_and_can_be_discarded(code: Repo) -> None:
    cfg = code.config()
    rec = session.start(cfg, "crashed")
    with pytest.raises(InputError, match=f"`{rec['id']}` .*still open.*session discard"):
        session.start(cfg, "next")
    assert session.listing(cfg)["open"]["id"] == rec["id"]
    assert session.discard(cfg)["id"] == rec["id"]
    assert session.open_session(cfg) is None
    with pytest.raises(InputError, match="No session is open"):
        session.end(cfg)
    with pytest.raises(InputError, match="nothing to discard"):
        session.discard(cfg)


def _at_once(n: int, fn: Callable[[], object]) -> list[object]:
    """`fn()` in `n` threads released together: what each returned or raised."""
    gate = threading.Barrier(n)
    out: list[object] = []

    def run() -> None:
        gate.wait()
        try:
            out.append(fn())
        except InputError as exc:
            out.append(exc)

    threads = [threading.Thread(target=run) for _ in range(n)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    return out


def test_of_sessions_started_at_once_one_opens_and_the_others_are_told(code: Repo) -> None:
    cfg = code.config()
    code.write("wip.py", "def wip():\n    return 'dirty'\n")  # start hashes it: a wider race
    out = _at_once(4, lambda: session.start(cfg, "At once"))
    started = [r for r in out if isinstance(r, dict)]
    refused = [r for r in out if isinstance(r, InputError)]
    assert len(started) == 1 and len(refused) == 3
    assert all("is still open" in str(e) for e in refused)
    assert session.open_session(cfg)["id"] == started[0]["id"]  # type: ignore[index]


def test_a_session_ended_twice_at_once_is_recorded_once(code: Repo) -> None:
    cfg = code.config()
    session.start(cfg, "Once")
    code.write("app.py", BASE.replace("return 2", "return 22"))
    out = _at_once(3, lambda: session.end(cfg, summary="Ended once."))
    assert len([r for r in out if isinstance(r, session.EndResult)]) == 1
    assert all("No session is open" in str(r) for r in out if isinstance(r, InputError))
    assert [s.title for s in access.load(cfg).sessions()] == ["Once"]


def test_a_session_set_aside_frees_the_slot_and_is_ended_later(code: Repo) -> None:
    cfg = code.config()
    rec = session.start(cfg, agent="claude-code", owner="claude-1")
    assert rec["owner"] == "claude-1"
    # the model, told to start a session, hears that one records it (not to drop it)
    with pytest.raises(InputError, match="recording claude-code session `claude-1`.*no other"):
        session.start(cfg, "mine")
    assert session.retitle(cfg, "Rework app")["title"] == "Rework app"
    code.write("app.py", BASE.replace("return 2", "return 20"))
    code.commit("Change change")
    aside = session._state_path(cfg).parent / "aside.json"
    kept = session.set_aside(cfg, aside, transcript="/t.jsonl")
    assert session.open_session(cfg) is None and kept["transcript"] == "/t.jsonl"
    nxt = session.start(cfg, "next")  # the slot is free at once
    code.write("app.py", BASE)  # not the set-aside session's work: it ended before
    ch = session.changes(cfg, kept)
    assert not ch.empty and [c.split(" ", 1)[1] for c in ch.commits] == ["Change change"]
    s = session.end(cfg, record=kept, changed=ch, summary="Changed change().").session
    assert (s.id, s.title, s.summary, s.agent) == (rec["id"], "Rework app", "Changed change().",
                                                   "claude-code")  # fmt: skip
    assert session.open_session(cfg)["id"] == nxt["id"]  # the open one is left alone
    assert [x.id for x in access.load(cfg).sessions()] == [rec["id"]]


def test_a_session_ended_late_counts_its_own_commits_and_not_the_next_sessions(
    code: Repo,
) -> None:
    cfg = code.config()
    rec = session.start(cfg, "Rework app", agent="claude-code", owner="claude-1")
    code.write("app.py", BASE.replace("return 2", "return 20"))
    mine = code.commit("Change change")
    code.write("wip.py", "def wip():\n    return 'left uncommitted'\n")
    kept = session.set_aside(cfg, session._state_path(cfg).parent / "aside.json")
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
    kept = session.set_aside(cfg, session._state_path(cfg).parent / "aside.json")
    s = session.end(cfg, record=kept, summary="Edited wip().").session
    assert (s.commits, s.modified, s.symbols) == ([], ["wip.py"], ["~wip"])


def test_a_session_set_aside_at_an_earlier_time_ends_there(
    code: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = code.config()
    session.start(cfg, "earlier", owner="claude-1")
    hour = int(time.time()) + 3600  # the commits' times, as git records them
    monkeypatch.setenv("GIT_COMMITTER_DATE", f"@{hour} +0000")
    code.write("app.py", BASE.replace("return 2", "return 20"))
    mine = code.commit("Change change")
    monkeypatch.setenv("GIT_COMMITTER_DATE", f"@{hour + 120} +0000")
    code.write("extra.py", "def extra():\n    return 1\n")
    code.commit("Made after it was last seen")
    aside = session._state_path(cfg).parent / "aside.json"
    kept = session.set_aside(cfg, aside, ended=hour + 60.0)
    assert kept["ended"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(hour + 60))
    assert kept["end_head"] == mine
    s = session.end(cfg, record=kept, summary="Changed change().").session
    assert [c.split(" ", 1)[1] for c in s.commits] == ["Change change"]
    assert (s.added, s.modified, s.end_head) == ([], ["app.py"], mine[:12])


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


def test_a_torn_session_record_can_still_be_ended(code: Repo) -> None:
    cfg = code.config()
    session.start(cfg, "x")
    path = session._state_path(cfg)
    path.write_text("{not json", encoding="utf-8")
    assert session.open_session(cfg)["corrupt"]
    res = session.end(cfg, summary="closed after a crash")
    assert res.session.summary == "closed after a crash"


def test_a_learned_fact_with_a_secret_refuses_the_whole_end(code: Repo) -> None:
    cfg = code.config()
    session.start(cfg, "s")
    with pytest.raises(InputError, match="credential"):
        session.end(cfg, learned=["key AKIAIOSFODNN7EXAMPLE"])
    assert session.open_session(cfg) is not None
    assert not (code.root / "REPOMEM.md").exists()


no_kill = pytest.mark.skipif(os.name == "nt", reason="no SIGKILL on Windows")
END_THEN_DIE = """
from repomem.memory import session
session.end(cfg, summary="Recorded before the crash.", learned=["change() returns 20 now."],
            next_steps=["Document change()"])
"""


@no_kill
def test_an_end_killed_after_writing_the_entry_is_only_cleaned_up_by_the_next_end(
    code: Repo,
) -> None:
    from repomem.memory import ops

    cfg = code.config()
    rec = session.start(cfg, "Crashes", agent="claude-code")
    code.write("app.py", BASE.replace("return 2", "return 20"))
    code.commit("Change change")
    killed_after_memory_write(code.root, END_THEN_DIE)
    assert session.open_session(cfg) == rec  # its record outlived the crash
    (recorded,) = access.load(cfg).sessions()
    assert recorded.id == rec["id"] and recorded.summary == "Recorded before the crash."
    ops.complete_next_step(cfg, "Document change()")  # done since: the retry must not reopen it
    before = access.memory_path(cfg).read_bytes()
    res = session.end(
        cfg,
        summary="Recorded before the crash.",
        learned=["change() returns 20 now."],
        next_steps=["Document change()"],
    )
    doc = access.load(cfg)
    assert [s.id for s in doc.sessions()] == [rec["id"]] and len(doc.facts()) == 1
    assert [(n.text, n.done) for n in doc.next_steps()] == [("Document change()", True)]
    assert access.memory_path(cfg).read_bytes() == before  # nothing written again
    assert session.open_session(cfg) is None
    assert res.already == "Sessions" and res.session == recorded and res.learned == []


@no_kill
def test_an_end_killed_after_compacting_its_own_entry_is_not_recorded_again(
    code: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPOMEM_MEMORY_KEEP_SESSIONS", "0")  # the child's config too
    monkeypatch.setenv("REPOMEM_MEMORY_COMPACT_AFTER_BYTES", "1")
    cfg = code.config()
    rec = session.start(cfg, "Folded at once")
    code.write("app.py", BASE.replace("return 2", "return 20"))
    killed_after_memory_write(code.root, END_THEN_DIE)
    doc = access.load(cfg)
    (h,) = doc.history()
    assert doc.sessions() == [] and h.sessions == [rec["id"]]
    before = access.memory_path(cfg).read_bytes()
    res = session.end(cfg, summary="Again.")
    assert access.memory_path(cfg).read_bytes() == before
    assert session.open_session(cfg) is None
    assert res.already == h.id and res.session.id == rec["id"] and res.compacted == 0


def test_a_session_whose_id_is_recorded_with_another_start_gets_an_id_of_its_own(
    code: Repo,
) -> None:
    import json

    cfg = code.config()
    session.start(cfg, "first")
    first = session.end(cfg, summary="First.").session
    session.start(cfg, "second")
    path = session._state_path(cfg)
    record = json.loads(path.read_text(encoding="utf-8"))
    collides = {"id": first.id, "started": "2026-01-02T03:04:05Z"}  # another start, one id
    path.write_text(json.dumps({**record, **collides}), encoding="utf-8")
    res = session.end(cfg, summary="Second.")
    assert res.already == "" and res.session.id != first.id
    assert [s.summary for s in access.load(cfg).sessions()] == ["First.", "Second."]
    # a torn record has no start to compare: each is recorded (`s-unknown`, then a new id)
    for _ in range(2):
        session.start(cfg, "torn")
        path.write_text("{not json", encoding="utf-8")
        assert session.end(cfg, summary="Torn.").already == ""
    assert [s.summary for s in access.load(cfg).sessions()].count("Torn.") == 2


def _sessions(cfg: object, n: int) -> None:
    for i in range(n):
        session.start(cfg, f"session number {i}")  # type: ignore[arg-type]
        session.end(cfg, summary=f"Did thing {i}.", learned=[f"Fact number {i} about area{i}."])  # type: ignore[arg-type]


def test_old_sessions_are_compacted_keeping_their_facts(code: Repo) -> None:
    cfg = code.config(**{"memory.keep_sessions": 2, "memory.compact_after_bytes": 300})
    _sessions(cfg, 5)
    doc = access.load(cfg)
    assert [s.title for s in doc.sessions()] == ["session number 3", "session number 4"]
    folded = [sid for h in doc.history() for sid in h.sessions]
    assert len(folded) == 3 and all(h.by == "repomem" for h in doc.history())
    summaries = "\n".join(h.summary for h in doc.history())
    assert "session number 0" in summaries and "Did thing 0." in summaries
    facts = {f.id: f for f in doc.facts()}
    assert len(facts) == 5 and {f for h in doc.history() for f in h.facts} <= set(facts)


def test_below_the_threshold_nothing_is_compacted(code: Repo) -> None:
    cfg = code.config(**{"memory.keep_sessions": 1})
    _sessions(cfg, 3)
    doc = access.load(cfg)
    assert len(doc.sessions()) == 3 and doc.history() == []


def test_a_model_summary_is_used_when_given_and_secrets_never_reach_it(code: Repo) -> None:
    cfg = code.config(**{"memory.keep_sessions": 1, "memory.compact_after_bytes": 10})
    _sessions(cfg, 1)
    doc = access.load(cfg)
    s = doc.sessions()[0]
    s.summary = "password = hunter2hunter2 was rotated"  # a hand edit that slipped through
    doc.touch(s)
    doc.add(Session(id="s-new", title="new", started="2099-01-01T00:00:00Z"))
    seen: list[str] = []

    def summarizer(text: str) -> Summary:
        seen.append(text)
        return Summary("The model's summary.", "claude-test")

    assert compact.maybe_compact(cfg, doc, summarizer) == 1
    assert "hunter2hunter2" not in seen[0] and "session number 0" in seen[0]
    (h,) = doc.history()
    assert h.summary == "The model's summary." and h.by == "claude-test"
    assert mfile.parse(doc.render(), doc.path).history()[0].by == "claude-test"


def test_a_failing_model_falls_back_to_the_offline_summary(code: Repo) -> None:
    from repomem.errors import LLMError

    _sessions(code.config(), 1)
    cfg = code.config(**{"memory.keep_sessions": 0, "memory.compact_after_bytes": 1})
    doc = access.load(cfg)

    def broken(text: str) -> Summary:
        raise LLMError("overloaded")

    assert compact.maybe_compact(cfg, doc, broken) == 1
    assert doc.history()[0].by == "repomem"


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


def test_an_agent_name_is_one_line_and_holds_no_credential(code: Repo) -> None:
    cfg = code.config()
    with pytest.raises(InputError, match="The agent .* credential"):
        session.start(cfg, "t", agent="ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789AB")
    session.start(cfg, "t", agent="claude\n- learned: f-deadbeef")
    session.end(cfg, summary="ok")
    (s,) = access.load(cfg).sessions()
    assert s.agent == "claude - learned: f-deadbeef" and s.learned == []


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


def test_a_model_summary_is_cut_to_a_summary_s_length(code: Repo) -> None:
    cfg = code.config(**{"memory.keep_sessions": 1, "memory.compact_after_bytes": 10})
    _sessions(cfg, 1)
    doc = access.load(cfg)
    doc.add(Session(id="s-new", title="new", started="2099-01-01T00:00:00Z"))
    assert compact.maybe_compact(cfg, doc, lambda text: Summary("word " * 100_000, "m")) == 1
    (h,) = doc.history()
    assert len(h.summary) <= compact.MAX_SUMMARY_CHARS + 2
