"""A question asking what memory believed at a past time (domain.belief_questions)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from twoclocks.domain.belief_questions import (
    asks_what_was_believed,
    believed_between,
    believed_then_head,
    none_believed_line,
    past_time_asked,
)
from twoclocks.domain.model import FactVersion, RetiredReason, Tier


@pytest.mark.parametrize(
    "question",
    [
        "what did you think our host was on Tuesday?",
        "what did we believe the database was last week?",
        "what did memory know about the deploy target yesterday?",
        "what did we have on record for the on-call engineer on December 1?",
        "what was on record for the cache in March?",
        "what had you thought the port was two hours ago?",
    ],
)
def test_a_question_asking_what_memory_believed_reads_as_one(question: str) -> None:
    assert asks_what_was_believed(question)


@pytest.mark.parametrize(
    "question",
    [
        "what host did we use on Tuesday?",  # what held, on the world clock
        "what did you learn yesterday?",  # what memory was told: change_questions
        "do you think we should move to Fly.io?",  # an opinion asked, not a past belief
        "what do you know about the cache?",
    ],
)
def test_a_question_about_the_world_or_what_memory_was_told_is_not_one(question: str) -> None:
    assert not asks_what_was_believed(question)


ASKED_AT = datetime(2026, 12, 7, 15, 40, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(
    ("question", "label", "start", "end"),
    [
        # A moment by the clock: that minute, today or on the one day named.
        ("what did you think the orchestrator was at 15:29?", "at 15:29",
         datetime(2026, 12, 7, 15, 29, tzinfo=UTC), datetime(2026, 12, 7, 15, 30, tzinfo=UTC)),
        ("what did we believe the CI was at 9:30 am?", "at 09:30",
         datetime(2026, 12, 7, 9, 30, tzinfo=UTC), datetime(2026, 12, 7, 9, 31, tzinfo=UTC)),
        ("what did you think the host was yesterday at 11pm?", "at 2026-12-06 23:00",
         datetime(2026, 12, 6, 23, tzinfo=UTC), datetime(2026, 12, 6, 23, 1, tzinfo=UTC)),
        # A time still running: from its start up to now.
        ("what did you think the orchestrator was today?", "today (2026-12-07)",
         datetime(2026, 12, 7, tzinfo=UTC), ASKED_AT),
        ("what did we have on record for the warehouse this month?",
         "this month (from 2026-12-01)", datetime(2026, 12, 1, tzinfo=UTC), ASKED_AT),
    ],
)  # fmt: skip
def test_a_question_asking_what_memory_believed_names_a_moment_or_a_time_still_running(
    question: str, label: str, start: datetime, end: datetime
) -> None:
    named = past_time_asked(question, ASKED_AT, UTC)
    assert named is not None and (named.label, named.start, named.end) == (label, start, end)


@pytest.mark.parametrize(
    "question",
    [
        "what port do we use today?",  # of the world: now
        "is the standup still at 09:30?",  # a value, not a time
        "what did you think the host was at 16:00?",  # not come yet
        "what did you think the host was last week at 10:00?",  # which day?
        "what did you think the replica count was at 3?",  # a count, not a time
    ],
)
def test_a_clock_time_or_a_running_time_is_read_only_of_a_past_belief(question: str) -> None:
    named = past_time_asked(question, ASKED_AT, UTC)
    assert named is None or named.end - named.start > timedelta(minutes=1)


def test_the_head_says_when_the_belief_was_read_a_moment_or_the_end_of_a_span() -> None:
    assert believed_then_head("at 10:00 (two hours ago)").startswith(
        "memory believed at 10:00 (two hours ago) (the question asks what it believed then"
    )
    assert believed_then_head("March 2026").startswith(
        "memory believed in March 2026, read at its start, its end, and the slot asked in between"
    )
    assert none_believed_line("2026-12-01") == (
        "memory believed nothing found for the question on 2026-12-01, read at its start and its "
        "end; these hold now"
    )


def told(
    obj: str,
    at: int,
    gone: int | None = None,
    tier: Tier | None = Tier.ASSERTED,
    why: RetiredReason | None = None,
) -> FactVersion:
    """A CI value memory believed from ``at`` o'clock to ``gone`` o'clock on 2029-12-31."""

    def hour(h: int) -> datetime:
        return datetime(2029, 12, 31, h, tzinfo=UTC)

    return FactVersion(
        version_id=f"v-{obj}", fact_id=f"f-{obj}", subject="ledger", predicate="ci",
        object=obj, valid_at=hour(at), created_at=hour(at), tier=tier,
        expired_at=None if gone is None else hour(gone), retired_reason=why,
    )  # fmt: skip


def test_recall_a_belief_that_began_and_ended_inside_the_time_asked_of_is_found() -> None:
    # The morning read at 00:00 and at 10:00 misses a value told at 8 and corrected at 9.
    start, end = datetime(2029, 12, 31, tzinfo=UTC), datetime(2029, 12, 31, 10, tzinfo=UTC)
    versions = [
        told("Jenkins", 7, 8),
        told("GitHub Actions", 8, 9),
        told("Buildkite", 9),  # still believed at 10: the end's read has it
        told("guess", 8, 9, tier=None),  # untiered: never shown to a model
        # Forgotten on request: memory says nothing of it, even of then.
        told("a secret-ish value", 8, 9, why=RetiredReason.RETRACTED),
        # Written again by the person: its value is Buildkite's version's, not said twice.
        told("Buildkite", 8, 9, why=RetiredReason.REWRITTEN),
    ]
    found = believed_between(versions, start, end)
    assert [v.object for v in found] == ["Jenkins", "GitHub Actions"]
    assert believed_between(versions, end, end.replace(hour=12)) == []
