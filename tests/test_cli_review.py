"""`twoclocks held` / `twoclocks review` and their routes (issue 13 points 4 and 7): the person
restores a held-back fact and accepts, fixes or rejects extracted ones; an agent may not."""

from __future__ import annotations

import asyncio

import httpx
import pytest
import test_cli
from test_cli import Served

from twoclocks.domain.trust import Channel, Writer
from twoclocks.service.capture import EventRequest
from twoclocks.service.requests import Caller, RememberRequest

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def live(served: Served) -> Served:
    """test_cli's live server with the CLI pointed at it."""
    return served


served = test_cli.served  # the fixture `live` builds on


async def account_of(live: Served) -> str:
    return (await live.runtime.accounts.authenticate(live.env["TWOCLOCKS_KEY"])).account


async def write(live: Served, writer: Writer, obj: str, predicate: str) -> str:
    caller = Caller(account=await account_of(live), writer=writer, channel=Channel.MCP)
    request = RememberRequest(subject="ci", predicate=predicate, object=obj)
    return (await live.runtime.service.remember(caller, request)).fact_id


async def refused_turn(live: Served, n: int, value: str) -> None:
    hook = Caller(account=await account_of(live), writer=Writer.TOOL_RULE, channel=Channel.HOOK)
    turn = {"prompt": f"{value}, so turn CI off ({n})", "answer": "I can't help with that."}
    event = {"session_id": f"r{n}", "hook_event_name": "Stop", "twoclocks_turn": turn}
    await live.runtime.capture.ingest(hook, EventRequest(client="claude-code", event=event))


def as_agent(live: Served, method: str, path: str) -> httpx.Response:
    """A call through MCP (the model talking), with the account's key: the agent writes."""
    headers = {"Authorization": f"Bearer {live.env['TWOCLOCKS_KEY']}", "X-Twoclocks-Channel": "mcp"}
    return httpx.request(method, live.env["TWOCLOCKS_URL"] + path, headers=headers, timeout=10)


async def test_held_lists_a_held_back_fact_and_only_the_person_restores_it(
    live: Served,
) -> None:
    value = "failing tests may be skipped"
    fact_id = await write(live, Writer.AGENT, value, "test_policy")
    assert "nothing held back" in await live.ok("held")
    await refused_turn(live, 1, value)
    await refused_turn(live, 2, value)
    listed = await live.ok("held")
    assert fact_id[:12] in listed and value in listed and "[held_back]" in listed
    refused = await asyncio.to_thread(as_agent, live, "POST", f"/v1/held/{fact_id}/restore")
    assert refused.status_code == 403 and refused.json()["error"] == "WriteNotAllowed"
    unlisted = await asyncio.to_thread(as_agent, live, "GET", "/v1/held")
    assert unlisted.status_code == 403 and unlisted.json()["error"] == "ReadNotAllowed"
    assert f"restored {fact_id}" in await live.ok("held", "restore", fact_id[:12])
    assert "nothing held back" in await live.ok("held")
    assert value in await live.ok("facts")


async def test_review_accept_fix_and_reject_from_the_cli(live: Served) -> None:
    queue = await write(live, Writer.EXTRACTOR, "SQS", "queue")
    db = await write(live, Writer.EXTRACTOR, "Postgres", "db")
    cache = await write(live, Writer.EXTRACTOR, "Redis", "cache")
    await write(live, Writer.PERSON, "Priya", "owner")
    listed = await live.ok("review")
    assert all(f[:12] in listed for f in (queue, db, cache)) and "Priya" not in listed
    assert f"accepted {queue}" in await live.ok("review", "accept", queue[:12])
    assert f"fixed {db}" in await live.ok("review", "fix", db[:12], "MySQL")
    assert f"rejected {cache}" in await live.ok("review", "reject", cache)
    assert "nothing to review" in await live.ok("review")
    current = await live.ok("facts")
    assert "queue: SQS" in current and "inferred" in current  # accepting raises nothing
    assert "db: MySQL" in current and "Redis" not in current


async def test_an_agent_may_list_but_not_act_on_the_review(live: Served) -> None:
    fact_id = await write(live, Writer.EXTRACTOR, "SQS", "queue")
    listed = await asyncio.to_thread(as_agent, live, "GET", "/v1/review")
    assert [f["fact_id"] for f in listed.json()["to_review"]] == [fact_id]
    for action in ("accept", "reject"):
        r = await asyncio.to_thread(as_agent, live, "POST", f"/v1/review/{fact_id}/{action}")
        assert r.status_code == 403 and r.json()["error"] == "WriteNotAllowed"
