"""Facts that start later beside recall's answer (twoclocks/service/recall_later.py)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from twoclocks.domain.model import FactVersion, Kind, Tier
from twoclocks.domain.named_times import NamedTime
from twoclocks.service.recall_later import plan_first, split_later
from twoclocks.service.recall_requests import ScoredFact
from twoclocks.service.requests import Fact

NOW = datetime(2026, 12, 7, 10, tzinfo=UTC)
MONDAY = datetime(2026, 12, 14, tzinfo=UTC)
NEXT_WEEK = NamedTime("next week", "next week", MONDAY, datetime(2026, 12, 21, tzinfo=UTC))
TOMORROW = NamedTime(
    "tomorrow", "tomorrow", datetime(2026, 12, 8, tzinfo=UTC), datetime(2026, 12, 9, tzinfo=UTC)
)


def version(predicate: str, value: str, valid_at: datetime) -> FactVersion:
    return FactVersion(
        fact_id=f"f-{value}", version_id=f"v-{value}", subject="team", predicate=predicate,
        object=value, kind=Kind.FACT, tier=Tier.ASSERTED, valid_at=valid_at,
        created_at=NOW, episodes=[],
    )  # fmt: skip


def scored(v: FactVersion, score: float, **more: Any) -> ScoredFact:
    return ScoredFact(**(Fact.of(v).model_dump() | more), score=score)


DANA = version("on_call", "Dana", datetime(2026, 12, 7, tzinfo=UTC))
RAVI = version("on_call", "Ravi", MONDAY)
FREEZE = version("deploy_freeze", "on", datetime(2027, 1, 4, tzinfo=UTC))


def test_plans_holding_at_the_time_to_come_are_named_first_and_never_as_rows() -> None:
    ranked = [(DANA, 0.9), (FREEZE, 0.8), (RAVI, 0.7)]
    rows, later = split_later(ranked, NOW, k=3, to_come=NEXT_WEEK)
    assert rows == [(DANA, 0.9)]
    assert later == [(RAVI, 0.7), (FREEZE, 0.8)]
    # Naming no time, the rank order stands.
    assert split_later(ranked, NOW, k=3, to_come=None)[1] == [(FREEZE, 0.8), (RAVI, 0.7)]


def test_a_plan_holding_the_first_rows_slot_at_the_time_to_come_comes_first() -> None:
    dana, ravi = scored(DANA, 0.9), scored(RAVI, 0.7)
    assert plan_first("who is on call next week?", [ravi], [dana], NEXT_WEEK)
    # Not holding then (tomorrow is still Dana's), or naming no time: the row leads.
    assert not plan_first("who will be on call tomorrow?", [ravi], [dana], TOMORROW)
    assert not plan_first("who is on call?", [ravi], [dana], None)
    # A plan of another slot than the first row's leads only when it matches better.
    freeze_week = NamedTime(
        "in January", "January 2027", FREEZE.valid_at, datetime(2027, 2, 1, tzinfo=UTC)
    )
    assert not plan_first("who is on call in January?", [scored(FREEZE, 0.5)], [dana], freeze_week)
    assert plan_first("any freeze in January?", [scored(FREEZE, 1.2)], [dana], freeze_week)
