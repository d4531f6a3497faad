"""Refuse request bodies over 64 KB (a backup import: 256 MB) before they are read into memory."""

from __future__ import annotations

import json
from collections.abc import Collection

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from twoclocks.domain.errors import BodyTooLarge

MAX_BODY_BYTES = 64 * 1024
INVALID_REQUEST = -32600
"""JSON-RPC's code for a request the server will not take."""
MAX_IMPORT_BYTES = 256 * 1024 * 1024
"""A backup is many lines; the import route reads it as a stream, a line at a time."""
LIMIT_BY_PATH = {"/v1/import": MAX_IMPORT_BYTES}


class BodySizeLimit:
    """ASGI middleware: 413 with the API's error shape when a body passes the limit."""

    def __init__(
        self, app: ASGIApp, limit: int = MAX_BODY_BYTES, jsonrpc_paths: Collection[str] = ()
    ) -> None:
        self.app = app
        self.default_limit = limit
        # An MCP client shows a JSON-RPC error's message; any other body it reports as
        # "Server returned an error response", which tells the person nothing.
        self.jsonrpc_paths = frozenset(jsonrpc_paths)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path = scope.get("path", "")
        limit = LIMIT_BY_PATH.get(path, self.default_limit)
        jsonrpc = path in self.jsonrpc_paths
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(send, limit, jsonrpc)
            return
        seen = 0
        refused = False

        async def limited() -> Message:
            # The body is refused here, as it arrives; the app is told the client left, so
            # whatever it answers to a body it could not read is dropped (a 400 otherwise).
            nonlocal seen, refused
            if refused:
                return {"type": "http.disconnect"}
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    refused = True
                    await self._refuse(send, limit, jsonrpc)
                    return {"type": "http.disconnect"}
            return message

        async def unless_refused(message: Message) -> None:
            if not refused:
                await send(message)

        try:
            await self.app(scope, limited, unless_refused)
        except Exception:
            if not refused:
                raise

    async def _refuse(self, send: Send, limit: int, jsonrpc: bool) -> None:
        refused = BodyTooLarge(f"request body is over {limit // 1024} KB: send shorter facts")
        refusal: dict[str, object] = {"error": refused.name, "message": refused.message}
        if jsonrpc:  # the id is in the body not read: null, as JSON-RPC allows
            error = {"code": INVALID_REQUEST, "message": f"{refused.name}: {refused.message}"}
            refusal = {"jsonrpc": "2.0", "id": None, "error": error}
        body = json.dumps(refusal).encode()
        await send(
            {
                "type": "http.response.start",
                "status": refused.http_status,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
