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
    assert "revoked agent key" in await served.ok("keys", "revoke", "laptop-agents")
    assert "REVOKED" in await served.ok("keys", "list")


@pytest.mark.anyio
async def test_an_agent_key_cannot_manage_keys_from_the_cli(served: Served) -> None:
    secret = (await served.ok("keys", "create", "ci")).strip().splitlines()[-1]
    as_agent = Served(served.runtime, {**served.env, "TWOCLOCKS_KEY": secret})
    result = await as_agent.cli("keys", "list")
    assert result.exit_code == 2
    assert "KeysNotAllowed" in result.output and "person's key" in result.output
