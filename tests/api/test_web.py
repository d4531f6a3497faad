"""The web screen is served at / with its bundled assets, never from a CDN (issue 14.1)."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from twoclocks.api import web
from twoclocks.api.app import create_app

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
