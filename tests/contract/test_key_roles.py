"""Issue 15 point 4: keys that carry a role, on both engines.

Each key has a role fixed at creation (person or agent); the writer comes from the key,
never from a header; keys are listed without their secret, rotated and revoked, and a
revoked key is refused at once by every replica over the store.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from storekit import T0, fresh_account

from twoclocks.domain.errors import InvalidInput, KeyNotFound, KeysNotAllowed, Unauthorized
from twoclocks.domain.trust import Channel, KeyRole, Writer, channel_named, writer_of
from twoclocks.graph.port import Store
from twoclocks.service.accounts import Accounts, hash_key
from twoclocks.service.api_keys import ApiKeys
from twoclocks.service.requests import Caller
from twoclocks.service.schema_versions import CURRENT_SCHEMA, ensure_schema

pytestmark = pytest.mark.anyio


class Clock:
    """A record clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> Any:
        return self.now


async def person_of(accounts: Accounts, key: str) -> Caller:
    """The caller a key makes through the CLI (what the routes build)."""
    holder = await accounts.authenticate(key)
    return Caller(
        account=holder.account, writer=writer_of(holder.role, Channel.CLI), channel=Channel.CLI
    )


async def test_a_new_accounts_key_is_its_person_key(store: Store) -> None:
    accounts = Accounts(store, Clock())
    name = fresh_account()
    key = await accounts.create(name)
    holder = await accounts.authenticate(key)
    assert (holder.account, holder.role, holder.key_name) == (name, KeyRole.PERSON, "person")


async def test_keys_are_listed_by_name_role_and_last_use_never_the_secret(store: Store) -> None:
    clock = Clock()
    accounts, keys = Accounts(store, clock), ApiKeys(store, clock)
    person = await person_of(accounts, await accounts.create(fresh_account()))
    clock.now = T0 + timedelta(hours=1)
    made = await keys.create(person, "laptop-agents", KeyRole.AGENT)
    assert made.key.startswith("tck_") and made.role is KeyRole.AGENT
    clock.now = T0 + timedelta(hours=2)
    agent = await accounts.authenticate(made.key)
    assert (agent.role, agent.key_name) == (KeyRole.AGENT, "laptop-agents")
    listed = {k.name: k for k in await keys.list(person)}
    assert set(listed) == {"person", "laptop-agents"}
    assert listed["laptop-agents"].role is KeyRole.AGENT
    assert listed["laptop-agents"].created_at == T0 + timedelta(hours=1)
    assert listed["laptop-agents"].last_used_at == T0 + timedelta(hours=2)
    shown = " ".join(k.model_dump_json() for k in listed.values())
    assert made.key not in shown and hash_key(made.key) not in shown


async def test_a_live_key_name_is_unique_and_a_bad_name_is_refused(store: Store) -> None:
    accounts = Accounts(store, Clock())
    keys = ApiKeys(store, Clock())
    person = await person_of(accounts, await accounts.create(fresh_account()))
    await keys.create(person, "ci", KeyRole.AGENT)
    with pytest.raises(InvalidInput, match="exists already"):
        await keys.create(person, "ci", KeyRole.PERSON)
    with pytest.raises(InvalidInput, match="key name"):
        await keys.create(person, "no spaces", KeyRole.AGENT)
    await keys.revoke(person, "ci")
    again = await keys.create(person, "ci", KeyRole.AGENT)  # a revoked name is free again
    assert (await accounts.authenticate(again.key)).key_name == "ci"


async def test_a_live_key_name_is_unique_under_concurrent_creates(store: Store) -> None:
    # Two `keys create` at the same moment: one wins, the others are told the name is taken
    # (were both kept, `keys revoke` of the name would revoke two keys).
    accounts = Accounts(store, Clock())
    account = fresh_account()
    await accounts.create(account)
    for name in ("ci", "laptop", "desk", "build"):  # a race is lost only now and then
        made = await asyncio.gather(
            *(store.save_key(account, name, KeyRole.AGENT, f"{name}{i}{account}", T0)
              for i in range(12))
        )  # fmt: skip
        assert sum(made) == 1
        assert [k.name for k in await store.keys_of(account)].count(name) == 1


async def test_only_a_person_key_manages_keys(store: Store) -> None:
    accounts, keys = Accounts(store, Clock()), ApiKeys(store, Clock())
    person_key = await accounts.create(fresh_account())
    person = await person_of(accounts, person_key)
    agent = await person_of(accounts, (await keys.create(person, "a", KeyRole.AGENT)).key)
    assert agent.writer is Writer.AGENT
    through_mcp = person.model_copy(update={"writer": writer_of(KeyRole.PERSON, Channel.MCP)})
    for caller in (agent, through_mcp):
        with pytest.raises(KeysNotAllowed, match="only the person's key"):
            await keys.list(caller)
        with pytest.raises(KeysNotAllowed):
            await keys.create(caller, "mine", KeyRole.PERSON)
        with pytest.raises(KeysNotAllowed):
            await keys.revoke(caller, "person")
    assert {k.name for k in await keys.list(person)} == {"person", "a"}


async def test_a_rotated_key_keeps_its_name_and_role_and_the_old_secret_stops(
    store: Store,
) -> None:
    accounts, keys = Accounts(store, Clock()), ApiKeys(store, Clock())
    person = await person_of(accounts, await accounts.create(fresh_account()))
    old = await keys.create(person, "hooks", KeyRole.AGENT)
    new = await keys.rotate(person, "hooks")
    assert (new.name, new.role) == ("hooks", KeyRole.AGENT) and new.key != old.key
    with pytest.raises(Unauthorized):
        await accounts.authenticate(old.key)
    assert (await accounts.authenticate(new.key)).role is KeyRole.AGENT
    with pytest.raises(KeyNotFound, match="no live key named 'nope'"):
        await keys.rotate(person, "nope")


async def test_a_revoked_key_is_refused_at_once_on_every_replica(store: Store) -> None:
    # Two servers over one store: each has its own Accounts; neither may serve a revoked
    # key from memory, even one it accepted a moment ago.
    clock = Clock()
    replica_a, replica_b = Accounts(store, clock), Accounts(store, clock)
    keys = ApiKeys(store, clock)
    person = await person_of(replica_a, await replica_a.create(fresh_account()))
    agent_key = (await keys.create(person, "agent", KeyRole.AGENT)).key
    assert (await replica_a.authenticate(agent_key)).key_name == "agent"
    assert (await replica_b.authenticate(agent_key)).key_name == "agent"
    revoked = await keys.revoke(person, "agent")
    assert revoked.revoked_at == T0
    for replica in (replica_a, replica_b):
        with pytest.raises(Unauthorized, match="revoked"):
            await replica.authenticate(agent_key)
    listed = {k.name: k for k in await keys.list(person)}
    assert listed["agent"].revoked_at == T0
    with pytest.raises(KeyNotFound):
        await keys.revoke(person, "agent")


def test_the_writer_comes_from_the_keys_role_never_from_a_header() -> None:
    # DESIGN.md §4: "The writer comes from the API key's role, never from a header the
    # caller sets." The channel header can only lower the writer.
    for declared in ("cli", "CLI", "http", "", None, "turn", "person"):
        assert writer_of(KeyRole.AGENT, channel_named(declared)) is not Writer.PERSON
    assert writer_of(KeyRole.PERSON, channel_named(None)) is Writer.PERSON
    assert writer_of(KeyRole.PERSON, channel_named("cli")) is Writer.PERSON
    assert writer_of(KeyRole.PERSON, channel_named("mcp")) is Writer.AGENT
    assert writer_of(KeyRole.PERSON, channel_named("shell")) is Writer.AGENT
    assert writer_of(KeyRole.PERSON, channel_named("hook")) is Writer.TOOL_RULE
    assert writer_of(KeyRole.AGENT, channel_named("hook")) is Writer.TOOL_RULE


async def raw_registry(
    engine: str, request: pytest.FixtureRequest, statement: str, params: dict[str, Any]
) -> None:
    """Run a statement where the accounts live, behind the store's back (an old layout)."""
    if engine == "falkordb":
        from falkordb.asyncio import FalkorDB

        client = FalkorDB(
            unix_socket_path=str(request.getfixturevalue("falkordb_server").socket_path)
        )
        await client.select_graph("twoclocks:accounts").query(statement, params)
        await client.aclose()
    else:
        from neo4j import AsyncGraphDatabase

        async with AsyncGraphDatabase.driver(request.getfixturevalue("neo4j_uri")) as driver:
            await driver.execute_query(statement, params)


async def test_a_schema_1_store_migrates_and_its_accounts_key_works_as_the_person(
    store: Store, engine: str, request: pytest.FixtureRequest
) -> None:
    name, old_key = fresh_account(), "tck_" + fresh_account()
    # Layout 1: the account's one key hash sat on the Account node.
    await raw_registry(
        engine,
        request,
        "CREATE (:Account {name: $name, key_hash: $hash, created_at_us: 1})",
        {"name": name, "hash": hash_key(old_key)},
    )
    await store.record_schema_version(1)
    try:
        assert await ensure_schema(store) == 1
        assert await store.schema_version() == CURRENT_SCHEMA
    finally:
        await store.record_schema_version(CURRENT_SCHEMA)
    accounts = Accounts(store, Clock())
    holder = await accounts.authenticate(old_key)
    assert (holder.account, holder.role) == (name, KeyRole.PERSON)
    assert await store.adopt_account_keys() == 0  # done once: the old field is gone
