"""`twoclocks uninstall claude-code|codex|cursor`: take out what `install` put in, nothing else.

Only the ``twoclocks`` MCP server entry and the hook handlers whose command is ours
(``is_ours``) go; other servers, hooks and settings stay, a hook group left empty by us
goes with our handler. Each changed file is backed up first, as `install` does, and
running it twice changes nothing the second time. For Codex, the trust Codex recorded
for our hook (``[hooks.state."...hooks.json:session_start:i:j"]``) goes too, since its
key names a position in hooks.json that another hook may take next.

The agent key `install` made (``<data dir>/agent-key``) is shared by every installed
client on this machine: uninstalling the last of them revokes it and removes its file
(``release_agent_key``); while another client still holds a twoclocks entry, it stays.
"""

from __future__ import annotations

import time
from pathlib import Path

from twoclocks.agent_key import AGENT_KEY_NAME, revoke_agent_key
from twoclocks.client_file import AGENT_KEY_FILE, Target
from twoclocks.clients.files import Edit, shown, write
from twoclocks.install import CLIENTS, _module, installed


def removal(client: str, home: Path) -> list[Edit]:
    """The edits that take ``client``'s twoclocks entries out, computed without writing."""
    edits: list[Edit] = _module(client).removal(home)
    return edits


def uninstall(client: str, home: Path | None = None, dry_run: bool = False) -> list[str]:
    """Take twoclocks out of ``client``'s configs; returns one line per file."""
    home = home or Path.home()
    edits = [e for e in removal(client, home) if e.before is not None]
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    report = []
    for edit in edits:
        where = shown(edit.path, home)
        if not edit.changes:
            report.append(f"unchanged  {where}: no twoclocks {edit.what}")
        elif dry_run:
            report.append(f"would update  {where}: remove {edit.what}")
        else:
            backup = write(edit, stamp)
            saved = f" (old file kept as {backup.name})" if backup else ""
            report.append(f"updated  {where}: removed {edit.what}{saved}")
    if not edits:
        report.append(f"nothing to remove: no {client} config files under {home}")
    if dry_run:
        report.append("dry run: nothing was written")
    return report


def still_installed(home: Path, besides: str) -> list[str]:
    """The clients other than ``besides`` whose configs still hold a twoclocks entry."""
    return [c for c in CLIENTS if c != besides and any(p.present for p in installed(c, home))]


def release_agent_key(
    client: str, target: Target, home: Path | None = None, dry_run: bool = False
) -> str:
    """After uninstalling ``client``: revoke the agent key unless another client uses it."""
    others = still_installed(home or Path.home(), besides=client)
    if others:
        return (
            f"kept  {target.data_dir / AGENT_KEY_FILE}: agent key {AGENT_KEY_NAME!r} is still "
            f"sent by {', '.join(others)}"
        )
    return revoke_agent_key(target, dry_run=dry_run)
