"""Issue 9: the answers an agent gets in everyday use, through the service on every store.

Corrections restore what the mistake replaced, restating a closed value opens it again,
every write gets its writer's tier, a replacement keeps it, and "what did we believe on
D" means about D.
"""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime

import pytest
from storekit import FakeClock

from twoclocks.domain.model import Tier
from twoclocks.domain.trust import Channel, Writer
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import (
    Caller,
    FactsRequest,
    RememberRequest,
    RememberResult,
    Replacement,
    ReviseRequest,
)

pytestmark = pytest.mark.anyio

JAN6, JUN1, JUL1, SEP1, OCT1 = (
    datetime(2025, 1, 6, tzinfo=UTC),
    datetime(2025, 6, 1, tzinfo=UTC),
    datetime(2025, 7, 1, tzinfo=UTC),
    datetime(2025, 9, 1, tzinfo=UTC),
    datetime(2025, 10, 1, tzinfo=UTC),
)
PERSON = {"writer": Writer.PERSON, "channel": Channel.CLI}


def service_on(store: Store, clock: FakeClock) -> MemoryService:
    ids = (uuid.uuid4().hex for _ in itertools.count())
    return MemoryService(store, lambda: clock.now, lambda: next(ids))


async def deploy(svc: MemoryService, who: Caller, value: str, valid_at: datetime) -> str:
    return (await deploy_said(svc, who, value, valid_at)).fact_id


async def values(svc: MemoryService, who: Caller, **query: object) -> list[str]:
    req = FactsRequest(subject="acme-web", predicate="deploy_target", **query)
    return sorted(f.object for f in await svc.facts(who, req))


def agent_and_person(store: Store, account: str) -> tuple[MemoryService, FakeClock, Caller, Caller]:
    """A service on a fake clock, with an agent (MCP) and the person (CLI) of one account."""
    clock = FakeClock(datetime(2025, 11, 1, tzinfo=UTC))
    agent = Caller(account=account, writer=Writer.AGENT, channel=Channel.MCP)
    return service_on(store, clock), clock, agent, Caller(account=account, **PERSON)


async def heroku_render_aws(
    store: Store, account: str
) -> tuple[MemoryService, Caller, FakeClock, str, datetime]:
    clock = FakeClock(datetime(2025, 11, 1, tzinfo=UTC))
    svc, who = service_on(store, clock), Caller(account=account, **PERSON)
    await deploy(svc, who, "Heroku", JAN6)
    clock.tick(seconds=60)
    await deploy(svc, who, "Render", JUN1)
    clock.tick(seconds=60)
    aws = await deploy(svc, who, "AWS", SEP1)  # entered by mistake
    mistake_day = clock.now
    clock.tick(seconds=60)
    return svc, who, clock, aws, mistake_day


async def test_a_correction_restores_what_the_mistake_replaced(store: Store, account: str) -> None:
    svc, who, clock, aws, mistake_day = await heroku_render_aws(store, account)
    done = await svc.revise(who, aws, ReviseRequest(reason="corrected"))
    clock.tick(seconds=60)
    assert done.restored, "the correction names the fact it believed open again"
    assert await values(svc, who) == ["Render"]
    assert await values(svc, who, as_of=OCT1) == ["Render"]
    assert await values(svc, who, as_believed=mistake_day) == ["AWS"]
    history = await svc.facts(
        who, FactsRequest(subject="acme-web", predicate="deploy_target", include_history=True)
    )
    assert [f.object for f in history].count("AWS") == 1, "the mistake is kept, as history"


async def test_a_correction_with_a_replacement_takes_the_mistakes_place(
    store: Store, account: str
) -> None:
    svc, who, clock, aws, _ = await heroku_render_aws(store, account)
    await svc.revise(
        who, aws, ReviseRequest(reason="corrected", replacement=Replacement(object="Fly.io"))
    )
    clock.tick(seconds=60)
    assert await values(svc, who) == ["Fly.io"]
    assert await values(svc, who, as_of=JUL1) == ["Render"]
    assert await values(svc, who, as_of=OCT1) == ["Fly.io"]


async def test_a_retract_that_leaves_its_slot_empty_names_what_stays_ended(
    store: Store, account: str
) -> None:
    # A retract gives nothing back (DESIGN.md §3: it only closes the row): retracting AWS
    # leaves no deploy target, with Render ended in September. The answer says so.
    svc, who, clock, aws, _ = await heroku_render_aws(store, account)
    done = await svc.retract(who, aws[:12])
    assert done.fact_id == aws
    assert [v.object for v in done.left_ended] == ["Render"]
    assert await values(svc, who) == []
    # ... and says nothing when the slot still has a value: reopen AWS, write Fly.io over
    # it, and retract AWS again; Fly.io holds.
    await svc.reopen(who, aws)
    clock.tick(seconds=60)
    await deploy(svc, who, "Fly.io", OCT1)
    clock.tick(seconds=60)
    assert (await svc.retract(who, aws)).left_ended == []
    assert await values(svc, who) == ["Fly.io"]


async def test_restating_a_closed_value_opens_it_again(store: Store, account: str) -> None:
    clock = FakeClock(datetime(2025, 11, 1, tzinfo=UTC))
    svc, who = service_on(store, clock), Caller(account=account, **PERSON)
    render = await deploy(svc, who, "Render", JUN1)
    clock.tick(seconds=60)
    await svc.revise(who, render, ReviseRequest(reason="ended", at=SEP1))
    clock.tick(seconds=60)
    assert await values(svc, who) == []
    done = await svc.remember(
        who,
        RememberRequest(
            subject="acme-web", predicate="deploy_target", object="Render", valid_at=JUN1
        ),
    )
    clock.tick(seconds=60)
    assert done.outcome == "inserted"
    assert await values(svc, who) == ["Render"]


async def test_restating_a_value_inside_a_closed_window_confirms_history(
    store: Store, account: str
) -> None:
    clock = FakeClock(datetime(2025, 11, 1, tzinfo=UTC))
    svc, who = service_on(store, clock), Caller(account=account, **PERSON)
    render = await deploy(svc, who, "Render", JUN1)
    clock.tick(seconds=60)
    await deploy(svc, who, "Fly.io", SEP1)
    clock.tick(seconds=60)
    again = await svc.remember(
        who,
        RememberRequest(
            subject="acme-web", predicate="deploy_target", object="Render", valid_at=JUL1
        ),
    )
    assert again.outcome == "restated" and again.fact_id == render
    assert await values(svc, who) == ["Fly.io"]


async def test_every_write_has_the_tier_of_who_wrote_it(store: Store, account: str) -> None:
    clock = FakeClock(datetime(2025, 11, 1, tzinfo=UTC))
    svc = service_on(store, clock)
    cases = [
        (Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI), Tier.ASSERTED),
        (Caller(account=account, writer=Writer.AGENT, channel=Channel.HTTP), Tier.INFERRED),
        (Caller(account=account, writer=Writer.AGENT, channel=Channel.MCP), Tier.INFERRED),
        (Caller(account=account, writer=Writer.TOOL_RULE, channel=Channel.HOOK), Tier.OBSERVED),
    ]
    for i, (who, tier) in enumerate(cases):
        done = await svc.remember(
            who, RememberRequest(subject=f"svc-{i}", predicate="owner", object="Selin")
        )
        assert done.tier is tier and done.tier_lowered is None
        (stored,) = await svc.facts(who, FactsRequest(subject=f"svc-{i}"))
        assert stored.tier is tier


async def test_an_asserted_claim_without_the_persons_words_says_it_was_lowered(
    store: Store, account: str
) -> None:
    clock = FakeClock(datetime(2025, 11, 1, tzinfo=UTC))
    svc, agent = service_on(store, clock), Caller(account=account)
    done = await svc.remember(
        agent,
        RememberRequest(subject="ci", predicate="provider", object="Buildkite", tier="asserted"),
    )
    assert done.tier is Tier.INFERRED
    assert done.tier_lowered and "evidence" in done.tier_lowered


async def test_a_replacement_keeps_the_tier_of_who_wrote_it(store: Store, account: str) -> None:
    clock = FakeClock(datetime(2025, 11, 1, tzinfo=UTC))
    svc, person = service_on(store, clock), Caller(account=account, **PERSON)
    render = await deploy(svc, person, "Render, Oregon region", JUN1)
    clock.tick(seconds=60)
    done = await svc.revise(
        person,
        render,
        ReviseRequest(reason="ended", replacement=Replacement(object="Fly.io, Frankfurt")),
    )
    assert done.successor_tier is Tier.ASSERTED
    (now,) = await svc.facts(person, FactsRequest(subject="acme-web"))
    assert now.object == "Fly.io, Frankfurt" and now.tier is Tier.ASSERTED


async def test_the_person_saying_an_agents_guess_makes_it_theirs_and_keeps_what_we_believed(
    store: Store, account: str
) -> None:
    # An agent guessed Render; the person then says it. From then on the fact is the
    # person's (asserted, no longer "a guess, verify"), its window unmoved; asked about the
    # time before, the store still says it believed an agent's guess.
    svc, clock, agent, person = agent_and_person(store, account)
    guess = await deploy(svc, agent, "Render", JUN1)
    clock.tick(seconds=60)
    guessed_then = clock.now
    clock.tick(seconds=60)
    req = RememberRequest(subject="acme-web", predicate="deploy_target", object="Render")
    done = await svc.remember(person, req)
    assert (done.outcome, done.fact_id, done.tier) == ("restated", guess, Tier.ASSERTED)
    assert done.raised == "tier inferred -> asserted"
    (now,) = await svc.facts(person, FactsRequest(subject="acme-web"))
    assert (now.fact_id, now.tier, now.valid_at) == (guess, Tier.ASSERTED, JUN1)
    (then,) = await svc.facts(person, FactsRequest(subject="acme-web", as_believed=guessed_then))
    assert then.tier is Tier.INFERRED
    # The agent saying it again vouches less: nothing changes, and the answer's tier is
    # the one the fact holds.
    clock.tick(seconds=60)
    again = await svc.remember(agent, req)
    assert (again.outcome, again.version_id, again.tier) == (
        "restated",
        now.version_id,
        Tier.ASSERTED,
    )


async def test_a_guess_the_persons_word_overrules_is_corrected_and_the_word_holds(
    store: Store, account: str
) -> None:
    # The person deployed on Heroku; an agent guessed Render today, which closed it. The
    # person then says "we moved to Fly.io on Sep 1". Filed as a late, older value, the
    # guess would stay current and the person's word would be history.
    svc, clock, agent, person = agent_and_person(store, account)
    await deploy(svc, person, "Heroku", JAN6)
    clock.tick(seconds=60)
    guess = await deploy(svc, agent, "Render", clock.now)
    clock.tick(seconds=60)
    guessed_then = clock.now
    clock.tick(seconds=60)
    done = await deploy_said(svc, person, "Fly.io", SEP1)
    assert (done.outcome, done.closed) == ("inserted", [guess])
    assert [(r.object, r.retired_reason) for r in done.replaced] == [("Render", "corrected")]
    assert await values(svc, person) == ["Fly.io"]
    assert await values(svc, person, as_of=OCT1) == ["Fly.io"]
    assert await values(svc, person, as_of=JUN1) == ["Heroku"]
    assert await values(svc, person, as_believed=guessed_then) == ["Render"]
    history = await svc.facts(person, FactsRequest(subject="acme-web", include_history=True))
    assert [(f.object, f.retired_reason) for f in history if f.fact_id == guess] == [
        ("Render", "corrected")
    ]


async def netlify_dated_over_vercel_told(
    svc: MemoryService, clock: FakeClock, person: Caller
) -> tuple[str, str]:
    """Vercel told with no start, then the person's "Netlify since Sep 1", which outdates it;
    the clock a minute on after each: (Vercel's fact id, Netlify's)."""
    told = RememberRequest(subject="acme-web", predicate="deploy_target", object="Vercel")
    vercel = (await svc.remember(person, told)).fact_id
    clock.tick(seconds=60)
    netlify = await deploy_said(svc, person, "Netlify", SEP1)
    # The answer says how Vercel left: outdated, not "now history" like a value it ended.
    assert [(r.fact_id, r.retired_reason) for r in netlify.replaced] == [(vercel, "outdated")]
    clock.tick(seconds=60)
    return vercel, netlify.fact_id


async def test_correcting_the_word_that_outdated_a_value_told_late_gives_the_value_back(
    store: Store, account: str
) -> None:
    # "We deploy to Vercel" (no start), then "Netlify since Sep 1", which outdates Vercel;
    # then the person corrects Netlify (it was another project's). The slot was left empty.
    svc, clock, _, person = agent_and_person(store, account)
    told_at = clock.now
    vercel, netlify = await netlify_dated_over_vercel_told(svc, clock, person)
    assert await values(svc, person) == ["Netlify"]
    done = await svc.revise(person, netlify, ReviseRequest(reason="corrected"))
    assert done.values == {vercel: "Vercel"}
    clock.tick(seconds=60)
    (now,) = await svc.facts(person, FactsRequest(subject="acme-web"))
    assert (now.fact_id, now.valid_at, now.start_stated) == (vercel, told_at, False)


async def test_a_retract_of_the_word_that_outdated_a_value_names_that_value(
    store: Store, account: str
) -> None:
    # Retracting "Netlify since Sep 1" gives nothing back, as any retract; the answer names
    # Vercel, which it had outdated, so the person is not left to find the empty slot.
    svc, clock, _, person = agent_and_person(store, account)
    vercel, netlify = await netlify_dated_over_vercel_told(svc, clock, person)
    done = await svc.retract(person, netlify)
    assert [(v.fact_id, v.object) for v in done.left_ended] == [(vercel, "Vercel")]
    assert await values(svc, person) == []


async def test_a_guess_the_persons_word_confirms_goes_on_as_theirs_from_the_words_start(
    store: Store, account: str
) -> None:
    svc, clock, agent, person = agent_and_person(store, account)
    guess = await deploy(svc, agent, "Fly.io", clock.now)
    clock.tick(seconds=60)
    done = await deploy_said(svc, person, "Fly.io", SEP1)  # "we've been on Fly.io since Sep"
    assert (done.outcome, done.fact_id, done.tier) == ("restated", guess, Tier.ASSERTED)
    assert done.raised == "tier inferred -> asserted" and done.closed == []
    (now,) = await svc.facts(person, FactsRequest(subject="acme-web"))
    assert (now.fact_id, now.tier, now.valid_at) == (guess, Tier.ASSERTED, SEP1)


async def deploy_said(
    svc: MemoryService, who: Caller, value: str, valid_at: datetime
) -> RememberResult:
    req = RememberRequest(
        subject="acme-web", predicate="deploy_target", object=value, valid_at=valid_at
    )
    return await svc.remember(who, req)


async def test_as_believed_alone_means_what_we_believed_then_about_then(
    store: Store, account: str
) -> None:
    clock = FakeClock(datetime(2025, 11, 1, tzinfo=UTC))
    svc, who = service_on(store, clock), Caller(account=account, **PERSON)
    await deploy(svc, who, "Render", JUN1)
    clock.tick(seconds=60)
    await deploy(svc, who, "Fly.io", SEP1)  # written Nov 1, closes Render at Sep 1
    clock.tick(seconds=60)
    then = clock.now
    clock.tick(seconds=60)
    # On `then` the store held Render [Jun, Sep) and Fly.io [Sep, ∞): about then, Fly.io.
    assert await values(svc, who, as_believed=then) == ["Fly.io"]
    # Both explicit keep their meaning: believed then, true in July.
    assert await values(svc, who, as_believed=then, as_of=JUL1) == ["Render"]
    # Every version held then, whatever its world window, is asked for with history.
    held = await values(svc, who, as_believed=then, include_history=True)
    assert held == ["Fly.io", "Render"]


async def test_a_late_older_value_stored_as_history_names_the_value_that_holds_after_it(
    store: Store, account: str
) -> None:
    # The person told "crash reporting Sentry" (no start); the agent, told of Bugsnag in
    # chat, remembered "since yesterday" as its own guess: stored as history, ended where
    # Sentry was told. "stored_closed" alone left the agent saying "saved" and the person
    # believing Bugsnag current: the answer names Sentry, told with no start, asserted.
    svc, clock, agent, person = agent_and_person(store, account)
    sentry = await svc.remember(
        person, RememberRequest(subject="app", predicate="crash_reporting", object="Sentry")
    )
    told = clock.now
    clock.tick(seconds=60)
    guess = await svc.remember(
        agent,
        RememberRequest(
            subject="app", predicate="crash_reporting", object="Bugsnag",
            valid_at=datetime(2025, 10, 31, tzinfo=UTC),
        ),
    )  # fmt: skip
    assert guess.outcome == "stored_closed" and guess.invalid_at == told
    after = guess.held_after
    assert after is not None
    assert (after.fact_id, after.object, after.valid_at) == (sentry.fact_id, "Sentry", told)
    assert (after.start_stated, after.tier) == (False, Tier.ASSERTED)
    # The person's own word dating the change replaces Sentry, as held_after says.
    word = await svc.remember(
        person,
        RememberRequest(
            subject="app", predicate="crash_reporting", object="Bugsnag",
            valid_at=datetime(2025, 10, 31, tzinfo=UTC), evidence="we moved to Bugsnag yesterday",
        ),
    )  # fmt: skip
    assert word.held_after is None and word.closed == [sentry.fact_id]
    # An end the writer gave is no later value's start: nothing is named.
    ended = await svc.remember(
        person,
        RememberRequest(
            subject="app", predicate="release_freeze", object="on",
            valid_at=datetime(2025, 10, 1, tzinfo=UTC),
            invalid_at=datetime(2025, 10, 5, tzinfo=UTC),
        ),
    )  # fmt: skip
    assert ended.outcome == "stored_closed" and ended.held_after is None
