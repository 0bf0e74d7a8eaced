"""The MCP server (`repomem serve`): tools over the core; `mcp` is imported only in `mcp.py`."""
