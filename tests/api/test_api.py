"""The HTTP API v1 (DESIGN.md §8) over the real embedded FalkorDB store."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def api(falkordb_server: Any, tmp_path: Any) -> AsyncIterator[httpx.AsyncClient]:
    """An app over a real store, with one fresh account whose key every call sends."""
    settings = bootstrap.load_settings(data_dir=tmp_path)
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder(384)
    )
    import uuid

    key = await runtime.accounts.create(f"a{uuid.uuid4().hex[:12]}")
    transport = httpx.ASGITransport(app=create_app(runtime))
    async with httpx.AsyncClient(
        transport=transport, base_url="http://test", headers={"Authorization": f"Bearer {key}"}
    ) as client:
        client.runtime = runtime  # type: ignore[attr-defined]
        yield client
    await runtime.close()


async def test_remember_then_read_back_with_both_clocks(api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/v1/facts",
        json={
            "subject": "demo",
            "predicate": "build_tool",
            "object": "Make",
            "valid_at": "2026-01-10T00:00:00+00:00",
            "tier": "asserted",
        },
    )
    assert r.status_code == 201, r.text
    body = r.json()
    assert body["outcome"] == "inserted" and body["closed"] == []
    facts = (await api.get("/v1/facts", params={"subject": "demo"})).json()["facts"]
    assert [f["object"] for f in facts] == ["Make"]
    assert facts[0]["created_at"] and facts[0]["expired_at"] is None


async def test_naive_datetime_is_422_with_a_message(api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/v1/facts",
        json={"subject": "a", "predicate": "b", "object": "c", "valid_at": "2026-01-10T00:00:00"},
    )
    assert r.status_code == 422
    assert r.json()["error"] == "NaiveDatetime" and "offset" in r.json()["message"]


async def test_unknown_field_is_422_naming_the_field(api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/v1/facts", json={"subject": "a", "predicate": "b", "object": "c", "space": "work"}
    )
    assert r.status_code == 422 and "space" in r.json()["message"]


async def test_body_over_64_kb_is_413(api: httpx.AsyncClient) -> None:
    r = await api.post(
        "/v1/facts",
        content=b'{"subject": "' + b"x" * 70_000 + b'"}',
        headers={"Content-Type": "application/json"},
    )
    assert r.status_code == 413 and r.json()["error"] == "BodyTooLarge"


async def test_secret_is_422_secret_refused_and_export_shows_nothing(
    api: httpx.AsyncClient,
) -> None:
    r = await api.post(
        "/v1/facts",
        json={
            "subject": "ci",
            "predicate": "token",
            "object": "npm_abcdefghijklmnopqrstuvwxyz0123456789",
        },
    )
    assert r.status_code == 422 and r.json()["error"] == "SecretRefused"
    assert "npm_" not in r.json()["message"]
    export = await api.get("/v1/export")
    assert export.status_code == 200 and export.text == ""


async def test_no_key_is_401_and_a_wrong_key_is_401(api: httpx.AsyncClient) -> None:
    r = await api.get("/v1/facts", headers={"Authorization": ""})
    assert r.status_code == 401 and r.json()["error"] == "Unauthorized"
    r = await api.get("/v1/facts", headers={"Authorization": "Bearer tck_nope"})
    assert r.status_code == 401


async def test_revise_statuses(api: httpx.AsyncClient) -> None:
    fid = (
        await api.post(
            "/v1/facts",
            json={
                "subject": "demo",
                "predicate": "build_tool",
                "object": "Make",
                "valid_at": "2026-01-10T00:00:00+00:00",
            },
        )
    ).json()["fact_id"]
    r = await api.post(
        f"/v1/facts/{fid}/revise", json={"reason": "ended", "at": "2026-01-01T00:00:00+00:00"}
    )
    assert r.status_code == 422 and r.json()["error"] == "InvalidTemporalRange"
    r = await api.post(
        f"/v1/facts/{fid}/revise",
        json={
            "reason": "ended",
            "at": "2026-02-01T00:00:00+00:00",
            "replacement": {"object": "Ninja"},
        },
    )
    assert r.status_code == 200 and r.json()["successor_id"]
    r = await api.post(f"/v1/facts/{fid}/revise", json={"reason": "ended"})
    assert r.status_code == 409 and r.json()["error"] == "FactAlreadyRetired"
    r = await api.post("/v1/facts/nope/revise", json={"reason": "corrected"})
    assert r.status_code == 404 and r.json()["error"] == "FactNotFound"


async def test_retract_and_reopen(api: httpx.AsyncClient) -> None:
    fid = (
        await api.post("/v1/facts", json={"subject": "x", "predicate": "y", "object": "z"})
    ).json()["fact_id"]
    assert (await api.post(f"/v1/facts/{fid}/retract")).status_code == 200
    assert (await api.get("/v1/facts", params={"subject": "x"})).json()["facts"] == []
    assert (await api.post(f"/v1/facts/{fid}/reopen")).status_code == 200
    assert [
        f["object"] for f in (await api.get("/v1/facts", params={"subject": "x"})).json()["facts"]
    ] == ["z"]


async def test_block_and_timeline_and_health(api: httpx.AsyncClient) -> None:
    await api.post(
        "/v1/facts",
        json={
            "subject": "prod",
            "predicate": "deploy_target",
            "object": "Render",
            "tier": "asserted",
            "evidence": "we deploy to Render",
        },
    )
    r = await api.post("/v1/block", json={})
    assert r.status_code == 200
    assert r.json()["status"] == "rows" and "Render" in r.json()["text"]
    assert len(r.json()["text"]) <= 8000
    r = await api.get("/v1/timeline", params={"clock": "system"})
    assert r.status_code == 200 and len(r.json()["facts"]) == 1
    assert (await api.get("/healthz")).status_code == 200


async def test_empty_query_and_k_out_of_range_are_clear_errors(api: httpx.AsyncClient) -> None:
    r = await api.post("/v1/recall", json={"query": "  "})
    assert r.status_code == 422 and "blank" in r.json()["message"]
    r = await api.post("/v1/recall", json={"query": "ci", "k": 500})
    assert r.status_code == 422 and "k" in r.json()["message"]


async def test_account_settings_move_decisions_to_the_project_and_set_the_zone(
    api: httpx.AsyncClient, tmp_path: Any
) -> None:
    assert (await api.get("/v1/settings")).json() == {
        "timezone": None,
        "places": {},
        "capture": True,
    }
    r = await api.put("/v1/settings", json={"timezone": "Mars/Olympus"})
    assert r.status_code == 422 and "Mars/Olympus" in r.json()["message"]
    r = await api.put(
        "/v1/settings", json={"timezone": "Europe/Istanbul", "places": {"decision": "project"}}
    )
    assert r.status_code == 200
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / ".git" / "config").write_text(
        '[remote "origin"]\n\turl = git@github.com:acme/api.git\n'
    )
    r = await api.post(
        "/v1/facts",
        json={
            "subject": "router-cache",
            "predicate": "decided",
            "object": "plain Map with a size cap",
            "class": "decision",
            "tier": "asserted",
            "cwd": str(repo),
            "valid_at": "2026-01-10T09:00:00+00:00",
        },
    )
    assert r.status_code == 201
    fact = (await api.get("/v1/facts", params={"cwd": str(repo)})).json()["facts"][0]
    assert fact["place"] == "project"
    block = (await api.post("/v1/block", json={"cwd": str(repo)})).json()["text"]
    assert "2026-01-10 12:00 +03" in block


async def test_the_cli_writes_as_the_person_and_an_agent_claim_needs_evidence(
    api: httpx.AsyncClient,
) -> None:
    fact = {"subject": "me", "predicate": "editor", "object": "Helix", "tier": "asserted"}
    r = await api.post("/v1/facts", json=fact, headers={"X-Twoclocks-Channel": "cli"})
    by_person = r.json()["fact_id"]
    r = await api.post("/v1/facts", json={**fact, "subject": "you"})
    by_agent = r.json()["fact_id"]
    r = await api.post(
        "/v1/facts", json={**fact, "subject": "hook"}, headers={"X-Twoclocks-Channel": "hook"}
    )
    by_hook = r.json()["fact_id"]
    tiers = {f["fact_id"]: f["tier"] for f in (await api.get("/v1/facts")).json()["facts"]}
    assert tiers[by_person] == "asserted"
    assert tiers[by_agent] == "inferred"  # asserted, but "Helix" is in no message of the person
    assert tiers[by_hook] == "observed"  # a hook's ceiling
