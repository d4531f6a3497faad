"""Request bodies: JSON is the only body the API reads, and it is the default."""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

_WITH_BODY = {"POST", "PUT", "PATCH"}


def is_json(content_type: str) -> bool:
    """True for application/json and the +json types, whatever their parameters."""
    media = content_type.split(";", 1)[0].strip().lower()
    return media == "application/json" or (
        media.startswith("application/") and media.endswith("+json")
    )


class JsonByDefault:
    """ASGI middleware: a body sent with no (or an empty) Content-Type is read as JSON.

    A client that streams its body (chunked, e.g. ``curl -T -``) often sends no
    Content-Type; without one the body would reach validation as a string and fail as
    "not an object", which says nothing about the real cause.
    """

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method") in _WITH_BODY:
            headers = list(scope.get("headers") or [])
            declared = [value for name, value in headers if name == b"content-type"]
            if not any(value.strip() for value in declared):
                kept = [(name, value) for name, value in headers if name != b"content-type"]
                kept.append((b"content-type", b"application/json"))
                scope = {**scope, "headers": kept}
        await self.app(scope, receive, send)
