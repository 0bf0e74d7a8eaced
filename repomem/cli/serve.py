"""The `serve` and `mcp-config` commands: the MCP server and the client configuration."""

from __future__ import annotations

import json
from typing import Annotated

import typer

from repomem.cli._app import app, fail, load_config
from repomem.errors import RepomemError


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
    except RepomemError as exc:
        raise fail(exc) from None
    except KeyboardInterrupt:
        pass


@app.command("mcp-config")
def mcp_config(
    client: Annotated[
        str, typer.Option("--client", help="claude-code, cursor, vscode or zed.", metavar="NAME")
    ],
    write: Annotated[
        bool,
        typer.Option("--write", help="Merge it into the client's project file (kept entries)."),
    ] = False,
    command: Annotated[
        str | None,
        typer.Option(
            "--command",
            help="Program that runs repomem (default: the repomem found on PATH, absolute).",
            metavar="CMD",
        ),
    ] = None,
    read_only: Annotated[
        bool, typer.Option("--read-only", help="Configure `repomem serve --read-only`.")
    ] = False,
) -> None:
    """Print (or write) the configuration that makes an MCP client start `repomem serve`."""
    import os
    import shlex

    from repomem.errors import InputError
    from repomem.server import clients

    try:
        cfg = load_config()
        cmd: list[str] | None = None
        if command is not None:
            # a program's path with a space in it is one word; else words as a shell splits
            program = os.path.expanduser(command.strip())
            try:
                cmd = [program] if os.path.isfile(program) else shlex.split(command)
            except ValueError as exc:  # an unclosed quote
                raise InputError(f"The --command cannot be read ({exc}); fix its quotes.") from None
            if not cmd:
                raise InputError("The --command is empty; give the program that runs repomem.")
        if write:
            path, replaced = clients.write(cfg, client, command=cmd, read_only=read_only)
            verb = "Updated the repomem entry in" if replaced else "Added repomem to"
            typer.echo(f"{verb} {path.relative_to(cfg.root)}; restart {client} to load it.")
            return
        data = clients.snippet(cfg, client, command=cmd, read_only=read_only)
    except RepomemError as exc:
        raise fail(exc) from None
    typer.echo(f"Put this in {clients.FILES[client]} (or run with --write):", err=True)
    typer.echo(json.dumps(data, indent=2, ensure_ascii=False))
