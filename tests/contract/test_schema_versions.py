"""Issue 15 point 5: the store records its schema version; a server started on an older
store migrates it, and one started on a newer store refuses with a clear message."""

from __future__ import annotations

import logging
import os
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import pytest
from conftest import new_store
from neo4j_server import Neo4jUnavailable, TestNeo4j
from storekit import T0, Writer

from twoclocks import bootstrap
from twoclocks.domain.errors import SchemaTooNew
from twoclocks.domain.model import RetiredReason, Tier
from twoclocks.graph.port import Episode, Store
from twoclocks.service.schema_versions import CURRENT_SCHEMA, ensure_schema

pytestmark = pytest.mark.anyio


async def forget_schema_version(engine: str, request: pytest.FixtureRequest) -> None:
    """Make the session's store look like one written before versions were recorded."""
    statement = "MATCH (s:TwoclocksSchema) DELETE s"
    if engine == "falkordb":
        from falkordb.asyncio import FalkorDB

        client = FalkorDB(
            unix_socket_path=str(request.getfixturevalue("falkordb_server").socket_path)
        )
        await client.select_graph("twoclocks:accounts").query(statement)
        await client.aclose()
    else:
        from neo4j import AsyncGraphDatabase

        async with AsyncGraphDatabase.driver(request.getfixturevalue("neo4j_uri")) as driver:
            await driver.execute_query(statement)


async def run_cypher(
    engine: str,
    request: pytest.FixtureRequest,
    account: str,
    statement: str,
    params: dict[str, object],
) -> None:
    """Run one statement on the account's graph, as an older twoclocks left it."""
    if engine == "falkordb":
        from falkordb.asyncio import FalkorDB

        client = FalkorDB(
            unix_socket_path=str(request.getfixturevalue("falkordb_server").socket_path)
        )
        await client.select_graph(account).query(statement, params)
        await client.aclose()
    else:
        from neo4j import AsyncGraphDatabase

        async with AsyncGraphDatabase.driver(request.getfixturevalue("neo4j_uri")) as driver:
            await driver.execute_query(statement, params)


@pytest.fixture
async def restored_version(store: Store) -> AsyncIterator[None]:
    """Whatever a test records, the session's store ends at the current version again."""
    yield
    await store.record_schema_version(CURRENT_SCHEMA)


@pytest.fixture
async def empty_store(engine: str, tmp_path: Path) -> AsyncIterator[Store]:
    """A started store of each engine on a server of its own that nothing was written to."""
    if engine == "falkordb":
        from twoclocks.graph.falkordb.store import FalkorDBStore

        s: Store = FalkorDBStore.embedded(tmp_path / "falkordb", appendfsync="everysec")
        server = None
    else:
        from twoclocks.graph.neo4j.store import Neo4jStore

        try:
            server = TestNeo4j.start_own("empty")  # the session's database holds others' rows
        except Neo4jUnavailable as e:
            if os.environ.get("CI", "").lower() == "true":
                pytest.fail(f"no second test Neo4j: {e}", pytrace=False)
            pytest.skip(f"no second test Neo4j: {e}")
        s = Neo4jStore(server.uri)
    try:
        await s.start()
        yield s
    finally:
        await s.close()
        if server is not None:
            server.release()


async def test_a_new_store_is_stamped_with_the_current_schema_not_migrated(
    empty_store: Store, caplog: pytest.LogCaptureFixture
) -> None:
    assert await empty_store.holds_nothing()
    assert await empty_store.schema_version() is None
    with caplog.at_level(logging.INFO, logger="twoclocks.service.schema_versions"):
        await ensure_schema(empty_store)
    assert await empty_store.schema_version() == CURRENT_SCHEMA
    assert not [r for r in caplog.records if "migrating" in r.getMessage()]


async def test_a_started_store_records_the_current_schema_version(store: Store) -> None:
    await ensure_schema(store)
    assert await store.schema_version() == CURRENT_SCHEMA


async def test_a_store_from_before_versions_is_migrated_and_reads_its_facts_as_before(
    store: Store, account: str, engine: str, request: pytest.FixtureRequest, restored_version: None
) -> None:
    plan = await Writer(store, account).write("acme-api", "deploys_from", "main", T0)
    before = [v async for v in store.export(account)]
    await forget_schema_version(engine, request)
    assert await store.schema_version() is None
    assert not await store.holds_nothing()  # so it is migrated, not stamped as new
    assert await ensure_schema(store) == 0  # found unversioned, migrated
    assert await store.schema_version() == CURRENT_SCHEMA
    assert [v async for v in store.export(account)] == before
    assert before[0].fact_id == plan.fact_id


async def test_episodes_kept_before_they_had_a_place_take_their_facts_workspace(
    store: Store, account: str, restored_version: None
) -> None:
    # Schema 2 kept episodes with no workspace: every workspace's episode search found them.
    def kept(episode_id: str) -> Episode:
        return Episode(episode_id=episode_id, source="remember", content=f"said {episode_id}",
                       created_at=T0, valid_at=T0)  # fmt: skip

    for episode_id in ("one-place", "two-places", "unplaced-fact", "no-fact"):
        assert await store.save_episode(account, kept(episode_id))
    writer, api, web = Writer(store, account), "worktree:/src/api", "worktree:/src/web"
    await writer.write("api", "ci", "CircleCI", T0, episode_id="one-place", workspace=api)
    await writer.write("api", "db", "Postgres", T0, episode_id="two-places", workspace=api)
    await writer.write("web", "db", "SQLite", T0, episode_id="two-places", workspace=web)
    await writer.write("team", "editor", "Zed", T0, episode_id="unplaced-fact")
    await store.record_schema_version(2)
    assert await ensure_schema(store) == 2
    assert await store.schema_version() == CURRENT_SCHEMA
    placed = {e.episode_id: e.workspace for e in await store.export_episodes(account)}
    assert placed == {"one-place": api, "two-places": None, "unplaced-fact": None, "no-fact": None}
    # Read from another workspace, the placed episode is no longer found; from its own, it is.
    from_web = await store.search_episodes(account, "said", 10, workspaces=(web,))
    from_api = await store.search_episodes(account, "said", 10, workspaces=(api,))
    assert "one-place" not in {e.episode_id for e in from_web}
    assert "one-place" in {e.episode_id for e in from_api}


async def test_a_version_kept_before_starts_said_whether_they_were_stated_reads_as_stated(
    store: Store, account: str, engine: str, request: pytest.FixtureRequest, restored_version: None
) -> None:
    writer = Writer(store, account)
    told = await writer.write("api", "deploy_target", "Heroku", T0, start_stated=False)
    kept = await writer.write("api", "cache", "Redis", T0, start_stated=False)
    # Schema 3 kept no start_stated: take it off one version, as such a store has it.
    statement = "MATCH ()-[e:RELATES_TO]->() WHERE e.uuid = $id REMOVE e.start_stated"
    await run_cypher(engine, request, account, statement, {"id": kept.version_id})
    await store.record_schema_version(3)
    assert await ensure_schema(store) == 3
    assert await store.schema_version() == CURRENT_SCHEMA
    starts = {v.version_id: v.start_stated async for v in store.export(account)}
    assert (starts[told.version_id], starts[kept.version_id]) == (False, True)


async def test_a_value_told_late_kept_as_corrected_before_is_migrated_to_outdated(
    store: Store, account: str, engine: str, request: pytest.FixtureRequest, restored_version: None
) -> None:
    writer, hour = Writer(store, account), timedelta(hours=1)
    # Heroku told at T0 + 2 h with no start; then the person's word: Fly.io since T0.
    told = {"now": T0 + 2 * hour, "start_stated": False, "tier": Tier.ASSERTED}
    heroku = await writer.write("api", "deploy_target", "Heroku", T0 + 2 * hour, **told)
    await writer.write("api", "deploy_target", "Fly.io", T0, now=T0 + 3 * hour, tier=Tier.ASSERTED)
    # A told value corrected by revise (never true) and one a later value closed stay so.
    redis = await writer.write("api", "cache", "Redis", T0 + 2 * hour, **told)
    await writer.revise(redis.fact_id, RetiredReason.CORRECTED, now=T0 + 3 * hour,
                        replacement="Memcached")  # fmt: skip
    await writer.write("api", "queue", "SQS", T0 + 2 * hour, now=T0 + 2 * hour, start_stated=False)
    await writer.write("api", "queue", "Kafka", T0 + 3 * hour, now=T0 + 3 * hour)
    # Schema 4 retired the told value a dated word overruled as corrected.
    statement = "MATCH ()-[e:RELATES_TO]->() WHERE e.uuid = $id SET e.retired_reason = 'corrected'"
    await run_cypher(engine, request, account, statement, {"id": heroku.version_id})
    await store.record_schema_version(4)
    assert await ensure_schema(store) == 4
    reasons = {
        (v.object, v.retired_reason.value if v.retired_reason else None)
        async for v in store.export(account)
    }
    assert ("Heroku", "outdated") in reasons and ("Heroku", "corrected") not in reasons
    assert ("Redis", "corrected") in reasons and ("Redis", "outdated") not in reasons
    assert {r for o, r in reasons if o == "SQS"} == {"ended"}
    # Run again (a restored backup runs it too), it finds nothing left to change.
    assert await store.outdate_told_late(account) == 0


async def test_a_server_started_on_a_newer_store_refuses_with_a_clear_message(
    store: Store, engine: str, request: pytest.FixtureRequest, tmp_path: Path,
    restored_version: None,
) -> None:  # fmt: skip
    await store.record_schema_version(CURRENT_SCHEMA + 98)
    settings = bootstrap.load_settings(data_dir=tmp_path)
    with pytest.raises(SchemaTooNew) as refused:
        await bootstrap.start_runtime(settings, store=new_store(engine, request), load_model=False)
    message = refused.value.message
    assert f"schema version {CURRENT_SCHEMA + 98}" in message
    assert f"reads up to {CURRENT_SCHEMA}" in message and "upgrade twoclocks" in message
    assert await store.schema_version() == CURRENT_SCHEMA + 98  # refused, not rewritten
