"""`twoclocks doctor`'s server check, against the real app served on a loopback port."""

from __future__ import annotations

import asyncio
import socket
from pathlib import Path
from typing import Any

import pytest

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.doctor import check_server
from twoclocks.embeddings.hashing import HashingEmbedder

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_doctor_names_the_store_and_model_of_a_ready_server(
    falkordb_server: Any, tmp_path: Path
) -> None:
    import uvicorn

    from twoclocks.graph.falkordb.store import FalkorDBStore

    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
    )
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind(("127.0.0.1", 0))
    url = f"http://127.0.0.1:{sock.getsockname()[1]}"
    config = uvicorn.Config(create_app(runtime), log_level="warning", lifespan="off")
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve(sockets=[sock]))
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        # The check is a blocking client: off the loop that serves it.
        ready = await asyncio.to_thread(check_server, url)
        runtime.ready = False
        not_ready = await asyncio.to_thread(check_server, url)
    finally:
        server.should_exit = True
        await serving
        sock.close()
        await runtime.close()
    assert ready.ok is True and "store FalkorDBStore" in ready.text and "model" in ready.text
    assert not_ready.ok is False and "not ready (HTTP 503" in not_ready.text
    # Nothing listens there any more: the check says where it looked and what to do.
    gone = await asyncio.to_thread(check_server, url)
    assert gone.ok is False and url in gone.text and "twoclocks serve" in gone.text
