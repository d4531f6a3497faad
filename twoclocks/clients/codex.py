"""Codex's hook trust: a hook Codex has not been told to trust never runs, silently.

Codex (0.171) records trust in ``~/.codex/config.toml`` as
``[hooks.state."<hooks.json path>:session_start:<group>:<handler>"] trusted_hash = "sha256:..."``
and asks in its TUI ("Hooks need review ... Trust all and continue") when a hook is new
or changed. When ``codex`` is on PATH its own app server is asked (``hooks/list``
gives each hook's ``trustStatus``); otherwise the config is read, which cannot tell a
changed hook from a trusted one.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import threading
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any, NamedTuple

from twoclocks.install import is_ours

ASK_TIMEOUT_S = 10.0
TRUST_FIX = "start `codex` once and answer its hook review with 'Trust all and continue'"


class HookTrust(NamedTuple):
    """Whether Codex will run our SessionStart hook, and how that was found out."""

    trusted: bool | None
    how: str


def hook_keys(home: Path) -> list[str]:
    """Codex's keys for the twoclocks SessionStart hooks in ~/.codex/hooks.json."""
    hooks_json = home / ".codex" / "hooks.json"
    try:
        data = json.loads(hooks_json.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    groups = (data.get("hooks") or {}).get("SessionStart") if isinstance(data, dict) else None
    keys = []
    for i, group in enumerate(groups if isinstance(groups, list) else []):
        handlers = group.get("hooks") if isinstance(group, dict) else None
        for j, handler in enumerate(handlers if isinstance(handlers, list) else []):
            if isinstance(handler, dict) and is_ours(handler.get("command")):
                keys.append(f"{hooks_json}:session_start:{i}:{j}")
    return keys


def _recorded(home: Path) -> dict[str, Any]:
    try:
        config = tomllib.loads((home / ".codex" / "config.toml").read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    state = (config.get("hooks") or {}).get("state")
    return state if isinstance(state, dict) else {}


def ask_codex(codex: str, home: Path, timeout: float = ASK_TIMEOUT_S) -> dict[str, str] | None:
    """Codex's own ``trustStatus`` per hook key; None when Codex could not be asked."""
    hooks = list_hooks(codex, home, timeout)
    return None if hooks is None else {h["key"]: str(h.get("trustStatus", "")) for h in hooks}


def list_hooks(
    codex: str, home: Path, timeout: float = ASK_TIMEOUT_S, env: Mapping[str, str] | None = None
) -> list[dict[str, Any]] | None:
    """The hooks Codex sees (key, command, currentHash, trustStatus), from its app server."""
    requests = [
        {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "initialize",
            "params": {"clientInfo": {"name": "twoclocks-doctor", "version": "1"}},
        },
        {"jsonrpc": "2.0", "method": "initialized"},
        {"jsonrpc": "2.0", "id": 2, "method": "hooks/list", "params": {"cwds": [str(home)]}},
    ]
    try:
        proc = subprocess.Popen(
            [codex, "app-server"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=None if env is None else dict(env),
        )
    except OSError:
        return None
    # The app server stops when its stdin closes, so stdin stays open until it answers.
    timer = threading.Timer(timeout, proc.kill)
    timer.start()
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write("".join(json.dumps(r) + "\n" for r in requests))
        proc.stdin.flush()
        for line in proc.stdout:
            try:
                message = json.loads(line)
            except ValueError:
                continue
            if isinstance(message, dict) and message.get("id") == 2:
                return [
                    hook
                    for entry in (message.get("result") or {}).get("data", [])
                    for hook in entry.get("hooks", [])
                    if isinstance(hook, dict) and "key" in hook
                ]
        return None
    except (OSError, ValueError, AssertionError):
        return None
    finally:
        timer.cancel()
        proc.kill()
        proc.wait()


def hook_trust(home: Path, codex: str | None = None) -> HookTrust:
    """Whether Codex trusts our SessionStart hook (None: no hook of ours is installed)."""
    keys = hook_keys(home)
    if not keys:
        return HookTrust(None, "no twoclocks hook in ~/.codex/hooks.json")
    codex = codex or shutil.which("codex")
    statuses = ask_codex(codex, home) if codex else None
    if statuses is not None:
        status = statuses.get(keys[0], "unknown")
        return HookTrust(status in ("trusted", "managed"), f"Codex says {status}")
    entry = _recorded(home).get(keys[0])
    if isinstance(entry, dict) and entry.get("trusted_hash"):
        return HookTrust(True, "trusted in ~/.codex/config.toml (codex not on PATH to confirm)")
    return HookTrust(False, "no trust recorded in ~/.codex/config.toml")
