"""Cursor: ``mcpServers.twoclocks`` in ``~/.cursor/mcp.json`` and a ``sessionStart`` hook.

The server is told the workspace with ``${workspaceFolder}`` (Cursor does not document a
stdio server's directory); the hook goes in ``~/.cursor/hooks.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from twoclocks.clients.files import (
    Edit,
    Part,
    cursor_hook,
    drop_hooks,
    drop_server,
    hook_part,
    json_edit,
    mcp_server,
    server_part,
)

if TYPE_CHECKING:
    from twoclocks.install import Commands

NOTE = "Cursor does not wait for sessionStart hooks: the block may follow the first prompt"


def plan(home: Path, commands: Commands) -> list[Edit]:
    """The config edits Cursor needs, computed without writing anything."""
    mcp = home / ".cursor" / "mcp.json"
    hooks = home / ".cursor" / "hooks.json"
    return [
        json_edit(
            mcp,
            "MCP server",
            mcp_server(
                mcp,
                {"command": commands.twoclocks, "args": ["mcp", "--cwd", "${workspaceFolder}"]},
            ),
        ),
        json_edit(hooks, "sessionStart hook", cursor_hook(hooks, commands.cursor_hook)),
    ]


def installed(home: Path) -> list[Part]:
    """Which of Cursor's twoclocks entries exist, and whether they still work."""
    return [
        server_part(home / ".cursor" / "mcp.json", "MCP server"),
        hook_part(home / ".cursor" / "hooks.json", "sessionStart", nested=False),
    ]


def removal(home: Path) -> list[Edit]:
    """The edits that take twoclocks out of Cursor's configs."""
    return [
        json_edit(home / ".cursor" / "mcp.json", "MCP server", drop_server),
        json_edit(
            home / ".cursor" / "hooks.json",
            "sessionStart hook",
            drop_hooks("sessionStart", nested=False),
        ),
    ]
