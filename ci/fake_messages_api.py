"""A stand-in for Anthropic's Messages API, so Claude Code runs a real tool offline.

`make clients-check` has no model login. Pointed at this server (`ANTHROPIC_BASE_URL`),
`claude -p` gets one scripted turn: a call of its Bash tool running ``command`` (or of
another ``tool``, an MCP tool say, with ``tool_input``), then, once the tool's result
comes back, "done". Everything around it is the real client: its
permission check, its Bash tool and the environment that tool gives the command, and the
hooks `twoclocks install` wrote (PostToolUse sees a real tool event).
"""

from __future__ import annotations

import json
from typing import Any

from stand_in_server import StandInServer

TOOL_USE_ID = "toolu_stand_in_1"
WAIT_ID = "toolu_stand_in_wait"


def _events(blocks: list[dict[str, Any]], stop: str) -> bytes:
    """One assistant message as the Messages API streams it (server-sent events)."""
    start = {
        "id": "msg_stand_in",
        "type": "message",
        "role": "assistant",
        "model": "stand-in",
        "content": [],
        "stop_reason": None,
        "stop_sequence": None,
        "usage": {"input_tokens": 1, "output_tokens": 1},
    }
    events: list[tuple[str, dict[str, Any]]] = [("message_start", {"message": start})]
    for i, block in enumerate(blocks):
        if block["type"] == "text":
            opened: dict[str, Any] = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        else:
            opened = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        events += [
            ("content_block_start", {"index": i, "content_block": opened}),
            ("content_block_delta", {"index": i, "delta": delta}),
            ("content_block_stop", {"index": i}),
        ]
    events += [
        (
            "message_delta",
            {"delta": {"stop_reason": stop, "stop_sequence": None}, "usage": {"output_tokens": 1}},
        ),
        ("message_stop", {}),
    ]
    return b"".join(
        f"event: {name}\ndata: {json.dumps({'type': name, **data})}\n\n".encode()
        for name, data in events
    )


class FakeMessagesApi(StandInServer):
    """Serves the scripted turn on a free loopback port while the ``with`` block runs."""

    def __init__(
        self, command: str = "", tool: str = "Bash", tool_input: dict[str, Any] | None = None
    ) -> None:
        self.tool = tool
        self.tool_input = tool_input or {"command": command, "description": "the scripted command"}
        super().__init__()

    def _reply(self, body: dict[str, Any]) -> tuple[list[dict[str, Any]], str]:
        """The tool call while the conversation has no tool result yet; then "done".

        An MCP tool may not be offered yet: `claude -p` sends the first request while
        its MCP servers still connect, and offers WaitForMcpServers instead; it is called
        (once) and the scripted call made when the tool is there.
        """
        tools = {t.get("name") for t in body.get("tools", [])}
        waited = WAIT_ID in json.dumps(body.get("messages", []))
        if self.tool not in tools and "WaitForMcpServers" in tools and not waited:
            wait = {"type": "tool_use", "id": WAIT_ID, "name": "WaitForMcpServers", "input": {}}
            return [wait], "tool_use"
        if self.tool in tools and self.tool_result(body) is None:
            call = {
                "type": "tool_use",
                "id": TOOL_USE_ID,
                "name": self.tool,
                "input": self.tool_input,
            }
            return [call], "tool_use"
        return [{"type": "text", "text": "done"}], "end_turn"

    @staticmethod
    def tool_result(body: dict[str, Any]) -> str | None:
        """The text the client sent back as the scripted call's result, if it did (in any
        message: Claude Code may append its own, MCP server instructions say, after it)."""
        for message in reversed(body.get("messages") or []):
            content = message.get("content") if isinstance(message, dict) else None
            for part in content if isinstance(content, list) else []:
                if (
                    isinstance(part, dict)
                    and part.get("type") == "tool_result"
                    and part.get("tool_use_id") == TOOL_USE_ID
                ):
                    result = part.get("content")
                    if isinstance(result, list):
                        texts = [str(c.get("text", "")) for c in result if isinstance(c, dict)]
                        result = "\n".join(texts)
                    return str(result or "")
        return None

    def answer(self, body: dict[str, Any]) -> tuple[bytes, str]:
        """The scripted reply, streamed when the request asks for a stream."""
        blocks, stop = self._reply(body)
        if body.get("stream"):
            return _events(blocks, stop), "text/event-stream"
        message = {
            "id": "msg_stand_in",
            "type": "message",
            "role": "assistant",
            "model": "stand-in",
            "content": blocks,
            "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 1, "output_tokens": 1},
        }
        return json.dumps(message).encode(), "application/json"
