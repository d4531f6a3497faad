"""The FastAPI app factory: the v1 routes, /healthz, the error shape and the body limit."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse
from fastapi_offline import FastAPIOffline

from twoclocks.api.body import JsonByDefault
from twoclocks.api.errors import install_error_handlers
from twoclocks.api.keys_routes import keys_router
from twoclocks.api.limits import BodySizeLimit
from twoclocks.api.review_routes import router as review_router
from twoclocks.api.routes import router
from twoclocks.api.web import ui_token_router, web_router
from twoclocks.bootstrap import Runtime
from twoclocks.mcp_server.http import mount_mcp
from twoclocks.mcp_server.path import MCP_PATH

log = logging.getLogger("twoclocks.api")

RuntimeFactory = Callable[[], Awaitable[Runtime]]


def create_app(runtime: Runtime | None = None, start: RuntimeFactory | None = None) -> FastAPI:
    """An app over a running Runtime, or one that starts (and stops) its own via ``start``."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        owned = None
        if runtime is None and start is not None:
            owned = await start()
            app.state.runtime = owned
        try:
            yield
        finally:
            if owned is not None:
                await owned.close()

    # /docs and /redoc load Swagger UI and ReDoc from the installed fastapi-offline
    # package (under /static-offline-docs), not from a CDN: they work with no network.
    app = FastAPIOffline(
        title="twoclocks",
        version="1",
        summary="Bi-temporal memory for coding agents",
        description=(
            "Facts as edges with two clocks: valid time (when it was true) and record time "
            "(when the store believed it). Every /v1 call needs `Authorization: Bearer <key>`; "
            "times are RFC 3339 with an offset; errors are `{error, message}`."
        ),
        lifespan=lifespan,
    )
    app.state.runtime = runtime
    install_error_handlers(app)
    app.add_middleware(JsonByDefault)
    app.add_middleware(BodySizeLimit, jsonrpc_paths=(MCP_PATH,))
    app.include_router(router)
    app.include_router(review_router)
    app.include_router(keys_router)
    app.include_router(web_router)
    app.include_router(ui_token_router)

    @app.get("/healthz", tags=["health"])
    async def healthz(request: Request) -> JSONResponse:
        """200 once the store and the model are ready, else 503 saying what is missing.

        ``notices``, when present, lists what the store lost when it was loaded (writes a
        damaged append-only file held): it serves, and `twoclocks doctor` fails on them.
        """
        rt: Runtime | None = getattr(request.app.state, "runtime", None)
        problem = rt.store.health() if rt else None
        ready = bool(rt and rt.ready) and problem is None
        body = {"ready": ready, **(rt.details if rt else {})}
        if problem is not None:
            body["problem"] = problem
        if rt and (notices := rt.store.notices()):
            body["notices"] = notices  # the store runs, but lost something on load
        return JSONResponse(body, status_code=200 if ready else 503)

    mount_mcp(app)
    return app
