"""Splitting a slot-drift alias (issue 11 point 2), on every store: both clocks stay honest."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from storekit import FakeClock, names_only_service

from twoclocks.domain.errors import AliasNotFound, InvalidInput
from twoclocks.graph.port import Store
from twoclocks.service.alias_requests import (
    SplitAliasRequest,
)
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import (
    Caller,
    FactsRequest,
    RememberRequest,
)

pytestmark = pytest.mark.anyio


def service(store: Store, clock: FakeClock) -> MemoryService:
    return names_only_service(store, clock)


def remember(predicate: str, value: str, valid_at: datetime) -> RememberRequest:
    return RememberRequest(subject="web", predicate=predicate, object=value, valid_at=valid_at)


JAN, MAR, JUN = (datetime(2026, m, 1, tzinfo=UTC) for m in (1, 3, 6))


async def test_every_merge_records_the_name_the_writer_used(store: Store, account: str) -> None:
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    await svc.remember(who, remember("ci_provider", "CircleCI", JAN))
    clock.tick()
    merged = await svc.remember(who, remember("ci_platform", "Buildkite", MAR))
    assert merged.predicate == "ci_provider"
    current = await svc.facts(who, FactsRequest(subject="web"))
    assert [(f.predicate, f.object, f.written_as) for f in current] == [
        ("ci_provider", "Buildkite", "ci_platform")
    ]


async def test_split_alias_gives_both_slots_their_current_values_and_keeps_both_clocks(
    store: Store, account: str
) -> None:
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    circle = await svc.remember(who, remember("ci_provider", "CircleCI", JAN))
    clock.tick()
    build = await svc.remember(who, remember("ci_platform", "Buildkite", MAR))
    assert build.closed == [circle.fact_id]
    clock.tick()
    merged_belief = clock.now
    clock.tick()

    done = await svc.split_alias(who, SplitAliasRequest(alias="ci_platform"))
    assert (done.subject, done.alias, done.canonical) == ("web", "ci_platform", "ci_provider")
    assert done.moved == [build.fact_id] and done.reopened == [circle.fact_id]
    assert done.values == {build.fact_id: "Buildkite", circle.fact_id: "CircleCI"}

    current = await svc.facts(who, FactsRequest(subject="web"))
    assert sorted((f.predicate, f.object, f.valid_at, f.invalid_at) for f in current) == [
        ("ci_platform", "Buildkite", MAR, None),
        ("ci_provider", "CircleCI", JAN, None),
    ]
    # The record clock still knows what was believed while the merge stood.
    then = await svc.facts(who, FactsRequest(subject="web", as_believed=merged_belief))
    assert [(f.predicate, f.object) for f in then] == [("ci_provider", "Buildkite")]
    # The alias is gone: the name is its own slot, and a new value closes only its own.
    assert (await store.slot_names(account, "web"))["ci_platform"] == "ci_platform"
    clock.tick()
    again = await svc.remember(who, remember("ci_platform", "GitHub Actions", JUN))
    assert again.predicate == "ci_platform" and again.closed == [build.fact_id]
    with pytest.raises(AliasNotFound):
        await svc.split_alias(who, SplitAliasRequest(alias="ci_platform"))


async def test_split_keeps_an_end_the_other_slot_did_not_cause(store: Store, account: str) -> None:
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    await svc.remember(who, remember("ci_provider", "CircleCI", JAN))
    clock.tick()
    await svc.remember(who, remember("ci_provider", "Jenkins", MAR))
    clock.tick()
    await svc.remember(who, remember("ci_platform", "Buildkite", JUN))
    clock.tick()
    await svc.split_alias(who, SplitAliasRequest(alias="ci_platform", subject="web"))
    history = await svc.facts(who, FactsRequest(subject="web", include_history=True))
    believed = sorted(
        (f.predicate, f.object, f.valid_at, f.invalid_at) for f in history if f.expired_at is None
    )
    assert believed == [
        ("ci_platform", "Buildkite", JUN, None),
        ("ci_provider", "CircleCI", JAN, MAR),  # Jenkins ended it, not the alias
        ("ci_provider", "Jenkins", MAR, None),  # Buildkite had ended it: open again
    ]


async def test_split_of_an_unknown_or_ambiguous_alias_changes_nothing(
    store: Store, account: str
) -> None:
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    with pytest.raises(AliasNotFound):
        await svc.split_alias(who, SplitAliasRequest(alias="ci_platform"))
    for subject in ("web", "api"):
        for predicate, value in (("ci_provider", "CircleCI"), ("ci_platform", "Buildkite")):
            clock.tick()
            await svc.remember(
                who, RememberRequest(subject=subject, predicate=predicate, object=value)
            )
    before = await svc.facts(who, FactsRequest(include_history=True))
    with pytest.raises(InvalidInput, match="api, web"):
        await svc.split_alias(who, SplitAliasRequest(alias="ci_platform"))
    with pytest.raises(AliasNotFound):
        await svc.split_alias(who, SplitAliasRequest(alias="ci_platform", subject="docs"))
    assert await svc.facts(who, FactsRequest(include_history=True)) == before
