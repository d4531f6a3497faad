"""Close slots kept apart are listed for the person until merged (slot drift's grey zone),
on every real store, through the service and the real MiniLM matcher."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from storekit import FakeClock, drifting_service

from twoclocks.domain.trust import Writer
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import Store
from twoclocks.service.close_slots import CloseSlotsRequest, close_slots
from twoclocks.service.requests import Caller, MergeSlotRequest, RememberRequest

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


class Rig:
    """A memory service with the real matcher and no slot judge; the person asks."""

    def __init__(self, store: Store, matcher: SlotMatcher, account: str) -> None:
        self.clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
        self.person = Caller(account=account, writer=Writer.PERSON)
        self.memory = drifting_service(store, matcher, self.clock)

    async def write(self, subject: str, predicate: str, value: str) -> None:
        self.clock.tick()
        req = RememberRequest(subject=subject, predicate=predicate, object=value)
        await self.memory.remember(self.person, req)

    async def close(self, subject: str | None = None) -> list[tuple[str, ...]]:
        self.clock.tick()
        req = CloseSlotsRequest(subject=subject, all_workspaces=True)
        listed = (await close_slots(self.memory, self.person, req)).close
        return [(c.subject, c.slot, *c.values, c.other, *c.other_values, c.why) for c in listed]

    async def merge(self, subject: str, alias: str, canonical: str) -> None:
        self.clock.tick()
        req = MergeSlotRequest(subject=subject, alias=alias, canonical=canonical)
        await self.memory.merge_slot(self.person, req)


async def test_slot_drift_close_slots_kept_apart_are_listed_until_merged(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = Rig(store, matcher, account)
    await rig.write("billing", "vendor", "Stripe")
    await rig.write("billing", "http_port", "8080")  # plainly apart: not listed
    await rig.write("billing", "provider", "Adyen")  # grey zone: its own slot
    await rig.write("search", "index_name", "docs-v2")
    close = "close names holding things of one kind"
    assert await rig.close() == [("billing", "vendor", "Stripe", "provider", "Adyen", close)]
    listed = (await close_slots(rig.memory, rig.person, CloseSlotsRequest())).close
    assert matcher.grey_floor <= listed[0].similarity < matcher.threshold
    assert await rig.close("search") == []
    await rig.merge("billing", "provider", "vendor")
    assert await rig.close() == []


async def test_slot_drift_close_slots_name_pairs_the_person_merged_elsewhere(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    # Written before the lesson: two current slots for search, which a merge for billing
    # now says are one (later writes would join by themselves; these are already apart).
    rig = Rig(store, matcher, account)
    for subject in ("search", "billing"):
        await rig.write(subject, "tracker", "Jira")
        await rig.write(subject, "ticketing", "Linear")
    await rig.merge("billing", "ticketing", "tracker")
    assert await rig.close() == [
        (
            "search",
            "tracker",
            "Jira",
            "ticketing",
            "Linear",
            "you merged the same two names for billing",
        )
    ]
