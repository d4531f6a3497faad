"""The MCP tools over streamable HTTP at /mcp, inside the FastAPI app."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.transport_security import TransportSecuritySettings

from twoclocks.domain.errors import StoreUnavailable, TwoclocksError, Unauthorized
from twoclocks.mcp_server.backends import InProcessBackend
from twoclocks.mcp_server.path import MCP_PATH
from twoclocks.mcp_server.tools import build_server

if TYPE_CHECKING:
    from fastapi import FastAPI
    from starlette.types import Receive, Scope, Send

    from twoclocks.bootstrap import Runtime

# Every /mcp call needs a Bearer key, which a DNS-rebinding page cannot send, and the
# server may run on 0.0.0.0 or behind a proxy, where a Host allow-list would refuse it.
_NO_HOST_CHECK = TransportSecuritySettings(enable_dns_rebinding_protection=False)


async def _answer(send: Send, status: int, error: TwoclocksError) -> None:
    body = json.dumps({"error": error.name, "message": error.message}).encode()
    headers = [(b"content-type", b"application/json")]
    if status == 401:
        headers.append((b"www-authenticate", b'Bearer realm="twoclocks"'))
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class _StreamableEndpoint:
    """The ASGI endpoint at /mcp: 503 until MCP is started, 401 without a key it accepts.

    The key is checked here, before ``initialize``, so a client with no key or a wrong
    one is refused at connect time (and its `mcp list` says so) instead of seeing a
    healthy server whose every tool call then fails.
    """

    def __init__(self, server: MCPServer, runtime_of: Callable[[], Runtime | None]) -> None:
        self.server = server
        self.runtime_of = runtime_of
        self.running = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        runtime = self.runtime_of()
        if not self.running or runtime is None:
            await _answer(
                send, 503, StoreUnavailable("MCP is not started: run the app with its lifespan")
            )
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        scheme, _, key = headers.get("authorization", "").partition(" ")
        try:
            await runtime.accounts.authenticate(key.strip() if scheme.lower() == "bearer" else None)
        except Unauthorized as exc:
            await _answer(send, 401, exc)
            return
        except TwoclocksError as exc:
            await _answer(send, 503, exc)
            return
        await self.server.session_manager.handle_request(scope, receive, send)


def mount_mcp(app: FastAPI, runtime_of: Callable[[], Runtime | None] | None = None) -> MCPServer:
    """Serve the tools at /mcp (streamable HTTP) inside ``app``; idempotent.

    The MCP session manager runs inside the app's own lifespan (wrapped here), so
    it starts after the Runtime and stops before it. ``runtime_of`` defaults to
    ``app.state.runtime``, read at call time, as the /v1 routes do.
    """
    existing = getattr(app.state, "mcp_server", None)
    if existing is not None:
        return existing  # type: ignore[no-any-return]
    getter = runtime_of or (lambda: getattr(app.state, "runtime", None))
    server = build_server(InProcessBackend(getter))
    endpoint = _StreamableEndpoint(server, getter)
    app.router.add_route(MCP_PATH, endpoint, include_in_schema=False)  # type: ignore[arg-type]
    inner = app.router.lifespan_context

    @asynccontextmanager
    async def lifespan(asgi_app: Any) -> AsyncIterator[Any]:
        async with inner(asgi_app) as state:
            # Stateless JSON: every request stands alone, so replicas behind one
            # balancer need no sticky sessions; no tool asks the client anything back.
            # A fresh session manager per lifespan, since one can run only once.
            server.streamable_http_app(
                streamable_http_path=MCP_PATH,
                stateless_http=True,
                json_response=True,
                transport_security=_NO_HOST_CHECK,
            )
            async with server.session_manager.run():
                endpoint.running = True
                try:
                    yield state
                finally:
                    endpoint.running = False

    app.router.lifespan_context = lifespan
    app.state.mcp_server = server
    return server
