"""The memory screen's first page and the graph's first neighbourhood render within 1 s at 10k
facts (issue 14.6), in chromium.

The facts go straight into the store in batches (as bench/web_pages.py loads them: what is
timed is the reading, not 10k API writes), 20 per subject so a neighbourhood is a few dozen
nodes. Runs only with TWOCLOCKS_WEB_TIMING=1 (`make web-check` sets it);
TWOCLOCKS_WEB_TIMING_FACTS changes the count.
"""

from __future__ import annotations

import os
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from live_server import serving
from test_web_screen import CHROMIUM, playwright_api
from test_web_screen import pytestmark as browser_marks

from twoclocks import bootstrap
from twoclocks.domain.model import Incoming, Plan, Tier
from twoclocks.domain.write_plan import plan_write
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore
from twoclocks.graph.port import Store

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


async def seed(store: Store, account: str, count: int) -> None:
    """``count`` current facts, 20 slots per subject, applied 500 versions at a time."""
    now = datetime.now(UTC)
    rows = [
        version
        for n in range(count)
        for version in plan_write(
            Incoming(
                subject=f"service{n % (count // 20 or 1)}", predicate=f"p{n}", object=f"v{n}",
                valid_at=now - timedelta(seconds=n), writer="agent", tier=Tier.INFERRED,
            ),
            [], now, lambda: uuid.uuid4().hex,
        ).insert
    ]  # fmt: skip
    for counter, start in enumerate(range(0, len(rows), 500)):
        plan = Plan(now=now, insert=tuple(rows[start : start + 500]))
        assert await store.apply(account, plan, "seed", "bulk", counter)


async def test_the_first_memory_page_and_graph_neighbourhood_each_render_within_1_s_at_10k(
    falkordb_server: Any, tmp_path: Path
) -> None:
    settings = bootstrap.load_settings(data_dir=tmp_path)
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder(384)
    )
    account = f"a{uuid.uuid4().hex[:12]}"
    key = await runtime.accounts.create(account)
    seeded = time.perf_counter()
    await seed(runtime.store, account, FACTS)
    seeded = time.perf_counter() - seeded
    async with serving(runtime) as url, playwright_api.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = await browser.new_page()
        await page.goto(url + "/")
        await page.fill("#key", key)
        started = time.perf_counter()
        await page.click("#signin button")
        await page.locator("#range", has_text=" of ").wait_for(timeout=120_000)
        first_page = time.perf_counter() - started
        shown = await page.locator("#range").inner_text()
        await page.fill("#text", "v123")
        started = time.perf_counter()
        await page.press("#text", "Enter")
        await page.locator("#range", has_text="1–11 of 11").wait_for(timeout=120_000)
        filtered = time.perf_counter() - started
        await page.click("#to-graph")
        await page.locator("#entity").wait_for()
        await page.fill("#entity", "service0")
        started = time.perf_counter()
        await page.click("#graph-search button")
        await page.locator("#graph-status", has_text=" facts, ").wait_for(timeout=120_000)
        first_graph = time.perf_counter() - started
        drawn = await page.locator("#graph-status").inner_text()
        await browser.close()
    await runtime.close()
    print(f"\n{FACTS} facts seeded in {seeded:.1f} s; first page ({shown}) in {first_page:.3f} s")
    print(f"first page under a text filter (1-11 of 11) in {filtered:.3f} s")
    print(f"first graph neighbourhood ({drawn}) in {first_graph:.3f} s (graph.js loaded before)")
    assert first_page < 1.0
    assert filtered < 1.0
    assert first_graph < 1.0
