"""Backup and restore (issue 15 point 3) on the real stores, and from one engine to the other."""

from __future__ import annotations

import itertools
import json
import re
import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from pathlib import Path

import httpx
import pytest
from conftest import new_store
from severable import SeverableLink
from storekit import T0, FakeClock, Writer, fresh_account

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.errors import AccountNotEmpty, InvalidInput, ReadNotAllowed, WriteNotAllowed
from twoclocks.domain.model import FactClass, Place, RetiredReason, Tier
from twoclocks.domain.trust import Channel
from twoclocks.domain.trust import Writer as WriterKind
from twoclocks.graph.port import Episode, SlotAlias, SlotsApart, Store
from twoclocks.service.accounts import Accounts
from twoclocks.service.backup import (
    IMPORT_SOURCE,
    export_backup,
    read_backup,
    restore_backup,
)
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import Caller, RememberRequest

pytestmark = pytest.mark.anyio

RESTORE_AT = T0 + timedelta(days=30)
ALIAS_WITH_EXTRA = '{"record": "alias", "subject": "a", "alias": "b", "canonical": "c", "x": 1}'


def person(account: str) -> Caller:
    return Caller(account=account, writer=WriterKind.PERSON, channel=Channel.CLI)


def service_on(store: Store, clock: FakeClock) -> MemoryService:
    ids = (uuid.uuid4().hex for _ in itertools.count())
    return MemoryService(store, lambda: clock.now, lambda: next(ids))


async def fill(store: Store, account: str) -> None:
    """An account with every kind of row a backup must carry."""
    assert await store.save_account(account, f"hash-{account}", T0)
    await Accounts(store, lambda: T0).update_settings(
        account,
        AccountSettings(timezone="Europe/Istanbul", places={FactClass.DECISION: Place.PROJECT}),
    )
    w = Writer(store, account)
    said = Episode(episode_id="ep-said", source="remember", content="we deploy from main",
                   created_at=T0, valid_at=T0)  # fmt: skip
    await store.save_episode(account, said)
    first = await w.write(
        "acme-api", "deploys_from", "main", T0, tier=Tier.ASSERTED, writer="person",
        fact_class=FactClass.PROJECT, place=Place.REPO, workspace="github.com/acme/api",
        category="git", episode_id="ep-said",
    )  # fmt: skip
    await w.revise(
        first.fact_id, RetiredReason.ENDED, at=T0 + timedelta(days=2), replacement="trunk"
    )
    db = await w.write("acme-api", "database", "Postgres 15", T0, tier=Tier.INFERRED)
    await w.revise(db.fact_id, RetiredReason.CORRECTED, replacement="Postgres 16")
    gone = await w.write("router", "cache", "redis", T0, tier=Tier.OBSERVED, writer="tool_rule")
    await w.retract(gone.fact_id)
    await w.write("person", "editor", "helix", T0, kind="fact", cardinality="many")
    await store.record_alias(
        account, SlotAlias(subject="acme-api", alias="deployed_from", canonical="deploys_from")
    )
    # A merge the grey zone's model decided: who decided travels with the alias.
    await store.record_alias(
        account,
        SlotAlias(
            subject="acme-api", alias="db", canonical="database", decided_by="model qwen3:4b"
        ),
    )
    # Two names kept apart (a split, or by hand): drift must not merge them after a restore.
    await store.record_apart(
        account,
        SlotsApart(
            subject="acme-api", first="owner", second="steward", decided_by="kept apart by person"
        ),
    )


async def backup_lines(store: Store, account: str) -> list[str]:
    return [line async for line in export_backup(store, person(account))]


async def restore(store: Store, account: str, lines: list[str], dry_run: bool = False):  # type: ignore[no-untyped-def]
    clock = FakeClock(RESTORE_AT)
    service = service_on(store, clock)
    return await restore_backup(
        service, Accounts(store, lambda: clock.now), person(account), read_backup(lines), dry_run
    )


def without_import_log(lines: list[str]) -> list[str]:
    return sorted(line for line in lines if json.loads(line).get("source") != IMPORT_SOURCE)


@pytest.fixture
async def both_engines(request: pytest.FixtureRequest) -> AsyncIterator[tuple[Store, Store]]:
    """A started FalkorDB store and a started Neo4j store (needs both servers)."""
    stores = (new_store("falkordb", request), new_store("neo4j", request))
    for s in stores:
        await s.start()
    try:
        yield stores
    finally:
        for s in stores:
            await s.close()


@pytest.mark.falkordb
@pytest.mark.neo4j
async def test_export_import_export_is_byte_identical_falkordb_to_neo4j_and_back(
    both_engines: tuple[Store, Store],
) -> None:
    falkordb, neo4j = both_engines
    source, middle, back = fresh_account(), fresh_account(), fresh_account()
    await fill(falkordb, source)
    original = await backup_lines(falkordb, source)
    records = {json.loads(line)["record"] for line in original}
    assert records == {"settings", "alias", "apart", "episode", "version"}
    assert len([r for r in original if '"record":"version"' in r]) == 7

    assert await neo4j.save_account(middle, f"hash-{middle}", T0)
    report = await restore(neo4j, middle, original)
    on_neo4j = await backup_lines(neo4j, middle)
    assert without_import_log(on_neo4j) == sorted(original)
    logged = [json.loads(line) for line in on_neo4j if IMPORT_SOURCE in line]
    assert [e["episode_id"] for e in logged] == [report.import_episode]

    assert await falkordb.save_account(back, f"hash-{back}", T0)
    await restore(falkordb, back, on_neo4j)
    on_falkordb = await backup_lines(falkordb, back)
    assert without_import_log(on_falkordb) == sorted(original)
    assert set(on_neo4j) < set(on_falkordb)  # the first import's log is restored too


async def test_restored_rows_keep_their_recorded_clocks_and_new_writes_get_the_stores_clock(
    store: Store, account: str
) -> None:
    source = fresh_account()
    await fill(store, source)
    original = await backup_lines(store, source)
    assert await store.save_account(account, f"hash-{account}", T0)
    await restore(store, account, original)
    restored = {v.version_id: v async for v in store.export(account)}
    before = {v.version_id: v async for v in store.export(source)}
    assert restored == before
    assert all(v.created_at < RESTORE_AT for v in restored.values())

    clock = FakeClock(RESTORE_AT + timedelta(hours=1))
    fresh = await service_on(store, clock).remember(
        person(account), RememberRequest(subject="acme-api", predicate="ci", object="github")
    )
    (new,) = await store.versions_of(account, fresh.fact_id)
    assert new.created_at == clock.now


async def test_the_import_itself_is_logged_as_an_episode(store: Store, account: str) -> None:
    source = fresh_account()
    await fill(store, source)
    assert await store.save_account(account, f"hash-{account}", T0)
    report = await restore(store, account, await backup_lines(store, source))
    (logged,) = [e for e in await store.export_episodes(account) if e.source == IMPORT_SOURCE]
    assert logged.episode_id == report.import_episode
    assert logged.created_at == RESTORE_AT
    assert "7 versions of 6 facts" in logged.content


async def test_a_backup_from_before_episodes_had_a_place_restores_them_in_their_facts_workspace(
    store: Store, account: str
) -> None:
    source = fresh_account()
    await fill(store, source)
    assert await store.save_account(account, f"hash-{account}", T0)
    # A backup written before 2026-12-04 has no workspace field on its episode lines.
    old = [
        json.dumps({k: v for k, v in json.loads(line).items() if k != "workspace"})
        if json.loads(line).get("record") == "episode"
        else line
        for line in await backup_lines(store, source)
    ]
    await restore(store, account, old)
    (said,) = [e for e in await store.export_episodes(account) if e.episode_id == "ep-said"]
    assert said.workspace == "github.com/acme/api"  # the one workspace of the fact citing it


async def test_a_backup_from_before_outdated_restores_a_value_told_late_as_outdated(
    store: Store, account: str
) -> None:
    source = fresh_account()
    w = Writer(store, source)
    told = {"now": T0 + timedelta(hours=2), "start_stated": False, "tier": Tier.ASSERTED}
    heroku = await w.write("api", "deploy_target", "Heroku", T0 + timedelta(hours=2), **told)
    await w.write("api", "deploy_target", "Fly.io", T0, now=T0 + timedelta(hours=3))
    assert await store.save_account(account, f"hash-{account}", T0)
    # A backup written before 2026-12-07 kept the told value a dated word overruled as corrected.
    old = [
        line.replace('"retired_reason":"outdated"', '"retired_reason":"corrected"')
        for line in await backup_lines(store, source)
    ]
    assert sum('"retired_reason":"corrected"' in line for line in old) == 1
    await restore(store, account, old)
    (kept,) = [v for v in await store.versions_of(account, heroku.fact_id) if v.expired_at]
    assert kept.retired_reason is RetiredReason.OUTDATED


async def test_a_dry_run_counts_and_writes_nothing(store: Store, account: str) -> None:
    source = fresh_account()
    await fill(store, source)
    assert await store.save_account(account, f"hash-{account}", T0)
    report = await restore(store, account, await backup_lines(store, source), dry_run=True)
    assert (report.dry_run, report.versions, report.facts, report.episodes, report.aliases) == (
        True, 7, 6, 1, 2,
    )  # fmt: skip
    assert report.settings and report.import_episode is None
    assert await backup_lines(store, account) == []


async def test_import_into_a_non_empty_account_is_refused_and_changes_nothing(
    store: Store, account: str
) -> None:
    source = fresh_account()
    await fill(store, source)
    await Writer(store, account).write("acme-api", "ci", "jenkins", T0)
    before = await backup_lines(store, account)
    with pytest.raises(AccountNotEmpty, match="empty account"):
        await restore(store, account, await backup_lines(store, source))
    assert await backup_lines(store, account) == before


async def test_only_the_person_may_restore_a_backup(store: Store, account: str) -> None:
    agent = Caller(account=account)
    service = service_on(store, FakeClock())
    with pytest.raises(WriteNotAllowed):
        await restore_backup(service, Accounts(store, lambda: T0), agent, read_backup([]), False)


async def test_only_the_person_may_export_a_backup(store: Store, account: str) -> None:
    # A backup is every workspace's facts and the person's words: an agent's read stays in
    # its session's workspace (DESIGN §4), so its key exports nothing.
    await store.save_episode(
        account,
        Episode(episode_id="e1", source="remember", content="x", created_at=T0, valid_at=T0),
    )
    with pytest.raises(ReadNotAllowed):
        await anext(export_backup(store, Caller(account=account)))
    assert [line async for line in export_backup(store, person(account))]


@pytest.mark.parametrize(
    ("line", "says"),
    [
        ("not json", "line 2 is not JSON"),
        ("[1, 2]", "line 2 is not a JSON object"),
        ('{"record": "mystery"}', "unknown record 'mystery'"),
        (ALIAS_WITH_EXTRA, "unknown field(s) x"),
    ],
)
def test_a_malformed_backup_line_is_refused_naming_its_line(line: str, says: str) -> None:
    good = '{"record":"alias","subject":"a","alias":"b","canonical":"c"}'
    with pytest.raises(InvalidInput, match=re.escape(says)):
        read_backup([good, line])


def test_a_backup_version_with_a_forged_line_is_refused() -> None:
    row = {"record": "version", "version_id": "v1", "fact_id": "f1", "subject": "a\nb",
           "predicate": "p", "object": "o", "valid_at": "2026-01-01T00:00:00Z",
           "created_at": "2026-01-01T00:00:00Z"}  # fmt: skip
    with pytest.raises(InvalidInput, match="line 1: subject contains the control character"):
        read_backup([json.dumps(row)])


async def test_an_export_from_a_store_that_is_down_is_a_503_not_a_200_cut_short(
    linked_store: tuple[Store, SeverableLink], tmp_path: Path
) -> None:
    store, link = linked_store
    settings = bootstrap.load_settings(data_dir=tmp_path)
    runtime = await bootstrap.start_runtime(settings, store=store, load_model=False)
    key = await runtime.accounts.create(fresh_account())
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=create_app(runtime)),
        base_url="http://test",
        headers={"Authorization": f"Bearer {key}"},
    ) as api:
        assert (await api.get("/v1/export")).status_code == 200
        link.cut()
        r = await api.get("/v1/export")
    await runtime.close()
    assert r.status_code == 503 and r.json()["error"] == "StoreUnavailable"
