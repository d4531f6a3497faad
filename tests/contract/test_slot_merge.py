"""Merging two slot names by hand (issue 11: a missed merge is mended as a wrong one is).

On every store: the later value replaces the earlier as a write would have, both clocks
stay honest, later writes of the merged name land in the slot, and a split undoes it.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest
from storekit import FakeClock, names_only_service

from twoclocks.domain.errors import (
    FactAlreadyRetired,
    FactNotRetracted,
    InvalidInput,
    SlotNotFound,
)
from twoclocks.domain.model import RetiredReason, Tier
from twoclocks.domain.trust import Writer
from twoclocks.graph.port import SlotState, Store
from twoclocks.service.alias_requests import (
    MergeSlotRequest,
    SplitAliasRequest,
)
from twoclocks.service.explore import fact_episodes
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

JAN, MAR, JUN = (datetime(2026, m, 1, tzinfo=UTC) for m in (1, 3, 6))


def service(store: Store, clock: FakeClock) -> MemoryService:
    return names_only_service(store, clock)


def remember(predicate: str, value: str, valid_at: datetime) -> RememberRequest:
    return RememberRequest(subject="core", predicate=predicate, object=value, valid_at=valid_at)


async def write_in_order(
    svc: MemoryService, who: Caller, clock: FakeClock, *writes: tuple[str, str, datetime]
) -> list[RememberResult]:
    """Remember each (predicate, value, valid_at), one record tick apart."""
    out = []
    for predicate, value, valid_at in writes:
        out.append(await svc.remember(who, remember(predicate, value, valid_at)))
        clock.tick()
    return out


async def owner_and_steward(
    store: Store, account: str
) -> tuple[MemoryService, Caller, FakeClock, RememberResult]:
    """Two slots drift kept apart: ``owner`` Aiko from January, ``steward`` Lucía from March
    (returned)."""
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    _, lucia = await write_in_order(
        svc, who, clock, ("owner", "Aiko", JAN), ("steward", "Lucía", MAR)
    )
    return svc, who, clock, lucia


def merge(alias: str = "steward", canonical: str = "owner") -> MergeSlotRequest:
    return MergeSlotRequest(subject="core", alias=alias, canonical=canonical)


def believed(rows: list) -> list[tuple]:  # type: ignore[type-arg]
    return sorted(
        (f.predicate, f.object, f.valid_at, f.invalid_at, f.written_as)
        for f in rows
        if f.expired_at is None
    )


async def test_slot_merge_the_later_value_replaces_the_earlier_and_both_clocks_stay_honest(
    store: Store, account: str
) -> None:
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    aiko = await svc.remember(who, remember("owner", "Aiko", JAN))
    clock.tick()
    lucia = await svc.remember(who, remember("steward", "Lucía", MAR))
    assert lucia.predicate == "steward" and lucia.closed == []  # the missed merge
    clock.tick()
    before = clock.now
    clock.tick()

    done = await svc.merge_slot(who, merge())
    assert (done.subject, done.alias, done.canonical) == ("core", "steward", "owner")
    assert done.moved == [lucia.fact_id] and done.closed == [aiko.fact_id]
    assert done.values == {lucia.fact_id: "Lucía", aiko.fact_id: "Aiko"}

    current = await svc.facts(who, FactsRequest(subject="core"))
    assert [(f.predicate, f.object, f.written_as) for f in current] == [
        ("owner", "Lucía", "steward")
    ]
    history = await svc.facts(who, FactsRequest(subject="core", include_history=True))
    assert believed(history) == [
        ("owner", "Aiko", JAN, MAR, None),  # Lucía took over in March
        ("owner", "Lucía", MAR, None, "steward"),
    ]
    # The record clock still says what was believed before the merge: two slots.
    then = await svc.facts(who, FactsRequest(subject="core", as_believed=before))
    assert sorted((f.predicate, f.object) for f in then) == [
        ("owner", "Aiko"),
        ("steward", "Lucía"),
    ]
    # The name now leads to the slot: reads by it, and later writes of it.
    by_name = await svc.facts(who, FactsRequest(subject="core", predicate="steward"))
    assert [f.object for f in by_name] == ["Lucía"]
    clock.tick()
    mateo = await svc.remember(who, remember("steward", "Mateo", JUN))
    assert mateo.predicate == "owner" and mateo.closed == [lucia.fact_id]


async def test_slot_merge_is_undone_by_a_split(store: Store, account: str) -> None:
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    await write_in_order(svc, who, clock, ("owner", "Aiko", JAN), ("steward", "Lucía", MAR))
    await svc.merge_slot(who, merge())
    clock.tick()
    split = await svc.split_alias(who, SplitAliasRequest(alias="steward", subject="core"))
    assert split.canonical == "owner"
    current = await svc.facts(who, FactsRequest(subject="core"))
    assert sorted((f.predicate, f.object, f.valid_at, f.invalid_at) for f in current) == [
        ("owner", "Aiko", JAN, None),
        ("steward", "Lucía", MAR, None),
    ]


async def test_slot_merge_keeps_an_end_of_its_own_and_moves_history(
    store: Store, account: str
) -> None:
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    await write_in_order(
        svc,
        who,
        clock,
        ("owner", "Aiko", JAN),
        ("steward", "Lucía", JAN),
        ("steward", "Mateo", JUN),
    )
    done = await svc.merge_slot(who, merge())
    # Aiko and Lucía both started in January; Lucía was recorded later, so she replaced
    # Aiko at her start, as a write would have. Lucía's own end (Mateo, June) is kept.
    history = await svc.facts(who, FactsRequest(subject="core", include_history=True))
    assert believed(history) == [
        ("owner", "Lucía", JAN, JUN, "steward"),
        ("owner", "Mateo", JUN, None, "steward"),
    ]
    assert len(done.moved) == 2 and len(done.closed) == 1


async def test_slot_merge_of_slots_it_cannot_join_changes_nothing(
    store: Store, account: str
) -> None:
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    await write_in_order(
        svc,
        who,
        clock,
        ("owner", "Aiko", JAN),
        ("ci_provider", "CircleCI", JAN),
        ("ci_platform", "Buildkite", MAR),  # drift: an alias of ci_provider
    )
    # A maintainer is one of several (domain.cardinality): not the one owner.
    await svc.remember(who, remember("maintainer", "Lucía", JAN))
    clock.tick()
    before = await svc.facts(who, FactsRequest(include_history=True))
    aliases = await svc.aliases(who)
    with pytest.raises(SlotNotFound, match="no slot 'steward'"):
        await svc.merge_slot(who, merge())
    with pytest.raises(SlotNotFound, match="no slot 'sponsor'"):
        await svc.merge_slot(who, merge(alias="owner", canonical="sponsor"))
    with pytest.raises(InvalidInput, match="already one slot"):
        await svc.merge_slot(who, merge(alias="ci_provider", canonical="ci_platform"))
    with pytest.raises(InvalidInput, match="already written under 'ci_provider'"):
        await svc.merge_slot(who, merge(alias="ci_platform", canonical="owner"))
    with pytest.raises(InvalidInput, match="different numbers of values"):
        await svc.merge_slot(who, merge(alias="maintainer", canonical="owner"))
    assert await svc.facts(who, FactsRequest(include_history=True)) == before
    assert await svc.aliases(who) == aliases


async def test_slot_merge_while_the_name_is_written_leaves_one_slot_and_loses_nothing(
    store: Store, account: str
) -> None:
    svc, who, _, _ = await owner_and_steward(store, account)
    writes = [
        svc.remember(who, remember("steward", f"Person {n}", datetime(2026, 4, n, tzinfo=UTC)))
        for n in range(1, 9)
    ]
    results = await asyncio.gather(svc.merge_slot(who, merge()), *writes)
    written = {r.fact_id for r in results[1:]}  # type: ignore[union-attr]
    # Each write says where it is now, whether it queued before the merge or after.
    assert {r.predicate for r in results[1:]} == {"owner"}  # type: ignore[union-attr]
    # Nothing is left believed under the merged name, and every value written is in the slot.
    history = await svc.facts(who, FactsRequest(subject="core", include_history=True))
    assert not [f for f in history if f.predicate == "steward" and f.expired_at is None]
    in_slot = {f.fact_id for f in history if f.predicate == "owner" and f.expired_at is None}
    assert written <= in_slot
    current = await svc.facts(who, FactsRequest(subject="core"))
    assert [(f.predicate, f.object) for f in current] == [("owner", "Person 8")]


class ReadThenWait:
    """The real store, seen by a second server process whose first read of one slot
    waits until the test lets it go on: it read the slot just before a merge elsewhere."""

    def __init__(self, store: Store, predicate: str) -> None:
        self._store = store
        self._predicate = predicate
        self.has_read = asyncio.Event()
        self.go_on = asyncio.Event()

    def __getattr__(self, name: str) -> object:
        return getattr(self._store, name)

    async def read_slot(self, account: str, subject: str, predicate: str) -> SlotState:
        state = await self._store.read_slot(account, subject, predicate)
        if predicate == self._predicate and not self.has_read.is_set():
            self.has_read.set()
            await self.go_on.wait()
        return state


async def merged_while_read(
    store: Store, account: str, clock: FakeClock, other_process: ReadThenWait, work: object
) -> object:
    """Run ``work`` on the other process up to its read of ``steward``, merge ``steward``
    into ``owner`` here, then let the other process apply what it planned."""
    task = asyncio.ensure_future(work)  # type: ignore[arg-type]
    await other_process.has_read.wait()
    await service(store, clock).merge_slot(Caller(account=account), merge())
    other_process.go_on.set()
    return await task


async def test_slot_merge_holds_against_a_write_from_another_process(
    store: Store, account: str
) -> None:
    here, who, clock, _ = await owner_and_steward(store, account)
    elsewhere = ReadThenWait(store, "steward")
    write = service(elsewhere, clock).remember(who, remember("steward", "Mateo", JUN))  # type: ignore[arg-type]

    done = await merged_while_read(store, account, clock, elsewhere, write)

    # The alias moved the name's counter, so the write read again and went to the slot.
    assert (done.predicate, done.written_as) == ("owner", "steward")  # type: ignore[attr-defined]
    history = await here.facts(who, FactsRequest(subject="core", include_history=True))
    assert not [f for f in history if f.predicate == "steward" and f.expired_at is None]
    assert believed(history) == [
        ("owner", "Aiko", JAN, MAR, None),
        ("owner", "Lucía", MAR, JUN, "steward"),
        ("owner", "Mateo", JUN, None, "steward"),
    ]


async def test_slot_merge_holds_against_a_revise_from_another_process(
    store: Store, account: str
) -> None:
    here, who, clock, lucia = await owner_and_steward(store, account)
    elsewhere = ReadThenWait(store, "steward")
    ended = ReviseRequest(
        reason=RetiredReason.ENDED, at=JUN, replacement=Replacement(object="Mateo")
    )
    revise = service(elsewhere, clock).revise(who, lucia.fact_id, ended)  # type: ignore[arg-type]

    done = await merged_while_read(store, account, clock, elsewhere, revise)

    assert done.successor_id is not None  # type: ignore[attr-defined]
    history = await here.facts(who, FactsRequest(subject="core", include_history=True))
    assert not [f for f in history if f.predicate == "steward" and f.expired_at is None]
    current = await here.facts(who, FactsRequest(subject="core"))
    assert [(f.predicate, f.object) for f in current] == [("owner", "Mateo")]


async def test_slot_merge_then_reopen_brings_a_retracted_value_back_into_the_slot(
    store: Store, account: str
) -> None:
    svc, who, clock, lucia = await owner_and_steward(store, account)
    APR = datetime(2026, 4, 1, tzinfo=UTC)
    await svc.retract(who, lucia.fact_id)
    await write_in_order(svc, who, clock, ("steward", "Mateo", APR))
    await svc.merge_slot(who, merge())
    clock.tick()

    await svc.reopen(who, lucia.fact_id)

    history = await svc.facts(who, FactsRequest(subject="core", include_history=True))
    assert believed(history) == [
        ("owner", "Aiko", JAN, MAR, None),  # Lucía, back, took over in March
        ("owner", "Lucía", MAR, APR, "steward"),  # until Mateo in April
        ("owner", "Mateo", APR, None, "steward"),
    ]


async def test_slot_merge_files_a_value_again_as_rewritten_not_corrected(
    store: Store, account: str
) -> None:
    """A moved value was true all along: its old version reads ``rewritten``, never
    ``corrected`` (which says "never true"), in the history and on a split back."""
    svc, who, clock, lucia = await owner_and_steward(store, account)
    await svc.merge_slot(who, merge())
    clock.tick()
    history = await svc.facts(who, FactsRequest(subject="core", include_history=True))
    moved = [f for f in history if f.fact_id == lucia.fact_id and f.expired_at is not None]
    assert [(f.predicate, f.retired_reason) for f in moved] == [
        ("steward", RetiredReason.REWRITTEN)
    ]

    await svc.split_alias(who, SplitAliasRequest(alias="steward", subject="core"))
    history = await svc.facts(who, FactsRequest(subject="core", include_history=True))
    reasons = sorted(
        (f.object, f.predicate, f.invalid_at is not None, f.retired_reason)
        for f in history
        if f.expired_at is not None
    )
    assert reasons == [
        ("Aiko", "owner", False, RetiredReason.ENDED),  # cut open by the merge
        ("Aiko", "owner", True, RetiredReason.CORRECTED),  # that end was never true
        ("Lucía", "owner", False, RetiredReason.REWRITTEN),  # filed back under steward
        ("Lucía", "steward", False, RetiredReason.REWRITTEN),
    ]


async def test_slot_merge_then_a_correction_gives_back_what_the_merge_closed(
    store: Store, account: str
) -> None:
    svc, who, clock, lucia = await owner_and_steward(store, account)
    await svc.merge_slot(who, merge())
    clock.tick()

    await svc.revise(who, lucia.fact_id, ReviseRequest(reason=RetiredReason.CORRECTED))

    current = await svc.facts(who, FactsRequest(subject="core"))
    assert [(f.predicate, f.object, f.valid_at, f.invalid_at) for f in current] == [
        ("owner", "Aiko", JAN, None)
    ]


async def test_slot_merge_of_the_same_value_keeps_one_fact_and_its_start_and_a_split_undoes_it(
    store: Store, account: str
) -> None:
    # The near-slot hint's own flow: Aiko owns core since January; in June someone writes
    # her as its steward; the two names are merged. She has owned it since January.
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    owner, steward = [
        await svc.remember(who, remember(p, "Aiko", t).model_copy(update={"evidence": words}))
        for p, t, words in (
            ("owner", JAN, "Aiko owns core"),
            ("steward", JUN, "Aiko looks after core"),
        )
    ]
    clock.tick()
    done = await svc.merge_slot(who, merge())
    assert (done.moved, done.closed) == ([], [])
    assert done.folded == {steward.fact_id: owner.fact_id}
    assert done.values == {steward.fact_id: "Aiko", owner.fact_id: "Aiko"}
    current = await svc.facts(who, FactsRequest(subject="core"))
    assert [(f.fact_id, f.predicate, f.object, f.valid_at) for f in current] == [
        (owner.fact_id, "owner", "Aiko", JAN)
    ]
    history = await svc.facts(who, FactsRequest(subject="core", include_history=True))
    assert believed(history) == [("owner", "Aiko", JAN, None, None)]
    # The June words now stand behind the January fact, as a restatement's would.
    behind = await fact_episodes(svc, who, owner.fact_id)
    (now_held,) = [v for v in behind.versions if v.version_id == current[0].version_id]
    assert len(now_held.episodes) == 2
    clock.tick()

    split = await svc.split_alias(who, SplitAliasRequest(alias="steward", subject="core"))
    assert split.moved == [steward.fact_id]
    current = await svc.facts(who, FactsRequest(subject="core"))
    assert sorted((f.predicate, f.object, f.valid_at) for f in current) == [
        ("owner", "Aiko", JAN),
        ("steward", "Aiko", JUN),
    ]


async def test_a_split_takes_back_the_trust_a_folded_value_lent_the_fact_it_was_folded_into(
    store: Store, account: str
) -> None:
    # An agent guessed Aiko owns core; the person said she is its steward. Merged, the
    # person's word stands behind the owner fact (asserted). Split, the two names were two
    # slots after all: the owner fact is the agent's guess again, the steward the person's.
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc = service(store, clock)
    agent, person = Caller(account=account), Caller(account=account, writer=Writer.PERSON)
    owner = await svc.remember(agent, remember("owner", "Aiko", JAN))
    clock.tick()
    await svc.remember(person, remember("steward", "Aiko", JUN))
    clock.tick()
    done = await svc.merge_slot(person, merge())
    assert list(done.folded.values()) == [owner.fact_id]
    (held,) = await svc.facts(person, FactsRequest(subject="core"))
    assert (held.fact_id, held.tier) == (owner.fact_id, Tier.ASSERTED)
    clock.tick()

    await svc.split_alias(person, SplitAliasRequest(alias="steward", subject="core"))
    current = await svc.facts(person, FactsRequest(subject="core"))
    assert sorted((f.predicate, f.object, f.valid_at, f.tier, f.writer) for f in current) == [
        ("owner", "Aiko", JAN, Tier.INFERRED, Writer.AGENT),
        ("steward", "Aiko", JUN, Tier.ASSERTED, Writer.PERSON),
    ]


async def test_a_fact_a_merge_folded_says_where_its_value_is_when_revised_or_reopened(
    store: Store, account: str
) -> None:
    # Aiko as steward was folded into Aiko as owner. An agent holding the steward fact's
    # id was told "already retracted", and a reopen answered as if it had brought it back.
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    owner, steward = await write_in_order(
        svc, who, clock, ("owner", "Aiko", JAN), ("steward", "Aiko", JUN)
    )
    done = await svc.merge_slot(who, merge())
    assert done.folded == {steward.fact_id: owner.fact_id}
    folded = r"core · steward: 'Aiko'\) was folded into another fact of core"
    with pytest.raises(FactAlreadyRetired, match=folded):
        await svc.revise(who, steward.fact_id, ReviseRequest(reason=RetiredReason.ENDED))
    with pytest.raises(FactNotRetracted, match=r"folded .* nothing to reopen"):
        await svc.reopen(who, steward.fact_id)
    current = await svc.facts(who, FactsRequest(subject="core"))
    assert [(f.fact_id, f.object) for f in current] == [(owner.fact_id, "Aiko")]


async def test_slot_merge_folds_the_slots_later_same_value_into_the_moved_earlier_one(
    store: Store, account: str
) -> None:
    clock = FakeClock(datetime(2026, 7, 1, tzinfo=UTC))
    svc, who = service(store, clock), Caller(account=account)
    steward, owner = await write_in_order(
        svc, who, clock, ("steward", "Aiko", JAN), ("owner", "Aiko", JUN)
    )
    done = await svc.merge_slot(who, merge())
    assert done.folded == {owner.fact_id: steward.fact_id} and done.closed == []
    current = await svc.facts(who, FactsRequest(subject="core"))
    assert [(f.fact_id, f.predicate, f.object, f.valid_at, f.written_as) for f in current] == [
        (steward.fact_id, "owner", "Aiko", JAN, "steward")
    ]
    clock.tick()

    split = await svc.split_alias(who, SplitAliasRequest(alias="steward", subject="core"))
    assert split.moved == [steward.fact_id] and split.reopened == [owner.fact_id]
    current = await svc.facts(who, FactsRequest(subject="core"))
    assert sorted((f.predicate, f.object, f.valid_at) for f in current) == [
        ("owner", "Aiko", JUN),
        ("steward", "Aiko", JAN),
    ]
