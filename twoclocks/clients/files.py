"""The config-file machinery every client's installer shares: merge, back up, inspect.

JSON files are merged as data; a changed file is backed up first
(``<name>.bak-<UTC time>``) and replaced atomically; unchanged content keeps the file
byte for byte. ``Part`` says what ``doctor`` finds installed.
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twoclocks.domain.errors import ConfigError

SERVER_NAME = "twoclocks"


MATCHER = "startup|clear|compact|resume"
"""After a compaction (or on resume) the model has lost the block: it is injected again.
A fork keeps its parent's history, block included, so Codex's ``fork`` is left out."""


HOOK_TIMEOUT_S = 5
"""Hard stop the client enforces; the hook itself gives up after well under a second."""

BACKGROUND: dict[str, Any] = {"async": True, "asyncRewake": True}
"""What a capture hook carries where the client can run it in the background (Claude
Code): see ``nested_hooks`` for why both."""


_OURS = re.compile(r"twoclocks\.hooks\.|(^|[\s/\"'])twoclocks hook ")


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


def read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise ConfigError(f"cannot read {path}: {exc}") from None


def json_object(path: Path, text: str | None) -> dict[str, Any]:
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


def json_edit(path: Path, what: str, change: Callable[[dict[str, Any]], dict[str, Any]]) -> Edit:
    before = read(path)
    data = json_object(path, before)
    merged = change(json.loads(json.dumps(data)))
    # Unchanged content keeps the file byte for byte, whatever its formatting.
    after = (
        before
        if merged == data and before is not None
        else (json.dumps(merged, indent=2, ensure_ascii=False) + "\n")
    )
    return Edit(path, what, before, after)


def table(parent: dict[str, Any], key: str, path: Path) -> dict[str, Any]:
    value = parent.setdefault(key, {})
    if not isinstance(value, dict):
        raise ConfigError(f"{path}: {key!r} is not an object; fix it by hand, nothing was changed")
    return value


def list_of(parent: dict[str, Any], key: str, path: Path) -> list[Any]:
    value = parent.setdefault(key, [])
    if not isinstance(value, list):
        raise ConfigError(f"{path}: {key!r} is not a list; fix it by hand, nothing was changed")
    return value


def write(edit: Edit, stamp: str) -> Path | None:
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


def shown(path: Path, home: Path) -> str:
    try:
        return "~/" + str(path.relative_to(home))
    except ValueError:
        return str(path)


# -- the merges (install) and the removals (uninstall) ------------------------------------


def session_start_hook(path: Path, command: str) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Claude Code's (and Codex's) shape: hooks.SessionStart[{matcher, hooks: [{command}]}]."""
    entry = {"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}
    return our_group(path, "SessionStart", {"matcher": MATCHER, "hooks": [entry]})


def our_group(
    path: Path, event: str, group: dict[str, Any]
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """hooks.<event> ends with exactly one group of ours, ``group``; other handlers stay."""

    def change(data: dict[str, Any]) -> dict[str, Any]:
        groups = list_of(table(data, "hooks", path), event, path)
        mine = [
            g
            for g in groups
            if isinstance(g, dict)
            and any(isinstance(h, dict) and is_ours(h.get("command")) for h in g.get("hooks", []))
        ]
        if len(mine) == 1 and mine[0] == group:
            return data
        kept = []
        for entry in groups:
            hooks = entry.get("hooks") if isinstance(entry, dict) else None
            if not isinstance(hooks, list):
                kept.append(entry)
                continue
            others = [h for h in hooks if not (isinstance(h, dict) and is_ours(h.get("command")))]
            if others or not hooks:
                kept.append({**entry, "hooks": others})
        groups[:] = [*kept, group]
        return data

    return change


def nested_hooks(
    path: Path, commands: Mapping[str, str], background: bool
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """One group of ours per event (Claude Code's and Codex's shape), every tool matched.

    ``background`` adds ``async: true``: Claude Code then starts the hook and goes on
    without waiting for it (Codex has no such flag; the hook is fast either way). It adds
    ``asyncRewake: true`` too, for one effect: a headless ``claude -p`` waits for such
    hooks before it exits (up to 30 s; ours stop within seconds) instead of killing them,
    which lost the turn in 4 runs of 4 and the tool event in 1 (docs/capture.md). The
    flag's other effect, waking the model on exit code 2, never happens: ours exit 0.
    """
    changes = []
    for event, command in commands.items():
        entry: dict[str, Any] = {"type": "command", "command": command, "timeout": HOOK_TIMEOUT_S}
        if background:
            entry.update(BACKGROUND)
        changes.append(our_group(path, event, {"hooks": [entry]}))
    return chain(*changes)


def hooks_file_edit(
    path: Path,
    session_start_command: str,
    capture_command: str,
    capture_events: tuple[str, ...],
    turn_event: str,
    turn_command: str,
    background: bool,
) -> Edit:
    """Claude Code's and Codex's hooks file: SessionStart, the capture hooks and the turn hook.

    Both clients read the same nested shape; they differ in the events they send and in
    ``background`` (Claude Code's ``async`` and ``asyncRewake``).
    """
    commands = {event: capture_command for event in capture_events}
    # The turn hook sends the finished turn (issue 13) and, once the server answers,
    # drains the spool as every capture does.
    commands[turn_event] = turn_command
    events = ", ".join((*capture_events, turn_event))
    return json_edit(
        path,
        f"SessionStart hook ({MATCHER}) and capture hooks ({events})",
        chain(
            session_start_hook(path, session_start_command),
            nested_hooks(path, commands, background=background),
        ),
    )


def chain(
    *changes: Callable[[dict[str, Any]], dict[str, Any]],
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Several changes to one file, applied in order (a file is written once per install)."""

    def change(data: dict[str, Any]) -> dict[str, Any]:
        for step in changes:
            data = step(data)
        return data

    return change


def mcp_server(path: Path, server: dict[str, Any]) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """mcpServers.twoclocks, keeping any env the person added to it."""

    def change(data: dict[str, Any]) -> dict[str, Any]:
        servers = table(data, "mcpServers", path)
        old = servers.get(SERVER_NAME)
        env = old.get("env") if isinstance(old, dict) else None
        servers[SERVER_NAME] = {**server, **({"env": env} if isinstance(env, dict) else {})}
        return data

    return change


def cursor_hook(
    path: Path, command: str, event: str = "sessionStart"
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Cursor's shape: {version: 1, hooks: {<event>: [{command}]}}."""

    def change(data: dict[str, Any]) -> dict[str, Any]:
        data.setdefault("version", 1)
        entries = list_of(table(data, "hooks", path), event, path)
        mine = [e for e in entries if isinstance(e, dict) and is_ours(e.get("command"))]
        if mine == [{"command": command}]:
            return data
        entries[:] = [e for e in entries if not (isinstance(e, dict) and is_ours(e.get("command")))]
        entries.append({"command": command})
        return data

    return change


def cursor_hooks(
    path: Path, commands: Mapping[str, str]
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """One entry of ours per Cursor event."""
    return chain(*(cursor_hook(path, command, event) for event, command in commands.items()))


def drop_server(data: dict[str, Any]) -> dict[str, Any]:
    servers = data.get("mcpServers")
    if isinstance(servers, dict):
        servers.pop(SERVER_NAME, None)
    return data


def drop_hooks(event: str, nested: bool) -> Callable[[dict[str, Any]], dict[str, Any]]:
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
        if entries and not kept and isinstance(hooks, dict):
            # A list (and a hooks table) that only held ours goes with it.
            del hooks[event]
            if not hooks:
                del data["hooks"]
            return data
        entries[:] = kept
        return data

    return change


def drop_all_hooks(
    events: tuple[str, ...], nested: bool
) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """Our handlers out of every one of ``events``."""
    return chain(*(drop_hooks(event, nested) for event in events))


# -- what is installed (for doctor) ---------------------------------------------------------


@dataclass(frozen=True)
class Part:
    """One installed piece of a client's config, and what is wrong with it, if anything."""

    what: str
    path: Path
    present: bool
    problem: str | None = None


def quiet_json(path: Path) -> dict[str, Any] | None:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def runnable(command: str) -> str | None:
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


def server_part(path: Path, what: str) -> Part:
    server = ((quiet_json(path) or {}).get("mcpServers") or {}).get(SERVER_NAME)
    if not isinstance(server, dict):
        return Part(what, path, False)
    return Part(what, path, True, runnable(str(server.get("command", ""))))


def hook_part(path: Path, event: str, nested: bool) -> Part:
    entries = ((quiet_json(path) or {}).get("hooks") or {}).get(event) or []
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
    problem = runnable(command)
    if problem is None and nested and matcher != MATCHER:
        problem = f"its matcher {matcher!r} is not {MATCHER!r}: compact and resume lose the block"
    return Part(what, path, True, problem)


def capture_part(
    path: Path,
    events: tuple[str, ...],
    nested: bool,
    expected: Mapping[str, Any] | None = None,
) -> Part:
    """The capture hooks: which of ``events`` have ours, whether their command runs, and
    whether each carries the ``expected`` keys (one written by an older install may not)."""
    hooks = (quiet_json(path) or {}).get("hooks") or {}
    found: dict[str, str] = {}
    lacking: dict[str, None] = {}  # the expected keys some hook lacks, in order, once each
    for event in events:
        entries = hooks.get(event) if isinstance(hooks, dict) else None
        for entry in entries if isinstance(entries, list) else []:
            handlers = (
                (entry.get("hooks", []) if nested else [entry]) if isinstance(entry, dict) else []
            )
            for handler in handlers if isinstance(handlers, list) else []:
                if isinstance(handler, dict) and is_ours(handler.get("command")):
                    found.setdefault(event, handler["command"])
                    for key, value in (expected or {}).items():
                        if handler.get(key) != value:
                            lacking[f'"{key}": {json.dumps(value)}'] = None
    if not found:
        return Part("capture hooks", path, False)
    what = f"capture hooks ({', '.join(found)})"
    missing = [e for e in events if e not in found]
    problem = runnable(next(iter(found.values())))
    if problem is None and missing:
        problem = f"no capture hook for {', '.join(missing)}: those events are not captured"
    if problem is None and lacking:
        problem = f"written by an older install, without {', '.join(lacking)}"
    return Part(what, path, True, problem)
