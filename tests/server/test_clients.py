"""The configuration each MCP client needs, printed or merged into its project file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from repomem.errors import InputError
from repomem.server import clients
from tests.conftest import Repo


def test_each_client_gets_its_own_shape(repo: Repo) -> None:
    cfg = repo.config()
    cmd = ["/opt/bin/repomem"]
    claude = clients.snippet(cfg, "claude-code", command=cmd)
    assert claude == {"mcpServers": {"repomem": {"type": "stdio", "command": "/opt/bin/repomem",
                                                 "args": ["serve"], "env": {}}}}  # fmt: skip
    cursor = clients.snippet(cfg, "cursor", command=cmd)["mcpServers"]["repomem"]
    assert cursor == {"command": "/opt/bin/repomem",
                      "args": ["-C", "${workspaceFolder}", "serve"]}  # fmt: skip
    vscode = clients.snippet(cfg, "vscode", command=cmd)["servers"]["repomem"]
    assert vscode["type"] == "stdio" and vscode["args"] == ["-C", "${workspaceFolder}", "serve"]
    zed = clients.snippet(cfg, "zed", command=cmd, read_only=True)["context_servers"]["repomem"]
    assert zed["args"] == ["-C", str(cfg.root), "serve", "--read-only"]
    py = clients.snippet(cfg, "claude-code", command=["/usr/bin/python3", "-m", "repomem"])
    assert py["mcpServers"]["repomem"]["args"] == ["-m", "repomem", "serve"]
    with pytest.raises(InputError, match="Unknown client `emacs`"):
        clients.snippet(cfg, "emacs")


@pytest.mark.parametrize("client", clients.CLIENTS)
def test_writing_merges_into_the_project_file_and_keeps_other_entries(
    repo: Repo, client: str
) -> None:
    cfg = repo.config()
    path = repo.root / clients.FILES[client]
    key = clients.KEYS[client]
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps({"theme": "dark", key: {"other": {"command": "x"}}}),
                    encoding="utf-8")  # fmt: skip
    written, replaced = clients.write(cfg, client, command=["repomem"])
    assert written == path and not replaced
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["theme"] == "dark" and data[key]["other"] == {"command": "x"}
    assert data[key]["repomem"] == clients.entry(cfg, client, command=["repomem"])
    _, replaced = clients.write(cfg, client, command=["repomem"], read_only=True)
    assert replaced
    assert "--read-only" in json.loads(path.read_text(encoding="utf-8"))[key]["repomem"]["args"]


def test_a_project_file_that_is_not_plain_json_is_left_alone(repo: Repo) -> None:
    path = repo.write(".zed/settings.json", '{\n  // comments\n  "theme": "dark"\n}\n')
    before = path.read_text(encoding="utf-8")
    with pytest.raises(InputError, match="not plain JSON"):
        clients.write(repo.config(), "zed", command=["repomem"])
    assert path.read_text(encoding="utf-8") == before


def test_a_missing_project_file_is_created(repo: Repo) -> None:
    path, _ = clients.write(repo.config(), "vscode", command=["repomem"])
    assert path == repo.root / ".vscode" / "mcp.json"
    assert set(json.loads(path.read_text(encoding="utf-8"))["servers"]) == {"repomem"}


@pytest.mark.parametrize(
    "body",
    [
        '{"mcpServers": {"a": {"command": "x", "timeout": 1e400}}}',
        '{"mcpServers": {"a": {"command": "x"}}, "mcpServers": {"b": {"command": "y"}}}',
        '{"mcpServers": {"a": {"command": "x", "timeout": NaN}}}',
    ],
)
def test_a_project_file_json_tools_would_misread_is_left_alone(repo: Repo, body: str) -> None:
    path = repo.root / ".mcp.json"
    path.write_text(body, encoding="utf-8")
    with pytest.raises(InputError, match=r"\.mcp\.json"):
        clients.write(repo.config(), "claude-code")
    assert path.read_text(encoding="utf-8") == body


def test_a_symlinked_project_file_is_updated_through_the_link(repo: Repo, tmp_path: Path) -> None:
    shared = tmp_path / "shared.json"
    shared.write_text('{"servers": {"team": {"command": "y"}}}', encoding="utf-8")
    link = repo.root / ".vscode" / "mcp.json"
    link.parent.mkdir()
    link.symlink_to(shared)
    shown, _ = clients.write(repo.config(), "vscode")
    assert shown == link and link.is_symlink()
    assert set(json.loads(shared.read_text(encoding="utf-8"))["servers"]) == {"team", "repomem"}


def test_a_project_file_that_links_to_itself_is_one_line_not_a_traceback(repo: Repo) -> None:
    from repomem.errors import RepomemError

    link = repo.root / ".mcp.json"
    link.symlink_to(link.name)
    with pytest.raises(RepomemError, match="Cannot write"):
        clients.write(repo.config(), "claude-code", command=["/opt/r"])


def test_a_file_where_the_settings_folder_goes_is_one_line_not_a_traceback(repo: Repo) -> None:
    blocker = repo.write(".vscode", "notes\n")
    with pytest.raises(InputError, match=r"`.*\.vscode` is a file"):
        clients.write(repo.config(), "vscode", command=["/opt/r"])
    assert blocker.read_text(encoding="utf-8") == "notes\n"
