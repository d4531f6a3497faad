"""A stand-in for OpenAI's Responses API, so Codex runs a real tool call offline.

`make clients-check` has no model login. Pointed at this server (a `model_providers`
entry with `wire_api = "responses"`), `codex exec` gets one scripted turn: a call of its
shell tool running ``command`` (or, given ``patch``, of its ``apply_patch`` tool), then,
once the call's output comes back, "done". Everything around it is the real client: its
shell and the environment it gives the command, its patch tool, its rollout file, and
the hooks `twoclocks install codex` wrote.

Codex offers ``apply_patch`` only to a model its catalog says takes it, and a model it
does not know gets fallback metadata without it; ``codex_options(catalog=...)`` hands
it a one-model catalog (``model_catalog_json``) that does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from stand_in_server import StandInServer

CALL_ID = "call_stand_in_1"
MODEL = "stand-in"
CATALOG = {
    "models": [
        {
            "slug": MODEL,
            "display_name": MODEL,
            "description": "the clients-check stand-in",
            "default_reasoning_level": "low",
            "supported_reasoning_levels": [{"effort": "low", "description": "low"}],
            "shell_type": "shell_command",
            "visibility": "list",
            "supported_in_api": True,
            "priority": 1,
            "upgrade": None,
            "base_instructions": "",
            "supports_reasoning_summaries": False,
            "default_reasoning_summary": "none",
            "support_verbosity": False,
            "default_verbosity": None,
            # What every model profile Codex ships says: the patch as free text.
            "apply_patch_tool_type": "freeform",
            "truncation_policy": {"mode": "tokens", "limit": 10000},
            "supports_parallel_tool_calls": False,
            "context_window": 128000,
            "effective_context_window_percent": 95,
            "experimental_supported_tools": [],
            "input_modalities": ["text"],
            "supports_search_tool": False,
        }
    ]
}
OUTPUTS = ("function_call_output", "custom_tool_call_output", "local_shell_call_output")


def _events(item: dict[str, Any]) -> bytes:
    """One response holding ``item``, as the Responses API streams it (server-sent events)."""
    usage = {
        "input_tokens": 1,
        "input_tokens_details": None,
        "output_tokens": 1,
        "output_tokens_details": None,
        "total_tokens": 2,
    }
    events = [
        {"type": "response.created", "response": {"id": "resp_stand_in"}},
        {"type": "response.output_item.done", "output_index": 0, "item": item},
        {"type": "response.completed", "response": {"id": "resp_stand_in", "usage": usage}},
    ]
    return b"".join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n".encode() for e in events)


class FakeResponsesApi(StandInServer):
    """Serves the scripted turn on a free loopback port while the ``with`` block runs."""

    def __init__(self, command: str = "true", patch: str | None = None) -> None:
        self.command = command
        self.patch = patch
        super().__init__()

    def codex_options(self, catalog: Path | None = None) -> list[str]:
        """`codex exec` options that make this server its model provider, config untouched;
        with ``catalog`` (a file this writes), Codex also knows the model takes patches."""
        pairs = {
            "model": MODEL,
            "model_provider": "stand_in",
            "model_providers.stand_in.name": "stand-in",
            "model_providers.stand_in.base_url": f"{self.url}/v1",
            "model_providers.stand_in.wire_api": "responses",
        }
        if catalog is not None:
            catalog.write_text(json.dumps(CATALOG), encoding="utf-8")
            pairs["model_catalog_json"] = str(catalog)
        return [arg for key, value in pairs.items() for arg in ("-c", f"{key}={json.dumps(value)}")]

    def _reply(self, body: dict[str, Any]) -> dict[str, Any]:
        """The tool call while the conversation has no call output yet; then "done"."""
        answered = any(
            isinstance(i, dict) and i.get("type") in OUTPUTS for i in body.get("input", [])
        )
        if answered:
            text = {"type": "output_text", "text": "done", "annotations": []}
            return {"type": "message", "id": "msg_stand_in", "role": "assistant", "content": [text]}
        tools = {t.get("name") for t in body.get("tools", []) if isinstance(t, dict)}
        if self.patch is not None and "apply_patch" in tools:
            return {
                "type": "custom_tool_call",
                "id": "ct_stand_in",
                "call_id": CALL_ID,
                "name": "apply_patch",
                "input": self.patch,
            }
        # Codex 0.171 offers `exec_command` (a string); older ones `shell` (an argv).
        name, arguments = (
            ("exec_command", {"cmd": self.command})
            if "exec_command" in tools
            else ("shell", {"command": ["bash", "-lc", self.command]})
        )
        return {
            "type": "function_call",
            "id": "fc_stand_in",
            "call_id": CALL_ID,
            "name": name,
            "arguments": json.dumps(arguments),
        }

    def answer(self, body: dict[str, Any]) -> tuple[bytes, str]:
        """The scripted reply, streamed as Codex always asks."""
        return _events(self._reply(body)), "text/event-stream"
