"""A question asking what came before a value (domain.before_questions)."""

from __future__ import annotations

from datetime import UTC, datetime

from test_named_times import NOW, version

from twoclocks.domain.before_questions import (
    BEFORE_ANY_FACT,
    asks_what_came_before,
    held_before,
    outdated_before,
    time_before,
    what_came_before,
)
from twoclocks.domain.model import RetiredReason
from twoclocks.domain.named_times import NamedTime, held_then


def test_recall_the_time_before_a_value_runs_from_the_value_that_ended_last_before_it() -> None:
    # "what chat did we use before Discord?": Slack held until Discord began.
    assert what_came_before("what chat did we use before Discord?") == "Discord"
    assert what_came_before("which queue did we run prior to Kafka") == "Kafka"
    assert what_came_before("where did we host it before we moved to Fly.io, Frankfurt?") == (
        "Fly.io"
    )
    assert what_came_before("which chat do we use now?") is None
    # Naming no value, it asks of the slot the answer's first row holds.
    assert asks_what_came_before("what was the port before?")
    assert asks_what_came_before("which database did we use previously")
    assert asks_what_came_before("who was our old release manager?")
    assert asks_what_came_before("which test failed earlier?")  # "earlier" ends it
    assert asks_what_came_before("what broke last time?")
    assert not asks_what_came_before("what was the earlier version?")  # an adjective
    assert not asks_what_came_before("did the tests fail earlier?")  # a yes or a no
    assert not asks_what_came_before("what do I run before I open a PR?")
    assert not asks_what_came_before("have we hit this error before?")  # a yes or a no
    # "before" that opens a clause names no value: only its first few words are read.
    assert what_came_before("before I open a PR on the firmware, which analyzers complain?") == (
        "I open a PR on"
    )
    discord = version("Discord", "2026-07-01", None)
    slot = [
        discord,
        version("Slack", "2026-01-10", "2026-07-01"),
        version("IRC", "2025-01-01", "2026-01-10"),
        version("Teams", "2026-02-01", "2026-07-01", expired=True),  # corrected away
    ]
    named = time_before(discord, slot)
    assert named is not None
    assert (named.label, named.start, named.end) == (
        "the time before Discord",
        datetime(2026, 1, 10, tzinfo=UTC),
        datetime(2026, 7, 1, tzinfo=UTC),
    )
    assert [v.object for v in held_then(slot, named, NOW)] == ["Slack"]
    # The slot's first value has nothing before it.
    assert time_before(slot[2], slot) is None


def test_recall_before_a_slots_first_value_names_only_the_values_its_start_outdated() -> None:
    # "warehouse Snowflake" told with no start, then "BigQuery since November 15": the
    # block says Snowflake -> BigQuery; "before BigQuery?" said nothing came before it.
    told = version("Snowflake", "2026-12-07", None, expired=True)
    told = told.model_copy(update={"retired_reason": RetiredReason.OUTDATED, "fact_id": "f-sf"})
    bigquery = version("BigQuery", "2026-11-15", None).model_copy(update={"supersedes": "f-sf"})
    named, held = held_before(bigquery, [told, bigquery], NOW)
    assert (named.label, named.start, named.end) == (
        "the time before BigQuery",
        BEFORE_ANY_FACT,
        datetime(2026, 11, 15, tzinfo=UTC),
    )
    assert held == [told]
    # A value corrected away came before nothing; nor does a first value with no told one.
    wrong = told.model_copy(update={"retired_reason": RetiredReason.CORRECTED})
    assert held_before(bigquery, [wrong, bigquery], NOW)[1] == []
    # With a value that ended before it, that value is what held before.
    slack = version("Slack", "2026-01-10", "2026-11-15")
    assert held_before(bigquery, [slack, bigquery], NOW)[1] == [slack]


def test_recall_a_past_time_before_a_dated_word_may_have_held_the_value_it_outdated() -> None:
    # "build tool Expo" told on December 7 with no start, then "React Native CLI since
    # November 30": the block says Expo -> React Native CLI; "what build tool did we use two
    # weeks ago?" was told nothing held then.
    told = version("Expo", "2026-12-07", None, expired=True)
    told = told.model_copy(update={"retired_reason": RetiredReason.OUTDATED, "fact_id": "f-ex"})
    cli = version("React Native CLI", "2026-11-30", None).model_copy(update={"supersedes": "f-ex"})

    def week(day: int) -> NamedTime:
        start = datetime(2026, 11, day, tzinfo=UTC)
        return NamedTime("a week", "the week", start, start.replace(day=day + 7))

    assert outdated_before([told, cli], week(16)) == [told]
    assert outdated_before([told, cli], week(23)) == [told]  # it ends as the change begins
    # Once React Native CLI had begun, Expo is not named; nor is a value corrected away,
    # nor one whose successor was itself found wrong.
    later = NamedTime("this week", "this week", datetime(2026, 11, 30, tzinfo=UTC), NOW)
    assert outdated_before([told, cli], later) == []
    wrong = told.model_copy(update={"retired_reason": RetiredReason.CORRECTED})
    assert outdated_before([wrong, cli], week(16)) == []
    gone = cli.model_copy(update={"expired_at": NOW})
    assert outdated_before([told, gone], week(16)) == []
