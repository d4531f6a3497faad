"""The `api` client fixture the HTTP tests share: the real app over the real embedded store."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore


@pytest.fixture
async def api(falkordb_server: Any, tmp_path: Any) -> AsyncIterator[httpx.AsyncClient]:
    """An app over a real store, with one fresh account whose (person) key every call sends;
    ``api.agent`` holds the headers of an agent key of the same account."""
    settings = bootstrap.load_settings(data_dir=tmp_path)
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder(384)
    )
    key = await runtime.accounts.create(f"a{uuid.uuid4().hex[:12]}")
    transport = httpx.ASGITransport(app=create_app(runtime))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://test", headers={"Authorization": f"Bearer {key}"}
    ) as client:
        client.runtime = runtime  # type: ignore[attr-defined]
        made = await client.post("/v1/keys", json={"name": "agent", "role": "agent"})
        client.agent = {"Authorization": f"Bearer {made.json()['key']}"}  # type: ignore[attr-defined]
        yield client
    await runtime.close()
