"""The real app served by uvicorn on a free loopback port, inside the test's event loop."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from twoclocks import bootstrap
from twoclocks.api.app import create_app


@asynccontextmanager
async def serving(runtime: bootstrap.Runtime) -> AsyncIterator[str]:
    """Serve ``runtime``'s app until the block ends; yields its base URL.

    Blocking clients must run off the loop (``asyncio.to_thread``): the loop serves them.
    """
    import uvicorn

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    config = uvicorn.Config(create_app(runtime), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    task = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        await task
        sock.close()
