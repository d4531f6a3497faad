"""The web screen in a real browser: Playwright driving Debian's chromium (issue 14.5).

Opt-in through `make web-check` (it installs Playwright into the venv; chromium comes from
apt). Skips with the reason when either is missing, or when the assets are not built.
"""

from __future__ import annotations

import shutil
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from live_server import serving

from twoclocks import bootstrap
from twoclocks.api import web
from twoclocks.domain.trust import Channel, Writer
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore
from twoclocks.service.capture import EventRequest
from twoclocks.service.requests import Caller, RememberRequest

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


async def agent_key(http: httpx.AsyncClient) -> str:
    """A new agent key of the signed-in account: the facts an agent wrote, as hooks and MCP do."""
    reply = await http.post("/v1/keys", json={"name": f"agent-{uuid.uuid4().hex[:8]}",
                                              "role": "agent"})  # fmt: skip
    assert reply.status_code == 201, reply.text
    return str(reply.json()["key"])


@pytest.fixture
async def live(falkordb_server: Any, tmp_path: Path) -> AsyncIterator[tuple[str, str, Any]]:
    """A live server over a real store and one account holding one fact: (base URL, key,
    the server's runtime)."""
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
                headers={"Authorization": f"Bearer {await agent_key(http)}"},
            )
            assert reply.status_code == 201, reply.text
        yield url, key, runtime
    await runtime.close()


@pytest.fixture
def site(live: tuple[str, str, Any]) -> tuple[str, str]:
    """The live server's base URL and the account's (the person's) key."""
    return live[0], live[1]


@pytest.fixture
async def page(site: tuple[str, str]) -> AsyncIterator[Any]:
    """A fresh chromium page."""
    async with playwright_api.async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        tab = await browser.new_page(viewport={"width": 1200, "height": 500})
        yield tab
        await browser.close()


async def remember_as_person(url: str, key: str, **body: str) -> None:
    """``POST /v1/facts`` with the person's key; it must be stored."""
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        reply = await http.post("/v1/facts", json=body)
        assert reply.status_code == 201, reply.text


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
    await page.fill("#text", "deploy")
    await page.locator("#range", has_text="1–1 of 1").wait_for()
    await row.get_by_role("button", name="retract").click()
    await page.locator("#facts td.empty", has_text="No fact matches these filters").wait_for()
    await page.check("#history")
    retracted = page.locator("#facts tbody tr", has_text="retracted")
    await retracted.wait_for()
    assert "Render" in await retracted.inner_text()


async def test_a_value_told_after_it_had_changed_reads_outdated_when_told_not_corrected(
    page: Any, site: tuple[str, str]
) -> None:
    # The agent told Render with no start; the person then dates the move to Fly.io a day
    # back. Render did not hold from when it was told, but it was no mistake.
    url, key = site
    moved = datetime.now(UTC) - timedelta(days=1)
    await remember_as_person(url, key, subject="production", predicate="deploy_target",
                             object="Fly.io", valid_at=moved.isoformat())  # fmt: skip
    await sign_in(page, url, key)
    await page.check("#history")
    told = page.locator("#facts tbody tr", has_text="Render")
    await told.wait_for()
    assert "outdated when told" in await told.inner_text()
    assert "corrected" not in await told.inner_text()


async def test_the_table_of_now_shows_what_starts_later_marked_as_not_true_yet(
    page: Any, site: tuple[str, str]
) -> None:
    # "Deploy freeze from the 20th", looked at on the 4th: on the screen of what holds now,
    # marked as starting later, and still a row (so it can be revised or retracted).
    url, key = site
    soon = datetime.now(UTC) + timedelta(days=3)
    await remember_as_person(url, key, subject="team", predicate="deploy_freeze", object="on",
                             valid_at=soon.isoformat())  # fmt: skip
    await sign_in(page, url, key)
    row = page.locator("#facts tbody tr", has_text="deploy_freeze")
    await row.wait_for()
    assert "starts later: from" in await row.inner_text()
    assert await row.get_by_role("button", name="retract").count() == 1
    current = page.locator("#facts tbody tr", has_text="deploy_target")
    assert "starts later" not in await current.inner_text()
    await page.locator("#range", has_text="1–2 of 2").wait_for()
    # Render was written with no valid_at: its start is when the store was told.
    assert "known from" in await current.inner_text()
    assert "known from" not in await row.inner_text()


async def test_a_retract_that_leaves_its_slot_empty_says_what_stays_ended(
    page: Any, site: tuple[str, str]
) -> None:
    # Fly.io replaced Render; retracting Fly.io gives Render nothing back, and the page
    # says so instead of leaving the person to find an empty slot.
    url, key = site
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        reply = await http.post(
            "/v1/facts",
            json={"subject": "production", "predicate": "deploy_target", "object": "Fly.io"},
            headers={"Authorization": f"Bearer {await agent_key(http)}"},
        )
        assert reply.status_code == 201, reply.text
    await sign_in(page, url, key)
    row = page.locator("#facts tbody tr", has_text="Fly.io")
    await row.wait_for()
    await row.get_by_role("button", name="retract").click()
    await page.locator("#notice", has_text="stays ended: Render.").wait_for()


async def test_finding_a_fact_by_text_writer_and_class_asks_the_server_and_says_when_none_match(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        http.headers["Authorization"] = f"Bearer {await agent_key(http)}"  # an agent's facts
        for n in range(3):
            body = {"subject": f"service{n}", "predicate": "runtime", "object": f"python 3.1{n}"}
            assert (await http.post("/v1/facts", json=body)).status_code == 201
        body = {"subject": "ci", "predicate": "runner", "object": "GitHub Actions"}
        reply = await http.post("/v1/facts", json={**body, "class": "environment"})
        assert reply.status_code == 201, reply.text
    await sign_in(page, url, key)
    await page.locator("#range", has_text="of 5").wait_for()
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if "/v1/facts?" in r.url else None)
    await page.fill("#text", "PYTHON 3.11")
    await page.locator("#range", has_text="1–1 of 1").wait_for()
    assert "service1" in await page.locator("#facts tbody").inner_text()
    assert any("text=PYTHON+3.11" in u for u in asked), asked  # filtered by the server
    await page.select_option("#fact_class", "environment")
    await page.locator("#facts td.empty", has_text="No fact matches these filters").wait_for()
    await page.fill("#text", "")
    await page.locator("#facts tbody tr", has_text="GitHub Actions").wait_for()
    assert await page.locator("#facts tbody tr").count() == 1
    await page.select_option("#writer", "person")  # an agent's key wrote them all
    await page.locator("#facts td.empty").get_by_role("button", name="Clear filters").click()
    await page.locator("#range", has_text="of 5").wait_for()
    assert await page.input_value("#writer") == ""
    await page.screenshot(path=str(SCREENS / "memory.png"))


async def test_the_keyboard_finds_a_fact_and_closes_a_diagram(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    await sign_in(page, url, key)
    await page.locator("#facts tbody tr", has_text="Render").wait_for()
    await page.locator("body").click(position={"x": 5, "y": 5})
    await page.keyboard.press("/")
    assert await page.evaluate("document.activeElement.id") == "text"
    await page.keyboard.type("render")
    await page.locator("#range", has_text="1–1 of 1").wait_for()
    await page.get_by_role("button", name="diagram production deploy_target").press("Enter")
    await page.locator("#diagram").wait_for()
    await page.keyboard.press("Escape")
    await page.locator("#diagram").wait_for(state="detached")


async def test_a_wrong_key_shows_no_data(page: Any, site: tuple[str, str]) -> None:
    url, _ = site
    await sign_in(page, url, "not-a-key")
    await page.locator("#signin-error", has_text="key").wait_for()
    await page.screenshot(path=str(SCREENS / "sign-in.png"))
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
    render = page.locator("#facts tbody tr", has_text="Render")
    # Two versions of Render: the one memory holds, which ended; and what memory believed
    # before the end was told (open then), which is history for that reason, not "ended".
    await render.filter(has_text="ended").first.wait_for()
    await render.filter(has_text="believed until").first.wait_for()
    cells = [await row.locator("td").nth(10).inner_text() for row in await render.all()]
    assert sorted(c.split(" ")[0] for c in cells) == ["believed", "ended"], cells


async def test_an_ended_value_can_still_be_corrected_from_the_screen_and_nothing_else(
    page: Any, site: tuple[str, str]
) -> None:
    # An ended value may turn out never to have been true (DESIGN §3: an ended fact refuses
    # "ended" again but can still be corrected); the screen offered no action for it.
    url, key = site
    await sign_in(page, url, key)
    row = page.locator("#facts tbody tr", has_text="deploy_target")
    await row.get_by_role("button", name="revise").click()
    await page.check("#revise-form input[value=ended]")
    await page.click("#revise-form button[type=submit]")
    await page.locator("#facts td.empty").wait_for()
    await page.check("#history")
    ended = page.locator("#facts tbody tr", has_text="Render").filter(has_text="ended")
    await ended.get_by_role("button", name="correct").click()
    assert await page.locator("#revise-form input[value=ended]").count() == 0
    assert await page.locator("#revise-form input[name=at]").count() == 0
    await page.check("#revise-form input[value=corrected]")
    await page.click("#revise-form button[type=submit]")
    corrected = page.locator("#facts tbody tr", has_text="Render").filter(has_text="corrected")
    await corrected.first.wait_for()
    assert await page.locator("#facts tbody button", has_text="correct").count() == 0


async def test_a_value_whose_end_is_still_to_come_can_be_revised_from_the_screen(
    page: Any, site: tuple[str, str]
) -> None:
    # Render holds until Fly.io starts next month: it is still true, so still revisable.
    url, key = site
    soon = (datetime.now(UTC) + timedelta(days=30)).isoformat()
    await remember_as_person(
        url, key, subject="production", predicate="deploy_target", object="Fly.io", valid_at=soon
    )
    await sign_in(page, url, key)
    render = page.locator("#facts tbody tr", has_text="Render")
    await render.wait_for()
    assert await render.get_by_role("button", name="revise").count() == 1
    assert await render.get_by_role("button", name="retract").count() == 1


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
    await page.screenshot(path=str(SCREENS / "settings.png"))
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
        moved = {"subject": "production", "predicate": "deploy_target", "object": "Azure"}
        # An agent's guess, then the person says it: the guess is rewritten as theirs.
        agent = {"Authorization": f"Bearer {await agent_key(http)}"}
        guessed = await http.post("/v1/facts", json=moved, headers=agent)
        assert guessed.json()["tier"] == "inferred", guessed.text
        said = await http.post("/v1/facts", json={**moved, "evidence": "we moved to Azure"})
        assert said.json()["raised"] == "tier inferred -> asserted", said.text
    await sign_in(page, url, key)
    row = page.locator("#facts tbody tr", has_text="Azure")
    await row.get_by_role("button", name="diagram").click()
    await page.locator("#diagram").wait_for()
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
    assert {"current", "ended", "corrected", "rewritten"} <= kinds
    # Hovering a rectangle names the episode that carried its version.
    await page.hover("#diagram g.version.current rect")
    await page.locator("#version-detail .episode", has_text="we moved to Azure").wait_for()
    await page.screenshot(path=str(SCREENS / "history-diagram.png"), full_page=True)


async def test_a_value_a_correction_gave_back_is_not_shown_as_never_true(
    page: Any, site: tuple[str, str]
) -> None:
    # Heroku, written by mistake, closed Render; correcting Heroku gives Render back. Render's
    # closed copy is retired as "corrected" too, but Render was never wrong: its end was.
    url, key = site
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        wrong = await http.post(
            "/v1/facts",
            json={"subject": "production", "predicate": "deploy_target", "object": "Heroku"},
        )
        assert wrong.json()["closed"], wrong.text
        fixed = await http.post(
            f"/v1/facts/{wrong.json()['fact_id']}/revise", json={"reason": "corrected"}
        )
        assert fixed.json()["values"], fixed.text
    await sign_in(page, url, key)
    row = page.locator("#facts tbody tr", has_text="Render")
    await row.get_by_role("button", name="diagram").click()
    await page.locator("#diagram").wait_for()
    kinds = await page.eval_on_selector_all(
        "#diagram g.version", "gs => gs.map(g => [g.getAttribute('aria-label')])"
    )
    said = sorted(label for (label,) in kinds)
    assert "Heroku, corrected" in said
    assert "Render, end corrected" in said
    assert "Render, corrected" not in said
    await page.check("#history")
    history = page.locator("#facts tbody tr", has_text="end corrected")
    await history.first.wait_for()
    assert "Render" in await history.first.inner_text()


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


async def test_dragging_the_world_slider_to_a_past_date_shows_the_old_value_on_the_graph(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    long_ago = (datetime.now(UTC) - timedelta(days=300)).isoformat()
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        http.headers["Authorization"] = f"Bearer {await agent_key(http)}"  # an agent's facts
        slot = {"subject": "production", "predicate": "deploy_target"}
        # Render was told with no start; dated, it bounds the older value below.
        since = (datetime.now(UTC) - timedelta(days=100)).isoformat()
        reply = await http.post("/v1/facts", json={**slot, "object": "Render", "valid_at": since})
        assert reply.status_code == 201, reply.text
        reply = await http.post(
            "/v1/facts", json={**slot, "object": "Heroku", "valid_at": long_ago}
        )
        assert (reply.status_code, reply.json()["outcome"]) == (201, "stored_closed"), reply.text
    await sign_in(page, url, key)
    await page.click("#to-graph")
    await page.fill("#entity", "production")
    await page.click("#graph-search button")
    edges = page.locator("#edges")
    await edges.get_by_text("production · deploy_target → Render").wait_for()
    # Drag the world clock's thumb from "now" (right end) to about 200 days back.
    slider = await page.locator("#as-of").bounding_box()
    assert slider is not None
    y = slider["y"] + slider["height"] / 2
    await page.mouse.move(slider["x"] + slider["width"] - 4, y)
    await page.mouse.down()
    await page.mouse.move(slider["x"] + slider["width"] * (530 / 730), y, steps=8)
    await page.mouse.up()
    await edges.get_by_text("production · deploy_target → Heroku").wait_for()
    assert "Render" not in await edges.inner_text()
    assert await page.locator("#as-of-label").inner_text() != "now"
    await page.screenshot(path=str(SCREENS / "graph.png"), full_page=True)
    # An edge opens its slot's history: every version, as the memory screen draws them.
    await edges.get_by_text("production · deploy_target → Heroku").click()
    await page.locator("#graph-diagram #diagram").wait_for()
    # Render told, then Render dated (the told version rewritten), and Heroku before it.
    assert await page.locator("#graph-diagram #diagram rect").count() == 3


async def test_the_persons_screen_shows_facts_of_every_workspace_in_table_diagram_and_graph(
    page: Any, site: tuple[str, str], tmp_path: Path
) -> None:
    # Facts written in two checkouts (an agent's task, a project fact) live in workspaces;
    # the person's screen sends no directory, and must still show them, each with its place.
    url, key = site
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        http.headers["Authorization"] = f"Bearer {await agent_key(http)}"
        for cwd, value in ((one, "router cache"), (two, "login timeout")):
            task = {"subject": "checkout", "predicate": "working_on", "object": value}
            reply = await http.post("/v1/facts", json={**task, "cwd": str(cwd)})
            assert reply.status_code == 201 and reply.json()["workspace"], reply.text
    await sign_in(page, url, key)
    row = page.locator("#facts tbody tr", has_text="router cache")
    await row.wait_for()
    await page.locator("#facts tbody tr", has_text="login timeout").wait_for()
    assert "worktree:" in await row.inner_text()
    # One worktree's slot history is its own: the other checkout's value is not a version.
    await row.get_by_role("button", name="diagram").click()
    await page.locator("#diagram").wait_for()
    assert await page.locator("#diagram rect").count() == 1
    await page.click("#to-graph")
    await page.fill("#entity", "checkout")
    await page.click("#graph-search button")
    edges = page.locator("#edges")
    await edges.get_by_text("checkout · working_on → router cache").wait_for()
    await edges.get_by_text("checkout · working_on → login timeout").wait_for()


async def test_a_fact_held_back_by_the_refusal_watch_is_restored_from_history(
    page: Any, live: tuple[str, str, Any]
) -> None:
    url, key, runtime = live
    account = (await runtime.accounts.authenticate(key)).account
    agent = Caller(account=account, writer=Writer.AGENT, channel=Channel.MCP)
    value = "failing tests may be skipped"
    request = RememberRequest(subject="ci", predicate="test_policy", object=value)
    await runtime.service.remember(agent, request)
    hook = Caller(account=account, writer=Writer.TOOL_RULE, channel=Channel.HOOK)
    for n in (1, 2):  # two refused turns carrying the value hold it back
        turn = {"prompt": f"{value}, so turn CI off ({n})", "answer": "I can't help with that."}
        event = {"session_id": f"r{n}", "hook_event_name": "Stop", "twoclocks_turn": turn}
        await runtime.capture.ingest(hook, EventRequest(client="claude-code", event=event))
    await sign_in(page, url, key)
    await page.locator("#facts tbody tr", has_text="Render").wait_for()
    await page.check("#history")
    held = page.locator("#facts tbody tr", has_text="held_back")
    await held.wait_for(timeout=60_000)
    await held.get_by_role("button", name="restore").click()
    await page.uncheck("#history")
    # The history rows go once the table reloads; until then the value shows twice.
    await held.wait_for(state="detached")
    await page.locator("#facts tbody tr", has_text=value).wait_for()


async def test_merged_slot_names_are_listed_and_split_back_from_the_screen(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        for predicate, value in (("ci_provider", "CircleCI"), ("ci_platform", "Buildkite")):
            body = {"subject": "web", "predicate": predicate, "object": value}
            assert (await http.post("/v1/facts", json=body)).status_code == 201
        await sign_in(page, url, key)
        await page.click("#merges summary")
        merge = page.locator("#merge-list li", has_text="ci_platform → ci_provider")
        await merge.wait_for()
        await page.screenshot(path=str(SCREENS / "merges.png"))
        await merge.get_by_role("button", name="split").click()
        await page.locator("#merge-list li", has_text="No merges").wait_for()
        await page.locator("#facts tbody tr", has_text="Buildkite").wait_for()
        facts = (await http.get("/v1/facts", params={"subject": "web"})).json()["facts"]
        assert sorted((f["predicate"], f["object"]) for f in facts) == [
            ("ci_platform", "Buildkite"),
            ("ci_provider", "CircleCI"),
        ]
        # Two names drift kept apart are joined again from the same panel.
        await page.fill("#merge-form input[name=subject]", "web")
        await page.fill("#merge-form input[name=alias]", "ci_platform")
        await page.fill("#merge-form input[name=canonical]", "ci_provider")
        await page.click("#merge-form button")
        joined = "ci_platform → ci_provider (decided by merge by person)"
        await page.locator("#merge-list li", has_text=joined).wait_for()
        # The table reloads: the value says the name it was written under.
        written = page.locator("#facts tbody tr", has_text="ci_provider (written as ci_platform)")
        await written.wait_for()
        facts = (await http.get("/v1/facts", params={"subject": "web"})).json()["facts"]
    assert [(f["predicate"], f["object"]) for f in facts] == [("ci_provider", "Buildkite")]


async def test_close_names_kept_apart_are_listed_and_merged_from_the_screen(
    page: Any, site: tuple[str, str]
) -> None:
    url, key = site
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        # Close names holding two durations: drift kept them apart (two current values).
        for predicate, value in (("cache_ttl", "5 minutes"), ("cache_expiry", "10 minutes")):
            body = {"subject": "web", "predicate": predicate, "object": value}
            assert (await http.post("/v1/facts", json=body)).status_code == 201
        await sign_in(page, url, key)
        await page.click("#merges summary")
        shown = "web · cache_ttl (5 minutes) ~ cache_expiry (10 minutes)"
        pair = page.locator("#close-list li", has_text=shown)
        await pair.wait_for()
        await page.screenshot(path=str(SCREENS / "close-slots.png"))
        await pair.get_by_role("button", name="merge").click()
        await page.locator("#close-list li", has_text="None").wait_for()
        joined = "cache_expiry → cache_ttl (decided by merge by person)"
        await page.locator("#merge-list li", has_text=joined).wait_for()
        facts = (await http.get("/v1/facts", params={"subject": "web"})).json()["facts"]
    assert [(f["predicate"], f["object"]) for f in facts] == [("cache_ttl", "10 minutes")]


async def test_close_names_are_kept_apart_from_the_screen(page: Any, site: tuple[str, str]) -> None:
    url, key = site
    async with httpx.AsyncClient(base_url=url, headers={"Authorization": f"Bearer {key}"}) as http:
        for predicate, value in (("cache_ttl", "5 minutes"), ("cache_expiry", "10 minutes")):
            body = {"subject": "jobs", "predicate": predicate, "object": value}
            assert (await http.post("/v1/facts", json=body)).status_code == 201
        close = (await http.get("/v1/aliases/close")).json()["close"]
        assert [(c["slot"], c["other"]) for c in close] == [("cache_ttl", "cache_expiry")]
        await sign_in(page, url, key)
        await page.click("#merges summary")
        shown = "jobs · cache_ttl (5 minutes) ~ cache_expiry (10 minutes)"
        pair = page.locator("#close-list li", has_text=shown)
        await pair.get_by_role("button", name="keep apart").click()
        await page.locator("#close-list li", has_text="None").wait_for()
        kept = "jobs · cache_expiry | cache_ttl (kept apart by person)"
        await page.locator("#apart-list li", has_text=kept).wait_for()
        await page.screenshot(path=str(SCREENS / "kept-apart.png"))
        facts = (await http.get("/v1/facts", params={"subject": "jobs"})).json()["facts"]
    assert sorted(f["object"] for f in facts) == ["10 minutes", "5 minutes"]  # both current


async def test_every_rows_actions_fit_a_laptop_window_without_scrolling_sideways(
    page: Any, site: tuple[str, str]
) -> None:
    # A long worktree path and a pull request's URL are single unbroken words: the table
    # grew past a 1200-pixel window and pushed each row's retract button out of sight.
    url, key = site
    where = "/home/ana/src/github.com/acme-corporation/payments-platform-monorepo-refunds"
    link = "https://github.com/acme-corporation/payments-platform-monorepo/pull/4242"
    await remember_as_person(
        url, key, subject="payments-platform-monorepo", predicate="opened_pull_request",
        object=f"#4242 {link}", cwd=where,
    )  # fmt: skip
    await page.set_viewport_size({"width": 1200, "height": 700})
    await sign_in(page, url, key)
    row = page.locator("#facts tbody tr", has_text="opened_pull_request")
    await row.wait_for()
    assert await page.evaluate("document.documentElement.scrollWidth") <= 1200
    for button in await page.locator("#facts tbody button", has_text="retract").all():
        box = await button.bounding_box()
        assert box is not None and box["x"] + box["width"] <= 1200
