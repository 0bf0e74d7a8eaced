"""Opening a session: one at a time, left open, set aside, discarded; what its record holds."""

from __future__ import annotations

import time

import pytest

from repomem.errors import InputError
from repomem.memory import access, session
from repomem.memory.session_record import record_path
from tests.conftest import Repo
from tests.memory.session.conftest import BASE, at_once


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


def test_of_sessions_started_at_once_one_opens_and_the_others_are_told(code: Repo) -> None:
    cfg = code.config()
    code.write("wip.py", "def wip():\n    return 'dirty'\n")  # start hashes it: a wider race
    out = at_once(4, lambda: session.start(cfg, "At once"))
    started = [r for r in out if isinstance(r, dict)]
    refused = [r for r in out if isinstance(r, InputError)]
    assert len(started) == 1 and len(refused) == 3
    assert all("is still open" in str(e) for e in refused)
    assert session.open_session(cfg)["id"] == started[0]["id"]  # type: ignore[index]


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
    aside = record_path(cfg).parent / "aside.json"
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
    aside = record_path(cfg).parent / "aside.json"
    kept = session.set_aside(cfg, aside, ended=hour + 60.0)
    assert kept["ended"] == time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(hour + 60))
    assert kept["end_head"] == mine
    s = session.end(cfg, record=kept, summary="Changed change().").session
    assert [c.split(" ", 1)[1] for c in s.commits] == ["Change change"]
    assert (s.added, s.modified, s.end_head) == ([], ["app.py"], mine[:12])


def test_an_agent_name_is_one_line_and_holds_no_credential(code: Repo) -> None:
    cfg = code.config()
    with pytest.raises(InputError, match="The agent .* credential"):
        session.start(cfg, "t", agent="ghp_" + "abcdefghijklmnopqrstuvwxyz0123456789AB")
    session.start(cfg, "t", agent="claude\n- learned: f-deadbeef")
    session.end(cfg, summary="ok")
    (s,) = access.load(cfg).sessions()
    assert s.agent == "claude - learned: f-deadbeef" and s.learned == []
