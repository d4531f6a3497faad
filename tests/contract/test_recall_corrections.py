"""Recall of the corrections made in a time, over every real store (DESIGN.md §6; the
block tells them under "Recent changes", and recall must not say less)."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime

import pytest
from storekit import FakeClock
from test_recall_legs import EmbeddingStore
from test_recall_service import service

from twoclocks.domain.model import RetiredReason
from twoclocks.domain.trust import Channel, Writer
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.recall_requests import RecallRequest, RecallResult
from twoclocks.service.requests import Caller, RememberRequest, Replacement, ReviseRequest

pytestmark = pytest.mark.anyio

CORRECTED = RetiredReason.CORRECTED


def at(day: int, hour: int = 9, month: int = 12) -> datetime:
    return datetime(2029, month, day, hour, tzinfo=UTC)


async def a_week_of_mistakes(store: Store, account: str) -> Caller:
    """Told through the service, asked on Tuesday 2030-01-01 (the week began on Monday the
    31st): MySQL 8 corrected to Postgres 16 on the 21st; GitHub Actions corrected to
    Buildkite on the 31st; AWS, told on the 31st and closing Render, corrected that day
    with nothing in its place (Render is believed again); Rust replaced by Go on the 31st,
    a change in the world."""
    clock = FakeClock()
    ids = (uuid.uuid4().hex for _ in itertools.count())
    svc = MemoryService(EmbeddingStore(store), lambda: clock.now, lambda: next(ids))  # type: ignore[arg-type]
    who = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)

    async def say(told: datetime, predicate: str, value: str, valid_at: datetime) -> str:
        clock.now = told
        req = RememberRequest(subject="shop", predicate=predicate, object=value, valid_at=valid_at)
        return (await svc.remember(who, req)).fact_id

    async def correct(told: datetime, fact_id: str, instead: str | None = None) -> None:
        clock.now = told
        replacement = None if instead is None else Replacement(object=instead)
        await svc.revise(who, fact_id, ReviseRequest(reason="corrected", replacement=replacement))

    await correct(at(21), await say(at(20), "database", "MySQL 8", at(20)), "Postgres 16")
    await correct(at(31, 10), await say(at(30), "ci", "GitHub Actions", at(30)), "Buildkite")
    await say(at(1, month=6), "host", "Render", at(1, month=6))
    await correct(at(31, 12), await say(at(31, 11), "host", "AWS", at(31, 0)))
    await say(at(1, month=1), "language", "Rust", at(1, month=1))
    await say(at(31, 13), "language", "Go", at(31, 0))
    # Heroku told with no start at 14:00, then "Fly.io since 00:00" at 15:00: Heroku is
    # outdated (told after it had changed), no mistake.
    clock.now = at(31, 14)
    await svc.remember(who, RememberRequest(subject="shop", predicate="deploy", object="Heroku"))
    await say(at(31, 15), "deploy", "Fly.io", at(31, 0))
    return Caller(account=account)


def told(got: RecallResult) -> list[tuple[str, RetiredReason | None]]:
    return [(f.object, f.retired_reason) for f in got.corrected]


async def test_a_question_asking_what_was_corrected_gets_the_corrections_made_then_each_with_what_holds_instead(  # noqa: E501
    store: Store, account: str
) -> None:
    caller = await a_week_of_mistakes(store, account)
    got = await service(store).recall(caller, RecallRequest(query="what did we correct this week?"))
    assert got.changes_corrected and got.changed == [] and got.status == "rows"
    assert got.changes_in is not None and got.changes_in.label == "this week (from 2029-12-31)"
    # Oldest correction first; a correction that left the slot to the value it had closed
    # is followed by that value, believed again.
    assert told(got) == [
        ("GitHub Actions", CORRECTED), ("Buildkite", None), ("AWS", CORRECTED), ("Render", None),
    ]  # fmt: skip
    wider = await service(store).recall(
        caller, RecallRequest(query="any corrections in the past 30 days?")
    )
    assert [o for o, _ in told(wider)][:2] == ["MySQL 8", "Postgres 16"]
    # Of one slot named by name, that slot's corrections alone.
    ci = await service(store).recall(
        caller, RecallRequest(query="what did you get wrong about ci?")
    )
    assert told(ci) == [("GitHub Actions", CORRECTED), ("Buildkite", None)]
    # Before any mistake, memory corrected nothing: said so, not the rows alone.
    none = await service(store).recall(
        caller, RecallRequest(query="what did we correct on 2029-12-25?")
    )
    assert none.changes_corrected and none.corrected == []


async def test_a_question_asking_what_changed_or_what_memory_learned_names_the_corrections_made_then_too(  # noqa: E501
    store: Store, account: str
) -> None:
    caller = await a_week_of_mistakes(store, account)
    changed = await service(store).recall(caller, RecallRequest(query="what changed this week?"))
    # The world changed: Rust to Go, and Fly.io from 00:00 (told late: Heroku, told before
    # it, is outdated, no mistake). Memory's mind changed twice, said apart.
    first, *began = [f.object for f in changed.changed]  # all at 00:00; an end comes first
    assert (first, sorted(began)) == ("Rust", ["Fly.io", "Go"])
    assert not changed.changes_corrected
    assert [o for o, _ in told(changed)] == ["GitHub Actions", "Buildkite", "AWS", "Render"]
    learned = await service(store).recall(
        caller, RecallRequest(query="what did you learn this week?")
    )
    assert learned.changes_told
    assert [o for o, _ in told(learned)] == ["GitHub Actions", "Buildkite", "AWS", "Render"]
    # Buildkite, told this week instead of a wrong value, is said once: after it.
    assert "Buildkite" not in [f.object for f in learned.changed]
