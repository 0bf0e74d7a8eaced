"""Ending a session: its entry, facts and next steps, crash leftovers, compaction."""

from __future__ import annotations

import json
import os

import pytest

from repomem.config import Config
from repomem.errors import InputError
from repomem.memory import access, compact, ops, session
from repomem.memory import file as mfile
from repomem.memory.compact import Summary
from repomem.memory.model import Session
from repomem.memory.session_record import record_path
from tests.conftest import Repo, killed_after_memory_write
from tests.memory.session.conftest import BASE, at_once


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


def test_a_session_ended_twice_at_once_is_recorded_once(code: Repo) -> None:
    cfg = code.config()
    session.start(cfg, "Once")
    code.write("app.py", BASE.replace("return 2", "return 22"))
    out = at_once(3, lambda: session.end(cfg, summary="Ended once."))
    assert len([r for r in out if isinstance(r, session.EndResult)]) == 1
    assert all("No session is open" in str(r) for r in out if isinstance(r, InputError))
    assert [s.title for s in access.load(cfg).sessions()] == ["Once"]


def test_a_torn_session_record_can_still_be_ended(code: Repo) -> None:
    cfg = code.config()
    session.start(cfg, "x")
    path = record_path(cfg)
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


def _second_taking_the_id_of_the_first(
    cfg: Config, started: str = ""
) -> tuple[Session, dict[str, object]]:
    """A session ended ("First."), then a second opened whose record holds the first one's id
    with another start (`started`, else the same day, another minute): what a torn or copied
    record, or a hand edit, can leave. Returns the first session and the record."""
    import json

    session.start(cfg, "first")
    first = session.end(cfg, summary="First.").session
    session.start(cfg, "second")
    path = record_path(cfg)
    record = json.loads(path.read_text(encoding="utf-8"))
    day, minute = first.started[:10], first.started[11:16]
    record.update(id=first.id, started=started or f"{day}T{'12' if minute < '12' else '00'}:00:00Z")
    path.write_text(json.dumps(record), encoding="utf-8")
    return first, dict(record)


def test_a_session_whose_id_is_recorded_with_another_start_gets_an_id_of_its_own(
    code: Repo,
) -> None:
    cfg = code.config()
    first, _ = _second_taking_the_id_of_the_first(cfg, "2026-01-02T03:04:05Z")
    path = record_path(cfg)
    res = session.end(cfg, summary="Second.")
    assert res.already == "" and res.session.id != first.id
    assert [s.summary for s in access.load(cfg).sessions()] == ["First.", "Second."]
    # a torn record has no start to compare: each is recorded, under a new id
    for _ in range(2):
        session.start(cfg, "torn")
        path.write_text("{not json", encoding="utf-8")
        assert session.end(cfg, summary="Torn.").already == ""
    assert [s.summary for s in access.load(cfg).sessions()].count("Torn.") == 2


def test_a_session_taking_the_id_of_one_compacted_the_same_day_is_recorded_under_its_own(
    code: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("REPOMEM_MEMORY_KEEP_SESSIONS", "0")
    monkeypatch.setenv("REPOMEM_MEMORY_COMPACT_AFTER_BYTES", "1")
    cfg = code.config()
    first, _ = _second_taking_the_id_of_the_first(cfg)
    res = session.end(cfg, summary="Second.")
    assert res.already == "" and res.session.id != first.id
    folded = [sid for h in access.load(cfg).history() for sid in h.sessions]
    assert folded == [first.id, res.session.id]  # each once: a merge tells them apart


def test_facts_recorded_during_a_session_given_an_id_of_its_own_name_that_id(
    code: Repo,
) -> None:
    cfg = code.config()
    session.start(cfg, "first")
    mine = ops.remember(cfg, "The first session's fact.").fact
    first = session.end(cfg, summary="First.").session
    session.start(cfg, "second")
    path = record_path(cfg)
    record = json.loads(path.read_text(encoding="utf-8"))
    record.update(id=first.id, started="2026-01-02T03:04:05Z")  # as a copied record leaves it
    path.write_text(json.dumps(record), encoding="utf-8")
    theirs = ops.remember(cfg, "The second session's fact.").fact
    res = session.end(cfg, summary="Second.")
    assert res.session.id != first.id
    doc = access.load(cfg)
    sources = {f.id: f.source for f in doc.facts()}
    assert sources == {mine.id: f"session {first.id}", theirs.id: f"session {res.session.id}"}
    assert [s.learned for s in doc.sessions()] == [[mine.id], [theirs.id]]


@no_kill
def test_an_end_under_an_id_of_its_own_killed_after_writing_is_not_recorded_again(
    code: Repo,
) -> None:
    cfg = code.config()
    first, record = _second_taking_the_id_of_the_first(cfg)
    killed_after_memory_write(code.root, END_THEN_DIE)
    assert session.open_session(cfg) == record
    res = session.end(cfg, summary="Again.")
    summaries = [s.summary for s in access.load(cfg).sessions()]
    assert summaries == ["First.", "Recorded before the crash."]
    assert res.already == "Sessions" and res.session.id != first.id


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


def test_a_model_summary_is_cut_to_a_summary_s_length(code: Repo) -> None:
    cfg = code.config(**{"memory.keep_sessions": 1, "memory.compact_after_bytes": 10})
    _sessions(cfg, 1)
    doc = access.load(cfg)
    doc.add(Session(id="s-new", title="new", started="2099-01-01T00:00:00Z"))
    assert compact.maybe_compact(cfg, doc, lambda text: Summary("word " * 100_000, "m")) == 1
    (h,) = doc.history()
    assert len(h.summary) <= compact.MAX_SUMMARY_CHARS + 2
