"""The MCP server: repomem's tools, resources and prompt over stdio or streamable HTTP.

The only module that imports `mcp` (the official SDK, 2.x). It is a thin adapter: every tool
calls a function of `repomem.server.tools` or `repomem.server.memtool`, turns its `Result` into
compact text plus structured content, and turns a `RepomemError` into a tool error holding the
one-line message (the server stays up). Tools are plain functions, which the SDK runs on worker
threads, so a long pack or refresh never blocks other calls.
"""

# No `from __future__ import annotations`: the SDK reads the tools' annotations at run time,
# and those of the nested tool functions name local values (the config's budgets).

from collections.abc import Callable
from types import FrameType
from typing import Annotated, Any, Literal

import anyio.to_thread
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from repomem import __version__, fsutil, secrets
from repomem.config import MIN_BUDGET, Config
from repomem.errors import InputError, RepomemError
from repomem.server import memtool, tools
from repomem.server.tools import Result, for_tools, scrub

INSTRUCTIONS = """\
repomem knows this repository: a code index (search_code, get_symbol, find_references,
file_overview), a committed project memory of facts, decisions and sessions (recall, remember,
supersede, forget, memory_check, confirm_fact, session_start, session_end), notes on files
(write_note) and context packs (context_pack).
Start a task with context_pack(task) or the start_session prompt; record what you learn with
remember (cite the code it rests on); call refresh when index_status says the index is stale.
Paths are relative to the repository root."""

READ = ToolAnnotations(read_only_hint=True, destructive_hint=False, open_world_hint=False)
WRITE = ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False)
DESTROY = ToolAnnotations(read_only_hint=False, destructive_hint=True, open_world_hint=False)
CITES = (
    "Code the fact rests on: `PATH`, `PATH:SYMBOL` or `PATH:START-END`, relative to the "
    "repository root; the fact turns stale when that code changes."
)

MEMORY_DOC = """\
Anthropic's client-side memory tool (commands view, create, str_replace, insert, delete, rename
on paths under /memories), backed by this repository's project memory.
- /memories/{file} is the memory file itself: view shows it with line numbers; str_replace,
  insert and create (a full rewrite) edit it under the memory lock. The result must still
  parse and keep every entry, and new text passes the secret filter. It cannot be deleted.
- /memories/<topic>.md holds the facts with that topic, one per paragraph as `id: text`.
  create/insert remember new facts with the topic (one per paragraph, or per line); existing
  facts are kept. str_replace within one fact's text supersedes it (replacing all of it with
  nothing forgets it). delete forgets the topic's facts; rename moves them to another topic.
- view /memories lists the file and the topics."""


class _Server(MCPServer):
    """The SDK's server, with rejected arguments reported in one line that names each argument
    and what it must be, never the value given (the SDK's message is pydantic's, several lines
    long, and quotes the value, which may be a credential pasted in the wrong field)."""

    left_out: frozenset[str] = frozenset()  # the write tools a read-only server does not list

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if isinstance(cause, ValidationError) and not isinstance(exc, UnexpectedToolError):
                raise ToolError(_rejected(name, cause)) from cause
            if name in self.left_out:
                raise ToolError(
                    f"Error: `{name}` writes, and this server is read-only (`repomem serve "
                    f"--read-only` or `server.read_only`); use the tools listed, or ask the "
                    f"user to record it."
                ) from exc
            if name not in {t.name for t in await self.list_tools()}:
                raise ToolError(
                    f"Error: no tool named `{_quoted(name)}`; list the tools to see them."
                ) from exc
            raise


def _quoted(name: str) -> str:
    """A name a client sent, shortened and on one line, to quote back."""
    flat = secrets.redact(" ".join(name.split()))[0]
    return flat if len(flat) <= 60 else flat[:57] + "..."


def _rejected(tool: str, exc: ValidationError) -> str:
    problems = []
    for err in exc.errors(include_url=False, include_input=False):
        where = ".".join(str(part) for part in err["loc"]) or "the arguments"
        ctx = err.get("ctx") or {}
        kind = err["type"]
        if kind == "missing":
            what = "is required"
        elif kind in ("greater_than_equal", "greater_than", "less_than_equal", "less_than"):
            bound = {"greater_than_equal": "at least", "greater_than": "more than"}
            bound |= {"less_than_equal": "at most", "less_than": "less than"}
            limit = next(iter(ctx.values()), "?")
            what = f"must be {bound[kind]} {limit}"
        elif kind == "literal_error":
            what = f"must be one of {ctx.get('expected', '?')}"
        elif kind in ("int_parsing", "int_type", "int_from_float"):
            what = "must be an integer"
        elif kind in ("bool_parsing", "bool_type"):
            what = "must be true or false"
        elif kind in ("string_type", "list_type", "dict_type"):
            what = f"must be a {kind.split('_')[0].replace('dict', 'object')}"
        elif kind == "extra_forbidden":
            what = "is not an argument of this tool"
        else:
            what = f"is invalid ({err['msg']})"
        problems.append(f"`{where}` {what}")
    return f"Error: {tool}: {'; '.join(problems)}; see the tool's input schema."


def _ok(cfg: Config, res: Result) -> CallToolResult:
    return CallToolResult(
        content=[TextContent(type="text", text=scrub(cfg, res.text))],
        structured_content=scrub(cfg, res.data),
    )


def _error(message: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=message)], is_error=True)


def build_server(cfg: Config, *, read_only: bool | None = None) -> MCPServer:
    """The MCP server for the repository of `cfg` (tools, resources, prompt).

    With `read_only` (default `server.read_only`) the tools that change the memory file, the
    session log or the notes are not registered and the `memory` tool only views.
    """
    ro = cfg.server.read_only if read_only is None else read_only
    server = _Server("repomem", version=__version__, instructions=INSTRUCTIONS, log_level="WARNING")
    last = tools.LastPack()

    def tool(
        annotations: ToolAnnotations, description: str | None = None, *, kept: bool = True
    ) -> Callable[[Callable[..., CallToolResult]], Callable[..., CallToolResult]]:
        """Register the tool; one not `kept` (a write tool on a read-only server) is left out,
        and named as such when called (`_Server.left_out`)."""

        def register(fn: Callable[..., CallToolResult]) -> Callable[..., CallToolResult]:
            if not kept:
                server.left_out |= {fn.__name__}
                return fn
            doc = description or " ".join((fn.__doc__ or "").split())
            server.add_tool(fn, description=doc, annotations=annotations)
            return fn

        return register

    def call(fn: Callable[[], Result]) -> CallToolResult:
        try:
            tools.check_root(cfg)
            return _ok(cfg, fn())
        except RepomemError as exc:
            # messages quote values, and a hand-edited memory file can put a credential in one
            # one line even when the message quotes a client's value holding a line break
            return _error(scrub(cfg, fsutil.one_line(f"Error: {for_tools(str(exc))}")))

    # ------------------------------------------------------------------- code
    @tool(READ)
    def context_pack(
        task: Annotated[str, Field(description="The task, in words (an issue, a bug report).")],
        max_tokens: Annotated[
            int | None,
            Field(
                # stated for clients, checked by the tool: one message for every way in
                strict=True,
                json_schema_extra={"minimum": MIN_BUDGET},
                description=f"Token budget of the pack (default {cfg.server.pack_budget}, at "
                f"least {MIN_BUDGET}, at most {cfg.server.max_pack_tokens}).",
            ),
        ] = None,
    ) -> CallToolResult:
        """The project memory and the most relevant code for a task, ranked, within a token
        budget (Markdown: memory, ranked files, code with line numbers, repository map).
        Refreshes a stale index first. Call this at the start of a task."""
        return call(lambda: tools.context_pack(cfg, task, max_tokens, last))

    @tool(READ)
    def search_code(
        query: Annotated[str, Field(description="Words or identifiers (camelCase, snake_case).")],
        kind: Annotated[
            str | None,
            Field(description="Only this kind: function, class, method, ..., or file."),
        ] = None,
        path_glob: Annotated[
            str | None, Field(description="Only paths matching this glob, e.g. `src/*.py`.")
        ] = None,
        limit: Annotated[
            int, Field(ge=1, le=100, strict=True, description="At most this many.")
        ] = 10,
    ) -> CallToolResult:
        """Full-text (BM25) search over the index: symbols (name, signature, doc) and files.
        Returns path:lines, kind and signature per hit, best first."""
        return call(lambda: tools.search_code(cfg, query, kind, path_glob, limit))

    @tool(READ)
    def get_symbol(
        name: Annotated[str, Field(description="A name (`parse`) or qualified name (`A.b`).")],
        include_body: Annotated[
            bool, Field(description="Include the source (long bodies are cut).")
        ] = True,
    ) -> CallToolResult:
        """A definition: kind, location, signature, doc, source, and where it is referenced."""
        return call(lambda: tools.get_symbol(cfg, name, include_body))

    @tool(READ)
    def find_references(
        name: Annotated[str, Field(description="The identifier (the last part of `A.b`, `A::b`).")],
        limit: Annotated[
            int, Field(ge=1, le=500, strict=True, description="At most this many.")
        ] = 100,
    ) -> CallToolResult:
        """Where an identifier is used (calls, imports, type uses): file, line, enclosing
        definition. Name-based, so same-named symbols are mixed."""
        return call(lambda: tools.find_references(cfg, name, limit))

    @tool(READ)
    def file_overview(
        path: Annotated[
            str, Field(description="A file or folder path relative to the repository root.")
        ],
    ) -> CallToolResult:
        """A file at a glance: language and size, its symbols with line numbers, its notes
        and its folders' notes, and the memory facts that cite it. For a folder: its notes,
        its indexed files and the facts citing them."""
        return call(lambda: tools.file_overview(cfg, path))

    @tool(READ)
    def index_status() -> CallToolResult:
        """How fresh the index is (changed files since indexing, HEAD moved) and its counts."""
        return call(lambda: tools.index_status(cfg))

    @tool(WRITE)
    def refresh() -> CallToolResult:
        """Bring the index up to date with the working tree (only what changed). Only the
        local index cache is written, so this works in read-only mode too."""
        return call(lambda: tools.refresh(cfg))

    # ------------------------------------------------------------------- memory
    @tool(READ)
    def recall(
        query: Annotated[str, Field(description="Words or identifiers.")],
        limit: Annotated[
            int, Field(ge=1, le=100, strict=True, description="At most this many.")
        ] = 10,
    ) -> CallToolResult:
        """Search the project memory (facts, conventions, decisions, sessions); stale facts
        (their cited code changed) are marked STALE."""
        return call(lambda: tools.recall(cfg, query, limit))

    @tool(WRITE, kept=not ro)
    def remember(
        fact: Annotated[str, Field(description="The fact, in one or a few sentences.")],
        cites: Annotated[list[str] | None, Field(description=CITES)] = None,
        topic: Annotated[str | None, Field(description="A topic word or phrase.")] = None,
        kind: Annotated[
            Literal["fact", "convention", "decision"], Field(description="What it is.")
        ] = "fact",
    ) -> CallToolResult:
        """Record a fact in the project memory (committed with the code, shared with the
        team). Cite the code it rests on. Near-duplicates merge; credentials are refused."""
        return call(lambda: tools.remember(cfg, fact, cites, topic, kind))

    @tool(WRITE, kept=not ro)
    def supersede(
        id: Annotated[str, Field(description="The fact to replace, e.g. `f-1a2b3c4d`.")],
        fact: Annotated[str, Field(description="The new text.")],
        why: Annotated[str, Field(description="Why the old fact no longer holds.")],
        cites: Annotated[
            list[str] | None, Field(description=CITES + " Default: the old citations.")
        ] = None,
    ) -> CallToolResult:
        """Replace a fact with a corrected one; the old one stays as history with why."""
        return call(lambda: tools.supersede(cfg, id, fact, why, cites))

    @tool(DESTROY, kept=not ro)
    def forget(
        id: Annotated[str, Field(description="The fact to remove, e.g. `f-1a2b3c4d`.")],
    ) -> CallToolResult:
        """Remove a fact's text for real (wrong, or holds personal data); a tombstone id
        stays. Prefer supersede for facts that merely changed."""
        return call(lambda: tools.forget(cfg, id))

    @tool(WRITE, kept=not ro)
    def write_note(
        path: Annotated[
            str, Field(description="A file or folder path relative to the repository root.")
        ],
        note: Annotated[
            str, Field(description="What the file is for, its entry points, its gotchas.")
        ],
        replace: Annotated[
            bool, Field(description="Drop the assistant's earlier notes on this path.")
        ] = False,
    ) -> CallToolResult:
        """Leave a note on a file or folder for later sessions (shown by file_overview, of the
        folder and of files in it, and in context packs with the files it is on or in), kept
        apart from generated notes and never overwritten by them."""
        return call(lambda: tools.write_note(cfg, path, note, replace))

    @tool(WRITE, kept=not ro)
    def memory_check() -> CallToolResult:
        """Mark stale every fact whose cited code changed, moved or vanished."""
        return call(lambda: tools.memory_check(cfg))

    @tool(WRITE, kept=not ro)
    def confirm_fact(
        id: Annotated[str, Field(description="The fact to re-validate, e.g. `f-1a2b3c4d`.")],
    ) -> CallToolResult:
        """Re-validate a fact (a stale one, after checking it still holds) against the code
        as it is now: its citations take today's lines and hashes. Refused when the cited
        code is gone (supersede the fact then) or the fact is superseded or forgotten."""
        return call(lambda: tools.confirm_fact(cfg, id))

    @tool(WRITE, kept=not ro)
    def session_start(
        title: Annotated[str | None, Field(description="What this session is for.")] = None,
        agent: Annotated[str | None, Field(description="Who works (default mcp).")] = None,
    ) -> CallToolResult:
        """Open a session: records the time, HEAD and dirty files, so session_end can list
        the commits, files and symbols changed."""
        return call(lambda: tools.session_start(cfg, title, agent))

    @tool(WRITE, kept=not ro)
    def session_end(
        summary: Annotated[str, Field(description="What was done, in a few lines.")],
        learned: Annotated[
            list[str] | None, Field(description="Facts learned, one per item.")
        ] = None,
        next_steps: Annotated[
            list[str] | None, Field(description="Open next steps or questions.")
        ] = None,
    ) -> CallToolResult:
        """Close the open session: record its changes, summary, learned facts and next
        steps in the memory file."""
        return call(lambda: tools.session_end(cfg, summary, learned, next_steps))

    @tool(READ if ro else WRITE, MEMORY_DOC.format(file=_memory_name(cfg)))
    def memory(
        command: Annotated[
            Literal["view", "create", "str_replace", "insert", "delete", "rename"],
            Field(description="The memory command."),
        ],
        path: Annotated[str | None, Field(description="A path under /memories.")] = None,
        view_range: Annotated[
            list[int] | None, Field(description="view: [first_line, last_line or -1].")
        ] = None,
        file_text: Annotated[str | None, Field(description="create: the content.")] = None,
        old_str: Annotated[str | None, Field(description="str_replace: text to find.")] = None,
        new_str: Annotated[str | None, Field(description="str_replace: replacement.")] = None,
        insert_line: Annotated[
            int | None,
            Field(strict=True, description="insert: the line after which to insert (0: top)."),
        ] = None,
        insert_text: Annotated[str | None, Field(description="insert: the text.")] = None,
        old_path: Annotated[str | None, Field(description="rename: from.")] = None,
        new_path: Annotated[str | None, Field(description="rename: to.")] = None,
    ) -> CallToolResult:
        return call(
            lambda: memtool.run(
                cfg, command, path=path, view_range=view_range, file_text=file_text,
                old_str=old_str, new_str=new_str, insert_line=insert_line,
                insert_text=insert_text, old_path=old_path, new_path=new_path, read_only=ro,
            )
        )  # fmt: skip

    # ------------------------------------------------------------------- resources, prompt
    @server.resource(
        "repomem://memory",
        name="project-memory",
        description="The project memory file (facts, decisions, sessions), as stored.",
        mime_type="text/markdown",
    )
    async def memory_file() -> str:
        text = await anyio.to_thread.run_sync(tools.memory_file_text, cfg)
        return str(scrub(cfg, text))

    @server.resource(
        "repomem://pack/latest",
        name="latest-pack",
        description="The newest context pack this server built (see context_pack).",
        mime_type="text/markdown",
    )
    def latest_pack() -> str:
        if last.text is None:
            return "No context pack built yet by this server; call the context_pack tool."
        # the pack holds memory text as stored: a hand-edited fact may carry a credential
        return str(scrub(cfg, last.text))

    @server.prompt(
        name="start_session",
        description="Start work on a task with the project memory and the relevant code.",
    )
    async def start_session(task: str) -> str:
        def build() -> str:
            try:
                tools.check_root(cfg)
                text = tools.context_pack(cfg, task, None, last).text
            except RepomemError as exc:
                text = f"(No context pack: {exc})"
            return str(scrub(cfg, text))

        pack = await anyio.to_thread.run_sync(build)
        steps = (
            "" if ro else
            " Call session_start now and session_end with a summary and what you learned when "
            "done; record facts with remember, citing the code."
        )  # fmt: skip
        return (
            f"I am starting work on this task:\n\n{task}\n\nBelow is repomem's context pack for "
            f"it: the project memory and the most relevant code. Stale facts cite code that "
            f"changed; check them before relying on them.{steps}\n\n{pack}"
        )

    return server


def _memory_name(cfg: Config) -> str:
    # a bad `memory.file` must not stop the server: the memory tool reports it when called
    try:
        return memtool.file_name(cfg)
    except RepomemError:
        return "REPOMEM.md"


def serve(
    cfg: Config,
    *,
    http: bool = False,
    host: str | None = None,
    port: int | None = None,
    read_only: bool | None = None,
    announce: Callable[[str, str], None] | None = None,
) -> None:
    """Run the server until the client disconnects (stdio) or the process is stopped (HTTP).
    Over HTTP, `announce(host, url)` is called once the address is known to be free."""
    server = build_server(cfg, read_only=read_only)
    if http:
        bind, number = host or cfg.server.host, cfg.server.port if port is None else port
        _check_listen(bind, number)
        if announce is not None:
            announce(bind, f"http://{bind}:{number}/mcp")
        _serve_http(server, bind, number)
    else:
        server.run("stdio")


SHUTDOWN_GRACE = 10  # seconds a stopped HTTP server gives the requests in progress


def _serve_http(server: MCPServer, host: str, port: int) -> None:
    """Serve streamable HTTP until SIGINT or SIGTERM: the first stops taking connections and
    lets the requests in progress finish (for `SHUTDOWN_GRACE` seconds at most), a second
    stops at once.

    Responses are plain JSON, not an event stream per request: the SDK's event streams end
    the moment the server is told to stop, so a tool call in progress lost its answer (a
    write went through, unanswered). Unlike uvicorn's own handler, a signal is not raised
    again once the server has stopped, so SIGTERM ends the command with status 0, as Ctrl-C
    does.
    """
    import uvicorn

    class Stoppable(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            self.force_exit = self.should_exit
            self.should_exit = True

    app = server.streamable_http_app(host=host, json_response=True)
    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=SHUTDOWN_GRACE
    )
    Stoppable(config).run()


def _check_listen(host: str, port: int) -> None:
    """Fail in one line, before the server starts, when `host:port` cannot be listened on
    (uvicorn prints its own error and exits 3 after the start banner)."""
    import socket

    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
        family, kind, proto, _, address = infos[0]
        with socket.socket(family, kind, proto) as sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.bind(address)
    except OSError as exc:
        why = exc.strerror or str(exc)
        raise InputError(
            f"Cannot listen on {host}:{port} ({why}); choose another --port or --host, or stop "
            f"the program using it."
        ) from None
