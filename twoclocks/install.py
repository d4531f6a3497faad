"""`twoclocks install claude-code|codex|cursor`: the MCP server and session-start hook, configured.

What each client gets (user scope, so every project sees it):

* Claude Code: ``mcpServers.twoclocks`` in ``~/.claude.json`` (what ``claude mcp add
  --scope user`` writes) and a ``SessionStart`` hook, matcher
  ``startup|clear|compact|resume``, in ``~/.claude/settings.json``.
* Codex: ``[mcp_servers.twoclocks]`` in ``~/.codex/config.toml``, with ``env_vars``
  naming the ``TWOCLOCKS_*`` variables (Codex hands a stdio server only a fixed list
  of variables otherwise), and the same ``SessionStart`` hook in
  ``~/.codex/hooks.json`` (Codex reads Claude Code's shape).
* Cursor: ``mcpServers.twoclocks`` in ``~/.cursor/mcp.json``, told the workspace with
  ``${workspaceFolder}`` (Cursor does not document a stdio server's directory), and
  a ``sessionStart`` hook in ``~/.cursor/hooks.json``.

Existing files are merged, never replaced: other servers, hooks and settings stay;
a changed file is backed up first (``<name>.bak-<UTC time>``) and written atomically.
Running it twice changes nothing the second time. The API key is never written:
every client finds the server and the key file through the client file `serve`
writes (see ``twoclocks.client_file``), so a client started from a GUI needs no exports.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import sys
import tempfile
import time
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twoclocks.domain.errors import ConfigError

CLIENTS = ("claude-code", "codex", "cursor")
SERVER_NAME = "twoclocks"
MATCHER = "startup|clear|compact|resume"
"""After a compaction (or on resume) the model has lost the block: it is injected again.
A fork keeps its parent's history, block included, so Codex's ``fork`` is left out."""
CODEX_ENV_VARS = ("TWOCLOCKS_URL", "TWOCLOCKS_KEY", "TWOCLOCKS_DATA_DIR")
"""What Codex must pass through to `twoclocks mcp` when the person exports them."""
HOOK_TIMEOUT_S = 5
"""Hard stop the client enforces; the hook itself gives up after well under a second."""

_OURS = re.compile(r"twoclocks\.hooks\.|(^|[\s/\"'])twoclocks hook ")


@dataclass(frozen=True)
class Commands:
    """What the configs run: the MCP server and the two hook commands."""

    twoclocks: str
    claude_hook: str
    cursor_hook: str

    @classmethod
    def here(cls) -> Commands:
        """Commands for this installation, by absolute path (hooks get a bare PATH)."""
        python = sys.executable
        beside = Path(python).with_name("twoclocks")
        found = str(beside) if beside.exists() else shutil.which("twoclocks") or "twoclocks"
        # `python -m` skips the CLI's imports (typer, pydantic-settings): the hook's
        # 800 ms budget cannot afford them. `twoclocks hook ...` runs the same code.
        fast = shlex.quote(python) + " -m twoclocks.hooks."
        return cls(
            twoclocks=found,
            claude_hook=fast + "claude_code session-start",
            cursor_hook=fast + "cursor session-start",
        )


@dataclass(frozen=True)
class Edit:
    """One config file: its text before (None when missing) and after the merge."""

    path: Path
    what: str
    before: str | None
    after: str

    @property
    def changes(self) -> bool:
        """Whether writing it would change the file."""
        return self.before != self.after


def is_ours(command: object) -> bool:
    """Whether a hook command is one twoclocks installed."""
    return isinstance(command, str) and bool(_OURS.search(command))


# -- reading and writing config files -----------------------------------------------------


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None


def _json_object(path: Path, text: str | None) -> dict[str, Any]:
    if text is None or not text.strip():
        return {}
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise ConfigError(
            f"{path} is not valid JSON ({exc}); fix or move it, nothing was changed"
        ) from None
    if not isinstance(data, dict):
        raise ConfigError(
            f"{path} does not hold a JSON object; fix or move it, nothing was changed"
        )
    return data


def _json_edit(path: Path, what: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Edit:
    before = _read(path)
    data = _json_object(path, before)
    merged = change(json.loads(json.dumps(data)))
    # Unchanged content keeps the file byte for byte, whatever its formatting.
    after = (
        before
        if merged == data and before is not None
        else (json.dumps(merged, indent=2, ensure_ascii=False) + "\n")
    )
    return Edit(path, what, before, after)


def _table(parent: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    value = parent.setdefault(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: {key!r} is not an object; fix it by hand, nothing was changed")
    return value


def _list(parent: dict[str, Any], key: str, path: Path) -> list[Any]:
    value = parent.setdefault(key, [])
    if not isinstance(value, list):
        raise ConfigError(f"{path}: {key!r} is not a list; fix it by hand, nothing was changed")
    return value


def _write(edit: Edit, stamp: str) -> Path | None:
    """Back up the old file, then replace it atomically; returns the backup's path."""
    edit.path.parent.mkdir(parents=True, exist_ok=True)
    backup = None
    if edit.before is not None:
        backup = edit.path.with_name(f"{edit.path.name}.bak-{stamp}")
        n = 1
        while backup.exists():
            n += 1
            backup = edit.path.with_name(f"{edit.path.name}.bak-{stamp}-{n}")
        shutil.copy2(edit.path, backup)
    fd, tmp = tempfile.mkstemp(prefix=f".{edit.path.name}.", dir=edit.path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(edit.after)
            handle.flush()
            os.fsync(handle.fileno())
        if edit.before is not None:
            shutil.copymode(edit.path, tmp)
        os.replace(tmp, edit.path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return backup


# -- the merges ---------------------------------------------------------------------------


def _session_start_hook(path: Path, command: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Claude Code's (and Codex's) shape: hooks.SessionStart[{matcher, hooks: [{command}]}]."""
    entry = {"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}

    def change(data: dict[str, Any]) -> dict[str, Any]:
        groups = _list(_table(data, "hooks", path), "SessionStart", path)
        mine = [
            g
            for g in groups
            if isinstance(g, dict)
            and any(isinstance(h, dict) and is_ours(h.get("command")) for h in g.get("hooks", []))
        ]
        if len(mine) == 1 and mine[0] == {"matcher": MATCHER, "hooks": [entry]}:
            return data
        kept = []
        for group in groups:
            hooks = group.get("hooks") if isinstance(group, dict) else None
            if not isinstance(hooks, list):
                kept.append(group)
                continue
            others = [h for h in hooks if not (isinstance(h, dict) and is_ours(h.get("command")))]
            if others or not hooks:
                kept.append({**group, "hooks": others})
        groups[:] = [*kept, {"matcher": MATCHER, "hooks": [entry]}]
        return data

    return change


def _mcp_server(path: Path, server: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """mcpServers.twoclocks, keeping any env the person added to it."""

    def change(data: dict[str, Any]) -> dict[str, Any]:
        servers = _table(data, "mcpServers", path)
        old = servers.get(SERVER_NAME)
        env = old.get("env") if isinstance(old, dict) else None
        servers[SERVER_NAME] = {**server, **({"env": env} if isinstance(env, dict) else {})}
        return data

    return change


def _cursor_hook(path: Path, command: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Cursor's shape: {version: 1, hooks: {sessionStart: [{command}]}}."""

    def change(data: dict[str, Any]) -> dict[str, Any]:
        data.setdefault("version", 1)
        entries = _list(_table(data, "hooks", path), "sessionStart", path)
        mine = [e for e in entries if isinstance(e, dict) and is_ours(e.get("command"))]
        if mine == [{"command": command}]:
            return data
        entries[:] = [e for e in entries if not (isinstance(e, dict) and is_ours(e.get("command")))]
        entries.append({"command": command})
        return data

    return change


_CODEX_HEADER = re.compile(r'^\s*\[\s*mcp_servers\s*\.\s*("twoclocks"|twoclocks)\s*\]\s*(#.*)?$')
_ANY_HEADER = re.compile(r"^\s*\[")


def _codex_config(path: Path, command: str) -> Edit:
    """[mcp_servers.twoclocks] in config.toml, edited as text (no TOML writer in the stdlib)."""
    before = _read(path)
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


# -- the plans ----------------------------------------------------------------------------


def plan(client: str, home: Path, commands: Commands) -> list[Edit]:
    """The config edits ``client`` needs, computed without writing anything."""
    if client == "claude-code":
        settings = home / ".claude" / "settings.json"
        user = home / ".claude.json"
        return [
            _json_edit(
                user,
                "MCP server (user scope)",
                _mcp_server(
                    user, {"type": "stdio", "command": commands.twoclocks, "args": ["mcp"]}
                ),
            ),
            _json_edit(
                settings,
                f"SessionStart hook ({MATCHER})",
                _session_start_hook(settings, commands.claude_hook),
            ),
        ]
    if client == "codex":
        hooks = home / ".codex" / "hooks.json"
        return [
            _codex_config(home / ".codex" / "config.toml", commands.twoclocks),
            _json_edit(
                hooks,
                f"SessionStart hook ({MATCHER})",
                _session_start_hook(hooks, commands.claude_hook),
            ),
        ]
    if client == "cursor":
        mcp = home / ".cursor" / "mcp.json"
        hooks = home / ".cursor" / "hooks.json"
        return [
            _json_edit(
                mcp,
                "MCP server",
                _mcp_server(
                    mcp,
                    {"command": commands.twoclocks, "args": ["mcp", "--cwd", "${workspaceFolder}"]},
                ),
            ),
            _json_edit(hooks, "sessionStart hook", _cursor_hook(hooks, commands.cursor_hook)),
        ]
    raise ConfigError(f"unknown client {client!r}: use one of {', '.join(CLIENTS)}")


NOTES = {
    "claude-code": "restart Claude Code; `/mcp` lists twoclocks; `twoclocks doctor` checks it all",
    "codex": "Codex asks you to review and trust the new hook once before it runs",
    "cursor": "Cursor does not wait for sessionStart hooks: the block may follow the first prompt",
}


def install(
    client: str, home: Path | None = None, dry_run: bool = False, commands: Commands | None = None
) -> list[str]:
    """Merge the configs for ``client``; returns one line per file (and a note)."""
    home = home or Path.home()
    edits = plan(client, home, commands or Commands.here())
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    report = []
    for edit in edits:
        shown = _shown(edit.path, home)
        if not edit.changes:
            report.append(f"unchanged  {shown}: {edit.what}")
        elif dry_run:
            verb = "would create" if edit.before is None else "would update"
            report.append(f"{verb}  {shown}: {edit.what}")
        else:
            backup = _write(edit, stamp)
            saved = f" (old file kept as {backup.name})" if backup else ""
            verb = "created" if edit.before is None else "updated"
            report.append(f"{verb}  {shown}: {edit.what}{saved}")
    if dry_run:
        report.append("dry run: nothing was written")
    elif any(e.changes for e in edits):
        report.append(f"note: {NOTES[client]}")
    return report


def _shown(path: Path, home: Path) -> str:
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)


# -- what is installed (for doctor) ---------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One installed piece of a client's config, and what is wrong with it, if anything."""

    what: str
    path: Path
    present: bool
    problem: str | None = None


def installed(client: str, home: Path | None = None) -> list[Part]:
    """Which of ``client``'s twoclocks entries exist, and whether their commands still run."""
    home = home or Path.home()
    if client == "claude-code":
        return [
            _server_part(home / ".claude.json", "MCP server"),
            _hook_part(home / ".claude" / "settings.json", "SessionStart", nested=True),
        ]
    if client == "codex":
        return [
            _codex_part(home / ".codex" / "config.toml"),
            _hook_part(home / ".codex" / "hooks.json", "SessionStart", nested=True),
        ]
    if client == "cursor":
        return [
            _server_part(home / ".cursor" / "mcp.json", "MCP server"),
            _hook_part(home / ".cursor" / "hooks.json", "sessionStart", nested=False),
        ]
    raise ConfigError(f"unknown client {client!r}: use one of {', '.join(CLIENTS)}")


def _quiet_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def _runnable(command: str) -> str | None:
    """Why a command cannot start (its program is gone, e.g. a moved venv), or None."""
    try:
        program = shlex.split(command)[0]
    except (ValueError, IndexError):
        return f"cannot read the command {command!r}"
    if os.sep in program:
        if os.access(program, os.X_OK):
            return None
        return f"it cannot start: {program} does not exist any more"
    return None if shutil.which(program) else f"it cannot start: {program} is not on PATH"


def _server_part(path: Path, what: str) -> Part:
    server = ((_quiet_json(path) or {}).get("mcpServers") or {}).get(SERVER_NAME)
    if not isinstance(server, dict):
        return Part(what, path, False)
    return Part(what, path, True, _runnable(str(server.get("command", ""))))


def _codex_part(path: Path) -> Part:
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
    problem = _runnable(str(server.get("command", "")))
    if problem is None and missing:
        problem = (
            f"env_vars does not pass {', '.join(missing)} (Codex hands a stdio server "
            "only a fixed list of variables)"
        )
    return Part("MCP server", path, True, problem)


def _hook_part(path: Path, event: str, nested: bool) -> Part:
    entries = ((_quiet_json(path) or {}).get("hooks") or {}).get(event) or []
    mine: list[tuple[str, object]] = []
    for entry in entries if isinstance(entries, list) else []:
        if not isinstance(entry, dict):
            continue
        hooks = entry.get("hooks", []) if nested else [entry]
        mine += [
            (h["command"], entry.get("matcher"))
            for h in hooks
            if isinstance(h, dict) and is_ours(h.get("command"))
        ]
    what = f"{event} hook"
    if not mine:
        return Part(what, path, False)
    command, matcher = mine[0]
    problem = _runnable(command)
    if problem is None and nested and matcher != MATCHER:
        problem = f"its matcher {matcher!r} is not {MATCHER!r}: compact and resume lose the block"
    return Part(what, path, True, problem)
