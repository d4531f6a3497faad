"""Claude Code: ``mcpServers.twoclocks`` and the SessionStart hook, user scope.

The server goes in ``~/.claude.json`` (what ``claude mcp add --scope user`` writes), the
hook, matcher ``startup|clear|compact|resume``, in ``~/.claude/settings.json``.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from twoclocks.clients.files import (
    MATCHER,
    Edit,
    Part,
    drop_hooks,
    drop_server,
    hook_part,
    json_edit,
    mcp_server,
    server_part,
    session_start_hook,
)

if TYPE_CHECKING:
    from twoclocks.install import Commands

NOTE = "restart Claude Code; `/mcp` lists twoclocks; `twoclocks doctor` checks it all"


def plan(home: Path, commands: Commands) -> list[Edit]:
    """The config edits Claude Code needs, computed without writing anything."""
    settings = home / ".claude" / "settings.json"
    user = home / ".claude.json"
    return [
        json_edit(
            user,
            "MCP server (user scope)",
            mcp_server(user, {"type": "stdio", "command": commands.twoclocks, "args": ["mcp"]}),
        ),
        json_edit(
            settings,
            f"SessionStart hook ({MATCHER})",
            session_start_hook(settings, commands.claude_hook),
        ),
    ]


def installed(home: Path) -> list[Part]:
    """Which of Claude Code's twoclocks entries exist, and whether they still work."""
    return [
        server_part(home / ".claude.json", "MCP server"),
        hook_part(home / ".claude" / "settings.json", "SessionStart", nested=True),
    ]


def removal(home: Path) -> list[Edit]:
    """The edits that take twoclocks out of Claude Code's configs."""
    return [
        json_edit(home / ".claude.json", "MCP server", drop_server),
        json_edit(
            home / ".claude" / "settings.json",
            "SessionStart hook",
            drop_hooks("SessionStart", nested=True),
        ),
    ]
