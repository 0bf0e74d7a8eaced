"""Configuration snippets that make MCP clients start `repomem serve` for a repository.

Each client reads a project-level JSON file with its own shape:

    claude-code   .mcp.json            {"mcpServers": {"repomem": {"type": "stdio", ...}}}
    cursor        .cursor/mcp.json     {"mcpServers": {"repomem": {"command": ..., "args": ...}}}
    vscode        .vscode/mcp.json     {"servers": {"repomem": {"type": "stdio", ...}}}
    zed           .zed/settings.json   {"context_servers": {"repomem": {"command": ..., ...}}}

Claude Code starts project servers in the project directory; Cursor and VS Code expand
`${workspaceFolder}`; Zed gets the repository's absolute path. `write()` merges the entry into
an existing file (other servers and settings are kept) and writes it atomically.
"""

from __future__ import annotations

import json
import os
import shutil
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from repomem.config import Config
from repomem.errors import InputError
from repomem.fsutil import atomic_write, cannot_write

CLIENTS = ("claude-code", "cursor", "vscode", "zed")
SERVER_NAME = "repomem"
FILES = {
    "claude-code": ".mcp.json",
    "cursor": ".cursor/mcp.json",
    "vscode": ".vscode/mcp.json",
    "zed": ".zed/settings.json",
}
NAMES = {"claude-code": "Claude Code", "cursor": "Cursor", "vscode": "VS Code", "zed": "Zed"}
KEYS = {"claude-code": "mcpServers", "cursor": "mcpServers", "vscode": "servers",
        "zed": "context_servers"}  # fmt: skip


def default_command() -> list[str]:
    """How to start repomem: the `repomem` script on PATH (absolute, since editors often start
    servers without the shell's PATH), else this interpreter with `-m repomem`."""
    found = shutil.which("repomem")
    if found:
        return [str(Path(found).absolute())]
    return [sys.executable, "-m", "repomem"]


def entry(
    cfg: Config, client: str, *, command: list[str] | None = None, read_only: bool = False
) -> dict[str, Any]:
    """The server entry for `client`.

    Raises:
        InputError: for an unknown client or an empty command.
    """
    if client not in CLIENTS:
        raise InputError(f"Unknown client `{client}`; use one of {', '.join(CLIENTS)}.")
    cmd = command or default_command()
    if not cmd or not cmd[0]:
        raise InputError("The command is empty; give the program that runs repomem.")
    serve = ["serve", "--read-only"] if read_only else ["serve"]
    if client == "claude-code":
        return {"type": "stdio", "command": cmd[0], "args": [*cmd[1:], *serve], "env": {}}
    if client in ("cursor", "vscode"):
        args = [*cmd[1:], "-C", "${workspaceFolder}", *serve]
        out: dict[str, Any] = {"command": cmd[0], "args": args}
        return {"type": "stdio", **out} if client == "vscode" else out
    args = [*cmd[1:], "-C", str(cfg.root), *serve]
    return {"command": cmd[0], "args": args, "env": {}}


def snippet(cfg: Config, client: str, **kwargs: Any) -> dict[str, Any]:
    """The whole JSON document to paste into the client's file."""
    server = entry(cfg, client, **kwargs)
    return {KEYS[client]: {SERVER_NAME: server}}


def path_for(cfg: Config, client: str) -> Path:
    return cfg.root / FILES[client]


def write(cfg: Config, client: str, **kwargs: Any) -> tuple[Path, bool]:
    """Merge the entry into the client's project file; returns the path and whether an earlier
    `repomem` entry was replaced.

    Raises:
        InputError: when the existing file is not a JSON object (e.g. it has comments).
    """
    new = entry(cfg, client, **kwargs)

    def put(data: dict[str, Any], path: Path) -> bool:
        servers = section(data, KEYS[client], path)
        replaced = SERVER_NAME in servers
        servers[SERVER_NAME] = new
        return replaced

    by_hand = f"add this entry under `{KEYS[client]}`: {json.dumps({SERVER_NAME: new})}"
    return edit_object(path_for(cfg, client), by_hand, put)


def edit_object(
    shown: Path, by_hand: str, edit: Callable[[dict[str, Any], Path], bool]
) -> tuple[Path, bool]:
    """Read the JSON object in a client's settings file (through a link, the file it names),
    let `edit` change it (it says whether repomem's earlier entry was replaced), and write it
    back atomically; returns `shown` and what `edit` said.

    Raises:
        InputError: when the file is not plain JSON (`by_hand` says what to add instead), not
            an object, or holds a number JSON tools cannot read back.
    """
    # a link to a shared file: that file is the configuration (written through the link)
    path = Path(os.path.realpath(shown)) if shown.is_symlink() else shown
    data = load_object(path, by_hand)
    replaced = edit(data, path)
    try:
        rendered = json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    except ValueError as exc:  # 1e400 reads as infinity, which JSON cannot write back
        raise InputError(
            f"`{path}` holds a number too large for JSON tools ({exc}); fix it by hand."
        ) from exc
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except (FileExistsError, NotADirectoryError) as exc:
        blocker = next(
            (p for p in (path.parent, *path.parent.parents) if p.exists() and not p.is_dir()),
            path.parent,
        )
        raise InputError(
            f"`{blocker}` is a file, where the folder of `{path}` goes; move it away, then run "
            f"the command again."
        ) from exc
    except OSError as exc:
        raise cannot_write(path.parent, exc) from exc
    atomic_write(path, rendered)
    return shown, replaced


def section(data: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    """`data[key]`, an object (created empty when missing).

    Raises:
        InputError: when it is there but not an object.
    """
    value = data.setdefault(key, {})
    if not isinstance(value, dict):
        raise InputError(f"`{key}` in `{path}` is not an object; fix it by hand.")
    return value


def load_object(path: Path, by_hand: str) -> dict[str, Any]:
    """The JSON object in a client's settings file ({} when there is none yet).

    Raises:
        InputError: when the file is not plain JSON (`by_hand` says what to add instead) or not
            an object.
    """
    if not path.exists():
        return {}
    try:
        loaded = json.loads(
            path.read_text(encoding="utf-8") or "{}",
            object_pairs_hook=_unique_keys,
            parse_constant=_no_constant,
        )
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise InputError(f"`{path}` is not plain JSON ({exc}); {by_hand}") from exc
    if not isinstance(loaded, dict):
        raise InputError(f"`{path}` does not hold a JSON object; fix it or remove it.")
    return loaded


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused when a key repeats (the last one would silently win)."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise ValueError(f"the key `{key}` appears twice in one object")
        out[key] = value
    return out


def _no_constant(name: str) -> Any:
    raise ValueError(f"`{name}` is not JSON")
