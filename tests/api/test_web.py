"""The web screen is served at / with its bundled assets, never from a CDN (issue 14.1)."""

from __future__ import annotations

import re
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from twoclocks import bootstrap
from twoclocks.api import web
from twoclocks.api.app import create_app
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore

pytestmark = pytest.mark.anyio

BUILT = (web.STATIC_DIR / "index.html").is_file() and (web.STATIC_DIR / "app.js").is_file()
needs_build = pytest.mark.skipif(
    not BUILT, reason="web assets not built: run make install (needs Node)"
)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def client() -> AsyncIterator[httpx.AsyncClient]:
    """An app with no store: the page itself needs none."""
    transport = httpx.ASGITransport(app=create_app())
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
        yield http


@needs_build
async def test_the_web_screen_is_served_at_the_root_with_its_script(
    client: httpx.AsyncClient,
) -> None:
    page = await client.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    assert '<script type="module" src="/static/app.js">' in page.text
    script = await client.get("/static/app.js")
    assert script.status_code == 200
    assert script.headers["content-type"].startswith("text/javascript")
    assert "/v1/facts" in script.text
    graph = await client.get("/static/graph.js")
    assert graph.status_code == 200 and "/v1/graph/neighbourhood" in graph.text


@needs_build
async def test_the_built_page_fetches_nothing_from_a_cdn() -> None:
    for path in web.STATIC_DIR.iterdir():
        text = path.read_text(encoding="utf-8")
        # Any absolute URL in a src/href/import would load from outside the app.
        assert not re.search(r"""(src|href)\s*=\s*["']https?://""", text), path.name
        assert not re.search(r"""import\s*[^;]*["']https?://""", text), path.name


@needs_build
async def test_the_page_signs_in_with_a_bearer_key_kept_only_in_session_storage() -> None:
    script = (web.STATIC_DIR / "app.js").read_text(encoding="utf-8")
    assert "sessionStorage" in script
    assert "localStorage" not in script
    assert "Bearer " in script


async def test_a_checkout_without_built_assets_says_how_to_build_them(
    client: httpx.AsyncClient, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(web, "STATIC_DIR", tmp_path)
    page = await client.get("/")
    assert page.status_code == 503
    assert "make install" in page.text


async def test_only_the_built_assets_are_served(client: httpx.AsyncClient) -> None:
    for name in ("index.html.bak", "..%2Fweb.py", "web.py"):
        reply = await client.get(f"/static/{name}")
        assert reply.status_code == 404, name
        assert reply.json()["error"]


@pytest.fixture
async def signed_in(falkordb_server: Any, tmp_path: Path) -> AsyncIterator[httpx.AsyncClient]:
    """An app over a real store, with one fresh account whose key every call sends."""
    settings = bootstrap.load_settings(data_dir=tmp_path)
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder(384)
    )
    key = await runtime.accounts.create(f"a{uuid.uuid4().hex[:12]}")
    transport = httpx.ASGITransport(app=create_app(runtime), client=("127.0.0.1", 50000))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://test", headers={"Authorization": f"Bearer {key}"}
    ) as client:
        client.key = key  # type: ignore[attr-defined]
        yield client
    await runtime.close()


@pytest.mark.falkordb
async def test_the_ui_token_signs_the_page_in_once_without_the_key_in_a_url(
    signed_in: httpx.AsyncClient,
) -> None:
    minted = await signed_in.post("/v1/ui-token")
    assert minted.status_code == 200
    token = minted.json()["token"]
    redeemed = await signed_in.post("/v1/ui-token/redeem", json={"token": token}, headers={})
    assert redeemed.json() == {"key": signed_in.key}  # type: ignore[attr-defined]
    again = await signed_in.post("/v1/ui-token/redeem", json={"token": token})
    assert again.status_code == 401
    assert "twoclocks ui" in again.json()["message"]


@pytest.mark.falkordb
async def test_a_ui_token_needs_the_account_key(signed_in: httpx.AsyncClient) -> None:
    reply = await signed_in.post("/v1/ui-token", headers={"Authorization": "Bearer wrong"})
    assert reply.status_code == 401


@pytest.mark.falkordb
async def test_ui_tokens_are_minted_for_loopback_callers_only(
    falkordb_server: Any, tmp_path: Path
) -> None:
    settings = bootstrap.load_settings(data_dir=tmp_path)
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder(384)
    )
    key = await runtime.accounts.create(f"a{uuid.uuid4().hex[:12]}")
    transport = httpx.ASGITransport(app=create_app(runtime), client=("203.0.113.9", 50000))
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        reply = await client.post("/v1/ui-token", headers={"Authorization": f"Bearer {key}"})
    await runtime.close()
    assert reply.status_code == 403
    assert "account key" in reply.json()["message"]


@pytest.mark.falkordb
async def test_the_ui_token_signs_the_page_in_as_the_person_and_an_agent_key_cannot_mint_one(
    signed_in: httpx.AsyncClient,
) -> None:
    made = await signed_in.post("/v1/keys", json={"name": "agents", "role": "agent"})
    agent = {"Authorization": f"Bearer {made.json()['key']}"}
    refused = await signed_in.post("/v1/ui-token", headers=agent)
    assert refused.status_code == 403 and refused.json()["error"] == "KeysNotAllowed"
    token = (await signed_in.post("/v1/ui-token")).json()["token"]
    key = (await signed_in.post("/v1/ui-token/redeem", json={"token": token})).json()["key"]
    # The page sends only its Bearer key, no channel header, and writes as the person.
    page = {"Authorization": f"Bearer {key}"}
    claim = {"subject": "me", "predicate": "editor", "object": "Helix", "tier": "asserted"}
    stored = await signed_in.post("/v1/facts", json=claim, headers=page)
    assert stored.json()["tier"] == "asserted"
    assert (await signed_in.get("/v1/keys", headers=page)).status_code == 200
