"""Claude Code: ``mcpServers.twoclocks`` and the SessionStart hook, user scope.

The server goes in ``~/.claude.json`` (what ``claude mcp add --scope user`` writes), the
hook, matcher ``startup|clear|compact|resume``, in ``~/.claude/settings.json``, with the
capture hooks: ``async: true``, so Claude Code never waits for them (and ``asyncRewake``,
so a headless ``claude -p`` lets them finish before it exits: ``files.nested_hooks``).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from twoclocks.clients.files import (
    BACKGROUND,
    Edit,
    Part,
    capture_part,
    chain,
    drop_all_hooks,
    drop_hooks,
    drop_server,
    hook_part,
    hooks_file_edit,
    json_edit,
    mcp_server,
    server_part,
)

if TYPE_CHECKING:
    from twoclocks.install import Commands

CAPTURE_EVENTS = ("PostToolUse", "PostToolUseFailure", "SubagentStop", "UserPromptSubmit")
"""Tool results, failed tools, finished subagents and the person's own prompt."""
DRAIN_EVENT = "Stop"
HOOK_EVENTS = (*CAPTURE_EVENTS, DRAIN_EVENT)

NOTE = "restart Claude Code; `/mcp` lists twoclocks; `twoclocks doctor` checks it all"

SHELL_VARIABLES = ("CLAUDECODE",)
"""Set (to 1) in every command Claude Code's Bash tool runs, and in its hooks."""


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
        hooks_file_edit(
            settings,
            commands.claude_hook,
            commands.capture("claude-code"),
            CAPTURE_EVENTS,
            DRAIN_EVENT,
            commands.turn("claude-code"),
            background=True,
        ),
    ]


def installed(home: Path) -> list[Part]:
    """Which of Claude Code's twoclocks entries exist, and whether they still work."""
    return [
        server_part(home / ".claude.json", "MCP server"),
        hook_part(home / ".claude" / "settings.json", "SessionStart", nested=True),
        capture_part(
            home / ".claude" / "settings.json",
            HOOK_EVENTS,
            nested=True,
            expected=BACKGROUND,
        ),
    ]


def removal(home: Path) -> list[Edit]:
    """The edits that take twoclocks out of Claude Code's configs."""
    return [
        json_edit(home / ".claude.json", "MCP server", drop_server),
        json_edit(
            home / ".claude" / "settings.json",
            "SessionStart and capture hooks",
            chain(
                drop_hooks("SessionStart", nested=True), drop_all_hooks(HOOK_EVENTS, nested=True)
            ),
        ),
    ]
