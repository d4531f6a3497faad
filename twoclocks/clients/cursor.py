"""Cursor: ``mcpServers.twoclocks`` in ``~/.cursor/mcp.json`` and a ``sessionStart`` hook.

The server is told the workspace with ``${workspaceFolder}`` (Cursor does not document a
stdio server's directory); the hook goes in ``~/.cursor/hooks.json``, with the capture
hooks (tool results, shell commands, file edits, the person's prompt) and ``stop`` to
drain the spool.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from twoclocks.clients.files import (
    Edit,
    Part,
    capture_part,
    chain,
    cursor_hook,
    cursor_hooks,
    drop_all_hooks,
    drop_hooks,
    drop_server,
    hook_part,
    json_edit,
    mcp_server,
    server_part,
)

if TYPE_CHECKING:
    from twoclocks.install import Commands

CAPTURE_EVENTS = ("postToolUse", "afterShellExecution", "afterFileEdit", "beforeSubmitPrompt")
DRAIN_EVENT = "stop"
TURN_EVENT = "afterAgentResponse"
HOOK_EVENTS = (*CAPTURE_EVENTS, TURN_EVENT, DRAIN_EVENT)

NOTE = "Cursor does not wait for sessionStart hooks: the block may follow the first prompt"

SHELL_VARIABLES = ("CURSOR_AGENT",)
"""Set (to 1) in the terminal Cursor's agent runs commands in."""


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
        json_edit(
            hooks,
            f"sessionStart hook and capture hooks ({', '.join(HOOK_EVENTS)})",
            chain(
                cursor_hook(hooks, commands.cursor_hook),
                cursor_hooks(hooks, hook_commands(commands)),
            ),
        ),
    ]


def hook_commands(commands: Commands) -> dict[str, str]:
    """The capture command per event, and the drain at stop."""
    return {
        **{event: commands.capture("cursor") for event in CAPTURE_EVENTS},
        TURN_EVENT: commands.turn("cursor"),
        DRAIN_EVENT: commands.stop,
    }


def installed(home: Path) -> list[Part]:
    """Which of Cursor's twoclocks entries exist, and whether they still work."""
    return [
        server_part(home / ".cursor" / "mcp.json", "MCP server"),
        hook_part(home / ".cursor" / "hooks.json", "sessionStart", nested=False),
        capture_part(home / ".cursor" / "hooks.json", HOOK_EVENTS, nested=False),
    ]


def removal(home: Path) -> list[Edit]:
    """The edits that take twoclocks out of Cursor's configs."""
    return [
        json_edit(home / ".cursor" / "mcp.json", "MCP server", drop_server),
        json_edit(
            home / ".cursor" / "hooks.json",
            "sessionStart and capture hooks",
            chain(
                drop_hooks("sessionStart", nested=False), drop_all_hooks(HOOK_EVENTS, nested=False)
            ),
        ),
    ]
