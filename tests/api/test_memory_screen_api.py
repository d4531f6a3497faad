"""What the web screen's memory table and history diagram read (issue 14.2, 14.3):
GET /v1/facts filtered on the server, and GET /v1/facts/{id}/episodes."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import httpx
import pytest

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]

PERSON = {"X-Twoclocks-Channel": "cli"}


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def remember(
    api: httpx.AsyncClient, headers: dict[str, str] | None = None, **body: str
) -> str:
    reply = await api.post("/v1/facts", json=body, headers=headers or {})
    assert reply.status_code == 201, reply.text
    return str(reply.json()["fact_id"])


async def objects(api: httpx.AsyncClient, **params: str | int) -> list[str]:
    # As the web screen reads: every workspace of the account.
    reply = await api.get("/v1/facts", params={"all_workspaces": "true", **params})
    assert reply.status_code == 200, reply.text
    return sorted(f["object"] for f in reply.json()["facts"])


async def test_get_facts_filters_by_text_tier_place_writer_and_class_on_the_server(
    api: httpx.AsyncClient, tmp_path: Path
) -> None:
    agent = api.agent  # type: ignore[attr-defined]
    here = str(tmp_path)
    await remember(
        api, agent, subject="Production", predicate="deploy_target", object="Render", cwd=here
    )
    await remember(
        api, PERSON, subject="me", predicate="editor", object="Helix", **{"class": "user"}
    )
    await remember(
        api,
        agent,
        subject="repo",
        predicate="ci_platform",
        object="GitHub Actions",
        tier="observed",
        cwd=here,
    )
    assert await objects(api, text="PRODUCTION") == ["Render"]
    assert await objects(api, text="actions") == ["GitHub Actions"]
    assert await objects(api, text="_") == ["GitHub Actions", "Render"]
    assert await objects(api, tier="observed") == ["GitHub Actions"]
    assert await objects(api, writer="person") == ["Helix"]
    assert await objects(api, writer="agent") == ["GitHub Actions", "Render"]
    assert await objects(api, fact_class="user") == ["Helix"]
    assert await objects(api, place="everywhere") == ["Helix"]
    assert await objects(api, place="worktree") == ["GitHub Actions", "Render"]
    assert await objects(api, writer="agent", text="render") == ["Render"]
    asked = {"writer": "agent", "limit": 1, "all_workspaces": "true"}
    page = (await api.get("/v1/facts", params=asked)).json()
    assert len(page["facts"]) == 1 and page["total"] == 2


async def test_a_fact_on_the_wire_says_who_wrote_it_and_its_class(api: httpx.AsyncClient) -> None:
    await remember(
        api, PERSON, subject="me", predicate="editor", object="Helix", **{"class": "user"}
    )
    (fact,) = (await api.get("/v1/facts")).json()["facts"]
    assert fact["writer"] == "person" and fact["fact_class"] == "user"


async def test_a_bad_filter_is_a_422_naming_it_and_reads_nothing(api: httpx.AsyncClient) -> None:
    for name, value in (("tier", "certain"), ("writer", "robot"), ("fact_class", "misc")):
        reply = await api.get("/v1/facts", params={name: value})
        assert reply.status_code == 422 and name in reply.json()["message"], reply.text


async def test_fact_episodes_name_the_words_that_carried_each_version(
    api: httpx.AsyncClient,
) -> None:
    fact_id = await remember(
        api,
        PERSON,
        subject="production",
        predicate="deploy_target",
        object="Render",
        evidence="we deploy production on Render now",
    )
    reply = await api.get(f"/v1/facts/{fact_id[:8]}/episodes")
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert body["fact_id"] == fact_id
    (version,) = body["versions"]
    (episode,) = version["episodes"]
    assert episode["content"] == "we deploy production on Render now"
    assert episode["source"] == "remember"


async def test_fact_episodes_of_an_unknown_fact_is_a_404_saying_what_to_do(
    api: httpx.AsyncClient,
) -> None:
    reply = await api.get("/v1/facts/nosuchfact123/episodes")
    assert reply.status_code == 404
    assert reply.json()["error"] == "FactNotFound" and "list facts" in reply.json()["message"]


async def test_a_page_without_its_count_answers_the_same_rows_and_no_total(
    api: httpx.AsyncClient,
) -> None:
    for n in range(3):
        await remember(api, subject="svc", predicate=f"p{n}", object=f"v{n}")
    counted = (await api.get("/v1/facts", params={"limit": 2})).json()
    alone = (await api.get("/v1/facts", params={"limit": 2, "count": False})).json()
    assert alone["facts"] == counted["facts"] and len(alone["facts"]) == 2
    assert counted["total"] == 3 and alone["total"] is None


async def test_include_later_adds_what_starts_after_now_to_a_read_of_now(
    api: httpx.AsyncClient,
) -> None:
    """The memory screen and `twoclocks facts` show "deploy freeze from the 20th" on the 4th."""
    soon = (datetime.now(UTC) + timedelta(days=5)).isoformat()
    await remember(api, subject="team", predicate="on_call", object="Dana")
    await remember(api, subject="team", predicate="deploy_freeze", object="on", valid_at=soon)
    assert await objects(api) == ["Dana"]
    assert await objects(api, include_later="true") == ["Dana", "on"]
    counted = (await api.get("/v1/facts", params={"include_later": True, "limit": 1})).json()
    assert counted["total"] == 2


async def test_include_later_beside_a_clock_is_a_422_saying_what_to_drop(
    api: httpx.AsyncClient,
) -> None:
    for clock in ("as_of", "as_believed"):
        params = {"include_later": "true", clock: datetime.now(UTC).isoformat()}
        reply = await api.get("/v1/facts", params=params)
        assert reply.status_code == 422, reply.text
        assert "drop as_of and as_believed" in reply.json()["message"], reply.text


async def test_the_text_filter_finds_a_checkouts_rows_by_its_workspace(
    api: httpx.AsyncClient, tmp_path: Path
) -> None:
    # The person's screen lists every workspace; typing a checkout's name narrows it.
    hotfix, main = tmp_path / "api-hotfix", tmp_path / "api-main"
    hotfix.mkdir(), main.mkdir()
    for cwd, value in ((hotfix, "login timeout"), (main, "router cache")):
        await remember(api, subject="api", predicate="working_on", object=value, cwd=str(cwd))
    await remember(api, subject="team", predicate="standup", object="09:30")
    every = {"all_workspaces": "true"}
    headers = PERSON
    reply = await api.get("/v1/facts", params={**every, "text": "API-HOTFIX"}, headers=headers)
    assert [f["object"] for f in reply.json()["facts"]] == ["login timeout"]
    reply = await api.get("/v1/facts", params={**every, "text": "09:30"}, headers=headers)
    assert [f["object"] for f in reply.json()["facts"]] == ["09:30"]  # unplaced rows still match
