"""Names the person merged for one subject are one slot for every subject (slot drift), on
every real store, through the service and the real MiniLM matcher."""

from __future__ import annotations

import pytest
from storekit import SlotRig

from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import Store
from twoclocks.service.alias_requests import (
    SplitAliasRequest,
)
from twoclocks.service.requests import (
    RememberResult,
)

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


async def tracker_then_ticketing(
    rig: SlotRig, subject: str
) -> tuple[RememberResult, RememberResult]:
    """Jira as the tracker, then Linear as the ticketing system, for one subject."""
    return await rig.write(subject, "tracker", "Jira"), await rig.write(
        subject, "ticketing", "Linear"
    )


async def test_slot_drift_names_the_person_merged_are_one_slot_for_every_subject(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = SlotRig(store, matcher, account)
    # The matcher alone keeps the two names apart (MiniLM scores them 0.31).
    _, apart = await tracker_then_ticketing(rig, "billing")
    assert (apart.predicate, apart.closed) == ("ticketing", [])
    assert (await rig.merge("billing", "ticketing", "tracker")).teaches is True

    jira, linear = await tracker_then_ticketing(rig, "search")
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
    rig = SlotRig(store, matcher, account)
    await tracker_then_ticketing(rig, "billing")
    merged = await rig.merge("billing", "ticketing", "tracker", rig.agent)
    assert merged.teaches is False  # an agent's merge: its guess
    _, linear = await tracker_then_ticketing(rig, "search")
    assert (linear.predicate, linear.closed) == ("ticketing", [])
