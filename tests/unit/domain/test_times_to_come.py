"""A time to come a question names in words (domain.times_to_come), read on a fixed clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from twoclocks.domain.named_times import NamedTime, time_phrase
from twoclocks.domain.times_to_come import (
    ANY_TIME_TO_COME_LABEL,
    asks_only_what_comes,
    holds_during,
    time_to_come,
    to_come_head,
)

NOW = datetime(2026, 12, 7, 10, tzinfo=UTC)  # a Monday


@pytest.mark.parametrize(
    ("question", "label", "start", "end"),
    [
        ("who is on call tomorrow?", "tomorrow (2026-12-08)", "2026-12-08", "2026-12-09"),
        (
            "what ships the day after tomorrow?",
            "the day after tomorrow (2026-12-09)",
            "2026-12-09",
            "2026-12-10",
        ),
        (
            "who is on call next week?",
            "next week (the week of 2026-12-14)",
            "2026-12-14",
            "2026-12-21",
        ),
        ("what database will we use next month?", "January 2027", "2027-01-01", "2027-02-01"),
        ("who owns billing next year", "2027", "2027-01-01", "2028-01-01"),
        ("who is on call in two weeks?", "the week of 2026-12-21", "2026-12-21", "2026-12-28"),
        ("which runner do we use in 3 days", "2026-12-10", "2026-12-10", "2026-12-11"),
        ("is there a freeze next Friday?", "Friday 2026-12-11", "2026-12-11", "2026-12-12"),
        ("who reviews this coming Monday?", "Monday 2026-12-14", "2026-12-14", "2026-12-15"),
        ("who is on call on December 15?", "2026-12-15", "2026-12-15", "2026-12-16"),
        ("who is on call on the 20th of December?", "2026-12-20", "2026-12-20", "2026-12-21"),
        ("who will own it on January 5?", "2027-01-05", "2027-01-05", "2027-01-06"),
        ("what runs on 2027-02-01?", "2027-02-01", "2027-02-01", "2027-02-02"),
        ("what will we use in February?", "February 2027", "2027-02-01", "2027-03-01"),
        ("what do we use next March", "March 2027", "2027-03-01", "2027-04-01"),
        ("which cloud in March 2027?", "March 2027", "2027-03-01", "2027-04-01"),
        # The week holding a day, not the day alone (Dec 21 and 16 are a Monday, a Wednesday).
        (
            "anything scheduled for the week of Dec 21?",
            "the week of 2026-12-21",
            "2026-12-21",
            "2026-12-28",
        ),
        (
            "who is on call the week starting Dec 16?",
            "the week of 2026-12-16",
            "2026-12-16",
            "2026-12-23",
        ),
        (
            "who is on call the week of 2026-12-16?",
            "the week of 2026-12-14",
            "2026-12-14",
            "2026-12-21",
        ),
        (
            "what is planned for the week after next?",
            "the week after next (the week of 2026-12-21)",
            "2026-12-21",
            "2026-12-28",
        ),
    ],
)
def test_a_time_to_come_named_in_words_is_read_as_its_span(
    question: str, label: str, start: str, end: str
) -> None:
    named = time_to_come(question, NOW, UTC)
    assert named is not None
    assert (named.label, named.start.date().isoformat(), named.end.date().isoformat()) == (
        label,
        start,
        end,
    )


@pytest.mark.parametrize(
    "question",
    [
        "who is on call?",
        # A past or running time: ``named_times`` reads those, or it is the present.
        "who was on call on December 1?",
        "who was on call on December 15?",  # the past tense: last year's (``named_times``)
        "what did we run on 2026-11-02?",
        "who is on call this Monday?",  # asked on a Monday: today
        "what do we use in February?",  # no "will": the past February
        "on January 5, who approved it?",  # no "will": the past January 5
        # A length of time, or words that only look like a time.
        "did we finish the migration in two weeks?",
        "how much downtime can prod have in a month?",  # per month
        "what is next to the database?",
        "is the next release manager Bo?",
    ],
)
def test_words_that_name_no_time_to_come_are_not_read_as_one(question: str) -> None:
    assert time_to_come(question, NOW, UTC) is None


def test_a_time_to_come_is_read_in_the_accounts_own_zone() -> None:
    # 12:00 UTC on Monday is 01:00 on Tuesday in Auckland: its "tomorrow" is Wednesday.
    auckland = ZoneInfo("Pacific/Auckland")
    named = time_to_come(
        "who is on call tomorrow?", datetime(2026, 12, 7, 12, tzinfo=UTC), auckland
    )
    assert named is not None
    assert named.label == "tomorrow (2026-12-09)"
    assert named.start == datetime(2026, 12, 9, tzinfo=auckland)


def test_a_fact_holds_in_a_span_when_its_valid_window_meets_it() -> None:
    week = NamedTime(
        said="next week",
        label="next week (the week of 2026-12-14)",
        start=datetime(2026, 12, 14, tzinfo=UTC),
        end=datetime(2026, 12, 21, tzinfo=UTC),
    )
    assert holds_during(week, datetime(2026, 12, 14, tzinfo=UTC), None)
    assert holds_during(week, datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 15, tzinfo=UTC))
    # The window is half-open on both sides: ending as the week begins, or starting as it
    # ends, is not holding in it.
    assert not holds_during(
        week, datetime(2026, 12, 1, tzinfo=UTC), datetime(2026, 12, 14, tzinfo=UTC)
    )
    assert not holds_during(week, datetime(2026, 12, 21, tzinfo=UTC), None)


def test_the_head_of_what_holds_then_names_the_time_with_its_preposition() -> None:
    assert to_come_head("Friday 2026-12-11", plural=True) == (
        "hold on Friday 2026-12-11, the time the question names (not true yet):"
    )
    assert time_phrase("January 2027") == "in January 2027"
    assert time_phrase("tomorrow (2026-12-08)") == "tomorrow (2026-12-08)"


@pytest.mark.parametrize(
    ("question", "said", "only"),
    [
        ("what's coming up?", "", True),
        ("anything scheduled?", "", True),
        ("any upcoming changes?", "", True),
        ("anything planned next week?", "next week", True),
        ("what infra upgrade is coming up?", "", False),  # names what it asks of
        ("what's next on the tiles backlog?", "", False),
        ("how are infra changes planned and applied?", "", False),
        ("what was planned?", "", False),  # the past
        ("what is coming in the next 3 days?", "next 3 days", True),
        ("what's happening next week?", "next week", True),
        ("what is happening with the database migration?", "", False),
        ("who is coming to the offsite?", "", False),
    ],
)
def test_a_question_asking_of_nothing_but_what_is_to_come_is_told_apart(
    question: str, said: str, only: bool
) -> None:
    assert asks_only_what_comes(question, said) is only


def test_a_question_asking_what_is_to_come_with_no_time_names_every_time_to_come() -> None:
    now = datetime(2026, 12, 7, 10, tzinfo=UTC)
    named = time_to_come("what's coming up?", now, UTC)
    assert named is not None and named.label == ANY_TIME_TO_COME_LABEL
    assert named.start == now and named.end.year == 2036
    assert to_come_head(named.label, plural=False) == (
        "holds from now on (no time named), soonest first (not true yet; the question asks "
        "what is to come):"
    )


@pytest.mark.parametrize(
    ("question", "label", "days"),
    [
        ("who is on call in the next two weeks?", "the next 2 weeks (to 2026-12-21 10:00)", 14),
        ("anything planned for the next 10 days?", "the next 10 days (to 2026-12-17 10:00)", 10),
        ("what changes over the coming 3 days?", "the next 3 days (to 2026-12-10 10:00)", 3),
    ],
)
def test_the_next_days_or_weeks_run_from_now_so_a_plan_from_this_afternoon_is_in_them(
    question: str, label: str, days: int
) -> None:
    named = time_to_come(question, NOW, UTC)
    assert named is not None
    assert (named.label, named.start, named.end) == (label, NOW, NOW + timedelta(days=days))


def test_the_week_of_a_day_names_no_week_without_a_day_after_it() -> None:
    assert time_to_come("who is on call the week of the launch?", NOW, UTC) is None
