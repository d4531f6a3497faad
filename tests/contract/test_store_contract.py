"""The Store contract: every rule of DESIGN.md §2-§3 that a store enforces, on every engine."""

from __future__ import annotations

import asyncio
import itertools
from datetime import datetime, timedelta
from typing import Any

import pytest
from severable import SeverableLink
from storekit import T0, Writer, fresh_account

from twoclocks.domain.model import (
    Cardinality,
    FactVersion,
    Incoming,
    Outcome,
    Plan,
    RetiredReason,
)
from twoclocks.domain.temporal import is_visible
from twoclocks.domain.write_plan import new_version, plan_write
from twoclocks.graph.port import Clock, FactQuery, SlotAlias, Store, TimelineQuery

pytestmark = pytest.mark.anyio

US = timedelta(microseconds=1)
DAY = timedelta(days=1)


async def everything(store: Store, account: str) -> list[FactVersion]:
    """The whole account, through export."""
    return [v async for v in store.export(account)]


async def build_history(w: Writer) -> None:
    """A slot history touching every rule: replace, late value, correct, end, retract, future."""
    clock = w.clock
    a = await w.write("api", "deploys_from", "main", T0 + 1 * DAY, now=clock.tick(days=2))
    await w.write("api", "deploys_from", "trunk", T0 + 10 * DAY, now=clock.tick(days=10))
    await w.write("api", "deploys_from", "release branch", T0 + 5 * DAY, now=clock.tick(days=1))
    # A record time equal to a valid time puts two kinds of boundary on one instant.
    late = await w.write("api", "runs_on", "Postgres 15", T0 + 3 * DAY, now=T0 + 20 * DAY)
    await w.revise(
        late.fact_id, RetiredReason.CORRECTED, now=clock.tick(days=9), replacement="Postgres 16"
    )
    await w.write("api", "region", "eu-west", T0 + 2 * DAY, now=clock.tick(hours=5))
    region = (await w.store.read_slot(w.account, "api", "region")).versions[0]
    await w.revise(
        region.fact_id,
        RetiredReason.ENDED,
        at=T0 + 25 * DAY,
        now=clock.tick(),
        replacement="us-east",
    )
    await w.retract(a.fact_id, now=clock.tick(days=1))
    await w.write("api", "owner", "team blue", T0 + 40 * DAY, now=clock.tick())  # future-dated
    many = Cardinality.MANY
    await w.write("web", "uses", "React", T0 + 4 * DAY, now=clock.tick(), cardinality=many)
    await w.write("web", "uses", "Vite", T0 + 6 * DAY, now=clock.tick(), cardinality=many)


async def test_store_query_agrees_with_pure_predicates_on_every_boundary(
    store: Store, writer: Writer, account: str
) -> None:
    await build_history(writer)
    rows = await everything(store, account)
    assert len(rows) >= 12
    world = {t for v in rows for t in (v.valid_at, v.invalid_at) if t}
    record = {t for v in rows for t in (v.created_at, v.expired_at) if t}
    near = lambda ts: sorted({t + d for t in ts for d in (-US, 0 * US, US)})  # noqa: E731
    world_points, record_points = near(world), near(record)

    async def check(**kw: object) -> None:
        q = FactQuery(**kw)  # type: ignore[arg-type]
        got = await store.query(account, q)
        want = {
            v.version_id
            for v in rows
            if is_visible(v, q.now, q.as_of, q.as_believed, q.include_history, q.include_later)
        }
        assert {v.version_id for v in got} == want, kw
        assert [v.valid_at for v in got] == sorted((v.valid_at for v in got), reverse=True)

    last = max(record_points)
    cases: list[dict[str, object]] = []
    for t in sorted(set(world_points) | set(record_points)):
        cases += [
            {"now": t},
            {"now": t, "include_history": True},
            {"now": t, "include_later": True},
            {"now": t, "as_of": t},
            {"now": t, "as_believed": t},
            {"now": t, "as_of": t, "as_believed": t},
        ]
    cases += [
        {"now": last, "as_of": t, "as_believed": s}
        for t, s in itertools.product(world_points, record_points)
    ]
    for i in range(0, len(cases), 32):  # a few at a time: the answers do not depend on order
        await asyncio.gather(*(check(**case) for case in cases[i : i + 32]))
    # The slot filters narrow the same answer.
    for t in world_points[::3]:
        q = FactQuery(now=last, as_of=t, subject="api", predicate="deploys_from")
        got = {v.version_id for v in await store.query(account, q)}
        assert got == {
            v.version_id
            for v in rows
            if v.slot == ("api", "deploys_from") and is_visible(v, last, as_of=t)
        }


async def test_new_value_closes_current_with_no_gap_no_overlap(
    store: Store, writer: Writer, account: str
) -> None:
    await writer.write("prod", "hosted_on", "Hetzner", T0)
    second = await writer.write("prod", "hosted_on", "Render", T0 + 60 * DAY)
    assert second.outcome is Outcome.INSERTED
    now = T0 + 100 * DAY
    current = await store.query(account, FactQuery(now=now))
    assert [v.object for v in current] == ["Render"]
    believed = (await store.read_slot(account, "prod", "hosted_on")).versions
    old = next(v for v in believed if v.object == "Hetzner")
    new = next(v for v in believed if v.object == "Render")
    assert old.invalid_at == new.valid_at == T0 + 60 * DAY  # they meet: no gap, no overlap
    for t, obj in [(new.valid_at - US, "Hetzner"), (new.valid_at, "Render")]:
        assert [v.object for v in await store.query(account, FactQuery(now=now, as_of=t))] == [obj]


async def test_late_older_value_is_stored_closed(
    store: Store, writer: Writer, account: str
) -> None:
    await writer.write("prod", "hosted_on", "Render", T0 + 60 * DAY)
    late = await writer.write("prod", "hosted_on", "Fly", T0 + 30 * DAY)
    assert late.outcome is Outcome.STORED_CLOSED
    (fly,) = await store.versions_of(account, late.fact_id)
    assert (fly.valid_at, fly.invalid_at, fly.expired_at) == (T0 + 30 * DAY, T0 + 60 * DAY, None)
    now = T0 + 100 * DAY
    assert [v.object for v in await store.query(account, FactQuery(now=now))] == ["Render"]


async def test_restatement_adds_episode_not_version(
    store: Store, writer: Writer, account: str
) -> None:
    first = await writer.write("ci", "provider", "CI runs on CircleCI", T0, episode_id="ep-1")
    again = await writer.write(
        "ci", "provider", "our CI runs on CircleCI", T0 + DAY, episode_id="ep-2"
    )
    assert again.outcome is Outcome.RESTATED and not again.insert
    (version,) = await store.versions_of(account, first.fact_id)
    assert version.episodes == ("ep-1", "ep-2")
    assert len(await everything(store, account)) == 1


async def test_apply_is_refused_when_the_slot_counter_moved(
    store: Store, writer: Writer, account: str
) -> None:
    await writer.write("prod", "hosted_on", "Hetzner", T0)
    stale = await store.read_slot(account, "prod", "hosted_on")
    await writer.write("prod", "hosted_on", "Render", T0 + DAY)
    before = await everything(store, account)
    counter = (await store.read_slot(account, "prod", "hosted_on")).counter
    incoming = Incoming(subject="prod", predicate="hosted_on", object="Fly", valid_at=T0 + 2 * DAY)
    plan = plan_write(incoming, stale.versions, writer.clock.tick(), writer.new_id)
    assert not await store.apply(account, plan, "prod", "hosted_on", stale.counter)
    assert await everything(store, account) == before
    assert (await store.read_slot(account, "prod", "hosted_on")).counter == counter == 2


async def test_an_alias_of_a_slot_name_refuses_a_write_that_read_before_it(
    store: Store, writer: Writer, account: str
) -> None:
    await writer.write("core", "steward", "Lucía", T0)
    stale = await store.read_slot(account, "core", "steward")
    assert (stale.predicate, stale.merged_into) == ("steward", None)
    merged = SlotAlias(subject="core", alias="steward", canonical="owner")
    await store.record_alias(account, merged)
    before = await everything(store, account)
    incoming = Incoming(subject="core", predicate="steward", object="Mateo", valid_at=T0 + DAY)
    plan = plan_write(incoming, stale.versions, writer.clock.tick(), writer.new_id)
    # The alias moved the name's counter: the write planned before it is refused...
    assert not await store.apply(account, plan, "core", "steward", stale.counter)
    assert await everything(store, account) == before
    # ...and its next read finds where the name went.
    fresh = await store.read_slot(account, "core", "steward")
    assert fresh.merged_into == "owner" and fresh.counter == stale.counter + 1
    # A name with no slot yet gets a counter too, so a first write racing drift loses.
    await store.record_alias(account, SlotAlias(subject="core", alias="keeper", canonical="owner"))
    assert (await store.read_slot(account, "core", "keeper")).counter == 1


async def test_twenty_concurrent_applies_to_one_slot_leave_one_winner(
    store: Store, writer: Writer, account: str
) -> None:
    await writer.write("prod", "hosted_on", "Hetzner", T0)
    state = await store.read_slot(account, "prod", "hosted_on")
    now = writer.clock.tick()
    plans = [
        plan_write(
            Incoming(subject="prod", predicate="hosted_on", object=f"host {i}", valid_at=T0 + DAY),
            state.versions,
            now,
            writer.new_id,
        )
        for i in range(20)
    ]
    won = await asyncio.gather(
        *(store.apply(account, p, "prod", "hosted_on", state.counter) for p in plans)
    )
    assert sum(won) == 1
    after = await store.read_slot(account, "prod", "hosted_on")
    assert after.counter == state.counter + 1
    winner = plans[won.index(True)]
    current = await store.query(account, FactQuery(now=T0 + 2 * DAY))
    assert [v.version_id for v in current] == [winner.version_id]
    assert len(await everything(store, account)) == 1 + len(winner.insert)


async def test_failed_apply_leaves_no_partial_write(
    store: Store, writer: Writer, account: str
) -> None:
    await writer.write("prod", "hosted_on", "Hetzner", T0)
    state = await store.read_slot(account, "prod", "hosted_on")
    before = await everything(store, account)
    incoming = Incoming(
        subject="prod", predicate="hosted_on", object="Render", valid_at=T0 + DAY, episode_id="ep-x"
    )
    plan = plan_write(incoming, state.versions, writer.clock.tick(), writer.new_id)
    assert plan.expire and len(plan.insert) == 2
    # The last insert carries a vector no engine can store (of the right length, so no
    # check before the query refuses it): the engine fails after the expiry and the
    # first insert already ran, so both must be undone.
    bad = {plan.insert[-1].version_id: [0.5] * 383 + [{"not": "a number"}]}
    with pytest.raises(Exception):  # noqa: B017 - each engine raises its own error type
        await store.apply(account, plan, "prod", "hosted_on", state.counter, bad)  # type: ignore[arg-type]
    assert await everything(store, account) == before
    assert (await store.read_slot(account, "prod", "hosted_on")).counter == state.counter
    assert await store.apply(account, plan, "prod", "hosted_on", state.counter)


async def test_accounts_never_see_each_other(store: Store, writer: Writer, account: str) -> None:
    other = Writer(store, fresh_account())
    mine = await writer.write("prod", "hosted_on", "Hetzner", T0)
    theirs = await other.write("prod", "hosted_on", "Render", T0)
    now = writer.clock.tick(days=5)
    for w, plan, stranger in ((writer, mine, theirs), (other, theirs, mine)):
        acct = w.account
        assert [v.version_id for v in await store.query(acct, FactQuery(now=now))] == [
            plan.version_id
        ]
        assert await store.versions_of(acct, stranger.fact_id) == []
        slot = await store.read_slot(acct, "prod", "hosted_on")
        assert [v.version_id for v in slot.versions] == [plan.version_id] and slot.counter == 1
        for clock in Clock:
            timeline = await store.timeline(acct, TimelineQuery(clock=clock, subject="prod"))
            assert [v.version_id for v in timeline] == [plan.version_id]
        assert [v.version_id for v in await everything(store, acct)] == [plan.version_id]
        assert await store.delete_fact(acct, stranger.fact_id) == 0
    assert len(await store.versions_of(account, mine.fact_id)) == 1


async def test_timeline_orders_by_the_chosen_clock(
    store: Store, writer: Writer, account: str
) -> None:
    # Written in record order c, a, b; world order a, b, c.
    await writer.write("x", "p3", "c", T0 + 30 * DAY, now=T0 + 1 * DAY)
    await writer.write("x", "p1", "a", T0 + 10 * DAY, now=T0 + 2 * DAY)
    await writer.write("x", "p2", "b", T0 + 20 * DAY, now=T0 + 3 * DAY)
    await writer.write("y", "p1", "other subject", T0 + 15 * DAY, now=T0 + 4 * DAY)

    async def objects(clock: Clock, since: datetime | None, until: datetime | None) -> list[str]:
        query = TimelineQuery(clock=clock, since=since, until=until, subject="x")
        return [v.object for v in await store.timeline(account, query)]

    assert await objects(Clock.WORLD, None, None) == ["a", "b", "c"]
    assert await objects(Clock.SYSTEM, None, None) == ["c", "a", "b"]
    # Half-open: since is inclusive, until exclusive.
    assert await objects(Clock.WORLD, T0 + 10 * DAY, T0 + 30 * DAY) == ["a", "b"]
    assert await objects(Clock.WORLD, T0 + 10 * DAY + US, T0 + 30 * DAY + US) == ["b", "c"]
    assert await objects(Clock.SYSTEM, T0 + 2 * DAY, T0 + 3 * DAY) == ["a"]
    everyone = await store.timeline(account, TimelineQuery(clock=Clock.WORLD))
    assert [v.object for v in everyone] == ["a", "other subject", "b", "c"]


async def test_timeline_ends_too_reads_the_versions_that_ended_within_the_range(
    store: Store, writer: Writer, account: str
) -> None:
    # "What changed this week?": b began in it and closed a, which began long before.
    await writer.write("x", "p1", "a", T0 + 10 * DAY)
    await writer.write("x", "p1", "b", T0 + 20 * DAY)
    await writer.write("x", "p2", "c", T0 + 5 * DAY)
    await writer.write("x", "p3", "d", T0 + 30 * DAY)

    async def objects(ends_too: bool) -> list[str]:
        query = TimelineQuery(
            clock=Clock.WORLD, since=T0 + 15 * DAY, until=T0 + 25 * DAY, ends_too=ends_too
        )
        return [v.object for v in await store.timeline(account, query)]

    assert await objects(ends_too=False) == ["b"]
    assert await objects(ends_too=True) == ["a", "b"]


async def test_timeline_latest_keeps_the_latest_changes_an_end_counting_as_its_moment(
    store: Store, writer: Writer, account: str
) -> None:
    # In [15, 25): f began on day 16, a (from day 10) ended on day 17, e began on day 22.
    a = await writer.write("x", "p1", "a", T0 + 10 * DAY)
    await writer.revise(a.fact_id, RetiredReason.ENDED, at=T0 + 17 * DAY)
    await writer.write("x", "p5", "f", T0 + 16 * DAY)
    await writer.write("x", "p4", "e", T0 + 22 * DAY)
    query = TimelineQuery(
        clock=Clock.WORLD, since=T0 + 15 * DAY, until=T0 + 25 * DAY, ends_too=True, latest=2
    )
    # The latest two changes, in the clock's order (a began first).
    assert [v.object for v in await store.timeline(account, query)] == ["a", "e"]
    whole = query.model_copy(update={"latest": None})
    assert [v.object for v in await store.timeline(account, whole)] == ["a", "f", "e"]


async def test_timeline_count_is_how_many_the_same_timeline_returns(
    store: Store, writer: Writer, account: str
) -> None:
    # An empty timeline's "N versions in other workspaces" counts without reading them.
    await writer.write("x", "p1", "a", T0 + 10 * DAY, workspace="worktree:/a")
    await writer.write("x", "p1", "b", T0 + 20 * DAY, workspace="worktree:/b")
    await writer.write("x", "p2", "c", T0 + 30 * DAY)
    await writer.write("y", "p1", "d", T0 + 15 * DAY, workspace="worktree:/a")
    cases = [
        TimelineQuery(clock=Clock.WORLD, subject="x"),
        TimelineQuery(clock=Clock.WORLD),
        TimelineQuery(clock=Clock.WORLD, since=T0 + 15 * DAY, subject="x"),
        TimelineQuery(clock=Clock.SYSTEM, subject="x", predicate="p1"),
        TimelineQuery(clock=Clock.WORLD, subject="x", workspaces=("worktree:/b",)),
        TimelineQuery(
            clock=Clock.WORLD, until=T0 + 12 * DAY, predicate="p1", workspaces=("worktree:/a",)
        ),
    ]
    counts = []
    for query in cases:
        rows = await store.timeline(account, query)
        n = await store.timeline_count(account, query)
        assert n == len(rows)
        counts.append(n)
    assert counts == [4, 5, 2, 3, 2, 2]  # each filter narrows what is counted


async def test_export_has_both_clocks_on_every_version(
    store: Store, writer: Writer, account: str
) -> None:
    await build_history(writer)
    history = len(await everything(store, account))
    # Over two export pages, all in one record instant: paging must break the tie by id.
    now = writer.clock.tick()
    incoming = Incoming(subject="bulk", predicate="item", object="x", valid_at=T0)
    bulk = [
        new_version(
            incoming.model_copy(update={"object": f"item {i}"}),
            version_id=writer.new_id(),
            fact_id=writer.new_id(),
            cardinality=Cardinality.MANY,
            now=now,
            invalid_at=None,
        )
        for i in range(2100)
    ]
    assert await store.apply(account, Plan(now=now, insert=tuple(bulk)), "bulk", "item", 0)
    rows = await everything(store, account)
    assert len({v.version_id for v in rows}) == len(rows) == 2100 + history
    assert [v.created_at for v in rows] == sorted(v.created_at for v in rows)
    assert all(v.valid_at and v.created_at for v in rows)
    expired = [v for v in rows if v.expired_at is not None]
    assert expired and all(v.retired_reason for v in expired)
    assert any(v.invalid_at for v in rows)


async def test_delete_fact_removes_every_version(
    store: Store, writer: Writer, account: str
) -> None:
    first = await writer.write("prod", "hosted_on", "Hetzner", T0)
    await writer.write("prod", "hosted_on", "Render", T0 + DAY)
    await writer.write("prod", "region", "eu", T0)
    versions = await store.versions_of(account, first.fact_id)
    assert len(versions) == 2  # the expired original and its closed copy
    assert await store.delete_fact(account, first.fact_id) == 2
    assert await store.versions_of(account, first.fact_id) == []
    assert await store.delete_fact(account, first.fact_id) == 0
    assert sorted(v.object for v in await everything(store, account)) == ["Render", "eu"]


async def test_fact_ids_starting_finds_each_fact_once_by_its_prefix(
    store: Store, writer: Writer, account: str
) -> None:
    first = await writer.write("prod", "hosted_on", "Hetzner", T0)
    # Closes first: first now has two versions (expired original, closed copy).
    render = await writer.write("prod", "hosted_on", "Render", T0 + DAY)
    second = await writer.write("prod", "region", "eu", T0)
    other = fresh_account()
    await Writer(store, other).write("prod", "region", "us", T0)
    ids = sorted([first.fact_id, render.fact_id, second.fact_id])
    assert len(await store.versions_of(account, first.fact_id)) == 2
    # The writer's ids share their first letter: "v" names every fact, once each.
    assert await store.fact_ids_starting(account, "v", 10) == ids
    assert await store.fact_ids_starting(account, "v", 1) == ids[:1]
    assert await store.fact_ids_starting(account, first.fact_id, 10) == [first.fact_id]
    assert await store.fact_ids_starting(account, "zzz", 10) == []


async def test_query_keeps_this_workspace_and_unplaced_rows(
    store: Store, writer: Writer, account: str
) -> None:
    await writer.write("repo", "test_cmd", "make test", T0, workspace="wt-a")
    await writer.write("repo", "lint_cmd", "ruff", T0, workspace="wt-b")
    await writer.write("repo", "lang", "python", T0)
    now = writer.clock.tick()
    q = FactQuery(now=now, workspaces=("wt-a",))
    assert sorted(v.object for v in await store.query(account, q)) == ["make test", "python"]
    assert [v.object for v in await store.query(account, FactQuery(now=now, limit=1))]


async def test_the_text_filter_matches_subject_slot_value_or_workspace_in_any_case(
    store: Store, writer: Writer, account: str
) -> None:
    await writer.write("api", "working_on", "login timeout", T0, workspace="worktree:/src/hotfix")
    # Another slot: this raw writer (no service) would close a same-slot value elsewhere.
    await writer.write("api", "current_task", "router cache", T0, workspace="worktree:/src/api")
    await writer.write("team", "standup", "09:30", T0)
    now = writer.clock.tick()

    async def found(text: str) -> list[str]:
        return sorted(v.object for v in await store.query(account, FactQuery(now=now, text=text)))

    assert await found("HOTFIX") == ["login timeout"]
    assert await found("_") == ["login timeout", "router cache"]
    assert await found("Router") == ["router cache"]
    assert await found("team") == ["09:30"]
    assert await found("nowhere") == []
    assert await store.count(account, FactQuery(now=now, text="src")) == 2


async def test_a_page_of_a_query_is_its_limit_after_its_offset_and_count_ignores_both(
    store: Store, writer: Writer, account: str
) -> None:
    for n in range(5):
        await writer.write("repo", f"p{n}", f"v{n}", T0 - n * DAY)
    await writer.write("other", "lang", "go", T0 - 10 * DAY)
    now = writer.clock.tick()
    whole = [v.object for v in await store.query(account, FactQuery(now=now))]
    assert whole == ["v0", "v1", "v2", "v3", "v4", "go"]
    for offset, limit in [(0, 2), (2, 2), (4, 2), (5, 10), (6, 3)]:
        page = await store.query(account, FactQuery(now=now, limit=limit, offset=offset))
        assert [v.object for v in page] == whole[offset : offset + limit]
    assert await store.count(account, FactQuery(now=now, limit=1, offset=3)) == 6
    assert await store.count(account, FactQuery(now=now, subject="repo")) == 5
    assert await store.count(account, FactQuery(now=now, subject="none")) == 0


async def test_slot_names_map_aliases_to_their_slot(
    store: Store, writer: Writer, account: str
) -> None:
    await writer.write("ci", "ci_provider", "CircleCI", T0)
    await writer.write("ci", "deploy_target", "Render", T0)
    await store.record_alias(
        account, SlotAlias(subject="ci", alias="ci_platform", canonical="ci_provider")
    )
    await store.record_alias(
        account, SlotAlias(subject="ci", alias="ci_platform", canonical="ci_provider")
    )  # idempotent
    await store.record_alias(account, SlotAlias(subject="other", alias="x", canonical="y"))
    assert await store.slot_names(account, "ci") == {
        "ci_provider": "ci_provider",
        "deploy_target": "deploy_target",
        "ci_platform": "ci_provider",
    }
    assert await store.slot_names(fresh_account(), "ci") == {}


async def test_account_names_are_unique_and_keys_find_them(store: Store) -> None:
    name, key = fresh_account(), f"hash-{fresh_account()}"
    assert await store.account_for_key(key) is None
    assert await store.save_account(name, key, T0)
    assert not await store.save_account(name, "another-hash", T0)
    assert await store.account_for_key(key) == name
    assert await store.account_for_key("another-hash") is None
    racers = [fresh_account() for _ in range(1)] * 5
    won = await asyncio.gather(*(store.save_account(n, f"k{i}", T0) for i, n in enumerate(racers)))
    assert sum(won) == 1


async def test_text_round_trips_exactly(store: Store, writer: Writer, account: str) -> None:
    # FalkorDB's client inlines parameters into the query text: quoting must survive all this.
    texts = [
        "He said \"hi\"\nthen \\path\\ ünï 🙂 $x {a: 1} `b` 'q'\tend",
        "a\\",
        "CYPHER x=1 RETURN 1",
    ]
    for i, text in enumerate(texts):
        # Past the write path's one-line rule, as a row stored before it or imported: the
        # store must keep a newline and a tab exactly, whatever the service now refuses.
        incoming = Incoming.model_construct(
            subject=text, predicate=f"p{i}", object=text, valid_at=T0
        )
        state = await store.read_slot(account, text, f"p{i}")
        plan = plan_write(incoming, state.versions, writer.clock.tick(), writer.new_id)
        assert await store.apply(account, plan, text, f"p{i}", state.counter)
        (got,) = await store.query(account, FactQuery(now=T0, subject=text))
        assert (got.subject, got.object) == (text, text)


@pytest.mark.falkordb
async def test_falkordb_string_range_bug_does_not_affect_us(falkordb_server: Any) -> None:
    from falkordb.asyncio import FalkorDB

    from twoclocks.graph.falkordb.store import FalkorDBStore

    socket = str(falkordb_server.socket_path)
    raw, store = FalkorDB(unix_socket_path=socket), FalkorDBStore(socket)
    await store.start()
    try:
        account = fresh_account()
        graph = raw.select_graph(account)
        await graph.query("CREATE INDEX FOR (n:Probe) ON (n.at)")
        await graph.query(
            "UNWIND range(1, 9) AS d "
            "CREATE (:Probe {at: '2026-01-0' + toString(d) + 'T00:00:00+00:00'})"
        )
        bug = await graph.query(
            "MATCH (n:Probe) WHERE n.at < '2026-01-03T00:00:00+00:00' RETURN n.at ORDER BY n.at"
        )
        # The engine bug: with a range index on a string, `<` also returns later strings.
        # If this starts failing, FalkorDB fixed it; the integer clocks stay correct anyway.
        assert ["2026-01-09T00:00:00+00:00"] in bug.result_set

        # The same shape on our integer clocks: nine values, a query on every boundary.
        w = Writer(store, account)
        for day in range(1, 10):
            await w.write("prod", "hosted_on", f"host {day}", T0 + day * DAY)
        now = w.clock.tick()
        for day in range(1, 10):
            for t, want in [
                (T0 + day * DAY - US, [f"host {day - 1}"] if day > 1 else []),
                (T0 + day * DAY, [f"host {day}"]),
            ]:
                got = await store.query(account, FactQuery(now=now, as_of=t))
                assert [v.object for v in got] == want, t
        explain = await graph.explain(
            "MATCH ()-[e:RELATES_TO]->() WHERE e.valid_at_us <= 1 RETURN e"
        )
        assert "Edge By Index Scan" in str(explain)  # the integer filter really uses an index
    finally:
        await store.close()
        await raw.aclose()


async def test_a_read_after_the_server_dropped_its_connections_still_answers(
    linked_store: tuple[Store, SeverableLink], account: str
) -> None:
    # A restarted server, or something between that closes idle connections, leaves the
    # pool holding dead ones: a read is tried once more on a fresh connection, not failed.
    store, link = linked_store
    w = Writer(store, account)
    await w.write("api", "region", "eu-west", T0, now=T0)
    link.drop()
    slot = await store.read_slot(account, "api", "region")
    assert [v.object for v in slot.versions] == ["eu-west"]
    link.drop()
    assert [v.object for v in await store.query(account, FactQuery(now=T0 + DAY))] == ["eu-west"]
    link.drop()  # and a write, whose transaction the driver or client begins again
    await w.write("api", "region", "us-east", T0 + DAY, now=T0 + DAY)
    now = await store.query(account, FactQuery(now=T0 + 2 * DAY))
    assert [v.object for v in now] == ["us-east"]
