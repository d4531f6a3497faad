"""service/slot_writer.py on every real store: one process's writers of a slot take turns,
and writers in other processes are still kept honest by the store's slot counter."""

from __future__ import annotations

import asyncio
import itertools
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from storekit import FakeClock

from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import Caller, FactsRequest, RememberRequest

pytestmark = pytest.mark.anyio

START = datetime(2026, 1, 1, tzinfo=UTC)


class CountingApplies:
    """The real store, with its ``apply`` calls counted (every other call passes through)."""

    def __init__(self, store: Store) -> None:
        self._store = store
        self.applies = 0

    async def apply(self, *args: Any, **kwargs: Any) -> bool:
        self.applies += 1
        return await self._store.apply(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


def service_on(store: Any, clock: FakeClock) -> MemoryService:
    ids = (uuid.uuid4().hex for _ in itertools.count())
    return MemoryService(store, lambda: clock.now, lambda: next(ids))


def new_value(n: int) -> RememberRequest:
    return RememberRequest(
        subject="svc", predicate="on_call", object=f"engineer {n}", valid_at=START + timedelta(n)
    )


async def assert_one_current_and_chained(svc: MemoryService, who: Caller, n: int) -> None:
    current = await svc.facts(who, FactsRequest(subject="svc"))
    assert [f.object for f in current] == [f"engineer {n - 1}"]
    history = await svc.facts(
        who, FactsRequest(subject="svc", as_believed=svc.clock(), include_history=True)
    )
    windows = sorted((f.valid_at, f.invalid_at) for f in history)
    assert len(windows) == n
    for (_, end), (next_start, _) in itertools.pairwise(windows):
        assert end == next_start


async def test_writers_of_one_slot_in_one_process_take_turns_instead_of_retrying(
    store: Store, account: str
) -> None:
    counted = CountingApplies(store)
    clock = FakeClock(START + timedelta(days=60))
    svc, who = service_on(counted, clock), Caller(account=account)
    await asyncio.gather(*(svc.remember(who, new_value(n)) for n in range(20)))
    # 20 writes, 20 transactions: no writer lost a race and paid for another attempt.
    assert counted.applies == 20
    await assert_one_current_and_chained(svc, who, 20)


async def test_writers_in_two_processes_are_still_kept_apart_by_the_slot_counter(
    store: Store, account: str
) -> None:
    clock = FakeClock(START + timedelta(days=60))
    one, two, who = service_on(store, clock), service_on(store, clock), Caller(account=account)
    await asyncio.gather(*(([one, two][n % 2]).remember(who, new_value(n)) for n in range(20)))
    await assert_one_current_and_chained(one, who, 20)
