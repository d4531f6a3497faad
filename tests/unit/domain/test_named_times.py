"""A past time a question names in words (domain.named_times), read on a fixed clock."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from twoclocks.domain.model import FactVersion, Kind
from twoclocks.domain.named_times import (
    held_then,
    held_then_head,
    past_time_named,
    still_held,
)

NOW = datetime(2026, 12, 5, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "label", "start", "end"),
    [
        ("what warehouse did we use in march?", "March 2026", "2026-03-01", "2026-04-01"),
        ("who owned billing last year?", "2025", "2025-01-01", "2026-01-01"),
        ("which CI did we have back in june 2024", "June 2024", "2024-06-01", "2024-07-01"),
        ("what did we use last december", "December 2025", "2025-12-01", "2026-01-01"),
        ("who was on call last week?", "the week of 2026-11-23", "2026-11-23", "2026-11-30"),
        ("what did we run two weeks ago", "the week of 2026-11-16", "2026-11-16", "2026-11-23"),
        ("what was the port on 2026-03-15?", "2026-03-15", "2026-03-15", "2026-03-16"),
        # The week holding a day (November 18 was a Wednesday), not the day alone.
        (
            "who was on call the week of November 18?",
            "the week of 2026-11-16",
            "2026-11-16",
            "2026-11-23",
        ),
        ("who was on call on December 1?", "2026-12-01", "2026-12-01", "2026-12-02"),
        ("what did we use on the 3rd of March", "2026-03-03", "2026-03-03", "2026-03-04"),
        ("which CI did we have on Mar 3, 2025?", "2025-03-03", "2025-03-03", "2025-03-04"),
        # A weekday, last or asked of in the past tense (NOW is a Saturday).
        ("what did we ship last Tuesday?", "Tuesday 2026-12-01", "2026-12-01", "2026-12-02"),
        ("who was on call on Friday?", "Friday 2026-12-04", "2026-12-04", "2026-12-05"),
        ("what did we use last Saturday", "Saturday 2026-11-28", "2026-11-28", "2026-11-29"),
        # Later this year, asked in the past tense: last year's.
        ("what did we use on December 20?", "2025-12-20", "2025-12-20", "2025-12-21"),
        ("which region were we in during 2025", "2025", "2025-01-01", "2026-01-01"),
        ("what do we use in may", "May 2026", "2026-05-01", "2026-06-01"),
        (
            "who held it between March and May?",
            "from March 2026 to May 2026",
            "2026-03-01",
            "2026-06-01",
        ),
        (
            "which CI from November to February",
            "from November 2025 to February 2026",
            "2025-11-01",
            "2026-03-01",
        ),
        ("who was on call in the past 3 days?", "the past 3 days", "2026-12-02", "2026-12-05"),
    ],
)
def test_recall_a_past_time_named_in_words_is_read_as_its_span(
    question: str, label: str, start: str, end: str
) -> None:
    named = past_time_named(question, NOW, UTC)
    assert named is not None
    assert (named.label, named.start.date().isoformat(), named.end.date().isoformat()) == (
        label,
        start,
        end,
    )


@pytest.mark.parametrize(
    "question",
    [
        "may I merge on friday?",  # a verb, not the month
        "what did we decide on saturday?",  # today (NOW is a Saturday): the present
        "what do we use in marketing?",  # a word that starts like a month
        "which CI do we use in december?",  # the month now running is the present
        "what do we use in 2026?",  # so is the year now running
        "is there a freeze on 2027-01-04?",  # a time to come: starting_later's work
        "can I ship on December 20th?",  # later this year: a time to come too
        "do we need 3 maybe 4 replicas?",  # a word that starts like a month, after a number
        "which CI do we use?",
        "what is the last day of the code freeze?",
    ],
)
def test_recall_a_question_naming_no_past_time_reads_none(question: str) -> None:
    assert past_time_named(question, NOW, UTC) is None


def test_recall_the_past_time_is_read_in_the_accounts_zone() -> None:
    # 00:30 UTC on December 1st is still November 30th in New York: "in November" asks of
    # the present there, of a past month in UTC.
    now = datetime(2026, 12, 1, 0, 30, tzinfo=UTC)
    assert (
        past_time_named("who was on call in november?", now, ZoneInfo("America/New_York")) is None
    )
    named = past_time_named("who was on call in november?", now, UTC)
    assert named is not None and named.start == datetime(2026, 11, 1, tzinfo=UTC)


def version(obj: str, valid: str, until: str | None, expired: bool = False) -> FactVersion:
    at = datetime.fromisoformat(valid).replace(tzinfo=UTC)
    end = datetime.fromisoformat(until).replace(tzinfo=UTC) if until else None
    return FactVersion(
        version_id=f"v-{obj}", fact_id=f"f-{obj}", subject="data", predicate="warehouse",
        object=obj, valid_at=at, invalid_at=end, created_at=at,
        expired_at=at + timedelta(days=1) if expired else None,
    )  # fmt: skip


def test_recall_held_then_names_the_slots_believed_facts_of_that_time_that_ended_since() -> None:
    march = past_time_named("in march", NOW, UTC)
    assert march is not None
    ranked = [
        version("BigQuery", "2026-11-01", None),  # holds now: the answer itself
        version("Snowflake", "2025-06-01", "2026-11-01"),  # held in March, ended since
        version("Redshift", "2024-01-01", "2025-06-01"),  # ended before March
        version("Druid", "2026-04-01", "2026-05-01"),  # began after March
        version("Presto", "2025-01-01", "2026-11-01", expired=True),  # corrected away
    ]
    assert [v.object for v in held_then(ranked, march, NOW)] == ["Snowflake"]
    # Changed within the span: each value it held, in the order they began.
    changed = [
        version("Druid", "2026-03-20", "2026-05-01"),
        version("Snowflake", "2025-06-01", "2026-03-20"),
    ]
    assert [v.object for v in held_then(changed, march, NOW)] == ["Snowflake", "Druid"]


def test_recall_still_held_names_the_slots_believed_facts_of_that_time_that_hold_now() -> None:
    # Maintainers of a many-value slot, asked in December of April: Bo held then and
    # ended since (held_then); Ana held then and holds still; Dana began after April.
    april = past_time_named("in april", NOW, UTC)
    assert april is not None
    slot = [
        version("Dana", "2026-06-01", None),
        version("Bo", "2026-02-01", "2026-09-01"),
        version("Chen", "2026-03-10", None),
        version("Ana", "2026-01-05", None),
        version("Eve", "2026-01-05", None, expired=True),  # retracted: never held
        version("Finn", "2026-02-01", "2027-01-01"),  # holds until January: still now
    ]
    assert [v.object for v in held_then(slot, april, NOW)] == ["Bo"]
    assert [v.object for v in still_held(slot, april, NOW)] == ["Ana", "Finn", "Chen"]
    # A time before any of them: none held then.
    december = past_time_named("in december 2025", NOW, UTC)
    assert december is not None and still_held(slot, december, NOW) == []


def test_recall_held_then_names_the_events_that_happened_in_the_time_and_never_as_held_still() -> (
    None
):
    # "What incidents did we have in April?": an event happened once, at its valid_at.
    april = past_time_named("in april", NOW, UTC)
    assert april is not None
    incidents = [
        version("failover", "2026-04-03", None).model_copy(update={"kind": Kind.EVENT}),
        version("cert expired", "2026-03-14", None).model_copy(update={"kind": Kind.EVENT}),
        version("disk full", "2026-04-20", None, expired=True).model_copy(
            update={"kind": Kind.EVENT}
        ),  # retracted: never happened
    ]
    assert [v.object for v in held_then(incidents, april, NOW)] == ["failover"]
    assert still_held(incidents, april, NOW) == []


@pytest.mark.parametrize(
    "question",
    [
        "what database will harbor-api use in February?",
        "Will we still deploy to Render in march?",
        "who's going to be on call in may?",
        "which region will we be in during march 2027?",
    ],
)
def test_recall_a_month_a_question_about_what_comes_names_is_not_a_past_one(question: str) -> None:
    # Asked in December, "what will we use in February?" is about the February to come:
    # read as February 2026, it named what held then as the answer.
    assert past_time_named(question, NOW, UTC) is None


def test_recall_will_the_name_does_not_make_a_question_about_what_comes() -> None:
    named = past_time_named("did Will own billing in march?", NOW, UTC)
    assert named is not None and named.label == "March 2026"


def test_recall_a_time_named_yesterday_reads_without_a_preposition() -> None:
    named = past_time_named("who was on call yesterday?", NOW, UTC)
    assert named is not None
    assert held_then_head(named.label) == (
        "held yesterday (2026-12-04) (the question names it), ended since (not true now):"
    )


def test_recall_a_moment_some_hours_or_minutes_ago_is_read_as_that_minute() -> None:
    # "what was the branch two hours ago?": a branch switched within the day is read then.
    named = past_time_named("what was the branch two hours ago?", NOW, UTC)
    assert named is not None
    assert (named.label, named.start, named.end) == (
        "at 10:00 (two hours ago)",
        datetime(2026, 12, 5, 10, tzinfo=UTC),
        datetime(2026, 12, 5, 10, 1, tzinfo=UTC),
    )
    # Before today, the label says the day; in the account's zone, its clock.
    late = past_time_named("what did we use 14 hours ago", NOW, ZoneInfo("Europe/Berlin"))
    assert late is not None and late.label == "at 2026-12-04 23:00 (14 hours ago)"
    assert past_time_named("the job runs every 2 hours", NOW, UTC) is None
