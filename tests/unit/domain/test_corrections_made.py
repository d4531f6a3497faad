"""A question asking what memory corrected, and the corrections it is told
(domain.corrections_made)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from twoclocks.domain.corrections_made import (
    MAX_CORRECTIONS,
    asks_what_was_corrected,
    corrections_told,
)
from twoclocks.domain.model import FactVersion, RetiredReason, Tier

T0 = datetime(2026, 12, 7, 4, tzinfo=UTC)


@pytest.mark.parametrize(
    "question",
    [
        "what did we correct today?",
        "what have you corrected this week?",
        "What did you get wrong about ci?",
        "what was wrong yesterday?",
        "what's been corrected since Monday?",
        "any corrections this week?",
        "which corrections did we make in November?",
        "recent corrections",
        "what facts turned out to be wrong?",
    ],
)
def test_recall_a_question_asking_what_was_corrected_is_told_apart(question: str) -> None:
    assert asks_what_was_corrected(question)


@pytest.mark.parametrize(
    "question",
    [
        "what did we fix this morning?",  # the work, not memory's mistakes
        "who corrected the migration?",
        "is the ci config correct?",
        "what is the correct test command?",
        "what went wrong in the deploy?",
        "what changed this week?",
    ],
)
def test_recall_a_question_about_the_work_is_not_one_asking_what_was_corrected(
    question: str,
) -> None:
    assert not asks_what_was_corrected(question)


def wrong(obj: str, minutes: int, fact_id: str | None = None) -> FactVersion:
    found = T0 + timedelta(minutes=minutes)
    return FactVersion(
        version_id=f"v-{obj}", fact_id=fact_id or f"f-{obj}", subject="shop", predicate="ci",
        object=obj, valid_at=T0, created_at=T0, expired_at=found,
        retired_reason=RetiredReason.CORRECTED, tier=Tier.ASSERTED,
    )  # fmt: skip


def test_recall_corrections_are_told_oldest_first_each_followed_by_what_holds_instead() -> None:
    # Drone corrected to CircleCI at 04:10, CircleCI to Buildkite at 04:20: CircleCI is
    # both the value told instead and the next wrong one, and is listed once.
    drone, circle = wrong("Drone", 10), wrong("CircleCI", 20)
    buildkite = wrong("Buildkite", 0).model_copy(
        update={"expired_at": None, "retired_reason": None}
    )
    instead = {"f-Drone": circle, "f-CircleCI": buildkite}
    told = corrections_told([circle, drone], lambda v: instead.get(v.fact_id))
    assert [v.object for v in told] == ["Drone", "CircleCI", "Buildkite"]
    # Nothing in its place: the wrong value alone.
    assert [v.object for v in corrections_told([drone], lambda v: None)] == ["Drone"]


def test_recall_corrections_told_are_the_latest_few_and_one_line_a_fact() -> None:
    many = [wrong(f"v{i}", i) for i in range(MAX_CORRECTIONS + 3)]
    # Two versions of one fact retired by one correction are one correction.
    last = len(many) - 1
    twice = wrong(f"v{last}", last).model_copy(update={"version_id": "v-old"})
    told = corrections_told([*many, twice], lambda v: None)
    assert [v.object for v in told] == [f"v{i}" for i in range(3, MAX_CORRECTIONS + 3)]
