"""Keys that carry a role, over HTTP (issue 15 point 4): /v1/keys, and the writer taken
from the key, never from the channel header. Two app instances over one real store play
two replicas."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.client import CHANNEL_HEADER
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


Replicas = tuple[httpx.AsyncClient, httpx.AsyncClient]


@pytest.fixture
async def replicas(falkordb_server: Any, tmp_path: Any) -> AsyncIterator[Replicas]:
    """Two apps (two runtimes) over one store; each client sends the new account's person key."""
    runtimes = []
    for name in ("a", "b"):
        settings = bootstrap.load_settings(data_dir=tmp_path / name)
        runtimes.append(
            await bootstrap.start_runtime(
                settings,
                store=FalkorDBStore(falkordb_server.socket_path),
                embedder=HashingEmbedder(384),
            )
        )
    key = await runtimes[0].accounts.create(f"k{uuid.uuid4().hex[:12]}")
    clients = [
        httpx.AsyncClient(
            transport=httpx.ASGITransport(app=create_app(runtime)),
            base_url="http://test",
            headers={"Authorization": f"Bearer {key}"},
        )
        for runtime in runtimes
    ]
    yield clients[0], clients[1]
    for client, runtime in zip(clients, runtimes, strict=True):
        await client.aclose()
        await runtime.close()


def bearer(key: str, **extra: str) -> dict[str, str]:
    """Headers sending another key than the client's own."""
    return {"Authorization": f"Bearer {key}", **extra}


async def new_key(api: httpx.AsyncClient, name: str, role: str) -> str:
    """Make a key through POST /v1/keys; its secret."""
    r = await api.post("/v1/keys", json={"name": name, "role": role})
    assert r.status_code == 201, r.text
    assert r.json()["name"] == name and r.json()["role"] == role
    return str(r.json()["key"])


async def test_an_agent_key_sending_the_cli_channel_header_cannot_assert(
    replicas: Replicas,
) -> None:
    # DESIGN.md §4: the writer comes from the API key's role, never from a header.
    api, _ = replicas
    agent = await new_key(api, "agents", "agent")
    claim = {"subject": "me", "predicate": "editor", "object": "Helix", "tier": "asserted"}
    r = await api.post("/v1/facts", json=claim, headers=bearer(agent, **{CHANNEL_HEADER: "cli"}))
    assert r.status_code == 201 and r.json()["tier"] == "inferred"
    everywhere = {"all_workspaces": "true"}
    r = await api.get(
        "/v1/facts", params=everywhere, headers=bearer(agent, **{CHANNEL_HEADER: "cli"})
    )
    assert r.status_code == 403 and r.json()["error"] == "ReadNotAllowed"
    # The same claim with the person's key, with no header at all (the web screen), stands.
    r = await api.post("/v1/facts", json={**claim, "subject": "I"})
    assert r.json()["tier"] == "asserted"


async def test_a_person_key_through_a_hook_writes_no_higher_than_a_tool_rule(
    replicas: Replicas,
) -> None:
    api, _ = replicas
    claim = {"subject": "repo", "predicate": "head", "object": "abc123", "tier": "asserted"}
    r = await api.post("/v1/facts", json=claim, headers={CHANNEL_HEADER: "hook"})
    assert r.json()["tier"] == "observed"


async def test_keys_are_listed_by_name_role_and_last_use_never_the_secret(
    replicas: Replicas,
) -> None:
    api, _ = replicas
    agent = await new_key(api, "laptop", "agent")
    assert (await api.get("/v1/facts", headers=bearer(agent))).status_code == 200
    r = await api.get("/v1/keys")
    assert r.status_code == 200
    listed = {k["name"]: k for k in r.json()["keys"]}
    assert set(listed) == {"person", "laptop"}
    assert listed["laptop"]["role"] == "agent" and listed["person"]["role"] == "person"
    assert listed["laptop"]["last_used_at"] and listed["laptop"]["revoked_at"] is None
    assert set(listed["laptop"]) == {
        "name", "role", "account", "created_at", "last_used_at", "revoked_at",
    }  # fmt: skip
    assert agent not in r.text and "hash" not in r.text


async def test_only_a_person_key_manages_keys_and_others_get_a_typed_403(
    replicas: Replicas,
) -> None:
    api, _ = replicas
    agent = await new_key(api, "agents", "agent")
    calls = [
        ("GET", "/v1/keys", None),
        ("POST", "/v1/keys", {"name": "mine", "role": "person"}),
        ("POST", "/v1/keys/person/rotate", None),
        ("POST", "/v1/keys/person/revoke", None),
    ]
    for method, path, body in calls:
        for headers in (bearer(agent, **{CHANNEL_HEADER: "cli"}), {CHANNEL_HEADER: "mcp"}):
            r = await api.request(method, path, json=body, headers=headers)
            assert r.status_code == 403, (method, path, r.text)
            assert r.json()["error"] == "KeysNotAllowed"
            assert "twoclocks keys" in r.json()["message"]
    names = {k["name"] for k in (await api.get("/v1/keys")).json()["keys"]}
    assert names == {"person", "agents"}  # nothing was made, rotated or revoked


async def test_bad_key_requests_are_typed_4xx_that_change_nothing(replicas: Replicas) -> None:
    api, _ = replicas
    r = await api.post("/v1/keys", json={"name": "x", "role": "admin"})
    assert r.status_code == 422 and "role" in r.json()["message"]
    r = await api.post("/v1/keys", json={"name": "has space", "role": "agent"})
    assert r.status_code == 422 and "key name" in r.json()["message"]
    r = await api.post("/v1/keys", json={"name": "person", "role": "agent"})
    assert r.status_code == 422 and "exists already" in r.json()["message"]
    r = await api.post("/v1/keys/nope/rotate")
    assert r.status_code == 404 and r.json()["error"] == "KeyNotFound"
    assert len((await api.get("/v1/keys")).json()["keys"]) == 1


async def test_a_rotated_key_keeps_name_and_role_and_its_old_secret_is_refused(
    replicas: Replicas,
) -> None:
    api, other = replicas
    old = await new_key(api, "hooks", "agent")
    r = await api.post("/v1/keys/hooks/rotate")
    assert r.status_code == 200 and r.json()["role"] == "agent"
    new = r.json()["key"]
    for replica in (api, other):
        assert (await replica.get("/v1/facts", headers=bearer(old))).status_code == 401
        assert (await replica.get("/v1/facts", headers=bearer(new))).status_code == 200


async def test_a_revoked_key_is_refused_at_once_on_every_replica(replicas: Replicas) -> None:
    api, other = replicas
    agent = await new_key(api, "ci", "agent")
    for replica in (api, other):  # both have accepted it: a cache would now hold it
        assert (await replica.get("/v1/facts", headers=bearer(agent))).status_code == 200
    r = await other.post("/v1/keys/ci/revoke")
    assert r.status_code == 200 and r.json()["revoked_at"]
    for replica in (api, other):
        r = await replica.get("/v1/facts", headers=bearer(agent))
        assert r.status_code == 401 and "revoked" in r.json()["message"]
    assert (await api.get("/v1/facts")).status_code == 200  # the person's key is untouched
