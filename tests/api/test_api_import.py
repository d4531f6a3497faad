"""POST /v1/import (streamed NDJSON) and GET /v1/export as a backup, over the embedded store."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.api.limits import MAX_BODY_BYTES
from twoclocks.client import CHANNEL_HEADER
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]

AS_PERSON = {CHANNEL_HEADER: "cli"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def app(falkordb_server: Any, tmp_path: Any) -> AsyncIterator[tuple[Any, Any]]:
    """An app over a real store, and its runtime (to create accounts)."""
    settings = bootstrap.load_settings(data_dir=tmp_path)
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder(384)
    )
    yield create_app(runtime), runtime
    await runtime.close()


async def client_of(app: tuple[Any, Any]) -> httpx.AsyncClient:
    asgi, runtime = app
    key = await runtime.accounts.create(f"a{uuid.uuid4().hex[:12]}")
    return httpx.AsyncClient(
        transport=httpx.ASGITransport(app=asgi),
        base_url="http://test",
        headers={"Authorization": f"Bearer {key}", **AS_PERSON},
    )


async def streamed(body: bytes, size: int = 1000) -> AsyncIterator[bytes]:
    """The body in small chunks with no Content-Length, as `curl -T -` sends it."""
    for start in range(0, len(body), size):
        yield body[start : start + size]


async def filled(app: tuple[Any, Any]) -> tuple[httpx.AsyncClient, bytes]:
    source = await client_of(app)
    for obj in ("main", "trunk"):
        r = await source.post(
            "/v1/facts",
            json={"subject": "acme-api", "predicate": "deploys_from", "object": obj,
                  "evidence": f"we deploy from {obj}"},
        )  # fmt: skip
        assert r.status_code == 201, r.text
    r = await source.put("/v1/settings", json={"timezone": "Europe/Istanbul"})
    assert r.status_code == 200, r.text
    return source, (await source.get("/v1/export")).content


async def test_post_import_restores_a_streamed_backup_exactly(app: tuple[Any, Any]) -> None:
    _, backup = await filled(app)
    target = await client_of(app)
    r = await target.post(
        "/v1/import", content=streamed(backup), headers={"Content-Type": "application/x-ndjson"}
    )
    assert r.status_code == 200, r.text
    report = r.json()
    assert (report["versions"], report["episodes"], report["settings"]) == (3, 2, True)
    restored = (await target.get("/v1/export")).text.splitlines()
    kept = sorted(line for line in restored if report["import_episode"] not in line)
    assert kept == sorted(backup.decode().splitlines())
    assert (await target.get("/v1/settings")).json()["timezone"] == "Europe/Istanbul"


async def test_post_import_dry_run_counts_and_writes_nothing(app: tuple[Any, Any]) -> None:
    _, backup = await filled(app)
    target = await client_of(app)
    r = await target.post("/v1/import", params={"dry_run": "true"}, content=streamed(backup))
    assert r.status_code == 200 and r.json()["dry_run"] and r.json()["versions"] == 3
    assert (await target.get("/v1/export")).text == ""


async def test_post_import_into_a_non_empty_account_is_409_account_not_empty(
    app: tuple[Any, Any],
) -> None:
    source, backup = await filled(app)
    r = await source.post("/v1/import", content=backup)
    assert r.status_code == 409 and r.json()["error"] == "AccountNotEmpty"
    assert "empty account" in r.json()["message"]


async def test_post_import_by_an_agent_is_403_and_writes_nothing(app: tuple[Any, Any]) -> None:
    _, backup = await filled(app)
    target = await client_of(app)
    r = await target.post("/v1/import", content=backup, headers={CHANNEL_HEADER: "mcp"})
    assert r.status_code == 403 and r.json()["error"] == "WriteNotAllowed"
    assert (await target.get("/v1/export")).text == ""


async def test_post_import_of_a_malformed_line_is_422_naming_it(app: tuple[Any, Any]) -> None:
    _, backup = await filled(app)
    target = await client_of(app)
    r = await target.post("/v1/import", content=backup + b"{oops\n")
    assert r.status_code == 422 and r.json()["error"] == "InvalidInput"
    assert r.json()["message"].startswith(f"line {len(backup.splitlines()) + 1} is not JSON")
    assert (await target.get("/v1/export")).text == ""


async def test_a_streamed_body_over_the_limit_is_413_before_it_is_parsed(
    app: tuple[Any, Any],
) -> None:
    client = await client_of(app)
    fact = {"subject": "a", "predicate": "b", "object": "c", "evidence": "x" * MAX_BODY_BYTES}
    body = json.dumps(fact).encode()
    r = await client.post("/v1/facts", content=streamed(body, 4096))
    assert r.status_code == 413 and r.json()["error"] == "BodyTooLarge"
    assert (await client.get("/v1/export")).text == ""
