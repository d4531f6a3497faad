"""`twoclocks keys list|create|rotate|revoke` against a live server (issue 15 point 4)."""

from __future__ import annotations

import pytest
from test_cli import Served, anyio_backend, served

__all__ = ["anyio_backend", "served"]  # the live-server fixtures of test_cli


@pytest.mark.anyio
async def test_keys_create_list_rotate_and_revoke_from_the_cli(served: Served) -> None:
    made = await served.ok("keys", "create", "laptop-agents")
    assert "created agent key 'laptop-agents'" in made
    secret = made.strip().splitlines()[-1]
    assert secret.startswith("tck_")
    listed = await served.ok("keys", "list")
    rows = {line.split()[0]: line for line in listed.splitlines()}
    assert set(rows) == {"person", "laptop-agents"}
    assert " agent " in rows["laptop-agents"] and "last used never" in rows["laptop-agents"]
    assert secret not in listed
    rotated = (await served.ok("keys", "rotate", "laptop-agents")).strip().splitlines()[-1]
    assert rotated.startswith("tck_") and rotated != secret
    assert "revoked the live agent key 'laptop-agents'" in await served.ok(
        "keys", "revoke", "laptop-agents"
    )
    assert "REVOKED" in await served.ok("keys", "list")


@pytest.mark.anyio
async def test_an_agent_key_cannot_manage_keys_from_the_cli(served: Served) -> None:
    secret = (await served.ok("keys", "create", "ci")).strip().splitlines()[-1]
    as_agent = Served(served.runtime, {**served.env, "TWOCLOCKS_KEY": secret})
    result = await as_agent.cli("keys", "list")
    assert result.exit_code == 2
    assert "KeysNotAllowed" in result.output and "person's key" in result.output


@pytest.mark.anyio
async def test_a_revoked_key_and_a_new_one_of_its_name_read_apart_and_revoke_takes_the_live_one(
    served: Served,
) -> None:
    # What `twoclocks install` after the last client's uninstall does to the name `agents`.
    await served.ok("keys", "create", "agents")
    await served.ok("keys", "revoke", "agents")
    await served.ok("keys", "create", "agents")
    rows = [line.split() for line in (await served.ok("keys", "list")).splitlines()]
    assert sorted(r[2] for r in rows if r[0] == "agents") == ["REVOKED", "live"]

    said = await served.ok("keys", "revoke", "agents")
    assert "revoked the live agent key 'agents'" in said
    assert "1 other key named 'agents' had been revoked before" in said
    rows = [line.split() for line in (await served.ok("keys", "list")).splitlines()]
    assert [r[2] for r in rows if r[0] == "agents"] == ["REVOKED", "REVOKED"]

    again = await served.cli("keys", "revoke", "agents")
    assert again.exit_code != 0 and "no live key named 'agents'" in again.output
