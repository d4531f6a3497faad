"""Refuse request bodies over 64 KB (a backup import: 256 MB) before they are read into memory."""

from __future__ import annotations

import json

from starlette.types import ASGIApp, Message, Receive, Scope, Send

MAX_BODY_BYTES = 64 * 1024
MAX_IMPORT_BYTES = 256 * 1024 * 1024
"""A backup is many lines; the import route reads it as a stream, a line at a time."""
LIMIT_BY_PATH = {"/v1/import": MAX_IMPORT_BYTES}


class BodySizeLimit:
    """ASGI middleware: 413 with the API's error shape when a body passes the limit."""

    def __init__(self, app: ASGIApp, limit: int = MAX_BODY_BYTES) -> None:
        self.app = app
        self.default_limit = limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = LIMIT_BY_PATH.get(scope.get("path", ""), self.default_limit)
        declared = dict(scope.get("headers") or []).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._refuse(send, limit)
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
                    await self._refuse(send, limit)
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

    async def _refuse(self, send: Send, limit: int) -> None:
        body = json.dumps(
            {
                "error": "BodyTooLarge",
                "message": f"request body is over {limit // 1024} KB: send shorter facts",
            }
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})
