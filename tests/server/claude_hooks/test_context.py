"""What the hook prints: a pack for a session's first task, the memory's digest at its start,
and what a prompt that needs nothing loads."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from repomem.errors import InputError
from repomem.index.state import state_dir
from repomem.memory import ops
from repomem.server import claude_hooks as hooks
from repomem.server.claude_hooks import context, packed
from tests.conftest import Repo, wait_until
from tests.server.claude_hooks.prompts import prompt


def test_the_first_task_of_a_session_gets_a_pack_and_the_next_prompts_do_not(code: Repo) -> None:
    cfg = code.config()
    first = hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    assert first.startswith(hooks.PREAMBLE)
    assert "# Context pack: Calculator.total adds" in first and "calc.py" in first
    assert len(first) <= hooks.MAX_CHARS
    assert hooks.context_for(cfg, prompt("and now fix the tests too")) == ""
    # another session gets its own pack; every_prompt packs every time
    assert hooks.context_for(cfg, prompt("the add function is wrong", "s2")).startswith("repomem")
    again = hooks.context_for(cfg, prompt("the add function is wrong"), every_prompt=True)
    assert "add" in again


def hooks_at_once(code: Repo, tmp_path: Path, payload: dict[str, str]) -> list[str]:
    """What two `repomem claude-hook` processes, started together on one input, print: yours in
    settings.local.json and the team's in settings.json, which Claude Code runs at once."""
    ask = tmp_path / "input.json"
    ask.write_text(json.dumps(payload))
    with contextlib.ExitStack() as stack:
        runs = [
            stack.enter_context(
                subprocess.Popen(
                    [sys.executable, "-m", "repomem", "claude-hook"],
                    cwd=code.root,
                    text=True,
                    stdin=stack.enter_context(ask.open("rb")),
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                )
            )  # fmt: skip
            for _ in range(2)
        ]
        outs = [run.communicate(timeout=120) for run in runs]
    assert [run.returncode for run in runs] == [0, 0], outs
    return [out for out, _ in outs]


def test_two_repomem_hooks_of_one_session_add_one_pack_between_them(
    code: Repo, tmp_path: Path
) -> None:
    ask = {"hook_event_name": "UserPromptSubmit", "session_id": "both",
           "prompt": "Calculator.total adds one value too many"}  # fmt: skip
    packs = [out for out in hooks_at_once(code, tmp_path, ask) if out]
    assert len(packs) == 1 and packs[0].startswith(hooks.PREAMBLE)


def test_two_repomem_hooks_of_one_session_start_print_the_digest_once(
    code: Repo, tmp_path: Path
) -> None:
    cfg = code.config()
    ops.remember(cfg, "Never print from library code.", kind="convention")
    start = {"hook_event_name": "SessionStart", "session_id": "both", "source": "startup"}
    digests = [out for out in hooks_at_once(code, tmp_path, start) if out]
    assert len(digests) == 1 and "Never print from library code." in digests[0]
    # a compaction later in the session (past a hook's time limit) gets it again
    state = state_dir(cfg)
    sessions = packed._read(state)
    earlier = sessions[hooks.STARTED]
    sessions[hooks.STARTED] = {k: v - hooks.TIMEOUT_SECONDS for k, v in earlier.items()}
    packed._write(state, sessions)
    compacted = hooks.HookInput("SessionStart", "both", source="compact")
    assert "Never print from library code." in hooks.context_for(cfg, compacted)


def test_a_pack_that_fails_leaves_the_session_to_be_packed_later(repo: Repo) -> None:
    cfg = repo.config()
    with pytest.raises(InputError, match="no repomem index"):
        hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    repo.write("calc.py", "def total(items):\n    return sum(items)\n")
    repo.commit()
    from repomem.index import indexer

    indexer.run(cfg)
    assert hooks.context_for(cfg, prompt("the total function is wrong")).startswith("repomem")


def test_a_new_start_or_compaction_makes_the_next_task_packed_again(code: Repo) -> None:
    cfg = code.config()
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many")) == ""
    resumed = hooks.HookInput("SessionStart", "s1", source="resume")
    assert hooks.context_for(cfg, resumed) == ""  # its conversation still holds the pack
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many")) == ""
    compacted = hooks.HookInput("SessionStart", "s1", source="compact")
    assert hooks.context_for(cfg, compacted) == ""  # an empty memory: nothing to say
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))


def test_a_session_starts_with_the_memory_digest(code: Repo) -> None:
    cfg = code.config()
    ops.remember(cfg, "Totals are summed left to right.", cites=["calc.py:add"])
    ops.remember(cfg, "Never print from library code.", kind="convention")
    ops.add_next_step(cfg, "Handle an empty list in Calculator.total")
    for source in ("startup", "clear", "compact", ""):
        start = hooks.HookInput("SessionStart", f"s-{source}", source=source)
        digest = hooks.context_for(cfg, start)
        assert digest.startswith("# Project memory (repomem, from `REPOMEM.md`)")
        assert "## Conventions\n- [" in digest and "Never print from library code." in digest
        assert "## Next steps\n- [ ] Handle an empty list in Calculator.total" in digest
    for source in ("resume", "fork"):  # the conversation (and the digest in it) is there
        assert hooks.context_for(cfg, hooks.HookInput("SessionStart", "s", source=source)) == ""
    small = hooks.memory_digest(cfg, max_chars=200)
    assert len(small) <= 200 and "Never print" in small  # the most valuable part first
    assert hooks.memory_digest(cfg, max_chars=60) == ""  # not even one part fits


@pytest.mark.parametrize("text", ["yes", "go on", "/clear", "/review the add function now", ""])
def test_slash_commands_and_short_replies_get_nothing_and_do_not_use_up_the_session(
    code: Repo, text: str
) -> None:
    cfg = code.config()
    assert hooks.context_for(cfg, prompt(text)) == ""
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))


def test_the_character_ceiling_is_kept(code: Repo) -> None:
    out = hooks.context_for(
        code.config(), prompt("Calculator.total adds one value too many"), max_chars=1200
    )
    assert out.startswith(hooks.PREAMBLE) and len(out) <= 1200


def test_the_character_ceiling_counts_an_emoji_twice_as_claude_code_does(repo: Repo) -> None:
    from repomem.index import indexer
    from repomem.pack.render import utf16_len
    from tests.pack.project import EMOJI, emoji_project

    task = emoji_project(repo)
    indexer.run(repo.config())
    out = hooks.context_for(repo.config(), prompt(task), max_chars=2500)
    assert EMOJI in out and utf16_len(out) <= 2500


def test_the_hook_prints_the_pack_it_measured_without_rendering_it_again(
    code: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from repomem.pack import builder

    build, built, renders = builder.build, [], []

    def build_and_watch(*args: Any, **kwargs: Any) -> Any:
        pack = build(*args, **kwargs)
        render = pack.render
        # a second rendering could differ from the one measured (`updated 9 s ago` turns
        # into `10 s ago`), and costs as much as the first
        pack.render = lambda fmt="md": renders.append(fmt) or render(fmt)
        built.append(pack)
        return pack

    monkeypatch.setattr(builder, "build", build_and_watch)
    out = hooks.context_for(code.config(), prompt("Calculator.total adds one value too many"))
    assert renders == [] and out == hooks.PREAMBLE + built[0].rendered
    assert "calc.py" in out


def test_a_repository_without_an_index_gets_a_hint_not_a_slow_build(repo: Repo) -> None:
    repo.write("a.py", "def f():\n    return 1\n")
    repo.commit("one")
    from repomem.index import indexer

    with pytest.raises(InputError, match="no repomem index yet.*repomem init"):
        hooks.context_for(repo.config(), prompt("f returns the wrong value"))
    assert not indexer.reader(repo.config()).exists()


def test_a_new_worktree_gets_its_first_pack_from_a_siblings_index(code: Repo) -> None:
    from repomem import hooks as git_hooks
    from repomem.index import indexer

    path = code.root.parent / "wt"
    code.git("worktree", "add", "-q", "-b", "wt", str(path))
    wt = Repo(path, git=False)
    calc = (wt.root / "calc.py").read_text(encoding="utf-8")
    wt.write("calc.py", calc + "\n\ndef subtract_twice(a, b):\n    return a - b - b\n")
    out = hooks.context_for(wt.config(), prompt("subtract_twice gives the wrong sign"))
    assert out.startswith(hooks.PREAMBLE)
    assert "def subtract_twice" in out and "stale" not in out
    assert indexer.open_store(wt.config()).symbols_named("subtract_twice")
    assert not indexer.open_store(code.config()).symbols_named("subtract_twice")
    # the other files' new mtimes (the worktree's checkout) are recorded at once, in the stat
    # cache: nothing is left for a refresh in the background
    log = git_hooks.log_path(wt.config())
    assert not log.exists() or "repomem index" not in log.read_text(encoding="utf-8")
    states = indexer.open_store(wt.config()).file_states()
    for rel in ("app/main.py", "calc.py"):
        st = (wt.root / rel).stat()
        assert states[rel][:2] == (st.st_size, st.st_mtime_ns), rel


def test_the_hint_to_index_is_said_once_a_session_and_again_after_a_new_start(
    repo: Repo,
) -> None:
    repo.write("a.py", "def f():\n    return 1\n")
    repo.commit("one")
    cfg = repo.config()
    task = "f returns the wrong value"

    def hinted(hook: hooks.HookInput) -> bool:
        try:
            assert hooks.context_for(cfg, hook) == ""
        except InputError as exc:
            assert "repomem init" in str(exc)
            return True
        return False

    assert [hinted(prompt(task)), hinted(prompt(task)), hinted(prompt(task, "s2"))] == [
        True,
        False,
        True,
    ]
    assert not hinted(hooks.HookInput("SessionStart", "s1", source="resume"))
    assert not hinted(prompt(task))  # a resumed conversation holds the hint
    assert not hinted(hooks.HookInput("SessionStart", "s1", source="clear"))
    assert hinted(prompt(task)) and not hinted(prompt(task))
    assert hinted(prompt(task, "")) and hinted(prompt(task, ""))  # no session to count on
    from repomem.index import indexer

    indexer.run(cfg)  # indexed at last: a session told to do it gets its pack
    assert hooks.context_for(cfg, prompt(task)).startswith(hooks.PREAMBLE)


def test_hooks_installed_without_recording_record_nothing(code: Repo, tmp_path: Path) -> None:
    from repomem.memory import session

    cfg = code.config()
    # the settings an earlier repomem wrote: no SessionEnd, no --record-sessions
    assert hooks.context_for(cfg, hooks.HookInput("SessionStart", "s1", source="startup")) == ""
    assert hooks.context_for(cfg, prompt("Calculator.total adds one value too many"))
    assert session.open_session(cfg) is None
    code.write("calc.py", "x = 1\n")
    code.commit("change")
    ended = hooks.HookInput("SessionEnd", "s1", transcript=str(tmp_path / "t.jsonl"))
    assert hooks.context_for(cfg, ended) == ""  # SessionEnd installed by hand: nothing
    assert not (code.root / "REPOMEM.md").exists()


def test_many_changes_give_the_indexed_pack_and_a_refresh_in_the_background(
    code: Repo, monkeypatch: pytest.MonkeyPatch
) -> None:
    from repomem import hooks as git_hooks
    from repomem.index import query

    cfg = code.config()
    monkeypatch.setattr(context, "REFRESH_AT_MOST", 1)
    calc = (code.root / "calc.py").read_text(encoding="utf-8")
    code.write("calc.py", calc + "\n\ndef subtract(a, b):\n    return a - b\n")
    code.write("app/extra.py", "def extra():\n    return 0\n")
    out = hooks.context_for(cfg, prompt("subtract gives the wrong sign for Calculator"))
    assert "index stale: 2 files changed since indexing" in out
    log = git_hooks.log_path(cfg)
    assert "claude-hook: repomem index" in log.read_text(encoding="utf-8")
    wait_until(lambda: "Indexed" in log.read_text(encoding="utf-8"), "the background refresh")
    assert query.status(cfg)["fresh"] is True


def test_claude_codes_paste_markers_are_not_the_task(code: Repo) -> None:
    pasted = (
        '<pasted_content id="1">\nTraceback (most recent call last):\n  File "calc.py", in total\n'
        'TypeError: bad operand\n</pasted_content id="1">\nCalculator.total crashes, fix it'
    )
    assert hooks.task_text(pasted) == (
        'Traceback (most recent call last):\n  File "calc.py", in total\n'
        "TypeError: bad operand\nCalculator.total crashes, fix it"
    )
    out = hooks.context_for(code.config(), prompt(pasted))
    assert "# Context pack: Traceback (most recent call last):" in out
    assert "pasted_content" not in out


IN_A_PROCESS = """
import json, sys
from repomem import config
from repomem.server import claude_hooks as hooks

cfg = config.load(sys.argv[1])
out = [hooks.context_for(cfg, hooks.HookInput(**kwargs), record_sessions=record)
       for kwargs, record in json.loads(sys.argv[2])]
print(json.dumps([out, sorted(sys.modules)]))
"""


def in_a_process(code: Repo, *hooks_run: tuple[dict[str, str], bool]) -> tuple[list[str], set[str]]:
    done = subprocess.run(
        [sys.executable, "-c", IN_A_PROCESS, str(code.root), json.dumps(hooks_run)],
        capture_output=True, text=True, timeout=60, env=dict(os.environ),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    out, names = json.loads(done.stdout)
    return out, set(names)


def test_a_prompt_that_needs_nothing_loads_none_of_what_a_pack_needs(
    code: Repo,
) -> None:
    assert hooks.context_for(code.config(), prompt("Calculator.total adds one value too many"))
    ask = {"event": "UserPromptSubmit", "session": "s1"}
    out, names = in_a_process(
        code,
        ({**ask, "prompt": "and now fix the tests too"}, False),  # packed already
        ({**ask, "prompt": "/compact"}, True),
        ({**ask, "prompt": "yes please", "session": "new"}, True),
        ({"event": "SessionStart", "session": "s1", "source": "resume"}, False),
    )
    assert out == ["", "", "", ""]
    # nor GitPython (its import runs `git version`): the state folder is read from `.git`
    heavy = (
        "repomem.index.indexer",
        "repomem.secrets",
        "repomem.pack",
        "lancedb",
        "pyarrow",
        "git",
    )
    assert not [n for n in names if n.startswith(heavy)], names


def test_a_task_in_a_session_recorded_with_its_title_loads_neither_the_filter_nor_git(
    code: Repo,
) -> None:
    from repomem.memory import session

    cfg = code.config()
    first = prompt("Calculator.total adds one value too many")
    assert hooks.context_for(cfg, first, record_sessions=True, background=False)
    assert session.open_session(cfg)["title"] == "Calculator.total adds one value too many"
    ask = {"event": "UserPromptSubmit", "session": "s1", "prompt": "and now fix the tests too"}
    out, names = in_a_process(code, (ask, True))
    assert out == [""]
    assert session.open_session(cfg)["title"] == "Calculator.total adds one value too many"
    heavy = ("repomem.secrets", "repomem.memory.cite", "repomem.index.parser", "git", "lancedb")
    assert not [n for n in names if n.startswith(heavy)], names
    assert "repomem.memory.session" not in names


def test_a_sessions_memory_digest_does_not_load_the_index(code: Repo) -> None:
    ops.remember(code.config(), "Never print from library code.", kind="convention")
    start = {"event": "SessionStart", "session": "d", "source": "startup"}
    (digest,), names = in_a_process(code, (start, False))
    assert "Never print from library code." in digest
    heavy = ("repomem.index.indexer", "repomem.index.query", "lancedb", "urllib.request", "http")
    assert not [n for n in names if n.startswith(heavy)], names
