"""`twoclocks install claude-code|codex|cursor`: the MCP server and session-start hook, configured.

What each client gets (user scope, so every project sees it):

* Claude Code: ``mcpServers.twoclocks`` in ``~/.claude.json`` (what ``claude mcp add
  --scope user`` writes) and a ``SessionStart`` hook, matcher
  ``startup|clear|compact|resume``, in ``~/.claude/settings.json``; there too the
  capture hooks (``async: true``, ``asyncRewake: true``) on PostToolUse,
  PostToolUseFailure, SubagentStop and UserPromptSubmit, and Stop to send the turn.
* Codex: ``[mcp_servers.twoclocks]`` in ``~/.codex/config.toml``, with ``env_vars``
  naming the ``TWOCLOCKS_*`` variables (Codex hands a stdio server only a fixed list
  of variables otherwise), and the same ``SessionStart`` hook in
  ``~/.codex/hooks.json`` (Codex reads Claude Code's shape), with capture hooks on
  PostToolUse and UserPromptSubmit and Stop to drain (Codex has no SessionEnd).
* Cursor: ``mcpServers.twoclocks`` in ``~/.cursor/mcp.json``, told the workspace with
  ``${workspaceFolder}`` (Cursor does not document a stdio server's directory), and
  a ``sessionStart`` hook in ``~/.cursor/hooks.json``, with capture hooks on
  postToolUse, afterShellExecution, afterFileEdit, beforeSubmitPrompt and stop.

Each client's shapes live in ``twoclocks/clients/<client>.py`` (adding a client is one
file there and one line in ``CLIENT_MODULES``); the merge machinery in
``twoclocks/clients/files.py``. Existing files are merged, never replaced: other
servers, hooks and settings stay; a changed file is backed up first
(``<name>.bak-<UTC time>``) and written atomically.
Running it twice changes nothing the second time. The API key is never written:
every client finds the server and the key file through the client file `serve`
writes (see ``twoclocks.client_file``), so a client started from a GUI needs no exports.
"""

from __future__ import annotations

import shlex
import shutil
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType

from twoclocks.clients import claude_code, codex, cursor
from twoclocks.clients.codex import CODEX_ENV_VARS
from twoclocks.clients.files import MATCHER, Edit, Part, is_ours, shown, write
from twoclocks.domain.errors import ConfigError

__all__ = [
    "CLIENTS",
    "CODEX_ENV_VARS",
    "MATCHER",
    "Commands",
    "Edit",
    "Part",
    "install",
    "installed",
    "is_ours",
    "plan",
]

CLIENT_MODULES: dict[str, ModuleType] = {
    "claude-code": claude_code,
    "codex": codex,
    "cursor": cursor,
}
"""Each module has ``plan(home, commands)``, ``installed(home)``, ``removal(home)``, ``NOTE``."""
CLIENTS = tuple(CLIENT_MODULES)


@dataclass(frozen=True)
class Commands:
    """What the configs run: the MCP server, the session-start hooks and the capture hook."""

    twoclocks: str
    claude_hook: str
    cursor_hook: str
    capture_hook: str
    """Followed by the client's name (a tool event on stdin) or ``stop`` (drain the spool)."""
    turn_hook: str
    """Followed by the client's name: the finished turn (the person's text and the answer)."""

    def capture(self, client: str) -> str:
        """The capture hook command for one client's tool events."""
        return f"{self.capture_hook} {client}"

    def turn(self, client: str) -> str:
        """The turn hook command: sends the finished turn, then drains the spool a little."""
        return f"{self.turn_hook} {client}"

    @property
    def stop(self) -> str:
        """The hook run when a turn ends: what the spool still holds goes to the server."""
        return f"{self.capture_hook} stop"

    @classmethod
    def here(cls) -> Commands:
        """Commands for this installation, by absolute path (hooks get a bare PATH)."""
        python = sys.executable
        beside = Path(python).with_name("twoclocks")
        found = str(beside) if beside.exists() else shutil.which("twoclocks") or "twoclocks"
        # `python -m` skips the CLI's imports (typer, pydantic-settings): the session-start
        # hook's 800 ms budget and the capture hook's 100 ms cannot afford them.
        fast = shlex.quote(python) + " -m twoclocks.hooks."
        return cls(
            twoclocks=found,
            claude_hook=fast + "claude_code session-start",
            cursor_hook=fast + "cursor session-start",
            capture_hook=fast + "capture",
            turn_hook=fast + "turn",
        )


def _module(client: str) -> ModuleType:
    try:
        return CLIENT_MODULES[client]
    except KeyError:
        raise ConfigError(f"unknown client {client!r}: use one of {', '.join(CLIENTS)}") from None


def plan(client: str, home: Path, commands: Commands) -> list[Edit]:
    """The config edits ``client`` needs, computed without writing anything."""
    edits: list[Edit] = _module(client).plan(home, commands)
    return edits


def install(
    client: str, home: Path | None = None, dry_run: bool = False, commands: Commands | None = None
) -> list[str]:
    """Merge the configs for ``client``; returns one line per file (and a note)."""
    home = home or Path.home()
    edits = plan(client, home, commands or Commands.here())
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    report = []
    for edit in edits:
        where = shown(edit.path, home)
        if not edit.changes:
            report.append(f"unchanged  {where}: {edit.what}")
        elif dry_run:
            verb = "would create" if edit.before is None else "would update"
            report.append(f"{verb}  {where}: {edit.what}")
        else:
            backup = write(edit, stamp)
            saved = f" (old file kept as {backup.name})" if backup else ""
            verb = "created" if edit.before is None else "updated"
            report.append(f"{verb}  {where}: {edit.what}{saved}")
    if dry_run:
        report.append("dry run: nothing was written")
    elif any(e.changes for e in edits):
        report.append(f"note: {_module(client).NOTE}")
    return report


def installed(client: str, home: Path | None = None) -> list[Part]:
    """Which of ``client``'s twoclocks entries exist, and whether their commands still run."""
    parts: list[Part] = _module(client).installed(home or Path.home())
    return parts
