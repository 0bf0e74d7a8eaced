"""The `serve`, `mcp-config`, `claude-hooks` and `claude-hook` commands: the MCP server, the
clients' configuration and the Claude Code hook."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from repomem.cli._app import app, fail, load_config
from repomem.cli._state import state
from repomem.errors import RepomemError

CommandOption = Annotated[
    str | None,
    typer.Option(
        "--command",
        help="Program that runs repomem (default: the repomem found on PATH, absolute).",
        metavar="CMD",
    ),
]
EveryPromptOption = Annotated[
    bool,
    typer.Option("--every-prompt", help="A pack for every prompt, not each session's first."),
]
RecordSessionsOption = Annotated[
    bool,
    typer.Option(
        "--record-sessions",
        help="Record each Claude Code session that changes something in the project memory "
        "(its commits, files and symbols, titled by its first task, summarised by the "
        "assistant's last message).",
    ),
]


@app.command()
def serve(
    http: Annotated[
        bool, typer.Option("--http", help="Serve streamable HTTP at /mcp instead of stdio.")
    ] = False,
    host: Annotated[
        str | None,
        typer.Option("--host", help="HTTP address to bind (default server.host, 127.0.0.1)."),
    ] = None,
    port: Annotated[
        int | None,
        typer.Option("--port", min=1, max=65535, help="HTTP port (default server.port, 8765)."),
    ] = None,
    read_only: Annotated[
        bool | None,
        typer.Option(
            "--read-only/--read-write",
            help="Leave out the tools that change the memory file or the session log.",
        ),
    ] = None,
) -> None:
    """Run the MCP server for this repository (stdio by default; see `repomem mcp-config`)."""
    from repomem.server import mcp

    def announce(bind: str, url: str) -> None:
        typer.echo(f"repomem MCP server for {cfg.root} at {url}", err=True)
        if bind not in ("127.0.0.1", "localhost", "::1"):
            typer.echo(
                f"Warning: {bind} is reachable from other machines and the server has no "
                f"authentication; anyone who can connect can read this repository's index.",
                err=True,
            )

    try:
        cfg = load_config()
        mcp.serve(cfg, http=http, host=host, port=port, read_only=read_only, announce=announce)
        # The server has stopped and its requests are answered; tearing the interpreter
        # down (LanceDB's runtime and all) would take most of a second more.
        state.hard_exit = http
    except RepomemError as exc:
        raise fail(exc) from None
    except KeyboardInterrupt:
        # Over stdio, the SDK reads stdin in a worker thread that nothing can stop: a normal
        # exit waits for it (for the client's next line) after the Ctrl-C that stopped the
        # server. Its parse workers, if a refresh was under way, end with this process.
        state.hard_exit = True


@app.command("mcp-config")
def mcp_config(
    client: Annotated[
        str, typer.Option("--client", help="claude-code, cursor, vscode or zed.", metavar="NAME")
    ],
    write: Annotated[
        bool,
        typer.Option("--write", help="Merge it into the client's project file (kept entries)."),
    ] = False,
    command: CommandOption = None,
    read_only: Annotated[
        bool, typer.Option("--read-only", help="Configure `repomem serve --read-only`.")
    ] = False,
) -> None:
    """Print (or write) the configuration that makes an MCP client start `repomem serve`."""
    from repomem.server import clients

    try:
        cfg = load_config()
        cmd = _command_words(command)
        if write:
            path, replaced = clients.write(cfg, client, command=cmd, read_only=read_only)
            verb = "Updated the repomem entry in" if replaced else "Added repomem to"
            typer.echo(
                f"{verb} {path.relative_to(cfg.root)}; restart {clients.NAMES[client]} to load it."
            )
            return
        data = clients.snippet(cfg, client, command=cmd, read_only=read_only)
    except RepomemError as exc:
        raise fail(exc) from None
    typer.echo(f"Put this in {clients.FILES[client]} (or run with --write):", err=True)
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))


def _command_words(command: str | None) -> list[str] | None:
    """`--command` as a program and its arguments (None when not given)."""
    import os
    import shlex

    from repomem.errors import InputError

    if command is None:
        return None
    # a program's path with a space in it is one word; else words as a shell splits
    program = os.path.expanduser(command.strip())
    try:
        cmd = [program] if os.path.isfile(program) else shlex.split(command)
    except ValueError as exc:  # an unclosed quote
        raise InputError(f"The --command cannot be read ({exc}); fix its quotes.") from None
    if not cmd:
        raise InputError("The --command is empty; give the program that runs repomem.")
    return cmd


@app.command("claude-hooks")
def claude_hooks(
    write: Annotated[
        bool,
        typer.Option("--write", help="Merge them into the settings file (other hooks kept)."),
    ] = False,
    shared: Annotated[
        bool,
        typer.Option(
            "--shared",
            help="Use .claude/settings.json (committed, for the team) instead of "
            ".claude/settings.local.json (yours): the hooks run the repomem on each one's "
            "PATH, and do nothing where there is none.",
        ),
    ] = False,
    command: CommandOption = None,
    every_prompt: EveryPromptOption = False,
    record_sessions: RecordSessionsOption = False,
) -> None:
    """Print (or write) the Claude Code hooks that add a pack to each session's first task."""
    from repomem.server import claude_hooks as hooks

    try:
        cfg = load_config()
        line = hooks.hook_command(
            _command_words(command), every_prompt=every_prompt, shared=shared,
            record_sessions=record_sessions,
        )  # fmt: skip
        if write:
            path, replaced = hooks.write_settings(
                cfg, line, shared=shared, record_sessions=record_sessions
            )
            verb = "Updated repomem's hooks in" if replaced else "Added repomem's hooks to"
            typer.echo(f"{verb} {path.relative_to(cfg.root)}; they apply to new sessions.")
            if not shared:
                typer.echo(
                    "Worktree sessions (claude --worktree) do not get this file: use --shared, "
                    "or list .claude/settings.local.json in .worktreeinclude."
                )
            return
    except RepomemError as exc:
        raise fail(exc) from None
    name = hooks.SETTINGS_FILES[shared]
    typer.echo(f"Put this in {name} (or run with --write):", err=True)
    entry = hooks.settings_entry(line, record_sessions=record_sessions)
    typer.echo(json.dumps({"hooks": entry}, indent=2, ensure_ascii=False))


# options a later repomem adds (settings shared with the team) are ignored, not an error
@app.command(
    "claude-hook",
    context_settings={"ignore_unknown_options": True, "allow_extra_args": True},
)
def claude_hook(
    every_prompt: EveryPromptOption = False,
    record_sessions: RecordSessionsOption = False,
    max_chars: Annotated[
        int | None,
        typer.Option(
            "--max-chars",
            min=1000,
            help="Characters the printed pack may have, as Claude Code counts them (an emoji "
            "is two; default 9,500).",
        ),
    ] = None,
    finish_sessions: Annotated[
        bool,
        typer.Option(
            "--finish-sessions",
            hidden=True,
            help="Record the sessions a SessionEnd set aside (what it starts in the background).",
        ),
    ] = False,
) -> None:
    """Run as a Claude Code hook (JSON on stdin): print a pack for a session's first task.

    Installed by `repomem claude-hooks --write`. A failure exits with status 1, which Claude
    Code shows without blocking the prompt.
    """
    from repomem.cli import claude_hook as hook_cli

    if finish_sessions:
        _finish_sessions()
        return
    # the same hook `repomem.cli.main` runs without typer (`claude_hook.parse_args`)
    status = hook_cli.run(
        state.repo, every_prompt=every_prompt, record_sessions=record_sessions,
        max_chars=max_chars, say=lambda message: typer.echo(message, err=True),
    )  # fmt: skip
    if status:
        raise typer.Exit(status)


def _finish_sessions() -> None:
    """Record the Claude sessions set aside; what happened goes to the hooks' log."""
    from repomem.memory import compact
    from repomem.server import claude_sessions

    try:
        cfg = load_config()
        done = claude_sessions.finish(cfg, summarizer=compact.default_summarizer(cfg))
    except RepomemError as exc:
        raise fail(exc) from None
    for item in done:
        if item.entry is None:
            typer.echo(f"claude-hook: {item.id} changed nothing; not recorded.")
            continue
        s = item.entry
        if item.already:
            typer.echo(f"claude-hook: {s.id} was recorded already; set-aside record removed.")
            continue
        files = len(s.added) + len(s.modified) + len(s.deleted) + len(s.renamed)
        typer.echo(
            f"claude-hook: recorded {s.id} ({len(s.commits)} commit(s), {files} file(s)): "
            f"{s.title or 'untitled'}."
        )
