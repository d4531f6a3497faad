"""Recall of a question naming a part of a day, over every real store (DESIGN.md §6)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from storekit import Writer
from test_recall_legs import EMBEDDER
from test_recall_service import NOWHERE, ew  # noqa: F401 (ew is a fixture)

from twoclocks.domain.model import RetiredReason, Tier
from twoclocks.graph.port import Store
from twoclocks.service.recall import RecallService
from twoclocks.service.recall_requests import RecallRequest
from twoclocks.service.requests import Caller

pytestmark = pytest.mark.anyio

NOW = datetime(2029, 12, 31, 10, 30, tzinfo=UTC)


def recall_at_now(store: Store) -> RecallService:
    """Recall asked at 10:30 on Monday 2029-12-31, UTC."""
    return RecallService(store, lambda: NOW, EMBEDDER, lambda _cwd: NOWHERE, UTC)  # type: ignore[arg-type]


async def ci_corrected(writer: Writer, told: datetime, fixed: datetime) -> None:
    """CI told as GitHub Actions at ``told``, corrected to Buildkite at ``fixed``."""
    gha = await writer.write("ledger", "ci", "GitHub Actions", told, now=told, tier=Tier.ASSERTED)
    await writer.revise(gha.fact_id, RetiredReason.CORRECTED, now=fixed)
    await writer.write("ledger", "ci", "Buildkite", told, now=fixed, tier=Tier.ASSERTED)


async def test_recall_a_question_naming_a_part_of_a_day_gets_what_held_or_changed_then(
    store: Store,
    ew: Writer,  # noqa: F811
    account: str,
) -> None:
    # Monday 2029-12-31: main from 08:00, switched to fix/login at 09:30; asked at 10:30.
    # Read as no time named, "this morning" got fix/login alone, or the past 7 days.
    main = datetime(2029, 12, 31, 8, tzinfo=UTC)
    switched = datetime(2029, 12, 31, 9, 30, tzinfo=UTC)
    await ew.write("ledger", "branch", "main", main, now=main, tier=Tier.OBSERVED)
    await ew.write("ledger", "branch", "fix/login", switched, now=switched, tier=Tier.OBSERVED)
    recall = recall_at_now(store)
    caller = Caller(account=account)
    then = await recall.recall(caller, RecallRequest(query="what was the branch this morning?"))
    assert then.named_time is not None
    assert then.named_time.label == "this morning (2029-12-31, to 10:30)"
    assert [f.object for f in then.held_then] == ["main"]
    assert then.facts[0].object == "fix/login"
    changed = await recall.recall(caller, RecallRequest(query="what changed this morning?"))
    assert [f.object for f in changed.changed] == ["main", "fix/login"]
    # Last night, nothing of it held: no value is named as held then.
    night = await recall.recall(caller, RecallRequest(query="what was the branch last night?"))
    assert night.named_time is not None and night.held_then == []


async def test_recall_a_belief_question_naming_a_time_still_running_reads_its_start_too(
    store: Store,
    ew: Writer,  # noqa: F811
    account: str,
) -> None:
    # GitHub Actions told on the 30th, corrected to Buildkite at 09:00 on the 31st; asked at
    # 10:30 "what did you think the ci was this morning?". Read at the morning's end alone
    # (now), memory believed Buildkite: the value it holds now, not what it thought then.
    await ci_corrected(
        ew, datetime(2029, 12, 30, 9, tzinfo=UTC), datetime(2029, 12, 31, 9, tzinfo=UTC)
    )
    recall = recall_at_now(store)
    caller = Caller(account=account)
    ask = RecallRequest(query="what did you think the ci was this morning?")
    got = await recall.recall(caller, ask)
    assert got.then_believed
    assert [(f.object, f.retired_reason) for f in got.held_then][:2] == [
        ("GitHub Actions", RetiredReason.CORRECTED),
        ("Buildkite", None),
    ]


async def test_recall_a_belief_question_names_a_belief_that_began_and_ended_inside_its_time(
    store: Store,
    ew: Writer,  # noqa: F811
    account: str,
) -> None:
    # GitHub Actions told at 09:00 on the 31st, corrected to Buildkite at 09:30; asked at
    # 10:30 "what did you think the ci was this morning?". Memory believed no CI at 00:00
    # and Buildkite at 10:30: read at the two ends alone, GitHub Actions was missed.
    told = datetime(2029, 12, 31, 9, tzinfo=UTC)
    await ci_corrected(ew, told, datetime(2029, 12, 31, 9, 30, tzinfo=UTC))
    await ew.write("ledger", "database", "Postgres 16", told, now=told, tier=Tier.ASSERTED)
    recall = recall_at_now(store)
    caller = Caller(account=account)
    ask = RecallRequest(query="what did you think the ci was this morning?")
    got = await recall.recall(caller, ask)
    assert [(f.object, f.retired_reason) for f in got.held_then][:2] == [
        ("GitHub Actions", RetiredReason.CORRECTED),
        ("Buildkite", None),
    ]
    # Asked of last night, before either was told: neither is named.
    night = RecallRequest(query="what did you think the ci was last night?")
    assert "GitHub Actions" not in [
        f.object for f in (await recall.recall(caller, night)).held_then
    ]
