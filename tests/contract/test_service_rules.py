"""DESIGN.md §3 rules through the service, on every real store (FalkorDB and Neo4j)."""

from __future__ import annotations

import asyncio
import itertools
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from storekit import FakeClock

from twoclocks.domain.errors import (
    FactAlreadyRetired,
    FactNotFound,
    InvalidInput,
    InvalidTemporalRange,
    ReadNotAllowed,
    SecretRefused,
)
from twoclocks.domain.places import Workspace
from twoclocks.domain.trust import Writer
from twoclocks.graph.port import Episode, Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import (
    Caller,
    FactsRequest,
    RememberRequest,
    Replacement,
    ReviseRequest,
    TimelineRequest,
)

pytestmark = pytest.mark.anyio


def day(month: int, d: int) -> datetime:
    return datetime(2026, month, d, tzinfo=UTC)


def service_on(store: Store, clock: FakeClock, resolver=None) -> MemoryService:
    ids = (uuid.uuid4().hex for _ in itertools.count())
    kwargs = {"resolve_workspace": resolver} if resolver else {}
    return MemoryService(store, lambda: clock.now, lambda: next(ids), **kwargs)


def two_worktrees(store: Store) -> tuple[MemoryService, FakeClock]:
    """A service whose /w/one and /w/two are two worktrees; /w/one is in project /w."""
    spaces = {
        "/w/one": Workspace(worktree="worktree:/w/one", project="project:/w"),
        "/w/two": Workspace(worktree="worktree:/w/two"),
    }
    clock = FakeClock(day(1, 1))
    return service_on(store, clock, resolver=lambda cwd: spaces.get(cwd or "", Workspace())), clock


async def objects(svc: MemoryService, who: Caller, **query) -> list[str]:
    return sorted(f.object for f in await svc.facts(who, FactsRequest(**query)))


async def test_seed_table_and_what_the_store_believed_on_march_1_about_may_1(
    store: Store, account: str
) -> None:
    clock = FakeClock(day(2, 2))
    svc, who = service_on(store, clock), Caller(account=account)
    main = await svc.remember(
        who,
        RememberRequest(
            subject="acme-api", predicate="deploys_from", object="main", valid_at=day(2, 2)
        ),
    )
    pg = await svc.remember(
        who,
        RememberRequest(
            subject="acme-api", predicate="database", object="Postgres 15", valid_at=day(2, 2)
        ),
    )
    clock.now = day(4, 14)
    await svc.revise(
        who,
        main.fact_id,
        ReviseRequest(reason="ended", at=day(4, 14), replacement=Replacement(object="trunk")),
    )
    clock.now = day(6, 9)
    await svc.revise(
        who,
        pg.fact_id,
        ReviseRequest(reason="corrected", replacement=Replacement(object="Postgres 16")),
    )
    clock.now = day(7, 1)

    assert await objects(svc, who) == ["Postgres 16", "trunk"]
    assert await objects(svc, who, as_of=day(3, 1)) == ["Postgres 16", "main"]
    # "What did we believe on May 1" is about May 1; with history, every version held then.
    assert await objects(svc, who, as_believed=day(5, 1)) == ["Postgres 15", "trunk"]
    assert await objects(svc, who, as_believed=day(5, 1), include_history=True) == [
        "Postgres 15",
        "main",
        "trunk",
    ]
    assert await objects(svc, who, as_of=day(5, 1), as_believed=day(5, 1)) == [
        "Postgres 15",
        "trunk",
    ]
    # What the Postgres seed's in-place UPDATE cannot answer:
    assert await objects(svc, who, as_of=day(5, 1), as_believed=day(3, 1)) == [
        "Postgres 15",
        "main",
    ]


async def test_twenty_concurrent_revisions_leave_exactly_one_successor(
    store: Store, account: str
) -> None:
    clock = FakeClock(day(1, 1))
    svc, who = service_on(store, clock), Caller(account=account)
    fact = await svc.remember(
        who,
        RememberRequest(
            subject="prod", predicate="ci_provider", object="CircleCI", valid_at=day(1, 1)
        ),
    )
    clock.now = day(2, 1)

    async def revise(n: int) -> str:
        try:
            await svc.revise(
                who,
                fact.fact_id,
                ReviseRequest(reason="ended", replacement=Replacement(object=f"Buildkite {n}")),
            )
            return "ok"
        except FactAlreadyRetired:
            return "retired"

    results = await asyncio.gather(*(revise(n) for n in range(20)))
    assert sorted(results).count("ok") == 1 and results.count("retired") == 19
    current = await svc.facts(who, FactsRequest(subject="prod"))
    assert len(current) == 1 and current[0].supersedes == fact.fact_id


async def test_twenty_concurrent_new_values_leave_one_current_and_chained_windows(
    store: Store, account: str
) -> None:
    clock = FakeClock(day(3, 1))
    svc, who = service_on(store, clock), Caller(account=account)
    starts = [day(1, 1) + timedelta(days=n) for n in range(20)]
    await asyncio.gather(
        *(
            svc.remember(
                who,
                RememberRequest(
                    subject="svc", predicate="on_call", object=f"engineer {n}", valid_at=t
                ),
            )
            for n, t in enumerate(starts)
        )
    )
    current = await svc.facts(who, FactsRequest(subject="svc"))
    assert [f.object for f in current] == ["engineer 19"]
    believed = await svc.facts(
        who, FactsRequest(subject="svc", as_believed=clock.now, include_history=True)
    )
    windows = sorted((f.valid_at, f.invalid_at) for f in believed)
    assert len(windows) == 20
    for (_, end), (next_start, _) in itertools.pairwise(windows):
        assert end == next_start, "closed windows must meet with no gap and no overlap"


async def test_failed_revision_leaves_the_original_current(store: Store, account: str) -> None:
    clock = FakeClock(day(1, 1))
    svc, who = service_on(store, clock), Caller(account=account)
    fact = await svc.remember(
        who,
        RememberRequest(subject="acme", predicate="runtime", object="node 20", valid_at=day(1, 1)),
    )
    clock.now = day(2, 1)
    with pytest.raises(InvalidInput):
        await svc.revise(
            who,
            fact.fact_id,
            ReviseRequest(
                reason="ended", replacement=Replacement.model_construct(object="x" * 501)
            ),
        )
    assert [f.object for f in await svc.facts(who, FactsRequest(subject="acme"))] == ["node 20"]
    assert len(await store.versions_of(account, fact.fact_id)) == 1


async def test_revise_errors_are_typed_and_change_nothing(store: Store, account: str) -> None:
    clock = FakeClock(day(1, 10))
    svc, who = service_on(store, clock), Caller(account=account)
    fact = await svc.remember(
        who,
        RememberRequest(subject="demo", predicate="build_tool", object="Make", valid_at=day(1, 10)),
    )
    with pytest.raises(FactNotFound):
        await svc.revise(who, "no-such-fact", ReviseRequest(reason="corrected"))
    with pytest.raises(InvalidTemporalRange):
        await svc.revise(who, fact.fact_id, ReviseRequest(reason="ended", at=day(1, 1)))
    assert len(await store.versions_of(account, fact.fact_id)) == 1
    await svc.revise(who, fact.fact_id, ReviseRequest(reason="corrected"))
    with pytest.raises(FactAlreadyRetired):
        await svc.revise(who, fact.fact_id, ReviseRequest(reason="ended"))


async def test_secret_is_refused_and_export_shows_nothing_of_it(store: Store, account: str) -> None:
    svc, who = service_on(store, FakeClock(day(1, 1))), Caller(account=account)
    with pytest.raises(SecretRefused):
        await svc.remember(
            who,
            RememberRequest(
                subject="ci", predicate="token", object="ghp_abcdefghijklmnopqrstuvwxyz0123456789"
            ),
        )
    assert [v async for v in svc.export(who)] == []


async def test_write_closes_only_what_it_can_see_and_user_facts_close_everywhere(
    store: Store, account: str
) -> None:
    svc, clock = two_worktrees(store)
    who = Caller(account=account)
    for cwd, branch in (("/w/one", "feature-a"), ("/w/two", "feature-b")):
        await svc.remember(
            who,
            RememberRequest(
                subject="session", predicate="working_on", object=branch, cwd=cwd, fact_class="task"
            ),
        )
    clock.now = day(1, 2)
    assert await objects(svc, who, cwd="/w/one") == ["feature-a"]
    assert await objects(svc, who, cwd="/w/two") == ["feature-b"]

    await svc.remember(
        who,
        RememberRequest(
            subject="me", predicate="name", object="Selin", cwd="/w/one", fact_class="user"
        ),
    )
    clock.now = day(1, 3)
    await svc.remember(
        who,
        RememberRequest(
            subject="me", predicate="name", object="Selin Aydin", cwd="/w/two", fact_class="user"
        ),
    )
    clock.now = day(1, 4)
    for cwd in ("/w/one", "/w/two"):
        assert await objects(svc, who, cwd=cwd, subject="me") == ["Selin Aydin"]


async def test_a_write_answers_where_the_fact_applies_and_a_restatement_only_widens_it(
    store: Store, account: str
) -> None:
    # With no class a fact is the worktree's (DESIGN §4); the answer says so, so a person
    # who typed it in one checkout is not surprised when the next one's block lacks it.
    # Said again with a wider class it is widened in place; with a narrower one, kept.
    svc, clock = two_worktrees(store)
    who = Caller(account=account)

    async def write(obj: str, **extra) -> tuple[object, str | None, str | None]:
        clock.tick(seconds=60)
        req = RememberRequest(subject="user", predicate="editor", object=obj, cwd="/w/one", **extra)
        answer = await svc.remember(who, req)
        return answer.place, answer.workspace, answer.raised

    assert await write("Helix") == ("worktree", "worktree:/w/one", None)
    assert await write("Helix") == ("worktree", "worktree:/w/one", None)
    assert await write("Helix", fact_class="project") == (
        "project",
        "project:/w",
        "place worktree -> project",
    )
    assert await write("Helix", fact_class="user") == (
        "everywhere",
        None,
        "place project -> everywhere",
    )
    assert await write("Helix", fact_class="project") == ("everywhere", None, None)
    assert await write("Zed", fact_class="project") == ("project", "project:/w", None)
    # Widened, the closed Helix is history everywhere; Zed is the project's only.
    seen = await objects(svc, who, subject="user", include_history=True, cwd="/w/two")
    assert set(seen) == {"Helix"}


async def test_a_fact_widened_to_everywhere_closes_what_another_worktree_held(
    store: Store, account: str
) -> None:
    # Zed typed in one checkout, Helix in another (no class: each its worktree's). Said
    # again with class user, Zed follows the person everywhere and Helix is history.
    svc, clock = two_worktrees(store)
    who = Caller(account=account)
    for cwd, editor in (("/w/one", "Zed"), ("/w/two", "Helix")):
        clock.tick(seconds=60)
        req = RememberRequest(subject="user", predicate="editor", object=editor, cwd=cwd)
        await svc.remember(who, req)
    clock.tick(seconds=60)
    req = RememberRequest(
        subject="user", predicate="editor", object="Zed", cwd="/w/one", fact_class="user"
    )
    done = await svc.remember(who, req)
    assert (done.outcome, done.raised) == ("restated", "place worktree -> everywhere")
    assert [r.object for r in done.replaced] == ["Helix"]
    for cwd in ("/w/one", "/w/two"):
        assert await objects(svc, who, cwd=cwd, subject="user") == ["Zed"]


async def test_a_correction_of_a_widened_fact_gives_back_what_the_widening_closed(
    store: Store, account: str
) -> None:
    # Zed widened to everywhere closed Helix in the other checkout; Zed was never true,
    # so Helix is that checkout's editor again, from its own start.
    svc, clock = two_worktrees(store)
    who = Caller(account=account)
    written = {}
    for cwd, editor in (("/w/one", "Zed"), ("/w/two", "Helix")):
        clock.tick(seconds=60)
        req = RememberRequest(subject="user", predicate="editor", object=editor, cwd=cwd)
        written[editor] = await svc.remember(who, req)
    (helix_before,) = await svc.facts(who, FactsRequest(subject="user", cwd="/w/two"))
    clock.tick(seconds=60)
    req = RememberRequest(
        subject="user", predicate="editor", object="Zed", cwd="/w/one", fact_class="user"
    )
    await svc.remember(who, req)
    clock.tick(seconds=60)

    done = await svc.revise(who, written["Zed"].fact_id, ReviseRequest(reason="corrected"))

    assert done.restored == [written["Helix"].fact_id]
    assert done.values == {written["Helix"].fact_id: "Helix"}
    assert await objects(svc, who, cwd="/w/two", subject="user") == ["Helix"]
    assert await objects(svc, who, cwd="/w/one", subject="user") == []
    helix = await svc.facts(who, FactsRequest(subject="user", cwd="/w/two"))
    assert [(f.valid_at, f.invalid_at) for f in helix] == [(helix_before.valid_at, None)]


async def test_account_cannot_read_revise_or_count_another_accounts_facts(
    store: Store, account: str
) -> None:
    clock = FakeClock(day(1, 1))
    svc = service_on(store, clock)
    owner, other = Caller(account=account), Caller(account=account + "b")
    fact = await svc.remember(
        owner,
        RememberRequest(subject="prod", predicate="db", object="Postgres 16", valid_at=day(1, 1)),
    )
    clock.now = day(1, 2)
    assert await svc.facts(other, FactsRequest(subject="prod")) == []
    assert await svc.facts(other, FactsRequest(include_history=True)) == []
    assert [f async for f in svc.export(other)] == []
    # Revising or retracting B's id from A says "not found", exactly as for an id
    # that never existed: nothing tells A the fact exists.
    for act in (
        svc.revise(other, fact.fact_id, ReviseRequest(reason="corrected")),
        svc.retract(other, fact.fact_id),
        svc.reopen(other, fact.fact_id),
    ):
        with pytest.raises(FactNotFound) as refused:
            await act
        assert fact.fact_id in refused.value.message
    assert [f.object for f in await svc.facts(owner, FactsRequest(subject="prod"))] == [
        "Postgres 16"
    ]


async def test_account_settings_round_trip_and_belong_to_one_account(
    store: Store, account: str
) -> None:
    from twoclocks.domain.account_settings import AccountSettings
    from twoclocks.service.accounts import Accounts

    accounts = Accounts(store, lambda: day(1, 1))
    await accounts.create(account)
    await accounts.create(account + "b")
    wanted = AccountSettings(timezone="Europe/Istanbul", places={"decision": "project"})
    assert await accounts.update_settings(account, wanted) == wanted
    assert await accounts.settings(account) == wanted
    assert await accounts.settings(account + "b") == AccountSettings()


async def test_a_read_returns_the_workspaces_rows_plus_rows_with_no_place_timeline_too(
    store: Store, account: str
) -> None:
    # DESIGN §4: an agent in /w/two reading the history must not see /w/one's worktree task;
    # a fact with no place shows in both; only the person may read every workspace.
    svc, clock = two_worktrees(store)
    person = Caller(account=account, writer=Writer.PERSON)
    agent = Caller(account=account, writer=Writer.AGENT)
    for cwd, value in (("/w/one", "router cache"), ("/w/two", "login timeout"), (None, "3")):
        clock.tick(seconds=60)
        predicate = "working_on" if cwd else "replicas"
        await svc.remember(
            person, RememberRequest(subject="api", predicate=predicate, object=value, cwd=cwd)
        )

    async def seen(who: Caller, **query: object) -> list[str]:
        return [f.object for f in await svc.timeline(who, TimelineRequest(**query))]

    assert await seen(agent, cwd="/w/two") == ["login timeout", "3"]
    assert await seen(agent, cwd="/w/one", predicate="working_on") == ["router cache"]
    assert await seen(agent) == ["3"]  # no directory: the rows with no place only
    assert await seen(person, all_workspaces=True) == ["router cache", "login timeout", "3"]
    with pytest.raises(ReadNotAllowed):
        await seen(agent, all_workspaces=True)
    # What the other workspaces hold (the count an empty timeline answers with).
    elsewhere = TimelineRequest(cwd="/w/two", predicate="working_on", subject="api")
    assert await svc.timeline_elsewhere(agent, elsewhere) == 1
    nowhere = TimelineRequest(cwd="/w/three", predicate="working_on", subject="api")
    assert await svc.timeline_elsewhere(agent, nowhere) == 2


async def test_a_read_returns_the_workspaces_rows_plus_rows_with_no_place_episodes_too(
    store: Store, account: str
) -> None:
    # The person's words said in one checkout are not searchable from another project's
    # session; words kept with no place are found from everywhere.
    svc, clock = two_worktrees(store)
    agent = Caller(account=account, writer=Writer.AGENT)
    said = "we deploy the router to Fly.io from now on"
    req = RememberRequest(
        subject="router", predicate="deploy_target", object="Fly.io", cwd="/w/one", evidence=said
    )
    await svc.remember(agent, req)
    clock.tick(seconds=60)
    unplaced = Episode(
        episode_id=uuid.uuid4().hex,
        source="remember",
        content="the router deploys on Fridays",
        created_at=clock.now,
        valid_at=clock.now,
    )
    await store.save_episode(account, unplaced)

    async def found(cwd: str | None) -> list[str]:
        return [e.content for e in await svc.search_episodes(agent, "router", 10, cwd)]

    assert sorted(await found("/w/one")) == sorted([said, unplaced.content])
    assert await found("/w/two") == [unplaced.content]
    assert await found(None) == [unplaced.content]
    kept = {e.content: e.workspace for e in await store.export_episodes(account)}
    assert kept == {said: "worktree:/w/one", unplaced.content: None}
