"""Helpers of the contract suite: a fake clock and a writer that drives the pure planners."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

from twoclocks.domain.model import FactVersion, Incoming, Plan, RetiredReason
from twoclocks.domain.revise_plan import plan_retract, plan_revise
from twoclocks.domain.trust import Writer as WriterTier
from twoclocks.domain.write_plan import plan_write
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import SlotsApart, SlotState, Store
from twoclocks.service.alias_requests import (
    KeepApartRequest,
    MergeSlotRequest,
    MergeSlotResult,
)
from twoclocks.service.close_slots import CloseSlot, CloseSlotsRequest, close_slots
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import (
    Caller,
    RememberRequest,
    RememberResult,
)

T0 = datetime(2026, 1, 1, 9, 0, tzinfo=UTC)
"""The fake clock's epoch: every test time is T0 plus an explicit offset."""


def fresh_account() -> str:
    """A new account name nobody else uses (valid as a FalkorDB graph name)."""
    return f"t{uuid.uuid4().hex[:16]}"


class FakeClock:
    """The record clock of a test: moves only when told to."""

    def __init__(self, start: datetime = T0) -> None:
        self.now = start

    def tick(self, **delta: float) -> datetime:
        """Advance (default one hour) and return the new now."""
        self.now += timedelta(**(delta or {"hours": 1}))
        return self.now


class Writer:
    """Reads a slot, plans with the pure planners and applies through the store."""

    def __init__(self, store: Store, account: str) -> None:
        self.store = store
        self.account = account
        self.clock = FakeClock()
        self._ids = (f"v{i:05d}-{uuid.uuid4().hex[:8]}" for i in itertools.count())

    def new_id(self) -> str:
        """Ids sort in creation order, which makes failures easier to read."""
        return next(self._ids)

    async def write(
        self,
        subject: str,
        predicate: str,
        obj: str,
        valid_at: datetime,
        now: datetime | None = None,
        **extra: Any,
    ) -> Plan:
        """Plan and apply one write; the apply must win (no concurrency here)."""
        state = await self.store.read_slot(self.account, subject, predicate)
        incoming = Incoming(
            subject=subject, predicate=predicate, object=obj, valid_at=valid_at, **extra
        )
        plan = plan_write(incoming, state.versions, now or self.clock.tick(), self.new_id)
        assert await self.store.apply(self.account, plan, subject, predicate, state.counter)
        return plan

    async def _read_fact(self, fact_id: str) -> tuple[SlotState, list[FactVersion]]:
        # The counter must be read before the versions a plan is made from: a write that
        # lands in between then only makes the counter stale (the apply is refused).
        slot = (await self.store.versions_of(self.account, fact_id))[0].slot
        state = await self.store.read_slot(self.account, *slot)
        return state, await self.store.versions_of(self.account, fact_id)

    async def revise(
        self,
        fact_id: str,
        reason: RetiredReason,
        now: datetime | None = None,
        at: datetime | None = None,
        replacement: str | None = None,
    ) -> Plan:
        """Plan and apply an ended/corrected revision, with an optional replacement value."""
        state, versions = await self._read_fact(fact_id)
        subject, predicate = versions[0].slot
        incoming = None
        if replacement is not None:
            incoming = Incoming(
                subject=subject,
                predicate=predicate,
                object=replacement,
                valid_at=versions[0].valid_at,
            )
        plan = plan_revise(
            fact_id,
            versions,
            reason,
            now or self.clock.tick(),
            self.new_id,
            at=at,
            replacement=incoming,
        )
        assert await self.store.apply(self.account, plan, subject, predicate, state.counter)
        return plan

    async def retract(self, fact_id: str, now: datetime | None = None) -> Plan:
        """Plan and apply a retract (belief axis only)."""
        state, versions = await self._read_fact(fact_id)
        subject, predicate = versions[0].slot
        plan = plan_retract(fact_id, versions, now or self.clock.tick())
        assert await self.store.apply(self.account, plan, subject, predicate, state.counter)
        return plan


def names_only_service(store: Store, clock: FakeClock) -> MemoryService:
    """A MemoryService whose slot drift merges only names the lexical rules call one.

    At a 0.99 threshold the hashing embedder merges nothing of its own: "ci_provider" /
    "ci_platform" are one slot by the rules, "owner" / "steward" stay two.
    """
    ids = (uuid.uuid4().hex for _ in itertools.count())
    return MemoryService(
        store,
        lambda: clock.now,
        lambda: next(ids),
        slot_matcher=SlotMatcher(HashingEmbedder(), threshold=0.99),
    )


def drifting_service(
    store: Store, matcher: SlotMatcher, clock: FakeClock, **options: Any
) -> MemoryService:
    """A MemoryService with a real slot matcher (and its embedder) on a fake record clock.

    ``options`` go to MemoryService as they are: a slot judge, a workspace resolver.
    """
    ids = (uuid.uuid4().hex for _ in itertools.count())
    return MemoryService(
        store,
        lambda: clock.now,
        lambda: next(ids),
        embedder=matcher.embedder,
        slot_matcher=matcher,
        **options,
    )


class SlotRig:
    """A memory service with the real slot matcher and no judge, and its two callers.

    Every call moves the fake record clock first, so each act has its own record time.
    Writes come from ``writes_as`` (the agent unless told); the person merges and asks.
    """

    def __init__(
        self,
        store: Store,
        matcher: SlotMatcher,
        account: str,
        writes_as: WriterTier = WriterTier.AGENT,
    ) -> None:
        self.clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
        self.person = Caller(account=account, writer=WriterTier.PERSON)
        self.agent = Caller(account=account, writer=WriterTier.AGENT)
        self.writes_as = Caller(account=account, writer=writes_as)
        self.memory = drifting_service(store, matcher, self.clock)

    async def write(self, subject: str, predicate: str, value: str) -> RememberResult:
        """Remember one fact."""
        self.clock.tick()
        req = RememberRequest(subject=subject, predicate=predicate, object=value)
        return await self.memory.remember(self.writes_as, req)

    async def write_each(self, subjects: tuple[str, ...], *facts: tuple[str, str]) -> None:
        """Remember the same (predicate, value) facts, in order, for every subject."""
        for subject in subjects:
            for predicate, value in facts:
                await self.write(subject, predicate, value)

    async def merge(
        self, subject: str, alias: str, canonical: str, caller: Caller | None = None
    ) -> MergeSlotResult:
        """Merge slot ``alias`` into ``canonical`` by hand (the person's, unless told)."""
        self.clock.tick()
        req = MergeSlotRequest(subject=subject, alias=alias, canonical=canonical)
        return await self.memory.merge_slot(caller or self.person, req)

    async def keep_apart(self, caller: Caller, subject: str, slot: str, other: str) -> SlotsApart:
        """Keep two slots of a subject apart."""
        self.clock.tick()
        req = KeepApartRequest(subject=subject, slot=slot, other=other)
        return await self.memory.keep_apart(caller, req)

    async def close_list(self, subject: str | None = None) -> list[CloseSlot]:
        """The person's close-slots list, over every workspace."""
        self.clock.tick()
        req = CloseSlotsRequest(subject=subject, all_workspaces=True)
        return (await close_slots(self.memory, self.person, req)).close

    async def close(self, subject: str | None = None) -> list[tuple[str, str, str]]:
        """The close list as (subject, slot, other) pairs."""
        return [(c.subject, c.slot, c.other) for c in await self.close_list(subject)]
