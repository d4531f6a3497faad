"""Names the person merged for one subject are one slot for every subject (slot drift), on
every real store, through the service and the real MiniLM matcher."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from storekit import FakeClock, drifting_service

from twoclocks.domain.trust import Writer
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import Store
from twoclocks.service.requests import (
    Caller,
    MergeSlotRequest,
    RememberRequest,
    RememberResult,
    SplitAliasRequest,
)

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


class Rig:
    """A memory service with the real matcher and no slot judge."""

    def __init__(self, store: Store, matcher: SlotMatcher, account: str) -> None:
        self.clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
        self.person = Caller(account=account, writer=Writer.PERSON)
        self.agent = Caller(account=account, writer=Writer.AGENT)
        self.memory = drifting_service(store, matcher, self.clock)

    async def write(self, subject: str, predicate: str, value: str) -> RememberResult:
        self.clock.tick()
        req = RememberRequest(subject=subject, predicate=predicate, object=value)
        return await self.memory.remember(self.agent, req)

    async def merge(self, caller: Caller, subject: str) -> bool:
        self.clock.tick()
        req = MergeSlotRequest(subject=subject, alias="ticketing", canonical="tracker")
        return (await self.memory.merge_slot(caller, req)).teaches

    async def tracker_then_ticketing(self, subject: str) -> tuple[RememberResult, RememberResult]:
        return await self.write(subject, "tracker", "Jira"), await self.write(
            subject, "ticketing", "Linear"
        )


async def test_slot_drift_names_the_person_merged_are_one_slot_for_every_subject(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = Rig(store, matcher, account)
    # The matcher alone keeps the two names apart (MiniLM scores them 0.31).
    _, apart = await rig.tracker_then_ticketing("billing")
    assert (apart.predicate, apart.closed) == ("ticketing", [])
    assert await rig.merge(rig.person, "billing") is True

    jira, linear = await rig.tracker_then_ticketing("search")
    assert linear.predicate == "tracker" and linear.written_as == "ticketing"
    assert linear.closed == [jira.fact_id]  # Linear replaced Jira: one current tracker
    learned = [a for a in await rig.memory.aliases(rig.person) if a.subject == "search"]
    assert [(a.alias, a.canonical, a.decided_by) for a in learned] == [
        ("ticketing", "tracker", "merge by person, for billing")
    ]
    # Taught, not forced: the split that undoes any drift merge undoes this one.
    rig.clock.tick()
    await rig.memory.split_alias(rig.person, SplitAliasRequest(alias="ticketing", subject="search"))
    assert {a.subject for a in await rig.memory.aliases(rig.person)} == {"billing"}


async def test_slot_drift_only_the_persons_merges_teach_other_subjects(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = Rig(store, matcher, account)
    await rig.tracker_then_ticketing("billing")
    assert await rig.merge(rig.agent, "billing") is False  # an agent's merge: its guess
    _, linear = await rig.tracker_then_ticketing("search")
    assert (linear.predicate, linear.closed) == ("ticketing", [])
