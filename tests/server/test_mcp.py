"""The MCP server through the SDK's own client, in memory."""

from __future__ import annotations

import os
import threading
from typing import Any

import anyio
import pytest
from mcp import Client

from repomem.fsutil import FileLock
from repomem.index import indexer
from repomem.memory import access, ops
from tests.conftest import Repo, killed_after_memory_write
from tests.server.conftest import CALC, talk, text

READ_TOOLS = {
    "context_pack", "search_code", "get_symbol", "find_references", "file_overview",
    "index_status", "refresh", "recall", "memory",
}  # fmt: skip
WRITE_TOOLS = {
    "remember", "supersede", "forget", "memory_check", "confirm_fact", "session_start",
    "session_end", "write_note",
}  # fmt: skip
DISTINCT = [
    "Parsing happens lazily on first access.",
    "The cache directory lives under XDG_CACHE_HOME.",
    "Retries back off exponentially up to thirty seconds.",
    "Windows paths are normalised to forward slashes.",
    "Calculator.total sums generators without materialising lists.",
    "Release builds strip debug symbols.",
]
TOKEN = "ghp_" + "aBcDeFgHiJkLmNoPqRsTuVwXyZ0123456789"


def test_every_tool_is_listed_with_a_description_and_an_input_schema(code: Repo) -> None:
    async def body(c: Client) -> Any:
        return (await c.list_tools()).tools

    tools = {t.name: t for t in talk(code, body)}
    assert set(tools) == READ_TOOLS | WRITE_TOOLS
    for tool in tools.values():
        assert tool.description and len(tool.description) > 30, tool.name
        assert tool.input_schema["type"] == "object"
        for prop in tool.input_schema.get("properties", {}).values():
            assert prop.get("description"), (tool.name, prop)
    assert tools["remember"].input_schema["required"] == ["fact"]
    assert set(tools["supersede"].input_schema["required"]) == {"id", "fact", "why"}
    assert "/memories/REPOMEM.md" in (tools["memory"].description or "")
    assert tools["search_code"].annotations.read_only_hint is True
    assert tools["forget"].annotations.destructive_hint is True


def test_each_tool_answers_with_compact_text_and_structured_content(code: Repo) -> None:
    async def body(c: Client) -> dict[str, Any]:
        out: dict[str, Any] = {}

        async def call(name: str, args: dict[str, Any]) -> Any:
            r = await c.call_tool(name, args)
            assert not r.is_error, (name, text(r))
            assert r.structured_content is not None, name
            out[name] = r
            return r

        await call("index_status", {})
        await call("search_code", {"query": "add numbers", "limit": 5})
        await call("search_code", {"query": "add", "kind": "function", "path_glob": "*.py"})
        await call("get_symbol", {"name": "add"})
        await call("find_references", {"name": "add"})
        await call("file_overview", {"path": "calc.py"})
        r = await call("remember", {"fact": "add() never rounds.", "cites": ["calc.py:add"],
                                    "topic": "math"})  # fmt: skip
        out["fid"] = r.structured_content["id"]
        await call("recall", {"query": "rounds"})
        await call("context_pack", {"task": "make add round to 2 decimals", "max_tokens": 2000})
        r = await call("supersede", {"id": out["fid"], "fact": "add() rounds to 2 places.",
                                     "why": "changed in the task"})  # fmt: skip
        out["new_id"] = r.structured_content["id"]
        await call("memory_check", {})
        await call("session_start", {"title": "Rounding"})
        await call("session_end", {"summary": "Looked at add.", "learned": ["calc is tiny."],
                                   "next_steps": ["Round in total()"]})  # fmt: skip
        await call("forget", {"id": out["new_id"]})
        await call("write_note", {"path": "calc.py", "note": "add() is the only entry point."})
        out["noted"] = await call("file_overview", {"path": "calc.py"})
        await call("refresh", {})
        await call("memory", {"command": "view", "path": "/memories"})
        return out

    out = talk(code, body)
    assert "function  calc.py:4-6  def add(a, b)" in text(out["search_code"])
    sym = out["get_symbol"].structured_content
    assert sym["definitions"][0]["body"].startswith("def add(a, b):")
    assert {(r["path"], r["line"]) for r in sym["references"]} >= {("app/main.py", 5)}
    assert "app/main.py:5 call in main" in text(out["find_references"])
    overview = out["file_overview"].structured_content
    assert [s["name"] for s in overview["symbols"]] == ["add", "Calculator", "total"]
    assert overview["facts"] == []  # the fact came later
    pack = out["context_pack"]
    assert text(pack).startswith("# Context pack: make add round")
    assert pack.structured_content["tokens"] <= 2000
    assert all("text" not in i for i in pack.structured_content["items"])  # the text has it
    assert "add() never rounds." in text(out["recall"])
    doc = access.load(code.config())
    fid, new_id = out["fid"], out["new_id"]
    assert doc.fact(fid).status == "superseded"  # type: ignore[union-attr]
    assert doc.fact(new_id).status == "forgotten"  # type: ignore[union-attr]
    assert [s.title for s in doc.sessions()] == ["Rounding"]
    assert len(doc.sessions()[0].learned) == 1  # "calc is tiny."
    assert "/memories/REPOMEM.md" in text(out["memory"])
    assert out["noted"].structured_content["notes"] == [
        {"source": "assistant", "text": "add() is the only entry point.", "stale": False}
    ]
    assert "Note (assistant): add() is the only entry point." in text(out["noted"])


def test_a_huge_query_is_not_said_back_whole(code: Repo) -> None:
    query = "zzqx " * 40_000  # 200,000 characters that match nothing

    async def body(c: Client) -> Any:
        return await c.call_tool("search_code", {"query": query})

    r = talk(code, body)
    assert not r.is_error and text(r).startswith("No results for `zzqx zzqx")
    assert len(text(r)) < 300


def test_facts_from_the_server_are_credited_to_the_open_session(code: Repo) -> None:
    async def body(c: Client) -> Any:
        await c.call_tool("session_start", {"title": "t"})
        r = await c.call_tool("remember", {"fact": "Sessions credit facts."})
        return r.structured_content

    data = talk(code, body)
    assert data["source"].startswith("session s-")


def test_file_overview_shows_the_facts_that_cite_the_file(code: Repo) -> None:
    async def body(c: Client) -> Any:
        await c.call_tool("remember", {"fact": "main prints the sum.", "cites": ["app/main.py"]})
        await c.call_tool("remember", {"fact": "Unrelated.", "cites": ["calc.py"]})
        return await c.call_tool("file_overview", {"path": "./app//main.py"})

    r = talk(code, body)
    assert [f["text"] for f in r.structured_content["facts"]] == ["main prints the sum."]
    assert "Facts citing it:" in text(r)


def test_file_overview_of_a_file_not_indexed_gives_the_reason(code: Repo) -> None:
    # each said "not in the index ... call refresh if it is new"
    code.write("Cargo.lock", "[[package]]\n")
    code.write("REPOMEM.md", "# Memory\n")
    code.write("logo.png", b"\x89PNG\r\n\x1a\n\0\0")
    code.commit()
    indexer.run(code.config())
    code.write("app/new.py", "x = 1\n")

    async def body(c: Client) -> list[str]:
        paths = ["Cargo.lock", "REPOMEM.md", "logo.png", "app/new.py"]
        return [text(await c.call_tool("file_overview", {"path": p})) for p in paths]

    assert talk(code, body) == [
        "Error: `Cargo.lock` is not indexed, skipped as `generated` (a lock file or a generated "
        "file; see `index.skip_generated`).",
        "Error: `REPOMEM.md` is not indexed, skipped as `memory` (the project memory file, "
        "packed and searched from its own table).",
        "Error: `logo.png` is not indexed, skipped as `binary` (a binary file).",
        "Error: `app/new.py` is new since the last index run; call refresh, then ask again.",
    ]


def test_repomem_errors_are_one_line_tool_errors_and_the_server_stays_up(code: Repo) -> None:
    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("get_symbol", {"name": "nope_not_here"}),
            await c.call_tool("forget", {"id": "f-missing"}),
            await c.call_tool("session_end", {"summary": "x"}),
            await c.call_tool("file_overview", {"path": "missing.py"}),
            await c.call_tool("context_pack", {"task": "   "}),
            await c.call_tool("search_code", {"query": "add", "kind": "gizmo"}),
            await c.call_tool("forget", {"id": "../../x\nsecond line"}),
            await c.call_tool("supersede", {"id": "f-1", "fact": "y", "why": " "}),
            await c.call_tool("get_symbol", {"name": "add"}),
        ]

    *errors, ok = talk(code, body)
    for r in errors:
        assert r.is_error
        message = text(r)
        assert message.startswith("Error: ") and "\n" not in message, message
    assert "No symbol named `nope_not_here`" in text(errors[0])
    assert "No fact `f-missing`" in text(errors[1])
    assert "No session is open" in text(errors[2])
    assert "`missing.py` does not exist" in text(errors[3])
    assert "Unknown kind `gizmo`" in text(errors[5])
    assert not ok.is_error
    # the advice names this server's tools, not the command line's
    assert "`search_code`" in text(errors[0]) and "repomem search" not in text(errors[0])
    assert "call `refresh` first if it was written since" in text(errors[0])
    assert "`recall`" in text(errors[1]) and "memory show" not in text(errors[1])
    assert "`session_start`" in text(errors[2]) and "repomem session" not in text(errors[2])
    assert "--task-file" not in text(errors[4])
    assert "`why`" in text(errors[7]) and "--why" not in text(errors[7])


def test_malformed_arguments_are_tool_errors_that_name_the_argument(code: Repo) -> None:
    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("search_code", {}),
            await c.call_tool("search_code", {"query": "add", "limit": "lots"}),
            await c.call_tool("search_code", {"query": "add", "limit": 0}),
            await c.call_tool("remember", {"fact": "x", "kind": "rumour"}),
            await c.call_tool("remember", {"fact": "x", "cites": "calc.py"}),
            await c.call_tool("context_pack", {"task": "x", "max_tokens": 10}),
            await c.call_tool("memory", {"command": "explode", "path": "/memories"}),
            await c.call_tool("no_such_tool", {}),
            await c.call_tool("index_status", {}),
        ]

    *bad, ok = talk(code, body)
    names = ["query", "limit", "limit", "kind", "cites", "max_tokens", "command", "no_such_tool"]
    for r, name in zip(bad, names, strict=True):
        assert r.is_error, name
        message = text(r)
        assert name in message, (name, message)
        assert message.startswith("Error: ") and "\n" not in message, message
        assert "pydantic" not in message and "Arguments" not in message, message
    assert "lots" not in text(bad[1])
    assert text(bad[5]).endswith(  # the message `pack --budget 10` and the config give
        "`max_tokens` is 10 tokens, below the smallest pack budget of 200; give at least 200."
    )
    assert not ok.is_error


def test_rejected_argument_values_are_not_echoed(code: Repo) -> None:
    token = "ghp_" + "b" * 36

    async def body(c: Client) -> Any:
        return await c.call_tool("search_code", {"query": "add", "limit": token})

    r = talk(code, body)
    assert r.is_error and "limit" in text(r) and token not in text(r) and "ghp_" not in text(r)


def test_a_number_argument_given_true_or_as_a_string_is_refused(code: Repo) -> None:
    # JSON `true` is not 1 and `"5"` is not 5: a client sending them has a bug worth naming
    # (a pack "within 1 token" or a search for one result would hide it).
    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("context_pack", {"task": "add", "max_tokens": True}),
            await c.call_tool("search_code", {"query": "add", "limit": True}),
            await c.call_tool("search_code", {"query": "add", "limit": "5"}),
            await c.call_tool(
                "memory",
                {
                    "command": "insert",
                    "path": "/memories/x.md",
                    "insert_line": True,
                    "insert_text": "y",
                },
            ),
        ]

    results = talk(code, body)
    for r, name in zip(results, ["max_tokens", "limit", "limit", "insert_line"], strict=True):
        assert r.is_error, name
        message = text(r)
        assert message.startswith("Error: ") and name in message, message
        assert "is 1 tokens" not in message, message


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("file_overview", {"path": "../outside.py"}),
        ("file_overview", {"path": "app/../../outside.py"}),
        ("file_overview", {"path": "/etc/passwd"}),
        ("file_overview", {"path": "~/.bashrc"}),
        ("file_overview", {"path": "C:\\Windows\\win.ini"}),
        ("file_overview", {"path": "link.py"}),  # a symlink pointing out of the repository
        ("file_overview", {"path": "linkdir/outside.py"}),
        ("file_overview", {"path": ".env"}),
        ("remember", {"fact": "x", "cites": ["../outside.py"]}),
        ("remember", {"fact": "x", "cites": ["/etc/passwd:root"]}),
        ("remember", {"fact": "x", "cites": ["link.py"]}),
        ("supersede", {"id": "f-1", "fact": "x", "why": "y", "cites": ["../outside.py"]}),
        ("write_note", {"path": "../outside.py", "note": "x"}),
        ("write_note", {"path": "link.py", "note": "x"}),
        ("write_note", {"path": "/etc/passwd", "note": "x"}),
        ("search_code", {"query": "x", "path_glob": "../*"}),
        ("search_code", {"query": "x", "path_glob": "/etc/*"}),
        ("memory", {"command": "view", "path": "/memories/../../etc/passwd"}),
        ("memory", {"command": "view", "path": "/etc/passwd"}),
        ("memory", {"command": "create", "path": "/memories/a/b.md", "file_text": "x"}),
        ("memory", {"command": "rename", "old_path": "/memories/x.md", "new_path": "/tmp/x"}),
    ],
)
def test_paths_that_leave_the_repository_are_refused(
    code: Repo, tmp_path: Any, tool: str, args: dict[str, Any]
) -> None:
    outside = tmp_path / "outside.py"
    outside.write_text("SECRET_OUTSIDE = 1\n", encoding="utf-8")
    os.symlink(outside, code.root / "link.py")
    os.symlink(tmp_path, code.root / "linkdir")
    code.write(".env", "X=1\n")

    async def body(c: Client) -> Any:
        return await c.call_tool(tool, args)

    r = talk(code, body)
    assert r.is_error
    message = text(r)
    assert message.startswith("Error: ") and "SECRET_OUTSIDE" not in message
    assert any(
        w in message
        for w in ("absolute", "`..`", "outside the repository", "credential", "escape", "start")
        + ("sub-directories",)
    ), message
    assert access.load(code.config()).facts() == []


def test_a_file_deleted_since_the_index_was_updated_is_said_to_be_gone(code: Repo) -> None:
    (code.root / "calc.py").unlink()  # the index still holds it: nothing refreshed yet

    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("file_overview", {"path": "calc.py"}),
            await c.call_tool("get_symbol", {"name": "add"}),
        ]

    overview, symbol = talk(code, body)
    assert overview.is_error
    assert "`calc.py` was deleted after the index was last updated; call `refresh`" in text(
        overview
    )
    assert not symbol.is_error
    assert "calc.py:4-6 (deleted since the index was updated; call `refresh`)" in text(symbol)
    assert symbol.structured_content["definitions"][0]["deleted"] is True


@pytest.mark.skipif(os.name == "nt", reason="no SIGKILL on Windows")
def test_session_end_after_an_end_that_died_says_the_session_was_recorded_already(
    code: Repo,
) -> None:
    from repomem.memory import session

    session.start(code.config(), "Crashes")
    code.write("calc.py", "def add(a, b):\n    return b + a\n")
    killed_after_memory_write(code.root, (
        "from repomem.memory import session\nsession.end(cfg, summary='First try.')\n"
    ))  # fmt: skip

    async def body(c: Client) -> Any:
        return await c.call_tool("session_end", {"summary": "Second try.", "learned": ["x y"]})

    r = talk(code, body)
    assert not r.is_error and "was recorded already (in Sessions)" in text(r)
    assert "not recorded (record facts with `remember`)" in text(r)
    assert r.structured_content["already"] == "Sessions"
    assert [s.summary for s in access.load(code.config()).sessions()] == ["First try."]


def test_a_stale_fact_is_confirmed_against_the_cited_code_as_memory_confirm_does(
    code: Repo,
) -> None:
    cfg = code.config()
    fid = ops.remember(cfg, "add() adds.", cites=["calc.py:add"]).fact.id
    gone = ops.remember(cfg, "Calculator sums.", cites=["calc.py:Calculator"]).fact.id
    was = access.load(cfg).fact(fid).cites[0].hash  # type: ignore[union-attr]
    code.write("calc.py", CALC.replace("return a + b", "return b + a").replace(
        "class Calculator:", "class Abacus:"))  # fmt: skip
    ops.check(cfg)

    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("confirm_fact", {"id": fid}),
            await c.call_tool("confirm_fact", {"id": gone}),
            await c.call_tool("confirm_fact", {"id": "f-00000000"}),
        ]

    done, cited_gone, unknown = talk(code, body)
    assert not done.is_error and f"Confirmed {fid}" in text(done)
    assert done.structured_content["status"] == "valid"
    fact = access.load(cfg).fact(fid)
    assert fact is not None and fact.status == "valid" and fact.confirmed
    assert fact.cites[0].hash != was  # today's code, as `repomem memory confirm` takes it
    # the same checks: code that is gone cannot confirm a fact, and it stays stale
    assert cited_gone.is_error and f"Cannot confirm `{gone}`" in text(cited_gone)
    assert "supersede" in text(cited_gone).lower()
    assert access.load(cfg).fact(gone).status == "stale"  # type: ignore[union-attr]
    assert unknown.is_error and "No fact `f-00000000`" in text(unknown)
    assert "`recall`" in text(unknown)


def test_read_only_mode_leaves_out_the_write_tools_and_only_views_memory(code: Repo) -> None:
    async def body(c: Client) -> Any:
        listed = (await c.list_tools()).tools
        names = {t.name for t in listed}
        # every tool left but `refresh` (it writes the index cache) is marked read-only for
        # the client, `memory` (views only here) included
        writing = {t.name for t in listed if not (t.annotations and t.annotations.read_only_hint)}
        assert writing == {"refresh"}
        called = {w: await c.call_tool(w, {"fact": "x"}) for w in sorted(WRITE_TOOLS)}
        edit = await c.call_tool(
            "memory", {"command": "create", "path": "/memories/t.md", "file_text": "A fact."}
        )
        view = await c.call_tool("memory", {"command": "view", "path": "/memories"})
        prompt = await c.get_prompt("start_session", {"task": "add"})
        return names, called, edit, view, prompt

    names, called, edit, view, prompt = talk(code, body, read_only=True)
    assert names == READ_TOOLS
    for w, r in called.items():  # each left out is said to write, not to be unknown
        assert r.is_error and f"`{w}` writes, and this server is read-only" in text(r), w
    assert edit.is_error and "read-only" in text(edit)
    assert not view.is_error
    assert "session_start" not in prompt.messages[0].content.text
    assert not access.memory_path(code.config()).exists()


def test_read_only_can_come_from_the_config(code: Repo) -> None:
    code.write(".repomem", "[server]\nread_only = true\n")

    async def body(c: Client) -> set[str]:
        return {t.name for t in (await c.list_tools()).tools}

    assert talk(code, body) == READ_TOOLS


def test_concurrent_calls_all_complete_and_no_fact_is_lost(code: Repo) -> None:
    async def body(c: Client) -> list[Any]:
        results: list[Any] = []

        async def one(name: str, args: dict[str, Any]) -> None:
            results.append((name, await c.call_tool(name, args)))

        async with anyio.create_task_group() as tg:
            tg.start_soon(one, "context_pack", {"task": "add numbers"})
            for i in range(6):
                tg.start_soon(one, "remember", {"fact": DISTINCT[i]})
                tg.start_soon(one, "search_code", {"query": f"add {i}"})
            tg.start_soon(one, "recall", {"query": "cache"})
            tg.start_soon(one, "file_overview", {"path": "calc.py"})
        return results

    results = talk(code, body)
    assert len(results) == 15
    assert all(not r.is_error for _, r in results), [text(r) for _, r in results if r.is_error]
    facts = [f.text for f in access.load(code.config()).facts()]
    assert sorted(facts) == sorted(DISTINCT)


def test_a_tool_waiting_on_a_lock_does_not_block_the_others(code: Repo) -> None:
    """`remember` waits for the memory lock held here; searches still answer meanwhile."""
    lock = FileLock(indexer.state_dir(code.config()) / "memory.lock", 30)
    lock.__enter__()
    released = threading.Event()

    async def body(c: Client) -> tuple[Any, list[Any]]:
        held: dict[str, Any] = {}

        async def writer() -> None:
            held["r"] = await c.call_tool("remember", {"fact": "Written after the lock."})

        async with anyio.create_task_group() as tg:
            tg.start_soon(writer)
            searches = [await c.call_tool("search_code", {"query": "add"}) for _ in range(3)]
            assert "r" not in held  # still waiting for the lock
            lock.__exit__(None, None, None)
            released.set()
        return held["r"], searches

    try:
        wrote, searches = talk(code, body)
    finally:
        if not released.is_set():
            lock.__exit__(None, None, None)
    assert all(not s.is_error for s in searches)
    assert not wrote.is_error
    assert [f.text for f in access.load(code.config()).facts()] == ["Written after the lock."]


def test_secrets_in_files_and_in_a_hand_edited_memory_never_reach_the_client(
    code: Repo,
) -> None:
    code.write("conf.py", f'def connect():\n    token = "{TOKEN}"\n    return token\n')
    code.commit("conf")
    cfg = code.config()
    path = access.memory_path(cfg)
    ops.remember(cfg, "connect() reads the token from conf.py.")
    hand_edited = path.read_text(encoding="utf-8").replace("from conf.py", f"({TOKEN})")
    path.write_text(hand_edited + f"\nA pasted token: {TOKEN}\n", encoding="utf-8")

    async def body(c: Client) -> list[Any]:
        out = [
            await c.call_tool("refresh", {}),
            await c.call_tool("get_symbol", {"name": "connect"}),
            await c.call_tool("search_code", {"query": "connect token"}),
            await c.call_tool("context_pack", {"task": "fix connect token handling"}),
            await c.call_tool("memory", {"command": "view", "path": "/memories/REPOMEM.md"}),
            await c.read_resource("repomem://memory"),
            await c.call_tool("remember", {"fact": f"The token is {TOKEN}"}),
            await c.read_resource("repomem://pack/latest"),
        ]
        return out

    results = talk(code, body)
    assert "connect" in text(results[1])
    for r in results[:5]:
        assert TOKEN not in text(r) and TOKEN not in str(r.structured_content)
    assert TOKEN not in results[5].contents[0].text
    assert results[6].is_error and "credential" in text(results[6])
    latest = results[7].contents[0].text
    assert latest.startswith("# Context pack:") and TOKEN not in latest


def test_resources_hold_the_memory_file_and_the_latest_pack(code: Repo) -> None:
    async def body(c: Client) -> Any:
        listed = {str(r.uri) for r in (await c.list_resources()).resources}
        before = (await c.read_resource("repomem://pack/latest")).contents[0].text
        await c.call_tool("remember", {"fact": "Resources list the memory."})
        memory = (await c.read_resource("repomem://memory")).contents[0].text
        await c.call_tool("context_pack", {"task": "Calculator totals"})
        after = (await c.read_resource("repomem://pack/latest")).contents[0].text
        prompts = [p.name for p in (await c.list_prompts()).prompts]
        prompt = await c.get_prompt("start_session", {"task": "Calculator totals"})
        return listed, before, memory, after, prompts, prompt

    listed, before, memory, after, prompts, prompt = talk(code, body)
    assert listed == {"repomem://memory", "repomem://pack/latest"}
    assert "No context pack built yet" in before
    assert "Resources list the memory." in memory
    assert after.startswith("# Context pack: Calculator totals")
    assert prompts == ["start_session"]
    message = prompt.messages[0].content.text
    assert "Calculator totals" in message and "# Context pack:" in message
    assert "session_start" in message


def test_max_tokens_above_the_configured_limit_is_lowered(code: Repo) -> None:
    code.write(".repomem", "[server]\nmax_pack_tokens = 1000\n")

    async def body(c: Client) -> Any:
        return await c.call_tool("context_pack", {"task": "add", "max_tokens": 50000})

    r = talk(code, body)
    assert not r.is_error
    assert r.structured_content["budget"] == 1000
    assert r.structured_content["budget_lowered_from"] == 50000
    assert r.structured_content["tokens"] <= 1000


def test_tools_on_a_repository_without_an_index_say_what_to_do(repo: Repo) -> None:
    repo.write("a.py", "def compute_alpha():\n    pass\n")

    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("search_code", {"query": "compute_alpha"}),
            await c.call_tool("index_status", {}),
            await c.call_tool("refresh", {}),
            await c.call_tool("search_code", {"query": "compute_alpha"}),
        ]

    missing, status, refreshed, found = talk(repo, body)
    assert missing.is_error and "`refresh`" in text(missing)
    assert status.is_error
    assert not refreshed.is_error and refreshed.structured_content["added"] == 1
    assert not found.is_error and "a.py" in text(found)


def test_notes_from_the_server_are_the_assistants_and_can_replace_earlier_ones(
    code: Repo,
) -> None:
    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("write_note", {"path": "app/main.py", "note": "Entry point."}),
            await c.call_tool(
                "write_note", {"path": "app/main.py", "note": "Prints a sum.", "replace": True}
            ),  # fmt: skip
            await c.call_tool("write_note", {"path": "app/main.py", "note": f"key {TOKEN}"}),
            await c.call_tool("write_note", {"path": "nope.py", "note": "x"}),
            await c.call_tool("file_overview", {"path": "app/main.py"}),
        ]

    first, second, secret, missing, overview = talk(code, body)
    assert not first.is_error and not second.is_error
    assert secret.structured_content["redacted"] == 1 and TOKEN not in text(secret)
    assert missing.is_error and "does not exist" in text(missing)
    notes = [n["text"] for n in overview.structured_content["notes"]]
    assert "Entry point." not in notes and "Prints a sum." in notes
    assert TOKEN not in str(notes)


def test_an_error_that_quotes_a_hand_edited_line_has_its_credential_redacted(code: Repo) -> None:
    cfg = code.config()
    ops.remember(cfg, "Deploys go through the staging cluster.")
    path = access.memory_path(cfg)
    text_now = path.read_text(encoding="utf-8")
    edited = text_now.replace("- confidence: medium\n", f"- confidence: {TOKEN}\n")
    assert edited != text_now
    path.write_text(edited, encoding="utf-8")

    async def body(c: Client) -> Any:
        return await c.call_tool("recall", {"query": "deploys"})

    r = talk(code, body)
    assert r.is_error and "confidence" in text(r), text(r)
    assert TOKEN not in text(r)


def test_find_references_takes_the_identifier_from_a_name_joined_as_the_language_does(
    code: Repo,
) -> None:
    # `get_symbol Db::new` listed 21 references; `find_references Db::new` found none
    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("find_references", {"name": name})
            for name in ("calc.add", "calc::add", "Calc#add", "Calc->add")
        ]

    for out in talk(code, body):
        assert not out.is_error and "app/main.py:5 call in main" in text(out), text(out)
        assert out.structured_content["name"] == "add"


def test_notes_written_on_a_folder_show_in_its_overview_and_its_files(code: Repo) -> None:
    code.write("app/util/helpers.py", "def helper():\n    return 1\n")
    code.commit("a nested folder")

    async def body(c: Client) -> list[Any]:
        bare = await c.call_tool("file_overview", {"path": "app"})
        await c.call_tool("write_note", {"path": "app/", "note": "The CLI entry points."})
        await c.call_tool("refresh", {})
        return [
            bare,
            await c.call_tool("file_overview", {"path": "app"}),
            await c.call_tool("file_overview", {"path": "app/util/helpers.py"}),
            await c.call_tool("file_overview", {"path": "calc.py"}),
        ]

    bare, folder, inside, elsewhere = talk(code, body)
    assert not bare.is_error, text(bare)
    assert "No notes on the folder `app`" in text(bare)
    assert not folder.is_error, text(folder)
    assert folder.structured_content["folder"]["path"] == "app"
    assert [n["text"] for n in folder.structured_content["notes"]] == ["The CLI entry points."]
    assert "Note (assistant): The CLI entry points." in text(folder)
    assert "app/main.py" in text(folder) and "app/util/helpers.py" in text(folder)
    assert inside.structured_content["folder_notes"] == [
        {"path": "app", "source": "assistant", "text": "The CLI entry points.", "stale": False}
    ]
    assert "Note on the folder `app/` (assistant): The CLI entry points." in text(inside)
    assert elsewhere.structured_content["folder_notes"] == []


def test_search_code_finds_a_one_letter_definition_by_its_name(code: Repo) -> None:
    code.write("short.py", "def f(x):\n    return x\n")
    indexer.run(code.config())

    async def body(c: Client) -> Any:
        return await c.call_tool("search_code", {"query": "f"})

    r = talk(code, body)
    assert not r.is_error, text(r)
    assert [(h["path"], h["name"]) for h in r.structured_content["results"]] == [("short.py", "f")]


def test_file_overview_finds_a_file_named_in_the_other_unicode_form(repo: Repo) -> None:
    repo.write("cafe\u0301.py", "def brew():\n    return 1\n")  # stored decomposed (macOS)
    repo.commit("init")
    indexer.run(repo.config())
    ops.remember(repo.config(), "brew() makes one cup.", cites=["cafe\u0301.py:brew"])

    async def body(c: Client) -> Any:
        return await c.call_tool("file_overview", {"path": "caf\u00e9.py"})  # typed composed

    r = talk(repo, body)
    assert not r.is_error, text(r)
    assert r.structured_content["file"]["path"] == "cafe\u0301.py"
    assert [s["name"] for s in r.structured_content["symbols"]] == ["brew"]
    assert len(r.structured_content["facts"]) == 1


@pytest.mark.skipif(not os.path.exists("/proc/self/task"), reason="reads workers from /proc")
def test_a_refresh_whose_full_build_is_cut_short_says_its_work_is_lost(repo: Repo) -> None:
    """The parse workers of a first build end (killed: they ignore a terminal's Ctrl-C):
    the answer says what `repomem index` says, not a pool's traceback."""
    import signal

    from tests.conftest import wait_until
    from tests.index.indexer.cases import populate, rebuilding
    from tests.index.indexer.test_parse import workers_of

    populate(repo, 1200)
    repo.commit()
    journal = repo.root / ".git" / "repomem" / "journal.json"
    done = threading.Event()

    def stop_workers() -> None:
        wait_until(lambda: done.is_set() or (rebuilding(journal) and workers_of(os.getpid())),
                   "the first build's workers")  # fmt: skip
        for pid in workers_of(os.getpid()):
            os.kill(pid, signal.SIGKILL)

    killer = threading.Thread(target=stop_workers)
    killer.start()

    async def body(c: Client) -> Any:
        try:
            return await c.call_tool("refresh", {})
        finally:
            done.set()

    try:
        r = talk(repo, body)
    finally:
        killer.join()
    assert r.is_error, text(r)
    assert text(r).startswith(
        "Error: The refresh was cut short: a full build is not resumed, so its work so far is "
        "lost; there is no index until a build finishes, and the next `refresh` builds it "
        "again from the start."
    ), text(r)


HUGE = "parse_" + "x" * 5000 + "\nsecond line"


@pytest.mark.parametrize(
    ("tool", "args"),
    [
        ("get_symbol", {"name": HUGE}),
        ("search_code", {"query": "add", "kind": HUGE}),
        ("search_code", {"query": "add", "path_glob": "/" + HUGE}),
        ("recall", {"query": HUGE}),
        ("remember", {"fact": "add() adds.", "cites": ["calc.py:" + HUGE]}),
        ("file_overview", {"path": "/" + HUGE}),
        ("forget", {"id": HUGE}),
        ("confirm_fact", {"id": HUGE}),
        ("supersede", {"id": HUGE, "fact": "add() adds.", "why": "w"}),
        ("memory", {"command": "view", "path": "/memories/" + "x" * 5000 + ".md"}),
        ("memory", {"command": "view", "path": "/memories/../" + HUGE}),
        ("memory", {"command": "view", "path": "/memories/a/" + HUGE}),
        ("memory", {"command": "view", "path": "/" + HUGE}),
        ("memory", {"command": "view", "path": "/memories/" + HUGE + "\\"}),
        ("memory", {"command": "view", "path": "/memories/" + HUGE + "!.md"}),
    ],
)
def test_an_answer_says_a_huge_argument_back_cut_on_one_line(
    code: Repo, tool: str, args: dict[str, Any]
) -> None:
    async def body(c: Client) -> Any:
        return await c.call_tool(tool, args)

    said = text(talk(code, body))
    assert "\n" not in said and len(said) < 600 and "…" in said, said[:300]


def test_control_characters_sent_to_the_memory_never_reach_its_file(code: Repo) -> None:
    # git takes a file holding a NUL byte for binary: the committed memory file would show
    # in diffs as "Bin", and an escape sequence would rewrite the terminal of `memory show`
    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("session_start", {"title": "fix\x00 the\x1b[2J build"}),
            await c.call_tool("remember", {"fact": "add()\x00 adds\x07 two numbers."}),
            await c.call_tool("remember", {"fact": "Totals use sum.", "topic": "ma\x00th"}),
            await c.call_tool("session_end", {"summary": "did\x00 it", "next_steps": ["go\x08on"]}),
        ]

    results = talk(code, body)
    assert not any(r.is_error for r in results), [text(r) for r in results]
    data = (code.root / "REPOMEM.md").read_bytes()
    controls = sorted(
        {chr(b) for b in data if b < 0x20 and b not in b"\n\t"}
        | ({"\x7f"} & {chr(b) for b in data})
    )
    assert not controls, controls
    assert "add() adds two numbers." in data.decode("utf-8")
    numstat = code.git("add", "-N", "REPOMEM.md") + code.git("diff", "--numstat", "REPOMEM.md")
    assert not numstat.startswith("-\t-"), numstat


def test_a_repository_deleted_while_serving_is_said_to_be_gone_and_not_written_again(
    code: Repo,
) -> None:
    import shutil

    async def body(c: Client) -> list[Any]:
        await c.call_tool("index_status", {})
        shutil.rmtree(code.root)
        return [
            await c.call_tool("remember", {"fact": "Written after the checkout was deleted."}),
            await c.call_tool("context_pack", {"task": "add two numbers"}),
            await c.call_tool("refresh", {}),
            await c.call_tool("recall", {"query": "add"}),
            await c.call_tool("session_start", {"title": "t"}),
        ]

    for r in talk(code, body):
        assert r.is_error, text(r)[:200]
        assert "no longer exists" in text(r) and str(code.root) in text(r), text(r)
    # nothing recreated the folder (a memory file, a lock, an index of an empty folder)
    assert not code.root.exists()


def test_a_lone_surrogate_in_text_sent_to_the_memory_or_a_note_is_written_as_a_replacement(
    code: Repo,
) -> None:
    # JSON can carry half of a UTF-16 pair ("\ud800"), which no UTF-8 file or store holds:
    # the tools failed with the SDK's "Error executing tool" and a traceback in the log
    half = "\ud83d"

    async def body(c: Client) -> list[Any]:
        return [
            await c.call_tool("session_start", {"title": f"emoji {half} title"}),
            await c.call_tool("remember", {"fact": f"add() {half} adds.", "topic": f"m{half}"}),
            await c.call_tool("write_note", {"path": "calc.py", "note": f"Helpers {half}."}),
            await c.call_tool("session_end", {"summary": f"done {half}"}),
            await c.call_tool(
                "memory",
                {"command": "str_replace", "path": "/memories/REPOMEM.md",
                 "old_str": "# Project memory", "new_str": f"# Project memory {half}"},
            ),
        ]  # fmt: skip

    results = talk(code, body)
    assert not any(r.is_error for r in results), [text(r) for r in results]
    memory = (code.root / "REPOMEM.md").read_text(encoding="utf-8")
    assert "add() \ufffd adds." in memory and "done \ufffd" in memory
    assert "# Project memory \ufffd" in memory


def test_a_session_whose_record_holds_a_lone_surrogate_still_ends(code: Repo) -> None:
    # an older repomem kept a title sent as half a UTF-16 pair in the session's record
    import json

    from repomem.memory import session_record

    talk(code, lambda c: c.call_tool("session_start", {"title": "t"}))
    record = session_record.record_path(code.config())
    data = json.loads(record.read_text(encoding="utf-8"))
    data["title"] = "half \ud83d title"
    record.write_text(json.dumps(data), encoding="utf-8")
    r = talk(code, lambda c: c.call_tool("session_end", {"summary": "done"}))
    assert not r.is_error, text(r)
    assert "half \ufffd title" in (code.root / "REPOMEM.md").read_text(encoding="utf-8")
