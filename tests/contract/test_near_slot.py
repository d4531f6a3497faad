"""A write kept apart from a close slot names it (issue 11 point 2), on every real store:
slot drift's grey zone with no judge, through the service and the real MiniLM matcher."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from storekit import FakeClock, drifting_service

from twoclocks.domain.model import Cardinality, FactClass
from twoclocks.domain.places import Workspace
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import Store
from twoclocks.service.alias_requests import (
    MergeSlotRequest,
)
from twoclocks.service.requests import (
    Caller,
    FactsRequest,
    RememberRequest,
    RememberResult,
)

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

PLACES = {
    "/src/billing": Workspace(repo="repo:github.com/acme/billing", project="project:/src/billing"),
    "/src/search": Workspace(repo="repo:github.com/acme/search", project="project:/src/search"),
}


class Rig:
    """A memory service with the real matcher and no slot judge, over workspaces."""

    def __init__(self, store: Store, matcher: SlotMatcher, account: str) -> None:
        self.clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
        self.who = Caller(account=account)
        self.memory = drifting_service(
            store,
            matcher,
            self.clock,
            resolve_workspace=lambda cwd: PLACES.get(cwd or "", Workspace()),
        )

    async def write(
        self,
        predicate: str,
        value: str,
        cwd: str | None = None,
        subject: str = "billing",
        cardinality: Cardinality | None = None,
    ) -> RememberResult:
        self.clock.tick()
        req = RememberRequest.model_validate(
            {"subject": subject, "predicate": predicate, "object": value, "cwd": cwd}
            | ({"class": FactClass.PROJECT} if cwd else {})
            | ({"cardinality": cardinality} if cardinality else {})
        )
        return await self.memory.remember(self.who, req)

    async def current(self) -> list[tuple[str, str]]:
        self.clock.tick()
        facts = await self.memory.facts(self.who, FactsRequest(subject="billing"))
        return sorted((f.predicate, f.object) for f in facts)


async def test_slot_drift_grey_zone_write_names_the_close_slot_it_kept_apart_from(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = Rig(store, matcher, account)
    first = await rig.write("vendor", "Stripe")
    second = await rig.write("provider", "Adyen")
    assert first.near_slot is None
    assert second.predicate == "provider" and second.closed == []
    assert second.near_slot is not None
    assert (second.near_slot.predicate, second.near_slot.values) == ("vendor", ["Stripe"])
    assert matcher.grey_floor <= second.near_slot.similarity < matcher.threshold
    # Kept apart means both are current, which is what the hint warns of; a merge by the
    # writer, who knows, makes them one slot with the later value current.
    assert await rig.current() == [("provider", "Adyen"), ("vendor", "Stripe")]
    rig.clock.tick()
    await rig.memory.merge_slot(
        rig.who, MergeSlotRequest(subject="billing", alias="provider", canonical="vendor")
    )
    assert await rig.current() == [("vendor", "Adyen")]


async def test_slot_drift_no_near_slot_between_slots_of_one_and_of_several_values(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = Rig(store, matcher, account)
    await rig.write("vendor", "Stripe")
    # "provider" is close to "vendor" and holds a payment processor too, but declared as
    # several at once: no merge could join the two, so the answer suggests none.
    apart = await rig.write("provider", "Adyen", cardinality=Cardinality.MANY)
    assert apart.predicate == "provider" and apart.near_slot is None
    assert await rig.current() == [("provider", "Adyen"), ("vendor", "Stripe")]


async def test_slot_drift_no_near_slot_when_the_names_merge_or_lie_far_apart(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = Rig(store, matcher, account)
    await rig.write("ci_provider", "GitHub Actions")
    merged = await rig.write("ci_platform", "CircleCI")
    assert merged.predicate == "ci_provider" and merged.near_slot is None
    far = await rig.write("language", "Python")
    assert far.predicate == "language" and far.near_slot is None
    # A rule that tells two names apart (a city and a hometown) is sure: no hint either.
    await rig.write("city", "Berlin")
    assert (await rig.write("hometown", "Valencia")).near_slot is None


async def test_slot_drift_close_names_alone_are_no_hint(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = Rig(store, matcher, account)
    # Two people under close role names: the grey zone (0.51), but people's values say
    # nothing of one slot (one person holds several roles), so no hint.
    await rig.write("owner", "Aiko Tanaka")
    maintainer = await rig.write("maintainer_name", "Ravi Iyer")
    assert maintainer.predicate == "maintainer_name" and maintainer.near_slot is None
    # The same names over two things of one category are hinted.
    await rig.write("owner", "Stripe", subject="payments")
    vendor = await rig.write("maintainer_name", "Adyen", subject="payments")
    assert vendor.near_slot is not None and vendor.near_slot.predicate == "owner"


async def test_slot_drift_near_slot_shows_only_values_the_writer_may_see(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    rig = Rig(store, matcher, account)
    # The vendor in another repo is not this writer's to see, nor is its slot's name.
    await rig.write("vendor", "Stripe", cwd="/src/search", subject="payments")
    elsewhere = await rig.write("provider", "Adyen", cwd="/src/billing", subject="payments")
    assert elsewhere.predicate == "provider" and elsewhere.near_slot is None
    # Of a slot held in both repos, the writer is shown its own repo's value only.
    await rig.write("vendor", "Stripe", cwd="/src/search")
    await rig.write("vendor", "Braintree", cwd="/src/billing")
    here = await rig.write("provider", "Adyen", cwd="/src/billing")
    assert here.near_slot is not None and here.near_slot.values == ["Braintree"]
