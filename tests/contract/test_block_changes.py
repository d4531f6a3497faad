"""The block's recent changes tell the truth (issue 9 point 5), through the services, on
every real store: writes by remember and revise, the block read by RecallService.block."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta

import pytest
from storekit import FakeClock

from twoclocks.domain.model import FactClass, Outcome, Tier
from twoclocks.domain.places import Workspace
from twoclocks.domain.trust import Channel, Writer
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.recall import RecallService
from twoclocks.service.recall_requests import BlockRequest, RecallRequest
from twoclocks.service.requests import (
    Caller,
    FactsRequest,
    RememberRequest,
    Replacement,
    ReviseRequest,
)

pytestmark = pytest.mark.anyio

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
REPO, PROJECT = "repo:github.com/acme/web", "project:/src/acme-web"
ONE = Workspace(repo=REPO, project=PROJECT, worktree="worktree:/src/acme-web")
TWO = Workspace(repo=REPO, project=PROJECT, worktree="worktree:/src/acme-web-login")
PLACES = {"/src/acme-web": ONE, "/src/acme-web-login": TWO}


def services(store: Store, clock: FakeClock) -> tuple[MemoryService, RecallService]:
    ids = (uuid.uuid4().hex for _ in itertools.count())

    def resolve(cwd: str | None) -> Workspace:
        return PLACES.get(cwd or "", Workspace())

    memory = MemoryService(store, lambda: clock.now, lambda: next(ids), resolve_workspace=resolve)
    recall = RecallService(store, lambda: clock.now, None, resolve, UTC)
    return memory, recall


def person_and_agent(account: str) -> tuple[Caller, Caller]:
    """The person at the CLI and an agent over MCP, of one account."""
    return (
        Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI),
        Caller(account=account, writer=Writer.AGENT, channel=Channel.MCP),
    )


def remember(obj: str, at: datetime, **fields: object) -> RememberRequest:
    args: dict[str, object] = {
        "subject": "production",
        "predicate": "deploy_target",
        "object": obj,
        "valid_at": at,
        "tier": Tier.ASSERTED,
        "class": FactClass.PROJECT,
        "cwd": "/src/acme-web",
    }
    args.update(fields)
    return RememberRequest.model_validate(args)


def changes(text: str) -> list[str]:
    lines = text.split("\n")
    if "Recent changes (last 48 h):" not in lines:
        return []
    start = lines.index("Recent changes (last 48 h):") + 1
    return [line for line in lines[start:] if line.startswith("- ")]


async def test_the_block_pairs_each_change_with_what_replaced_it_and_says_ended_only_when_nothing_did(  # noqa: E501
    store: Store, account: str
) -> None:
    clock = FakeClock(NOW - timedelta(days=30))
    memory, recall = services(store, clock)
    person = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)

    await memory.remember(person, remember("Heroku", NOW - timedelta(days=30)))
    clock.now = NOW - timedelta(hours=10)
    # remember of a new value: the closed copy of Heroku pairs with Render by slot.
    render = await memory.remember(person, remember("Render", NOW - timedelta(hours=10)))
    clock.now = NOW - timedelta(hours=5)
    # revise with a replacement: Render pairs with Fly.io by supersedes.
    await memory.revise(
        person,
        render.fact_id,
        ReviseRequest(
            reason="ended",
            at=NOW - timedelta(hours=5),
            replacement=Replacement(object="Fly.io", tier=Tier.ASSERTED),
        ),
    )
    # Ended with nothing after it.
    owner = await memory.remember(
        person, remember("Baran", NOW - timedelta(days=9), subject="web", predicate="owner")
    )
    clock.now = NOW - timedelta(hours=4)
    await memory.revise(
        person, owner.fact_id, ReviseRequest(reason="ended", at=NOW - timedelta(hours=4))
    )
    # (A successor with no tier, neither paired nor "ended", can only come from an import
    # now that every write gets its writer's tier: tests/unit/domain/test_block.py has it.)
    # Replaced from the other worktree (its own place): this worktree cannot see the
    # successor, so it must not be told the value ended.
    await memory.remember(
        person, remember("Selin", NOW - timedelta(days=9), subject="web", predicate="reviewer")
    )
    clock.now = NOW - timedelta(hours=2)
    await memory.remember(
        person,
        remember(
            "Deniz",
            NOW - timedelta(hours=2),
            subject="web",
            predicate="reviewer",
            cwd="/src/acme-web-login",
            **{"class": FactClass.TASK},
        ),
    )
    clock.now = NOW

    block = await recall.block(person, BlockRequest(cwd="/src/acme-web"))
    assert changes(block.text) == [
        "- web · owner: Baran (ended 2026-03-02 05:00 +00, nothing replaced it)",
        # Two changes of one slot in 48 h: one line, to the value that holds now.
        "- production · deploy target: Heroku -> Render -> Fly.io (changed 2026-03-02 04:00 +00)",
    ]
    for hidden in ("Deniz", "Selin", "Render -> Render"):
        assert hidden not in block.text, hidden
    # The other worktree sees its own value as current, and that it took over from the
    # project-wide Selin there: never that Selin ended with nothing after it.
    other = await recall.block(person, BlockRequest(cwd="/src/acme-web-login"))
    assert "- web · reviewer: Deniz (since 2026-03-02 07:00 +00, asserted)" in other.text
    assert "- web · reviewer: Selin -> Deniz (changed 2026-03-02 07:00 +00)" in other.text
    assert "Selin (ended" not in other.text


async def test_a_value_said_again_after_it_closed_is_not_a_change_with_itself(
    store: Store, account: str
) -> None:
    clock = FakeClock(NOW - timedelta(days=30))
    memory, recall = services(store, clock)
    person = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)
    render = await memory.remember(person, remember("Render", NOW - timedelta(days=30)))
    clock.now = NOW - timedelta(hours=6)
    await memory.revise(
        person, render.fact_id, ReviseRequest(reason="ended", at=NOW - timedelta(hours=6))
    )
    clock.now = NOW - timedelta(hours=1)
    await memory.remember(person, remember("Render", NOW - timedelta(hours=6)))
    clock.now = NOW

    block = await recall.block(person, BlockRequest(cwd="/src/acme-web"))
    assert changes(block.text) == []
    assert "- production · deploy target: Render (since 2026-01-31 09:00 +00, asserted)" in (
        block.text
    )


async def test_a_value_widened_to_everywhere_is_what_replaced_the_one_it_closed_here(
    store: Store, account: str
) -> None:
    # Zed in this worktree, Helix in the other (no class: each its own); then Zed said
    # with class user. Read in the other worktree, Helix changed to Zed: it did not end
    # with nothing after it.
    clock = FakeClock(NOW - timedelta(hours=3))
    memory, recall = services(store, clock)
    person = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)
    editor = {"subject": "user", "predicate": "editor", "class": None}
    await memory.remember(person, remember("Zed", clock.now, **editor))
    clock.now = NOW - timedelta(hours=2)
    await memory.remember(person, remember("Helix", clock.now, cwd="/src/acme-web-login", **editor))
    clock.now = NOW - timedelta(hours=1)
    widened = {**editor, "class": FactClass.USER}
    await memory.remember(person, remember("Zed", clock.now, **widened))
    clock.now = NOW
    block = await recall.block(person, BlockRequest(cwd="/src/acme-web-login"))
    assert changes(block.text) == ["- user · editor: Helix -> Zed (changed 2026-03-02 08:00 +00)"]


async def test_a_value_an_agent_writes_in_one_worktree_replaces_the_projects_in_every_worktree(
    store: Store, account: str
) -> None:
    # The person set the project's hosting; an agent in one worktree writes a new value
    # with no class (this worktree only, by its class). The project's value ended for
    # every worktree, so the new one applies there too: the other worktree's block tells
    # the change and its slot holds the new value, not nothing.
    clock = FakeClock(NOW - timedelta(days=3))
    memory, recall = services(store, clock)
    person, agent = person_and_agent(account)
    hosting = {"subject": "api", "predicate": "hosting"}
    await memory.remember(person, remember("Railway", clock.now, **hosting))
    clock.now = NOW - timedelta(hours=1)
    guess = {**hosting, "class": None, "tier": None, "cwd": "/src/acme-web-login"}
    done = await memory.remember(agent, remember("Render", clock.now, **guess))
    assert (done.place, done.workspace, done.tier) == ("project", PROJECT, Tier.INFERRED)
    clock.now = NOW
    block = await recall.block(person, BlockRequest(cwd="/src/acme-web"))
    assert changes(block.text) == [
        "- api · hosting: Railway -> Render (changed 2026-03-02 08:00 +00, new value inferred"
        " — a guess)"
    ]
    here = FactsRequest(subject="api", predicate="hosting", cwd="/src/acme-web")
    assert [f.object for f in await memory.facts(person, here)] == ["Render"]


async def test_a_fact_corrected_in_the_last_48_hours_is_told_as_never_true_with_what_holds_instead(
    store: Store, account: str
) -> None:
    clock = FakeClock(NOW - timedelta(days=30))
    memory, recall = services(store, clock)
    person, agent = person_and_agent(account)
    database, queue, owner = ({"predicate": p} for p in ("database", "queue", "owner"))

    async def correct(fact_id: str, replacement: str | None = None) -> None:
        fix = Replacement(object=replacement) if replacement else None
        await memory.revise(person, fact_id, ReviseRequest(reason="corrected", replacement=fix))

    await memory.remember(person, remember("RabbitMQ", clock.now, **queue))
    baran = await memory.remember(person, remember("Baran", clock.now, **owner))
    clock.now = NOW - timedelta(days=10)
    pg15 = await memory.remember(person, remember("Postgres 15", clock.now, **database))
    clock.now = NOW - timedelta(days=3)
    await correct(baran.fact_id, "Selin")  # three days ago: old news, not told
    # An agent's guess closed RabbitMQ; the guess was then found wrong, with nothing in
    # its place, so RabbitMQ is believed again: RabbitMQ was never the wrong value.
    clock.now = NOW - timedelta(hours=5)
    guess = await memory.remember(
        agent, remember("Redis streams", clock.now, tier=Tier.INFERRED, **queue)
    )
    clock.now = NOW - timedelta(hours=4)
    await correct(guess.fact_id)
    clock.now = NOW - timedelta(hours=3)
    await correct(pg15.fact_id, "Postgres 16")
    # Corrected in the other worktree: not this session's.
    clock.now = NOW - timedelta(hours=2)
    there = {"cwd": "/src/acme-web-login", "class": FactClass.TASK}
    runner = await memory.remember(person, remember("Jenkins", clock.now, predicate="ci", **there))
    await correct(runner.fact_id)
    clock.now = NOW

    block = await recall.block(person, BlockRequest(cwd="/src/acme-web"))
    assert changes(block.text) == [
        "- production · database: Postgres 15 -> Postgres 16 (corrected 2026-03-02 06:00 +00:"
        " Postgres 15 was never true)",
        "- production · queue: Redis streams -> RabbitMQ (corrected 2026-03-02 05:00 +00:"
        " Redis streams was never true)",
    ]
    assert "- production · queue: RabbitMQ (since 2026-01-31 09:00 +00, asserted)" in block.text
    for hidden in ("Jenkins", "Baran"):
        assert hidden not in block.text, hidden
    other = await recall.block(person, BlockRequest(cwd="/src/acme-web-login"))
    assert "- production · ci: Jenkins (corrected 2026-03-02 07:00 +00: never true)" in (
        changes(other.text)
    )


async def test_the_block_says_what_is_coming_up_in_the_next_week(
    store: Store, account: str
) -> None:
    # "Fly.io from Friday", told on Wednesday: the block's facts still say Render (until
    # Friday), and a "Coming up" line says what follows and when.
    clock = FakeClock(NOW - timedelta(days=30))
    memory, recall = services(store, clock)
    person = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)
    await memory.remember(person, remember("Render", NOW - timedelta(days=30)))
    clock.now = NOW
    await memory.remember(person, remember("Fly.io", NOW + timedelta(days=2)))
    # A freeze lifted on the 22nd was known first; "on from the 7th" is then stored with
    # that end, and the write says so (the CLI words it from invalid_at).
    await memory.remember(person, remember("off", NOW + timedelta(days=20), predicate="freeze"))
    on = await memory.remember(person, remember("on", NOW + timedelta(days=5), predicate="freeze"))
    assert on.outcome is Outcome.STORED_CLOSED
    assert on.invalid_at == NOW + timedelta(days=20)

    block = await recall.block(person, BlockRequest(cwd="/src/acme-web"))
    lines = block.text.split("\n")
    assert (
        "- production · deploy target: Render (since 2026-01-31 09:00 +00"
        " until 2026-03-04 09:00 +00, asserted)" in lines
    )
    start = lines.index("Coming up (next 7 days):") + 1
    assert lines[start:] == [
        "- production · deploy target: Render -> Fly.io (changes 2026-03-04 09:00 +00, asserted)",
        "- production · freeze: on (starts 2026-03-07 09:00 +00 until 2026-03-22 09:00 +00,"
        " asserted)",
    ]  # "off" starts in 20 days: not this week


async def test_a_value_told_without_a_start_gives_way_to_the_persons_word_that_dates_the_change(
    store: Store, account: str
) -> None:
    # 09:20 "we deploy to Heroku" (no start); 11:00 "we moved to Fly.io today" (dated
    # 00:00). Read as a late, older value, Fly.io was filed as history [00:00, 09:20) and
    # the block said "Fly.io -> Heroku (changed 09:20)": the reverse of what was said.
    clock = FakeClock(NOW.replace(hour=9, minute=20))
    memory, recall = services(store, clock)
    person = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)
    heroku = await memory.remember(person, remember("Heroku", clock.now, valid_at=None))
    cache = await memory.remember(
        person, remember("Redis", clock.now, predicate="cache", valid_at=None)
    )
    clock.now = NOW.replace(hour=11)
    midnight = NOW.replace(hour=0)
    fly = await memory.remember(person, remember("Fly.io", midnight))
    assert (fly.outcome, fly.closed) == (Outcome.INSERTED, [heroku.fact_id])
    # "Redis since January": the value goes on from the start it is given, the same fact.
    again = await memory.remember(
        person, remember("Redis", NOW.replace(month=1), predicate="cache")
    )
    assert (again.outcome, again.fact_id) == (Outcome.RESTATED, cache.fact_id)

    facts = await memory.facts(person, FactsRequest(subject="production", cwd="/src/acme-web"))
    assert sorted((f.object, f.valid_at, f.start_stated) for f in facts) == [
        ("Fly.io", midnight, True),
        ("Redis", NOW.replace(month=1), True),
    ]
    history = await memory.facts(
        person, FactsRequest(subject="production", include_history=True, cwd="/src/acme-web")
    )
    told = [f for f in history if f.fact_id == heroku.fact_id]
    assert [(f.retired_reason, f.start_stated) for f in told] == [("outdated", False)]
    clock.now = NOW.replace(hour=11, minute=5)
    block = await recall.block(person, BlockRequest(cwd="/src/acme-web"))
    assert changes(block.text) == [
        "- production · deploy target: Heroku -> Fly.io (changed 2026-03-02 00:00 +00,"
        " told 2026-03-02 11:00 +00)"
    ]
    assert "- production · deploy target: Fly.io (since 2026-03-02 00:00 +00, asserted)" in (
        block.text
    )
    # A value still told without a start says so in the block.
    clock.now = NOW.replace(hour=11, minute=30)
    await memory.remember(person, remember("8", clock.now, predicate="workers", valid_at=None))
    block = await recall.block(person, BlockRequest(cwd="/src/acme-web"))
    assert "- production · workers: 8 (known since 2026-03-02 11:30 +00, asserted)" in block.text


async def test_a_past_read_names_the_values_told_later_with_no_start_apart(
    store: Store, account: str
) -> None:
    # Set up on Mar 2: Render dated from January, the cache and the worker count told with
    # no start. "What did we use on Feb 1?" had nothing for the cache, which read as none.
    clock = FakeClock(NOW)
    memory, recall = services(store, clock)
    person = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)
    await memory.remember(person, remember("Render", NOW.replace(month=1)))
    for slot, value in (("cache", "Redis"), ("workers", "8")):
        await memory.remember(person, remember(value, NOW, predicate=slot, valid_at=None))
    clock.now = NOW + timedelta(hours=1)
    # Told later with no start, a new value of a slot that held one then is not named:
    # the row held then says what held.
    await memory.remember(person, remember("Fly.io", clock.now, valid_at=None))
    feb = NOW.replace(month=2, day=1)
    read = FactsRequest(subject="production", as_of=feb, cwd="/src/acme-web")
    held = await memory.facts(person, read)
    assert [f.object for f in held] == ["Render"]
    told = await memory.told_after(person, read, held)
    assert sorted((f.object, f.start_stated) for f in told) == [("8", False), ("Redis", False)]
    # A page that does not hold Render still knows the slot held a value then.
    paged = await memory.told_after(person, read.model_copy(update={"limit": 1}), [])
    assert sorted(f.object for f in paged) == ["8", "Redis"]
    # Not for a read of now, of what was believed, or with history.
    for other in ({"as_of": None}, {"as_believed": feb}, {"include_history": True}, {"offset": 1}):
        assert await memory.told_after(person, read.model_copy(update=other), held) == []

    asked = RecallRequest(query="production cache", as_of=feb, cwd="/src/acme-web")
    answer = await recall.recall(person, asked)
    assert "Redis" not in [f.object for f in answer.facts]
    # Best first; Fly.io is not named: Render held the slot then, ranked or not.
    assert [f.object for f in answer.told_later][:1] == ["Redis"]
    assert "Fly.io" not in [f.object for f in answer.told_later]
    assert all(not f.start_stated for f in answer.told_later)
    # What matches the question less well than what held then is no news beside it.
    render = await recall.recall(
        person, asked.model_copy(update={"query": "production deploy target"})
    )
    assert [f.object for f in render.facts][:1] == ["Render"] and render.told_later == []
    now_asked = asked.model_copy(update={"as_of": clock.now + timedelta(minutes=1)})
    assert (await recall.recall(person, now_asked)).told_later == []
