"""`repomem serve` as a real process (stdio and HTTP) and `repomem mcp-config`."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters

from repomem.fsutil import FileLock
from repomem.index import indexer
from repomem.memory import access
from tests.cli.test_index import run
from tests.conftest import Repo, wait_until
from tests.server.conftest import text

DEADLINE = 60.0


def stdio(repo: Repo, *extra: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "repomem", "-C", str(repo.root), "serve", *extra],
        env=dict(os.environ),  # the hermetic REPOMEM_HOME and HOME of the test
    )


def test_the_stdio_server_lists_and_answers_and_survives_bad_calls(code: Repo) -> None:
    async def main() -> tuple[Any, ...]:
        async with Client(stdio(code)) as c:
            names = {t.name for t in (await c.list_tools()).tools}
            found = await c.call_tool("search_code", {"query": "Calculator"})
            bad = await c.call_tool("search_code", {"query": 3, "limit": -1})
            escape = await c.call_tool("file_overview", {"path": "../../etc/passwd"})
            wrote = await c.call_tool("remember", {"fact": "Written over stdio.",
                                                   "cites": ["calc.py:add"]})  # fmt: skip
            after = await c.call_tool("get_symbol", {"name": "Calculator.total"})
            return names, found, bad, escape, wrote, after

    names, found, bad, escape, wrote, after = anyio.run(main)
    assert {"context_pack", "search_code", "remember", "memory"} <= names
    assert "calc.py" in text(found) and not found.is_error
    assert bad.is_error and "limit" in text(bad)
    assert escape.is_error and "`..`" in text(escape)
    assert not wrote.is_error
    assert not after.is_error and "sum(add(0, i)" in text(after)
    (fact,) = access.load(code.config()).facts()
    assert fact.text == "Written over stdio." and fact.cites[0].symbol == "add"


def test_a_read_only_stdio_server_has_no_write_tools(code: Repo) -> None:
    async def main() -> set[str]:
        async with Client(stdio(code, "--read-only")) as c:
            return {t.name for t in (await c.list_tools()).tools}

    names = anyio.run(main)
    assert "remember" not in names and "session_end" not in names and "search_code" in names


def test_server_and_cli_writing_at_the_same_moment_lose_nothing(code: Repo) -> None:
    """The server keeps writing for as long as the CLI writers run, so their writes overlap."""
    cli_facts = [
        "CLI note about Windows drive letters.",
        "CLI note concerning release tagging.",
        "CLI note regarding flaky network tests.",
        "CLI note on documentation builds.",
    ]

    async def main() -> list[str]:
        async with Client(stdio(code)) as c:
            await c.list_tools()  # the server is up before the CLI writers start
            procs = [
                subprocess.Popen(
                    [sys.executable, "-m", "repomem", "-C", str(code.root), "remember", fact],
                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                )
                for fact in cli_facts
            ]  # fmt: skip
            written: list[str] = []
            while len(written) < 200 and (len(written) < 4 or any(p.poll() is None for p in procs)):
                batch = [f"Server fact {os.urandom(6).hex()}." for _ in range(2)]
                async with anyio.create_task_group() as tg:
                    for fact in batch:
                        tg.start_soon(c.call_tool, "remember", {"fact": fact})
                written += batch
            for p in procs:
                _, err = p.communicate(timeout=DEADLINE)
                assert p.returncode == 0, err
            return written

    written = anyio.run(main)
    got = sorted(f.text for f in access.load(code.config()).facts())
    assert got == sorted(written + cli_facts)


def http_server(repo: Repo, port: int, stdout: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "repomem", "-C", str(repo.root), "serve", "--http",
         "--port", str(port)],
        stdout=stdout, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_listening(port: int, proc: subprocess.Popen[str]) -> None:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()[1]
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            time.sleep(0.05)  # polling a condition, bounded by the deadline
    raise AssertionError(f"the HTTP server did not listen on {port} within {DEADLINE}s")


def _listening_addresses(port: int) -> set[str]:
    """Local IPv4 addresses listening on `port`, from /proc/net/tcp (Linux)."""
    found = set()
    for line in Path("/proc/net/tcp").read_text(encoding="ascii").splitlines()[1:]:
        local, state = line.split()[1], line.split()[3]
        addr, _, hexport = local.partition(":")
        if state == "0A" and int(hexport, 16) == port:
            found.add(socket.inet_ntoa(bytes.fromhex(addr)[::-1]))
    return found


def test_the_http_server_answers_on_localhost(code: Repo) -> None:
    port = _free_port()
    proc = http_server(code, port, subprocess.PIPE)
    try:
        _wait_listening(port, proc)

        async def main() -> tuple[Any, ...]:
            async with Client(f"http://127.0.0.1:{port}/mcp") as c:
                names = {t.name for t in (await c.list_tools()).tools}
                found = await c.call_tool("find_references", {"name": "add"})
                wrote = await c.call_tool("remember", {"fact": "Written over HTTP."})
                return names, found, wrote

        names, found, wrote = anyio.run(main)
        if Path("/proc/net/tcp").exists():
            assert _listening_addresses(port) == {"127.0.0.1"}
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=DEADLINE)
    assert "find_references" in names
    assert "app/main.py:5" in text(found)
    assert not wrote.is_error
    assert [f.text for f in access.load(code.config()).facts()] == ["Written over HTTP."]
    assert f"http://127.0.0.1:{port}/mcp" in err


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGINT])
def test_a_stopped_http_server_answers_the_call_in_progress_then_exits_0(
    code: Repo, stop: signal.Signals
) -> None:
    port = _free_port()
    proc = http_server(code, port, subprocess.DEVNULL)
    err: list[str] = []
    waiting = threading.Event()

    def read_err() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            err.append(line)
            if "waiting for another repomem process" in line:
                waiting.set()

    reader = threading.Thread(target=read_err, daemon=True)
    reader.start()
    answer: list[Any] = []

    async def remember() -> None:
        async with Client(f"http://127.0.0.1:{port}/mcp") as c:
            await c.list_tools()  # the client checks answers against these, asked once
            answer.append(await c.call_tool("remember", {"fact": "Written while stopping."}))

    caller = threading.Thread(target=lambda: anyio.run(remember))
    try:
        _wait_listening(port, proc)
        # the memory's lock, held here, keeps the call in progress until the server stops
        with FileLock(indexer.state_dir(code.config()) / "memory.lock", DEADLINE):
            caller.start()
            assert waiting.wait(DEADLINE), "".join(err)
            proc.send_signal(stop)
            _wait_closed(port)
        caller.join(DEADLINE)
        assert proc.wait(DEADLINE) == 0, "".join(err)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        reader.join(DEADLINE)
        assert proc.stderr is not None
        proc.stderr.close()
    assert answer and not answer[0].is_error, "".join(err)
    assert [f.text for f in access.load(code.config()).facts()] == ["Written while stopping."]
    assert "Traceback" not in "".join(err)


def test_a_stdio_server_stops_on_ctrl_c_while_its_client_keeps_stdin_open(code: Repo) -> None:
    """The SDK reads stdin in a thread nothing stops: after the Ctrl-C that stopped the
    server, the process waited for the client's next line (a second Ctrl-C left it waiting
    at exit, a third killed it by the signal). Ctrl-C is sent until it exits: the first only
    cancels the server's tasks, which wait for that read."""
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).parents[2])}
    proc = subprocess.Popen(
        [sys.executable, "-m", "repomem", "-C", str(code.root), "serve"], env=env,
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert proc.stdin is not None and proc.stdout is not None and proc.stderr is not None
    hello = {"protocolVersion": "2025-06-18", "capabilities": {},
             "clientInfo": {"name": "test", "version": "1"}}  # fmt: skip
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                 "params": hello}) + "\n")  # fmt: skip
    proc.stdin.flush()
    try:
        assert '"id":1' in proc.stdout.readline()  # the server answers: it is serving
        deadline = time.monotonic() + DEADLINE  # a guard against the hang, not a timing
        while proc.poll() is None and time.monotonic() < deadline:
            os.killpg(proc.pid, signal.SIGINT)  # a terminal's Ctrl-C, pressed again
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(timeout=0.5)
        assert proc.poll() == 0, "the stdio server did not stop on Ctrl-C"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        proc.stdin.close()
        proc.stdout.close()
        err = proc.stderr.read()
        proc.stderr.close()
    assert "Traceback" not in err, err


def _wait_closed(port: int) -> None:
    deadline = time.monotonic() + DEADLINE
    while time.monotonic() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
        except OSError:
            return
        time.sleep(0.05)  # polling a condition, bounded by the deadline
    raise AssertionError(f"the HTTP server still listens on {port} after {DEADLINE}s")


INSPECTOR = os.environ.get("MCP_INSPECTOR_DIR", "")


@pytest.mark.skipif(
    not (INSPECTOR and shutil.which("node")
         and (Path(INSPECTOR) / "node_modules/.bin/mcp-inspector").exists()),
    reason="set MCP_INSPECTOR_DIR to a folder with `npm install @modelcontextprotocol/inspector@2`",
)  # fmt: skip
def test_the_mcp_inspector_cli_can_list_and_call_tools(code: Repo) -> None:
    cli = str(Path(INSPECTOR) / "node_modules/.bin/mcp-inspector")
    base = [cli, "--cli", sys.executable, "-m", "repomem", "-C", str(code.root), "serve"]

    def inspect(*args: str) -> tuple[int, Any]:
        p = subprocess.run([*base, *args], capture_output=True, text=True, timeout=120)
        return p.returncode, json.loads(p.stdout) if p.stdout.strip() else p.stderr

    code_list, listed = inspect("--method", "tools/list")
    assert code_list == 0 and "search_code" in {t["name"] for t in listed["tools"]}
    rc, called = inspect("--method", "tools/call", "--tool-name", "search_code",
                         "--tool-arg", "query=Calculator", "--tool-arg", "limit=2")  # fmt: skip
    assert rc == 0 and called["isError"] is False
    assert called["structuredContent"]["results"][0]["path"] == "calc.py"
    rc, refused = inspect("--method", "tools/call", "--tool-name", "file_overview",
                          "--tool-arg", "path=/etc/passwd")  # fmt: skip
    assert refused["isError"] is True and "absolute" in refused["content"][0]["text"]


def test_mcp_config_prints_the_snippet_and_writes_the_project_file(repo: Repo) -> None:
    r = str(repo.root)
    code_, out, _ = run("-C", r, "mcp-config", "--client", "cursor", "--command", "repomem")
    assert code_ == 0
    assert json.loads(out) == {"mcpServers": {"repomem": {
        "command": "repomem", "args": ["-C", "${workspaceFolder}", "serve"]}}}  # fmt: skip
    repo.write(".mcp.json", json.dumps({"mcpServers": {"db": {"command": "db-mcp"}}}))
    code_, out, _ = run("-C", r, "mcp-config", "--client", "claude-code", "--write")
    assert (
        code_ == 0 and out.strip() == "Added repomem to .mcp.json; restart Claude Code to load it."
    )
    data = json.loads((repo.root / ".mcp.json").read_text(encoding="utf-8"))
    assert set(data["mcpServers"]) == {"db", "repomem"}
    assert data["mcpServers"]["repomem"]["args"][-1] == "serve"
    code_, _, err = run("-C", r, "mcp-config", "--client", "emacs")
    assert code_ == 1 and err.startswith("Error: Unknown client `emacs`")
    program = repo.root.parent / "my tools" / "repomem"  # a path with a space is one program
    program.parent.mkdir()
    program.write_text("#!/bin/sh\n", encoding="utf-8")
    code_, out, _ = run("-C", r, "mcp-config", "--client", "cursor", "--command", str(program))
    assert code_ == 0 and json.loads(out)["mcpServers"]["repomem"]["command"] == str(program)
    code_, out, _ = run("-C", r, "mcp-config", "--client", "cursor", "--command", "uvx repomem")
    assert json.loads(out)["mcpServers"]["repomem"]["args"][0] == "repomem"
    code_, _, err = run("-C", r, "mcp-config", "--client", "cursor", "--command", " ")
    assert code_ == 1 and err.startswith("Error: The --command is empty")
    code_, _, err = run("-C", r, "mcp-config", "--client", "cursor", "--command", "'unclosed")
    assert code_ == 1 and err.startswith("Error: The --command cannot be read")


def test_a_port_in_use_is_one_line_before_the_server_says_it_runs(repo: Repo) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        code_, _, err = run("-C", str(repo.root), "serve", "--http", "--port", str(port))
    assert code_ == 1 and err.startswith(f"Error: Cannot listen on 127.0.0.1:{port}"), err
    assert "MCP server for" not in err


def test_claude_hook_runs_as_claude_code_starts_it(code: Repo, tmp_path: Path) -> None:
    def hook(payload: str, cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "repomem", "claude-hook"], input=payload, cwd=cwd,
            capture_output=True, text=True, timeout=DEADLINE, env=dict(os.environ),
        )  # fmt: skip

    ask = {"hook_event_name": "UserPromptSubmit", "session_id": "abc",
           "prompt": "Calculator.total adds one value too many", "cwd": str(code.root)}  # fmt: skip
    first = hook(json.dumps(ask), tmp_path)  # started elsewhere: the input's cwd counts
    assert first.returncode == 0, first.stderr
    assert "# Context pack: Calculator.total" in first.stdout and "calc.py" in first.stdout
    second = hook(json.dumps({**ask, "prompt": "now the tests please"}), code.root)
    assert (second.returncode, second.stdout) == (0, "")
    bad = hook("{oops", code.root)
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.startswith("repomem: The hook input is not JSON")
    assert "Traceback" not in bad.stderr


def test_claude_hook_does_not_wait_for_a_stdin_claude_code_keeps_open(code: Repo) -> None:
    from repomem.memory import ops

    ops.remember(code.config(), "Never print from library code.", kind="convention")
    start = {"hook_event_name": "SessionStart", "session_id": "o", "source": "clear",
             "cwd": str(code.root)}  # fmt: skip
    with subprocess.Popen(
        [sys.executable, "-m", "repomem", "claude-hook"], stdin=subprocess.PIPE,
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=dict(os.environ),
    ) as hook:  # fmt: skip
        assert hook.stdin is not None
        hook.stdin.write(json.dumps(start).encode())
        hook.stdin.flush()  # and left open, as Claude Code has on `/clear`
        try:
            status = hook.wait(timeout=DEADLINE)  # a digest: far below a pipe's buffer
        finally:
            hook.stdin.close()
        assert hook.stdout is not None and hook.stderr is not None
        out, err = hook.stdout.read().decode(), hook.stderr.read().decode()
    assert status == 0 and "Never print from library code." in out, err


def test_claude_hooks_prints_or_writes_the_settings(code: Repo) -> None:
    status, out, err = run("-C", str(code.root), "claude-hooks", "--command", "/opt/r")
    assert status == 0 and "settings.local.json" in err
    data = json.loads(out)
    assert data["hooks"]["UserPromptSubmit"][0]["hooks"][0]["command"] == "/opt/r claude-hook"
    status, out, _ = run("-C", str(code.root), "claude-hooks", "--write", "--command", "/opt/r")
    assert status == 0 and "Added repomem's hooks to .claude/settings.local.json" in out
    assert "Worktree sessions (claude --worktree) do not get this file" in out
    written = json.loads((code.root / ".claude" / "settings.local.json").read_text("utf-8"))
    assert written == data
    status, out, _ = run("-C", str(code.root), "claude-hooks", "--shared")
    shared = json.loads(out)["hooks"]["SessionStart"][0]["hooks"][0]["command"]
    assert status == 0 and shared.endswith("; exec repomem claude-hook")  # no path of ours
    status, _, err = run("-C", str(code.root), "claude-hooks", "--command", "'unclosed")
    assert status == 1 and "fix its quotes" in err


def test_claude_hooks_record_a_session_with_the_settings_they_write(
    code: Repo, tmp_path: Path
) -> None:
    status, out, _ = run("-C", str(code.root), "claude-hooks", "--write", "--record-sessions",
                         "--command", f"{sys.executable} -m repomem")  # fmt: skip
    assert status == 0, out
    settings = json.loads((code.root / ".claude" / "settings.local.json").read_text("utf-8"))
    line = settings["hooks"]["SessionEnd"][0]["hooks"][0]["command"]
    assert line.endswith(" -m repomem claude-hook --record-sessions")
    assert [settings["hooks"][e][0]["hooks"][0]["command"] for e in ("SessionStart",
            "UserPromptSubmit")] == [line, line]  # fmt: skip

    def hook(**payload: str) -> None:  # as Claude Code runs it: through a shell, in the project
        done = subprocess.run(
            [str(shutil.which("bash") or "sh"), "-c", line], cwd=code.root,
            input=json.dumps({"session_id": "c1", "cwd": str(code.root), **payload}),
            capture_output=True, text=True, timeout=DEADLINE, env=dict(os.environ),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr

    hook(hook_event_name="SessionStart", source="startup")
    hook(hook_event_name="UserPromptSubmit", prompt="Calculator.total adds one too many")
    code.write("calc.py", (code.root / "calc.py").read_text("utf-8").replace("add(0, i)", "i"))
    code.commit("Sum the items themselves")
    said = {"type": "text", "text": "Calculator.total sums the items now."}
    talk = tmp_path / "c1.jsonl"
    talk.write_text(json.dumps({"type": "assistant", "message": {"content": [said]}}), "utf-8")
    hook(hook_event_name="SessionEnd", reason="prompt_input_exit", transcript_path=str(talk))
    from repomem import hooks as git_hooks

    log = git_hooks.log_path(code.config())  # where the background process reports
    wait_until(
        lambda: log.exists() and "claude-hook: recorded" in log.read_text("utf-8"),
        "the session recorded in the background", DEADLINE,
    )  # fmt: skip
    (entry,) = access.load(code.config()).sessions()
    assert entry.summary == "Calculator.total sums the items now."
    assert entry.title == "Calculator.total adds one too many" and entry.agent == "claude-code"
    assert [c.split(" ", 1)[1] for c in entry.commits] == ["Sum the items themselves"]


@pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX terminal")
def test_claude_hook_run_by_hand_says_what_it_is_instead_of_waiting(code: Repo) -> None:
    import pty

    leader, follower = pty.openpty()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "repomem", "claude-hook"], stdin=follower, cwd=code.root,
            capture_output=True, text=True, timeout=DEADLINE, env=dict(os.environ),
        )  # fmt: skip
    finally:
        os.close(leader)
        os.close(follower)
    assert done.returncode == 1 and done.stdout == ""
    assert "reads a Claude Code hook's JSON on stdin" in done.stderr


def test_claude_hook_never_exits_with_the_status_that_blocks_a_prompt(code: Repo) -> None:
    ask = {"hook_event_name": "UserPromptSubmit", "session_id": "u", "cwd": str(code.root),
           "prompt": "Calculator.total adds one value too many"}  # fmt: skip
    for extra in (["--max-chars", "5"], ["--every-prompt", "--option-of-a-later-version"]):
        done = subprocess.run(
            [sys.executable, "-m", "repomem", "claude-hook", *extra], input=json.dumps(ask),
            capture_output=True, text=True, timeout=DEADLINE, env=dict(os.environ),
        )  # fmt: skip
        assert done.returncode != 2, (extra, done.stderr)  # 2 blocks and erases the prompt
    # an option it does not know yet is ignored: the pack is still added
    assert done.returncode == 0 and "# Context pack:" in done.stdout, done.stderr


def test_claude_hook_speaks_utf8_whatever_the_locale(code: Repo) -> None:
    ask = {"hook_event_name": "UserPromptSubmit", "session_id": "w", "cwd": str(code.root),
           "prompt": "Calculator.total in Zürich ☃ adds one too many \ud800"}  # fmt: skip
    env = {**os.environ, "PYTHONIOENCODING": "cp1252"}  # as a Windows console's code page
    done = subprocess.run(
        [sys.executable, "-m", "repomem", "claude-hook"], input=json.dumps(ask).encode(),
        capture_output=True, timeout=DEADLINE, env=env,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr.decode("utf-8", "replace")
    out = done.stdout.decode("utf-8")
    assert "# Context pack: Calculator.total in Zürich ☃ adds one too many ?" in out


def test_claude_hook_finds_the_project_when_claude_left_it(code: Repo, tmp_path: Path) -> None:
    ask = {"hook_event_name": "UserPromptSubmit", "session_id": "p",
           "prompt": "Calculator.total adds one value too many"}  # fmt: skip
    env = {**os.environ, "CLAUDE_PROJECT_DIR": str(code.root)}
    for cwd in (str(tmp_path), str(tmp_path / "deleted")):  # `cd /tmp`, a removed folder
        done = subprocess.run(
            [sys.executable, "-m", "repomem", "claude-hook", "--every-prompt"],
            input=json.dumps({**ask, "cwd": cwd}), cwd=tmp_path, capture_output=True, text=True,
            timeout=DEADLINE, env=env,
        )  # fmt: skip
        assert done.returncode == 0 and "calc.py" in done.stdout, (cwd, done.stderr)
