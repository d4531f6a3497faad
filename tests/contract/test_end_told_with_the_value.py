"""DESIGN §2, "An end told with the value", through the service on every store."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime

import pytest
from storekit import FakeClock

from twoclocks.domain.errors import InvalidInput, InvalidTemporalRange
from twoclocks.domain.model import Kind
from twoclocks.domain.trust import Channel, Writer
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import Caller, FactsRequest, RememberRequest

pytestmark = pytest.mark.anyio

DEC = {day: datetime(2026, 12, day, tzinfo=UTC) for day in (1, 7, 10, 14, 15, 21, 22)}


async def test_an_end_told_with_the_value_holds_until_it_and_the_interrupted_value_comes_back(
    store: Store, account: str
) -> None:
    clock = FakeClock(DEC[7])
    ids = (uuid.uuid4().hex for _ in itertools.count())
    svc = MemoryService(store, lambda: clock.now, lambda: next(ids))
    who = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)

    async def say(value: str, **when: object) -> None:
        req = RememberRequest(subject="team", predicate="on_call", object=value, **when)  # type: ignore[arg-type]
        await svc.remember(who, req)

    async def on_call(at: datetime) -> list[str]:
        rows = await svc.facts(who, FactsRequest(subject="team", as_of=at))
        return [f.object for f in rows]

    await say("Dana", valid_at=DEC[1])
    await say("Ravi", valid_at=DEC[14], invalid_at=DEC[21])
    assert await on_call(DEC[10]) == ["Dana"]
    assert await on_call(DEC[15]) == ["Ravi"]
    assert await on_call(DEC[22]) == ["Dana"]
    # An end before its start (now, when none is given) or an end of an event is refused,
    # and nothing is written.
    with pytest.raises(InvalidTemporalRange):
        await say("Mia", invalid_at=DEC[1])
    with pytest.raises(InvalidInput):
        await say("Mia", valid_at=DEC[14], invalid_at=DEC[15], kind=Kind.EVENT)
    history = await svc.facts(who, FactsRequest(subject="team", include_history=True))
    assert "Mia" not in [f.object for f in history]
