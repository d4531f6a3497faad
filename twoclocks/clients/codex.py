"""Codex: its MCP entry, SessionStart and capture hooks (install, uninstall, doctor), hook trust.

Install writes ``[mcp_servers.twoclocks]`` in ``~/.codex/config.toml`` with ``env_vars``
naming the ``TWOCLOCKS_*`` variables (Codex hands a stdio server only a fixed list of
variables otherwise), edited as text since the stdlib has no TOML writer, and Claude
Code's ``SessionStart`` shape in ``~/.codex/hooks.json``, with the capture hooks on
PostToolUse and UserPromptSubmit and Stop to drain the spool (Codex has no SessionEnd).
Codex has no ``async`` flag for command hooks: they run in turn, so the capture hook's
100 ms is all they cost.

A hook Codex has not been told to trust never runs, silently. Codex (0.171) records trust
in ``config.toml`` as
``[hooks.state."<hooks.json path>:<event>:<group>:<handler>"] trusted_hash = "sha256:..."``
(``<event>`` in snake case: ``session_start``, ``post_tool_use``, ...)
and asks in its TUI ("Hooks need review ... Trust all and continue") when a hook is new
or changed. When ``codex`` is on PATH its own app server is asked (``hooks/list``
gives each hook's ``trustStatus``); otherwise the config is read, which cannot tell a
changed hook from a trusted one.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import threading
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from twoclocks.clients.files import (
    SERVER_NAME,
    Edit,
    Part,
    capture_part,
    chain,
    drop_all_hooks,
    drop_hooks,
    hook_part,
    hooks_file_edit,
    is_ours,
    json_edit,
    read,
    runnable,
)
from twoclocks.domain.errors import ConfigError

if TYPE_CHECKING:
    from twoclocks.install import Commands

NOTE = "Codex asks you to review and trust the new hooks once before they run"

CAPTURE_EVENTS = ("PostToolUse", "UserPromptSubmit")
DRAIN_EVENT = "Stop"
HOOK_EVENTS = (*CAPTURE_EVENTS, DRAIN_EVENT)
TRUSTED_EVENTS = ("SessionStart", *HOOK_EVENTS)

ASK_TIMEOUT_S = 10.0
TRUST_FIX = "start `codex` once and answer its hook review with 'Trust all and continue'"
SHELL_VARIABLES = ("CODEX_THREAD_ID", "CODEX_SANDBOX", "CODEX_SANDBOX_NETWORK_DISABLED")
"""Exported into the shells Codex runs commands in: the thread's id, and the sandbox's
marks when it sandboxes them."""


class HookTrust(NamedTuple):
    """Whether Codex will run our SessionStart hook, and how that was found out."""

    trusted: bool | None
    how: str


def _snake(event: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", event).lower()


def hook_keys(home: Path) -> list[str]:
    """Codex's keys for the twoclocks hooks in ~/.codex/hooks.json, SessionStart first."""
    hooks_json = home / ".codex" / "hooks.json"
    try:
        data = json.loads(hooks_json.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return []
    hooks = data.get("hooks") if isinstance(data, dict) else None
    keys = []
    for event in TRUSTED_EVENTS:
        groups = hooks.get(event) if isinstance(hooks, dict) else None
        for i, group in enumerate(groups if isinstance(groups, list) else []):
            handlers = group.get("hooks") if isinstance(group, dict) else None
            for j, handler in enumerate(handlers if isinstance(handlers, list) else []):
                if isinstance(handler, dict) and is_ours(handler.get("command")):
                    keys.append(f"{hooks_json}:{_snake(event)}:{i}:{j}")
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
    """Whether Codex trusts every hook of ours (None: no hook of ours is installed)."""
    keys = hook_keys(home)
    if not keys:
        return HookTrust(None, "no twoclocks hook in ~/.codex/hooks.json")
    codex = codex or shutil.which("codex")
    statuses = ask_codex(codex, home) if codex else None
    if statuses is not None:
        untrusted = [
            (key, statuses.get(key, "unknown"))
            for key in keys
            if statuses.get(key, "unknown") not in ("trusted", "managed")
        ]
        if not untrusted:
            return HookTrust(True, "Codex says trusted")
        named = ", ".join(f"{_event_of(key)} {status}" for key, status in untrusted)
        return HookTrust(False, f"Codex says {named}")
    recorded = _recorded(home)
    missing = [
        key
        for key in keys
        if not (isinstance(recorded.get(key), dict) and recorded[key].get("trusted_hash"))
    ]
    if not missing:
        return HookTrust(True, "trusted in ~/.codex/config.toml (codex not on PATH to confirm)")
    named = ", ".join(_event_of(key) for key in missing)
    return HookTrust(False, f"no trust recorded in ~/.codex/config.toml for {named}")


def _event_of(key: str) -> str:
    """The event part of a trust key (``...hooks.json:post_tool_use:0:0``)."""
    parts = key.rsplit(":", 3)
    return parts[1] if len(parts) == 4 else key


# -- the config entry (install, doctor) ---------------------------------------------------


CODEX_ENV_VARS = ("TWOCLOCKS_URL", "TWOCLOCKS_KEY", "TWOCLOCKS_DATA_DIR")
"""What Codex must pass through to `twoclocks mcp` when the person exports them."""


_CODEX_HEADER = re.compile(r'^\s*\[\s*mcp_servers\s*\.\s*("twoclocks"|twoclocks)\s*\]\s*(#.*)?$')


_ANY_HEADER = re.compile(r"^\s*\[")


def config_edit(path: Path, command: str) -> Edit:
    """[mcp_servers.twoclocks] in config.toml, edited as text (no TOML writer in the stdlib)."""
    before = read(path)
    text = before or ""
    try:
        parsed = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(
            f"{path} is not valid TOML ({exc}); fix it, nothing was changed"
        ) from None
    ours = {"command": command, "args": ["mcp"], "env_vars": list(CODEX_ENV_VARS)}
    lines = [f"{name} = {json.dumps(value)}" for name, value in ours.items()]
    existing = parsed.get("mcp_servers", {}).get(SERVER_NAME)
    if isinstance(existing, dict) and all(existing.get(k) == v for k, v in ours.items()):
        return Edit(path, "[mcp_servers.twoclocks]", before, text)
    if existing is None:
        block = "[mcp_servers.twoclocks]\n" + "\n".join(lines) + "\n"
        after = (
            text
            + ("\n" if text and not text.endswith("\n") else "")
            + ("\n" if text.strip() else "")
            + block
        )
    else:
        after = _replace_in_table(path, text, lines)
    _check_codex(path, parsed, after, ours)
    return Edit(path, "[mcp_servers.twoclocks] with env_vars", before, after)


_OUR_KEYS = re.compile(r"^\s*(command|args|env_vars)\s*=")


def _replace_in_table(path: Path, text: str, lines: list[str]) -> str:
    rows = text.splitlines(keepends=True)
    start = next((i for i, row in enumerate(rows) if _CODEX_HEADER.match(row)), None)
    if start is None:
        raise ConfigError(
            f"{path} defines mcp_servers.twoclocks in a form this installer does not edit; "
            "set command, args and env_vars there by hand, nothing was changed"
        )
    end = next((i for i in range(start + 1, len(rows)) if _ANY_HEADER.match(rows[i])), len(rows))
    body = [row for row in rows[start + 1 : end] if not _OUR_KEYS.match(row)]
    return "".join(rows[: start + 1] + [line + "\n" for line in lines] + body + rows[end:])


def _check_codex(path: Path, parsed: dict[str, Any], after: str, ours: dict[str, Any]) -> None:
    # The text edit must leave exactly our values changed, or nothing is written.
    try:
        result = tomllib.loads(after)
    except tomllib.TOMLDecodeError:
        result = None
    written = (result or {}).get("mcp_servers", {}).get(SERVER_NAME, {})
    others_before = {k: v for k, v in parsed.get("mcp_servers", {}).items() if k != SERVER_NAME}
    others_after = {
        k: v for k, v in (result or {}).get("mcp_servers", {}).items() if k != SERVER_NAME
    }
    rest = {k: v for k, v in parsed.items() if k != "mcp_servers"}
    if (
        result is None
        or any(written.get(k) != v for k, v in ours.items())
        or others_after != others_before
        or {k: v for k, v in result.items() if k != "mcp_servers"} != rest
    ):
        by_hand = "\n".join(f"{k} = {json.dumps(v)}" for k, v in ours.items())
        raise ConfigError(
            f"could not update {path} safely; add this by hand:\n[mcp_servers.twoclocks]\n{by_hand}"
        )


def installed_server(path: Path) -> Part:
    try:
        server = (
            tomllib.loads(path.read_text(encoding="utf-8")).get("mcp_servers", {}).get(SERVER_NAME)
        )
    except (OSError, tomllib.TOMLDecodeError):
        server = None
    if not isinstance(server, dict):
        return Part("MCP server", path, False)
    passed = server.get("env_vars")
    missing = [n for n in CODEX_ENV_VARS if not isinstance(passed, list) or n not in passed]
    problem = runnable(str(server.get("command", "")))
    if problem is None and missing:
        problem = (
            f"env_vars does not pass {', '.join(missing)} (Codex hands a stdio server "
            "only a fixed list of variables)"
        )
    return Part("MCP server", path, True, problem)


# -- uninstall ------------------------------------------------------------------------------


_HEADER = re.compile(r"^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")


def removal_edit(path: Path, trust_keys: list[str]) -> Edit:
    """[mcp_servers.twoclocks] (and its sub-tables) and our hooks.state tables, as text."""
    before = read(path)
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
    _check_removal(path, after, expected, state, parsed)
    return Edit(path, "[mcp_servers.twoclocks]", before, before if after == before else after)


def _check_removal(
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


# -- the client, as install / uninstall / doctor see it ----------------------------------------


def plan(home: Path, commands: Commands) -> list[Edit]:
    """The config edits Codex needs, computed without writing anything."""
    hooks = home / ".codex" / "hooks.json"
    return [
        config_edit(home / ".codex" / "config.toml", commands.twoclocks),
        hooks_file_edit(
            hooks,
            commands.claude_hook,
            commands.capture("codex"),
            CAPTURE_EVENTS,
            DRAIN_EVENT,
            commands.turn("codex"),
            background=False,
        ),
    ]


def installed(home: Path) -> list[Part]:
    """Which of Codex's twoclocks entries exist, and whether they still work."""
    return [
        installed_server(home / ".codex" / "config.toml"),
        hook_part(home / ".codex" / "hooks.json", "SessionStart", nested=True),
        capture_part(home / ".codex" / "hooks.json", HOOK_EVENTS, nested=True),
    ]


def removal(home: Path) -> list[Edit]:
    """The edits that take twoclocks out of Codex's configs."""
    return [
        removal_edit(home / ".codex" / "config.toml", hook_keys(home)),
        json_edit(
            home / ".codex" / "hooks.json",
            "SessionStart and capture hooks",
            chain(
                drop_hooks("SessionStart", nested=True), drop_all_hooks(HOOK_EVENTS, nested=True)
            ),
        ),
    ]
