"""Two slot names kept apart, by a split or by hand, stay two slots: drift never merges
them again and the close list drops them; the person's word teaches every subject. On
every real store, through the service and the real MiniLM matcher."""

from __future__ import annotations

import pytest
from storekit import SlotRig

from twoclocks.domain.errors import InvalidInput, SlotNotFound
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import SlotsApart, Store
from twoclocks.service.alias_requests import (
    SplitAliasRequest,
)
from twoclocks.service.requests import (
    FactsRequest,
)

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


async def test_slot_drift_a_pair_kept_apart_stays_apart_after_a_split(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = SlotRig(store, matcher, account)
    await rig.write("billing", "ci_provider", "CircleCI")
    merged = await rig.write("billing", "ci_platform", "Buildkite")
    assert (merged.predicate, merged.written_as) == ("ci_provider", "ci_platform")
    rig.clock.tick()
    split = SplitAliasRequest(alias="ci_platform", subject="billing")
    await rig.memory.split_alias(rig.person, split)
    assert await rig.memory.kept_apart(rig.person) == [
        SlotsApart(
            subject="billing",
            first="ci_platform",
            second="ci_provider",
            decided_by="kept apart by person",
        )
    ]
    # The rules that merged them once would list them as one slot: the split said no.
    assert await rig.close() == []
    # The person's split teaches the next subject: the two names stay two slots there.
    circle = await rig.write("search", "ci_provider", "CircleCI")
    kite = await rig.write("search", "ci_platform", "Buildkite")
    assert (kite.predicate, kite.closed) == ("ci_platform", [])
    current = await rig.memory.facts(rig.person, FactsRequest(all_workspaces=True))
    assert {f.fact_id for f in current} >= {circle.fact_id, kite.fact_id}


async def test_slot_drift_kept_apart_pairs_leave_the_close_list(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = SlotRig(store, matcher, account)
    await rig.write("billing", "vendor", "Stripe")
    await rig.write("billing", "provider", "Adyen")  # grey zone, values vouch: listed
    assert await rig.close() == [("billing", "vendor", "provider")]
    apart = await rig.keep_apart(rig.agent, "billing", "vendor", "provider")
    assert (apart.first, apart.second, apart.decided_by) == (
        "provider",
        "vendor",
        "kept apart by agent",
    )
    assert await rig.close() == []
    # The agent's word holds for its subject only; the near-slot hint goes with it there.
    hinted = (
        await rig.write("shop", "vendor", "Stripe"),
        await rig.write("shop", "provider", "PayPal"),
    )
    assert hinted[1].near_slot is not None
    assert await rig.close() == [("shop", "vendor", "provider")]
    again = await rig.write("billing", "payments provider", "Mollie")
    assert again.near_slot is None or again.near_slot.predicate != "vendor"
    # A merge by hand is the latest word: the pair is one slot, no longer kept apart.
    await rig.merge("billing", "provider", "vendor")
    assert await rig.memory.kept_apart(rig.person) == []


async def test_slot_drift_the_persons_apart_and_merge_disagreeing_teach_nothing(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = SlotRig(store, matcher, account)
    await rig.write_each(("billing", "search"), ("tracker", "Jira"), ("ticketing", "Linear"))
    await rig.keep_apart(rig.person, "search", "ticketing", "tracker")
    assert (await rig.merge("billing", "ticketing", "tracker")).teaches is False
    assert await rig.close() == []
    # A third subject: the matcher alone decides, and keeps the two apart (0.31).
    await rig.write("web", "tracker", "Jira")
    linear = await rig.write("web", "ticketing", "Linear")
    assert (linear.predicate, linear.written_as) == ("ticketing", None)


async def test_keep_apart_refuses_unknown_slots_and_one_slot(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = SlotRig(store, matcher, account)
    await rig.write("billing", "ci_provider", "CircleCI")
    await rig.write("billing", "ci_platform", "Buildkite")  # merged: an alias now
    with pytest.raises(SlotNotFound, match="no slot 'cache'"):
        await rig.keep_apart(rig.person, "billing", "ci_provider", "cache")
    with pytest.raises(InvalidInput, match="split the alias first"):
        await rig.keep_apart(rig.person, "billing", "ci_provider", "ci_platform")
    assert await store.export_apart(account) == []


async def test_store_records_pairs_apart_once_and_forgets_them(store: Store, account: str) -> None:
    pair = SlotsApart(
        subject="api", first="owner", second="steward", decided_by="kept apart by person"
    )
    await store.record_apart(account, pair)
    await store.record_apart(account, pair)
    assert await store.export_apart(account) == [pair]
    await store.delete_apart(account, "api", "owner", "steward")
    await store.delete_apart(account, "api", "owner", "steward")
    assert await store.export_apart(account) == []


async def test_slot_drift_a_pair_kept_apart_here_outweighs_a_lesson_from_elsewhere(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = SlotRig(store, matcher, account)
    await rig.write_each(("billing", "search"), ("tracker", "Jira"), ("ticketing", "Linear"))
    await rig.keep_apart(rig.agent, "search", "tracker", "ticketing")
    assert (await rig.merge("billing", "ticketing", "tracker")).teaches is True
    # The person's lesson would put a new spelling under tracker; search said two slots.
    shortcut = await rig.write("search", "Ticketing", "Shortcut")
    assert (shortcut.predicate, shortcut.written_as) == ("ticketing", "Ticketing")
