"""The web screen in a real browser: Playwright driving Debian's chromium (issue 14.5).

Opt-in through `make web-check` (it installs Playwright into the venv; chromium comes from
apt). Skips with the reason when either is missing, or when the assets are not built.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import serving

from twoclocks import bootstrap
from twoclocks.api import web
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore

playwright_api = pytest.importorskip(
    "playwright.async_api", reason="Playwright not installed: run make web-check"
)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
SCREENS = Path(__file__).resolve().parents[2] / "docs" / "screens"

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.falkordb,
    pytest.mark.skipif(CHROMIUM is None, reason="no chromium: apt-get install -y chromium"),
    pytest.mark.skipif(
        not (web.STATIC_DIR / "index.html").is_file(),
        reason="web assets not built: run make install (needs Node)",
    ),
]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def site(falkordb_server: Any, tmp_path: Path) -> AsyncIterator[tuple[str, str]]:
    """A live server over a real store and one account holding one fact: (base URL, key)."""
    settings = bootstrap.load_settings(data_dir=tmp_path)
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder(384)
    )
    key = await runtime.accounts.create(f"a{uuid.uuid4().hex[:12]}")
    async with serving(runtime) as url:
        async with httpx.AsyncClient(
            base_url=url, headers={"Authorization": f"Bearer {key}"}
        ) as http:
            reply = await http.post(
                "/v1/facts",
                json={"subject": "production", "predicate": "deploy_target", "object": "Render"},
            )
            assert reply.status_code == 201, reply.text
        yield url, key
    await runtime.close()


@pytest.fixture
async def page(site: tuple[str, str]) -> AsyncIterator[Any]:
    """A fresh chromium page."""
    async with playwright_api.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        tab = await browser.new_page(viewport={"width": 1200, "height": 500})
        yield tab
        await browser.close()


async def sign_in(page: Any, url: str, key: str) -> None:
    await page.goto(url + "/")
    await page.fill("#key", key)
    await page.click("#signin button")


async def test_signing_in_shows_the_accounts_facts_and_a_retract_moves_one_to_history(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    await sign_in(page, url, key)
    row = page.locator("#facts tbody tr", has_text="deploy_target")
    await row.wait_for()
    assert "Render" in await row.inner_text()
    await page.fill("#filter", "deploy")
    await page.screenshot(path=str(SCREENS / "memory.png"))
    await row.get_by_role("button", name="retract").click()
    await page.locator("#facts tbody", has_text="No facts yet").wait_for()
    await page.check("#history")
    retracted = page.locator("#facts tbody tr", has_text="retracted")
    await retracted.wait_for()
    assert "Render" in await retracted.inner_text()


async def test_a_wrong_key_shows_no_data(page: Any, site: tuple[str, str]) -> None:
    url, _ = site
    await sign_in(page, url, "not-a-key")
    await page.locator("#signin-error", has_text="key").wait_for()
    assert await page.locator("#facts").count() == 0
    assert "Render" not in await page.content()


async def test_a_ui_link_signs_the_page_in_and_leaves_no_token_in_the_address(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        token = (await http.post("/v1/ui-token")).json()["token"]
    await page.goto(f"{url}/#token={token}")
    await page.locator("#facts tbody tr", has_text="Render").wait_for()
    assert token not in page.url


async def test_revising_with_a_reason_shows_the_successor_and_keeps_the_old_value_as_history(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    await sign_in(page, url, key)
    row = page.locator("#facts tbody tr", has_text="deploy_target")
    await row.get_by_role("button", name="revise").click()
    await page.check("#revise-form input[value=ended]")
    await page.fill("#revise-form input[name=replacement]", "Fly.io")
    await page.screenshot(path=str(SCREENS / "revise.png"))
    await page.click("#revise-form button[type=submit]")
    await page.locator("#facts tbody tr", has_text="Fly.io").wait_for()
    assert "Render" not in await page.locator("#facts tbody").inner_text()
    await page.check("#history")
    await (
        page.locator("#facts tbody tr", has_text="Render").filter(has_text="ended").first.wait_for()
    )


async def test_a_bad_time_zone_shows_the_apis_message_and_saves_nothing(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    await sign_in(page, url, key)
    await page.locator("#facts tbody tr").first.wait_for()
    await page.click("#settings summary")
    await page.fill("#settings-form input[name=timezone]", "Mars/Olympus")
    await page.click("#settings-form button[type=submit]")
    await page.locator("#error", has_text="Mars/Olympus").wait_for()
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        assert (await http.get("/v1/settings")).json()["timezone"] is None


async def test_a_slots_history_diagram_stacks_its_versions_by_record_time(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        first = (await http.get("/v1/facts")).json()["facts"][0]["fact_id"]
        ended = await http.post(
            f"/v1/facts/{first}/revise",
            json={"reason": "ended", "replacement": {"object": "Fly.io"}},
        )
        second = ended.json()["successor_id"]
        corrected = await http.post(
            f"/v1/facts/{second}/revise",
            json={"reason": "corrected", "replacement": {"object": "AWS"}},
        )
        assert corrected.status_code == 200, corrected.text
    await sign_in(page, url, key)
    row = page.locator("#facts tbody tr", has_text="AWS")
    await row.get_by_role("button", name="diagram").click()
    await page.locator("#diagram").wait_for()
    await page.screenshot(path=str(SCREENS / "history-diagram.png"), full_page=True)
    rects = await page.eval_on_selector_all(
        "#diagram rect",
        "rs => rs.map(r => [r.dataset.created,"
        " Number(r.getAttribute('y')) + Number(r.getAttribute('height')),"
        " r.parentNode.getAttribute('class')])",
    )
    by_record_time = sorted(rects)
    bottoms = [bottom for _, bottom, _ in by_record_time]
    # Record time runs up: a later belief's rectangle starts higher (smaller y).
    assert bottoms == sorted(bottoms, reverse=True)
    kinds = {kind.split()[1] for _, _, kind in rects}
    assert {"current", "ended", "corrected"} <= kinds


async def test_a_slot_with_thirty_versions_draws_thirty_visible_rectangles(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        current = (await http.get("/v1/facts")).json()["facts"][0]["fact_id"]
        for n in range(15):
            reply = await http.post(
                f"/v1/facts/{current}/revise",
                json={"reason": "ended", "replacement": {"object": f"region {n}"}},
            )
            assert reply.status_code == 200, reply.text
            current = reply.json()["successor_id"]
        versions = (
            await http.get(
                "/v1/facts?subject=production&predicate=deploy_target&include_history=true"
            )
        ).json()["facts"]
    await sign_in(page, url, key)
    await (
        page.locator("#facts tbody tr", has_text="region 14")
        .get_by_role("button", name="diagram")
        .click()
    )
    await page.locator("#diagram").wait_for()
    await page.screenshot(path=str(SCREENS / "history-diagram-30.png"), full_page=True)
    sizes = await page.eval_on_selector_all(
        "#diagram rect", "rs => rs.map(r => [r.getBBox().width, r.getBBox().height])"
    )
    assert len(sizes) == len(versions) >= 30
    assert all(width >= 2 and height >= 2 for width, height in sizes)
