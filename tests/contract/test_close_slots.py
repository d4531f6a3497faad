"""Close slots kept apart are listed for the person until merged (slot drift's grey zone),
on every real store, through the service and the real MiniLM matcher."""

from __future__ import annotations

import pytest
from storekit import SlotRig

from twoclocks.domain.trust import Writer
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import Store
from twoclocks.service.close_slots import CloseSlot

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


def described(listed: list[CloseSlot]) -> list[tuple[str, ...]]:
    """Each close pair with both slots' values and why it is listed."""
    return [(c.subject, c.slot, *c.values, c.other, *c.other_values, c.why) for c in listed]


async def test_slot_drift_close_slots_kept_apart_are_listed_until_merged(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = SlotRig(store, matcher, account, writes_as=Writer.PERSON)
    await rig.write("billing", "vendor", "Stripe")
    await rig.write("billing", "http_port", "8080")  # plainly apart: not listed
    await rig.write("billing", "provider", "Adyen")  # grey zone: its own slot
    await rig.write("search", "index_name", "docs-v2")
    close = "close names holding things of one kind"
    listed = await rig.close_list()
    assert described(listed) == [("billing", "vendor", "Stripe", "provider", "Adyen", close)]
    assert matcher.grey_floor <= listed[0].similarity < matcher.threshold
    assert await rig.close("search") == []
    await rig.merge("billing", "provider", "vendor")
    assert await rig.close() == []


async def test_slot_drift_close_slots_name_pairs_the_person_merged_elsewhere(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    # Written before the lesson: two current slots for search, which a merge for billing
    # now says are one (later writes would join by themselves; these are already apart).
    rig = SlotRig(store, matcher, account, writes_as=Writer.PERSON)
    await rig.write_each(("search", "billing"), ("tracker", "Jira"), ("ticketing", "Linear"))
    await rig.merge("billing", "ticketing", "tracker")
    assert described(await rig.close_list()) == [
        (
            "search",
            "tracker",
            "Jira",
            "ticketing",
            "Linear",
            "you merged the same two names for billing",
        )
    ]
