"""Tool events from Claude Code, Codex and Cursor, normalized to one shape the rules read.

Documented hook inputs (late 2026; fixtures in tests/capture/fixtures/ cite the pages):

* Claude Code (https://code.claude.com/docs/en/hooks): every event has ``session_id``,
  ``transcript_path``, ``cwd``, ``hook_event_name``; ``PostToolUse`` adds ``tool_name``,
  ``tool_input``, ``tool_response``, ``tool_use_id``; ``PostToolUseFailure`` adds
  ``error`` (a failing Bash command arrives here, "Exit code N" in the text).
* Codex (https://developers.openai.com/codex/hooks): the same names plus ``turn_id``;
  its ``tool_response`` has no fixed schema, so a Bash exit status is parsed out of it;
  Codex 0.171 sends a shell's output alone (seen with a stand-in model, 2026-12-03), so
  the hook adds the status from the rollout as ``twoclocks_exit_code``; its tools are
  ``Bash``, ``apply_patch`` and ``mcp__*``.
* Cursor (https://cursor.com/docs/agent/hooks): ``conversation_id``, ``generation_id``,
  ``workspace_roots``, ``cursor_version``; ``afterShellExecution`` has ``command``,
  ``cwd``, ``output``, ``duration``; ``afterFileEdit`` has ``file_path`` and ``edits``.

Pure: stdlib and pydantic only, no clock, no I/O.
"""

from __future__ import annotations

import hashlib
import json
import re
import shlex
from collections.abc import Mapping
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from twoclocks.domain.errors import InvalidInput

Client = Literal["claude-code", "codex", "cursor"]
CLIENTS: tuple[str, ...] = ("claude-code", "codex", "cursor")

EventKind = Literal["shell", "edit", "subagent", "mcp", "prompt", "other"]

MAX_OUTPUT = 16_000
"""Characters of tool output the rules read: the head and the tail, where summaries are."""

EDIT_TOOLS = frozenset({"Edit", "Write", "MultiEdit", "NotebookEdit", "apply_patch", "edit_file"})
SHELL_TOOLS = frozenset({"Bash", "Shell", "shell", "run_terminal_cmd", "exec_command"})
SUBAGENT_TOOLS = frozenset({"Task", "Agent"})

_EXIT = re.compile(
    r"(?:exit code|exit status|exited with code|process exited with code|exit_code)\W{0,3}(-?\d+)",
    re.IGNORECASE,
)
_PATCH_FILE = re.compile(
    r"^\*\*\* (?:Update|Add|Delete) File: (.+?)\s*$|^\*\*\* Move to: (.+?)\s*$"
)


class ToolEvent(BaseModel):
    """One tool event, whatever client sent it; what the capture rules read."""

    model_config = ConfigDict(frozen=True)

    client: Client
    event_id: str
    hook: str
    kind: EventKind
    session_id: str | None = None
    cwd: str | None = None
    tool_name: str | None = None
    command: str | None = None
    output: str = ""
    exit_code: int | None = None
    failed: bool = False
    interrupted: bool = False
    """The person (or a time limit) stopped the tool before it finished: Claude Code's
    ``is_interrupt`` on a failure, its Bash result's ``interrupted``."""
    error: str | None = None
    files: tuple[str, ...] = ()
    description: str | None = None
    result: Any = None
    seen_at: datetime | None = None
    """When the hook saw the event (``twoclocks_seen_at``, stamped by the hook): what the
    event made true started then, though a spooled event reaches the server later."""


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, sort_keys=True)


def clip(text: str, limit: int = MAX_OUTPUT) -> str:
    """Keep the head and the tail of a long text: test summaries and errors sit at the end."""
    if len(text) <= limit:
        return text
    head = limit // 4
    return f"{text[:head]}\n… [{len(text) - limit} characters cut] …\n{text[-(limit - head) :]}"


def detect_client(raw: Mapping[str, Any]) -> Client:
    """Which client sent an event, from the ids only it sends."""
    if "conversation_id" in raw or "cursor_version" in raw or "workspace_roots" in raw:
        return "cursor"
    if "turn_id" in raw:
        return "codex"
    return "claude-code"


def event_id_of(client: str, raw: Mapping[str, Any]) -> str:
    """A stable id from the client's own ids, so a replayed or double-fired event is one.

    Claude Code and Codex name each tool call (``tool_use_id``); Cursor names the
    generation, so its command or file and output are added. An event with no ids at
    all is identified by its whole content.
    """
    hook = str(raw.get("hook_event_name") or "")
    if client == "cursor":
        ids = [raw.get("conversation_id"), raw.get("generation_id"), hook]
        detail = [raw.get("tool_use_id"), raw.get("command"), raw.get("file_path")]
        detail.append(
            hashlib.sha256(_text(raw.get("output") or raw.get("edits")).encode()).hexdigest()
        )
        parts = ids + detail
    else:
        parts = [raw.get("session_id"), raw.get("turn_id"), hook, raw.get("tool_use_id")]
    named = [str(p) for p in parts if p not in (None, "")]
    if (client != "cursor" and not raw.get("tool_use_id")) or len(named) <= 1:
        # Not the hook's stamp: an event the client fired twice is one event.
        content = {k: v for k, v in raw.items() if k != SEEN_AT_KEY}
        named.append(hashlib.sha256(_text(content).encode()).hexdigest())
    digest = hashlib.sha256("\x1f".join([client, *named]).encode()).hexdigest()
    return f"ev_{digest[:32]}"


SEEN_AT_KEY = "twoclocks_seen_at"
"""The key under which the hook stamps the time it saw the event (RFC 3339, UTC)."""


def seen_at_of(raw: Mapping[str, Any]) -> datetime | None:
    """The time the hook stamped on the event, when it is a time with an offset."""
    value = raw.get(SEEN_AT_KEY)
    if not isinstance(value, str):
        return None
    try:
        seen = datetime.fromisoformat(value)
    except ValueError:
        return None
    return seen if seen.utcoffset() is not None else None


def happened_at(event: ToolEvent, now: datetime) -> datetime:
    """When the event happened: the hook's stamp, never later than ``now`` (a client's clock
    may run ahead of the server's), else ``now``."""
    return min(event.seen_at, now) if event.seen_at is not None else now


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _exit_from_text(text: str) -> int | None:
    match = _EXIT.search(text)
    return int(match.group(1)) if match else None


def _shell_result(response: Any) -> tuple[str, int | None]:
    """Output text and exit status from a tool response of any shape (Codex has no schema)."""
    if isinstance(response, str):
        try:
            parsed = json.loads(response)
        except ValueError:
            return response, _exit_from_text(response[:400])
        if isinstance(parsed, dict):
            response = parsed
        else:
            return response, _exit_from_text(response[:400])
    if isinstance(response, dict):
        code: int | None = None
        for key in ("exit_code", "exitCode", "returncode", "returnCode", "status_code"):
            value = response.get(key)
            if _is_int(value):
                code = value
                break
        pieces = [
            _text(response.get(key))
            for key in ("stdout", "stderr", "output", "aggregated_output", "formatted_output")
            if response.get(key)
        ]
        text = "\n".join(pieces) if pieces else _text(response)
        if code is None:
            metadata = response.get("metadata")
            if isinstance(metadata, dict) and isinstance(metadata.get("exit_code"), int):
                code = metadata["exit_code"]
        return text, code
    return _text(response), None


def _patched_files(patch: str) -> list[str]:
    found: list[str] = []
    for line in patch.splitlines():
        match = _PATCH_FILE.match(line)
        if match:
            found.append(match.group(1) or match.group(2))
    return found


def _edited_files(tool_input: Any) -> list[str]:
    if isinstance(tool_input, list):
        return [f for item in tool_input for f in _edited_files(item)]
    if not isinstance(tool_input, dict):
        return _patched_files(tool_input) if isinstance(tool_input, str) else []
    for key in ("file_path", "notebook_path", "path", "target_file"):
        value = tool_input.get(key)
        if isinstance(value, str) and value:
            return [value]
    # apply_patch carries the patch under a key of its own choosing (input, patch, command)
    return [f for value in tool_input.values() for f in _edited_files(value)]


def _command(tool_input: Any) -> str | None:
    if isinstance(tool_input, dict):
        tool_input = tool_input.get("command") or tool_input.get("cmd")
    if isinstance(tool_input, list):
        # Codex sends argv (["bash", "-lc", "cargo test"]): quoted, so the script stays one word
        return shlex.join(str(part) for part in tool_input)
    return tool_input if isinstance(tool_input, str) else None


def _kind(tool_name: str, tool_input: Any, hook: str) -> EventKind:
    if hook == "UserPromptSubmit":
        return "prompt"
    if hook == "SubagentStop" or tool_name in SUBAGENT_TOOLS:
        return "subagent"
    if tool_name.startswith("mcp__") or tool_name.startswith("MCP:"):
        return "mcp"
    if tool_name in EDIT_TOOLS:
        return "edit"
    if tool_name in SHELL_TOOLS or (_command(tool_input) and tool_name.lower() in {"", "bash"}):
        return "shell"
    return "other"


def _tool_call(client: Client, raw: Mapping[str, Any], event_id: str, cwd: str | None) -> ToolEvent:
    """Claude Code and Codex PostToolUse / PostToolUseFailure, and Cursor's postToolUse."""
    hook = str(raw.get("hook_event_name") or "PostToolUse")
    tool_name = str(raw.get("tool_name") or "")
    tool_input = raw.get("tool_input")
    response = raw.get("tool_response", raw.get("tool_output"))
    error = raw.get("error")
    kind = _kind(tool_name, tool_input, hook)
    failed = hook == "PostToolUseFailure" or bool(error)
    common: dict[str, Any] = {
        "client": client,
        "event_id": event_id,
        "hook": hook,
        "kind": kind,
        "session_id": _id(raw.get("session_id") or raw.get("conversation_id")),
        "cwd": cwd,
        "tool_name": tool_name or None,
        "failed": failed,
        "error": clip(_text(error), 2000) if error else None,
        "seen_at": seen_at_of(raw),
    }
    if kind == "shell":
        output, code = _shell_result(response)
        if failed:
            output = "\n".join(t for t in (output, _text(error)) if t)
            code = code if code not in (None, 0) else (_exit_from_text(_text(error)) or 1)
        elif code is None and client == "claude-code":
            code = 0  # Claude Code fires PostToolUse only for a command that succeeded
        elif code is None and _is_int(raw.get("twoclocks_exit_code")):
            code = raw["twoclocks_exit_code"]  # read from Codex's rollout by the hook
        stopped = raw.get("is_interrupt") is True or (
            isinstance(response, dict) and response.get("interrupted") is True
        )
        return ToolEvent(
            command=_command(tool_input),
            output=clip(output),
            exit_code=code,
            interrupted=stopped,
            **common,
        )
    if kind == "edit":
        return ToolEvent(files=tuple(_edited_files(tool_input)), **common)
    if kind == "subagent":
        described = tool_input.get("description") if isinstance(tool_input, dict) else None
        return ToolEvent(description=_short(described or raw.get("agent_type")), **common)
    if kind == "prompt":
        return ToolEvent(output=clip(_text(raw.get("prompt"))), **common)
    return ToolEvent(output=clip(_text(response)), result=_json_safe(response), **common)


def _cursor(raw: Mapping[str, Any], event_id: str, cwd: str | None) -> ToolEvent:
    hook = str(raw.get("hook_event_name") or "")
    common: dict[str, Any] = {
        "client": "cursor",
        "event_id": event_id,
        "hook": hook,
        "session_id": _id(raw.get("conversation_id")),
        "cwd": _str(raw.get("cwd")) or cwd,
        "seen_at": seen_at_of(raw),
    }
    if hook == "afterShellExecution" or ("command" in raw and "output" in raw):
        output = _text(raw.get("output"))
        code = raw.get("exit_code", raw.get("exitCode"))
        if not isinstance(code, int) or isinstance(code, bool):
            code = None
        return ToolEvent(
            kind="shell",
            command=_str(raw.get("command")),
            output=clip(output),
            exit_code=code,
            failed=bool(code),
            **common,
        )
    if hook == "afterFileEdit" or "file_path" in raw:
        path = _str(raw.get("file_path"))
        return ToolEvent(kind="edit", files=(path,) if path else (), **common)
    if hook == "beforeSubmitPrompt":
        return ToolEvent(kind="prompt", output=clip(_text(raw.get("prompt"))), **common)
    if "tool_name" in raw:
        event = _tool_call("cursor", raw, event_id, common["cwd"])
        return event.model_copy(update={"hook": hook or event.hook})
    return ToolEvent(kind="other", **common)


def _str(value: Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _id(value: Any) -> str | None:
    return str(value)[:200] if value not in (None, "") else None


def _short(value: Any) -> str | None:
    text = _str(value)
    return " ".join(text.split())[:200] if text else None


def _json_safe(value: Any) -> Any:
    try:
        return json.loads(json.dumps(value))
    except (TypeError, ValueError):
        return None


def normalize(raw: Any, client: str | None = None) -> ToolEvent:
    """One client event (the hook's stdin JSON) as a ToolEvent; InvalidInput when it is none."""
    if not isinstance(raw, Mapping):
        raise InvalidInput("event must be the hook's JSON object, as the client sent it")
    if client is not None and client not in CLIENTS:
        raise InvalidInput(f"client {client!r} is unknown: use one of {', '.join(CLIENTS)}")
    name: Client = client if client is not None else detect_client(raw)  # type: ignore[assignment]
    cwd = _str(raw.get("cwd"))
    roots = raw.get("workspace_roots")
    if cwd is None and isinstance(roots, list) and roots and isinstance(roots[0], str):
        cwd = roots[0]
    event_id = event_id_of(name, raw)
    if name == "cursor":
        return _cursor(raw, event_id, cwd)
    return _tool_call(name, raw, event_id, cwd)
