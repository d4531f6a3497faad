"""`twoclocks uninstall claude-code|codex|cursor`: take out what `install` put in, nothing else.

Only the ``twoclocks`` MCP server entry and the hook handlers whose command is ours
(``is_ours``) go; other servers, hooks and settings stay, a hook group left empty by us
goes with our handler. Each changed file is backed up first, as `install` does, and
running it twice changes nothing the second time. For Codex, the trust Codex recorded
for our hook (``[hooks.state."...hooks.json:session_start:i:j"]``) goes too, since its
key names a position in hooks.json that another hook may take next.
"""

from __future__ import annotations

import re
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from twoclocks.clients.codex import hook_keys
from twoclocks.domain.errors import ConfigError
from twoclocks.install import (
    _CODEX_HEADER,
    CLIENTS,
    SERVER_NAME,
    Edit,
    _json_edit,
    _read,
    _shown,
    _write,
    is_ours,
)

_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def _drop_server(data: dict[str, Any]) -> dict[str, Any]:
    servers = data.get("mcpServers")
    if isinstance(servers, dict):
        servers.pop(SERVER_NAME, None)
    return data


def _drop_hooks(event: str, nested: bool) -> Callable[[dict[str, Any]], dict[str, Any]]:
    def change(data: dict[str, Any]) -> dict[str, Any]:
        hooks = data.get("hooks")
        entries = hooks.get(event) if isinstance(hooks, dict) else None
        if not isinstance(entries, list):
            return data
        kept = []
        for entry in entries:
            if not nested:
                if not (isinstance(entry, dict) and is_ours(entry.get("command"))):
                    kept.append(entry)
                continue
            handlers = entry.get("hooks") if isinstance(entry, dict) else None
            if not isinstance(handlers, list):
                kept.append(entry)
                continue
            others = [
                h for h in handlers if not (isinstance(h, dict) and is_ours(h.get("command")))
            ]
            if others or not handlers:
                kept.append({**entry, "hooks": others})
        entries[:] = kept
        return data

    return change


def _codex_config(path: Path, trust_keys: list[str]) -> Edit:
    """[mcp_servers.twoclocks] (and its sub-tables) and our hooks.state tables, as text."""
    before = _read(path)
    if before is None:
        return Edit(path, "[mcp_servers.twoclocks]", None, "")
    try:
        parsed = tomllib.loads(before)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path} is not valid TOML ({exc}); nothing was changed") from None
    ours = {f"mcp_servers.{SERVER_NAME}", f'mcp_servers."{SERVER_NAME}"'}
    ours |= {f'hooks.state."{key}"' for key in trust_keys}
    rows = before.splitlines(keepends=True)
    kept, skipping = [], False
    for row in rows:
        header = _HEADER.match(row)
        if header:
            name = header.group(1)
            skipping = name in ours or any(name.startswith(o + ".") for o in ours)
            skipping = skipping or bool(_CODEX_HEADER.match(row))
        if not skipping:
            kept.append(row)
    after = "".join(kept).rstrip("\n") + "\n" if kept else ""
    expected = {**parsed, "mcp_servers": dict(parsed.get("mcp_servers", {}))}
    expected["mcp_servers"].pop(SERVER_NAME, None)
    state = dict(((parsed.get("hooks") or {}).get("state")) or {})
    for key in trust_keys:
        state.pop(key, None)
    _check(path, after, expected, state, parsed)
    return Edit(path, "[mcp_servers.twoclocks]", before, before if after == before else after)


def _check(
    path: Path,
    after: str,
    expected: dict[str, Any],
    state: dict[str, Any],
    parsed: dict[str, Any],
) -> None:
    # Only our tables may go; anything else differing means the text edit went wrong.
    try:
        result = tomllib.loads(after)
    except tomllib.TOMLDecodeError:
        result = None

    def strip(config: dict[str, Any]) -> dict[str, Any]:
        out = {k: v for k, v in config.items() if k not in ("mcp_servers", "hooks")}
        out["mcp_servers"] = config.get("mcp_servers") or {}
        hooks = {k: v for k, v in (config.get("hooks") or {}).items() if k != "state"}
        out["hooks"] = {**hooks, "state": (config.get("hooks") or {}).get("state") or {}}
        return out

    wanted = strip(expected)
    wanted["hooks"]["state"] = state
    if result is None or strip(result) != wanted:
        raise ConfigError(
            f"could not take twoclocks out of {path} safely; delete its "
            "[mcp_servers.twoclocks] table by hand, nothing was changed"
        )


def plan(client: str, home: Path) -> list[Edit]:
    """The edits that take ``client``'s twoclocks entries out, computed without writing."""
    if client == "claude-code":
        return [
            _json_edit(home / ".claude.json", "MCP server", _drop_server),
            _json_edit(
                home / ".claude" / "settings.json",
                "SessionStart hook",
                _drop_hooks("SessionStart", nested=True),
            ),
        ]
    if client == "codex":
        return [
            _codex_config(home / ".codex" / "config.toml", hook_keys(home)),
            _json_edit(
                home / ".codex" / "hooks.json",
                "SessionStart hook",
                _drop_hooks("SessionStart", nested=True),
            ),
        ]
    if client == "cursor":
        return [
            _json_edit(home / ".cursor" / "mcp.json", "MCP server", _drop_server),
            _json_edit(
                home / ".cursor" / "hooks.json",
                "sessionStart hook",
                _drop_hooks("sessionStart", nested=False),
            ),
        ]
    raise ConfigError(f"unknown client {client!r}: use one of {', '.join(CLIENTS)}")


def uninstall(client: str, home: Path | None = None, dry_run: bool = False) -> list[str]:
    """Take twoclocks out of ``client``'s configs; returns one line per file."""
    home = home or Path.home()
    edits = [e for e in plan(client, home) if e.before is not None]
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    report = []
    for edit in edits:
        shown = _shown(edit.path, home)
        if not edit.changes:
            report.append(f"unchanged  {shown}: no twoclocks {edit.what}")
        elif dry_run:
            report.append(f"would update  {shown}: remove {edit.what}")
        else:
            backup = _write(edit, stamp)
            saved = f" (old file kept as {backup.name})" if backup else ""
            report.append(f"updated  {shown}: removed {edit.what}{saved}")
    if not edits:
        report.append(f"nothing to remove: no {client} config files under {home}")
    if dry_run:
        report.append("dry run: nothing was written")
    return report
