"""A question asking what changed and the facts that began or ended in its time
(domain.change_questions), read on a fixed clock: Sunday 2026-12-06 12:00 UTC."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from twoclocks.domain.change_questions import (
    ANY_TIME_LABEL,
    MAX_CHANGES,
    any_time,
    asks_what_changed,
    asks_what_was_told,
    change_span,
    changed_head,
    changed_in,
    changes_listed,
    more_changes_line,
    narrowed_words,
    nothing_changed_line,
    told_in,
)
from twoclocks.domain.model import FactVersion, Kind, RetiredReason, Tier

NOW = datetime(2026, 12, 6, 12, tzinfo=UTC)


@pytest.mark.parametrize(
    "question",
    [
        "what changed this week?",
        "What's changed in ledger since Monday?",
        "has anything changed since yesterday?",
        "did anything change last week",
        "anything new?",
        "what is new in billing?",
        "any changes to the deploy since November?",
        "what have we changed recently",
        "what changes did we make to billing last week?",
        "did the rust toolchain change today?",
        "has our database changed since Monday?",
        "when did the deploy target change?",
        "when did we switch to uv?",
        "have we moved off Heroku?",
        "did we upgrade to Postgres 16?",
        "when did payments migrate from poetry to uv?",
        "who left the team?",
        "who has joined ledger's maintainers?",
        "what did we stop using?",
        "what was removed from the stack?",
    ],
)
def test_recall_a_question_asking_what_changed_is_told_apart(question: str) -> None:
    assert asks_what_changed(question)


@pytest.mark.parametrize(
    "question",
    [
        "who approves schema changes?",  # a slot about changes, not a question of them
        "who left a comment on the PR?",  # no fact's end
        "how many vacation days do I have left?",
        "what is the change freeze policy?",
        "what changes when we set FEATURE_X?",  # what a setting does
        "which database do we use?",
        "what's the news feed service called?",
        "did the team agree to change the schema?",  # a decision, not a change
        "did the team agree to switch to uv?",
        "how do I switch to staging?",  # how to, not whether it did
        "did you move the file to src?",  # a move of a file, not between values
        "why did we switch to uv?",  # a reason
        "why did the database change?",
    ],
)
def test_recall_a_question_about_what_holds_is_not_one_asking_what_changed(question: str) -> None:
    assert not asks_what_changed(question)
    assert change_span(question, NOW, UTC) is None


@pytest.mark.parametrize(
    ("question", "label", "start"),
    [
        ("what changed this week?", "this week (from 2026-11-30)", "2026-11-30T00:00"),
        ("what changed today?", "today (2026-12-06)", "2026-12-06T00:00"),
        ("anything changed this month?", "this month (from 2026-12-01)", "2026-12-01T00:00"),
        ("what changed since November?", "since November 2026", "2026-11-01T00:00"),
        ("what changed since last week?", "since the week of 2026-11-23", "2026-11-23T00:00"),
        ("has anything changed since Monday?", "since Monday (2026-11-30)", "2026-11-30T00:00"),
        ("what changed since sunday?", "since sunday (2026-11-29)", "2026-11-29T00:00"),
        ("what changed since 2026-12-01?", "since 2026-12-01", "2026-12-01T00:00"),
        ("anything new?", "the past 7 days (no time named)", "2026-11-29T12:00"),
        (
            "what changed since we moved to Render?",
            "the past 7 days (the time after 'since' not read)",
            "2026-11-29T12:00",
        ),
        ("what changed over the past two weeks?", "the past 2 weeks", "2026-11-22T00:00"),
        ("anything new in the last 3 days?", "the past 3 days", "2026-12-03T00:00"),
        ("what changed this quarter?", "this quarter (from 2026-10-01)", "2026-10-01T00:00"),
        (
            "what changed in the last sprint?",
            "the past 7 days (the time 'the last sprint' names not read)",
            "2026-11-29T12:00",
        ),
        (
            "what changed after the launch?",
            "the past 7 days (the time 'after the launch' names not read)",
            "2026-11-29T12:00",
        ),
    ],
)
def test_recall_a_question_asking_what_changed_asks_of_a_time_up_to_now(
    question: str, label: str, start: str
) -> None:
    span = change_span(question, NOW, UTC)
    assert span is not None
    assert (span.label, span.start.isoformat()[:16], span.end) == (label, start, NOW)
    # Only a question naming no time at all may be widened to every time (said empty).
    assert bool(span.said) is not label.endswith("(no time named)")


def test_recall_a_question_asking_what_changed_in_a_past_time_asks_of_that_time_whole() -> None:
    last_week = change_span("what changed last week?", NOW, UTC)
    assert last_week is not None
    assert (last_week.start, last_week.end) == (
        datetime(2026, 11, 23, tzinfo=UTC),
        datetime(2026, 11, 30, tzinfo=UTC),
    )
    # December runs still: it asks of its start up to now, read in the account's zone.
    december = change_span("what changed in December?", NOW, ZoneInfo("Asia/Tokyo"))
    assert december is not None
    assert (december.start, december.end) == (
        datetime(2026, 12, 1, tzinfo=ZoneInfo("Asia/Tokyo")),
        NOW,
    )


def version(
    obj: str,
    valid: str,
    until: str | None = None,
    predicate: str = "database",
    expired: bool = False,
    kind: Kind = Kind.FACT,
    tier: Tier | None = Tier.ASSERTED,
    stated: bool = True,
) -> FactVersion:
    at = datetime.fromisoformat(valid).replace(tzinfo=UTC)
    end = datetime.fromisoformat(until).replace(tzinfo=UTC) if until else None
    return FactVersion(
        version_id=f"v-{obj}", fact_id=f"f-{obj}", subject="shop", predicate=predicate,
        object=obj, valid_at=at, invalid_at=end, created_at=at, kind=kind, tier=tier,
        start_stated=stated,
        expired_at=at + timedelta(days=1) if expired else None,
    )  # fmt: skip


def test_recall_what_changed_names_the_believed_facts_that_began_or_ended_then() -> None:
    span = change_span("what changed this week?", NOW, UTC)
    assert span is not None
    rows = [
        version("MySQL 8", "2026-12-03"),  # began this week
        version("PostgreSQL", "2025-01-01", "2026-12-03"),  # ended this week, at the same moment
        version("pnpm", "2026-12-02", predicate="package_manager"),
        version("vitest", "2025-05-01", predicate="test_runner"),  # held all week: no change
        version("Oracle", "2026-12-04", expired=True),  # corrected away: never held
        version("outage", "2026-12-04", predicate="incident", kind=Kind.EVENT),  # happened
        version("Bun", "2026-12-05", predicate="runtime", tier=None),  # never shown to a model
        version("Fly", "2026-12-20", predicate="deploy_target"),  # starts later
        version("hotfix", "2026-12-06T12:00", predicate="current_branch"),  # began as asked
    ]
    assert [v.object for v in changed_in(rows, span, NOW)] == [
        "pnpm",
        "PostgreSQL",
        "MySQL 8",
        "hotfix",
    ]


def test_recall_what_changed_names_a_value_told_with_no_start_only_when_it_closed_one() -> None:
    # Told today with no start, and nothing before it: it may have held for years.
    span = change_span("what changed this week?", NOW, UTC)
    assert span is not None
    told = version("Kafka", "2026-12-05", predicate="queue", stated=False)
    assert changed_in([told], span, NOW) == []
    # The branch HEAD names, told with no start, closed the one before it: a change.
    old = version("feat/login", "2026-12-01", "2026-12-05", predicate="current_branch")
    new = version("hotfix/tax", "2026-12-05", predicate="current_branch", stated=False)
    assert [v.object for v in changed_in([told, old, new], span, NOW)] == [
        "feat/login",
        "hotfix/tax",
    ]


def test_recall_what_changed_keeps_the_latest_changes_and_a_few_a_slot() -> None:
    span = change_span("what changed this week?", NOW, UTC)
    assert span is not None
    # A branch switched twelve times this week, and one change to the database.
    branches = [
        version(f"b{i}", f"2026-12-0{1 + i // 3}T{10 + i % 3}:00", predicate="current_branch")
        for i in range(12)
    ]
    rows = [version("MySQL 8", "2026-12-01T09:00"), *branches]
    got = [v.object for v in changed_in(rows, span, NOW)]
    assert got == ["MySQL 8", "b9", "b10", "b11"]
    many = [version(f"v{i}", f"2026-12-0{1 + i // 6}T{10 + i % 6}:00", predicate=f"p{i}")
            for i in range(30)]  # fmt: skip
    assert [v.object for v in changed_in(many, span, NOW)] == [f"v{i}" for i in range(20, 30)]
    assert len(changed_in(many, span, NOW)) == MAX_CHANGES


def test_recall_what_changed_counts_the_changes_it_leaves_out_and_never_cuts_one_in_half() -> None:
    span = change_span("what changed this week?", NOW, UTC)
    assert span is not None
    # Ten lines read as every change of a week that had twelve.
    many = [version(f"v{i}", f"2026-12-0{1 + i // 6}T{10 + i % 6}:00", predicate=f"p{i}")
            for i in range(12)]  # fmt: skip
    assert changes_listed(many, span, NOW).more == 2
    # Poetry ended at the moment uv began: cut after uv, uv alone would not say what it
    # replaced, so both are left out and counted.
    replaced = [
        version("poetry", "2026-01-01", "2026-12-01T09:00", predicate="package_manager"),
        version("uv", "2026-12-01T09:00", predicate="package_manager"),
    ]
    later = [version(f"w{i}", f"2026-12-0{2 + i // 5}T{10 + i % 5}:00", predicate=f"q{i}")
             for i in range(9)]  # fmt: skip
    shown, more = changes_listed([*replaced, *later], span, NOW)
    assert [v.object for v in shown] == [f"w{i}" for i in range(9)]
    assert more == 2
    assert changed_in([*replaced, *later[1:]], span, NOW)[:2] == replaced  # room for both
    assert more_changes_line(2, span.label) == (
        "… 2 more changes this week (from 2026-11-30), not listed: ask of one thing or slot, "
        "or read the timeline"
    )


@pytest.mark.parametrize(
    ("words", "narrowed"),
    [
        ({"changed", "database"}, ["database"]),  # what changed in the database?
        ({"new", "billing"}, ["billing"]),  # what is new in billing?
        ({"anything", "new", "lately"}, []),  # anything new lately?
        ({"changed", "recently"}, []),  # what have we changed recently?
        ({"change", "recent"}, []),  # any recent changes?
    ],
)
def test_recall_a_change_question_with_no_time_narrows_to_the_words_that_name_a_thing(
    words: set[str], narrowed: list[str]
) -> None:
    assert sorted(narrowed_words(frozenset(words))) == narrowed


def test_recall_the_latest_changes_of_a_thing_are_of_the_time_from_the_first_one_on() -> None:
    rows = [version("MySQL 8", "2026-03-10"), version("PostgreSQL", "2025-01-01", "2026-03-10")]
    span = any_time(rows, NOW)
    first = datetime(2025, 1, 1, tzinfo=UTC)
    assert (span.label, span.start, span.end) == (ANY_TIME_LABEL, first, NOW)
    assert changed_head(span.label).startswith("the latest changes (no time named)")
    assert any_time([], NOW).start == NOW
    # "since we moved to Render" is a time the question named, though not one it reads.
    unread = change_span("what changed since we moved to Render?", NOW, UTC)
    assert unread is not None and unread.said == "since we moved to Render?"


def test_recall_the_latest_changes_of_a_thing_leave_out_how_each_slot_began() -> None:
    ever = replace(any_time([], NOW), start=datetime(1, 1, 1, tzinfo=UTC))
    rows = [
        version("GitHub Actions", "2025-01-01", predicate="ci"),  # how the slot began
        version("Heroku", "2025-10-01", "2026-03-01", predicate="deploy_target"),
        version("Render", "2026-06-01", predicate="deploy_target"),  # after a gap: a change
    ]
    got = [v.object for v in changed_in(rows, ever, NOW, firsts=False)]
    assert got == ["Heroku", "Render"]
    assert [v.object for v in changed_in(rows, ever, NOW)] == ["GitHub Actions", *got]


def test_recall_a_value_whose_stated_start_outdated_a_told_one_is_a_change() -> None:
    # "warehouse Snowflake", told today with no start, then "BigQuery since November 15":
    # Snowflake is outdated (it had changed before it was told), BigQuery its slot's first
    # believed value. "When did we switch to BigQuery?" is still a change on November 15,
    # as the block says (Snowflake -> BigQuery); a value corrected away is none.
    ever = replace(any_time([], NOW), start=datetime(1, 1, 1, tzinfo=UTC))
    told = version("Snowflake", "2026-12-06", predicate="warehouse", expired=True, stated=False)
    told = told.model_copy(update={"retired_reason": RetiredReason.OUTDATED})
    bigquery = version("BigQuery", "2026-11-15", predicate="warehouse")
    bigquery = bigquery.model_copy(update={"supersedes": "f-Snowflake"})
    assert [v.object for v in changed_in([told, bigquery], ever, NOW, firsts=False)] == ["BigQuery"]
    wrong = told.model_copy(update={"retired_reason": RetiredReason.CORRECTED})
    assert changed_in([wrong, bigquery], ever, NOW, firsts=False) == []


def test_recall_a_question_asking_what_changed_between_two_months_asks_of_them_whole() -> None:
    span = change_span("what changed between March and May?", NOW, UTC)
    assert span is not None
    assert (span.label, span.start, span.end) == (
        "from March 2026 to May 2026",
        datetime(2026, 3, 1, tzinfo=UTC),
        datetime(2026, 6, 1, tzinfo=UTC),
    )
    assert changed_head(span.label).startswith("changed from March 2026 to May 2026:")
    winter = change_span("anything new from November to February?", NOW, UTC)
    assert winter is not None and winter.start == datetime(2025, 11, 1, tzinfo=UTC)


@pytest.mark.parametrize(
    ("question", "told"),
    [
        ("what did you learn this week?", True),
        ("what have you remembered today?", True),
        ("What did I tell you yesterday?", True),
        ("what has been captured since Monday?", True),
        ("what did you pick up in this session?", True),
        ("what do you remember about ledger?", False),  # what holds: a plain recall
        ("what did we learn from the outage?", False),  # a lesson, not memory's record
        ("what changed this week?", False),
    ],
)
def test_recall_a_question_asking_what_memory_was_told_is_told_apart(
    question: str, told: bool
) -> None:
    assert asks_what_was_told(question) is told


def test_recall_what_memory_was_told_names_the_believed_facts_recorded_then() -> None:
    span = change_span("what did you learn this week?", NOW, UTC)
    assert span is not None and span.label == "this week (from 2026-11-30)"
    monday, last_year = datetime(2026, 11, 30, 9, tzinfo=UTC), datetime(2025, 11, 1, tzinfo=UTC)
    rows = [
        version("MySQL 8", "2024-01-01").model_copy(update={"created_at": monday}),
        version("vitest", "2025-05-01", predicate="test_runner").model_copy(
            update={"created_at": last_year}
        ),
        version("Oracle", "2026-12-01", expired=True).model_copy(update={"created_at": monday}),
    ]
    assert [v.object for v in told_in(rows, span, NOW).shown] == ["MySQL 8"]
    assert changed_head(span.label, told=True).startswith("told to memory this week")


def test_recall_nothing_changed_of_a_slot_the_question_names_is_said_of_that_slot() -> None:
    # "No fact began or ended this week" after "what changed in the ci this week?" would
    # read as nothing changed anywhere; the database did.
    line = nothing_changed_line("this week (from 2026-11-30)", about=["ledger · ci"])
    assert line.startswith("no fact memory holds of ledger · ci began or ended this week")
    assert "of ledger" not in nothing_changed_line("this week (from 2026-11-30)")
    told = nothing_changed_line("today (2026-12-06)", told=True, about=["ledger"])
    assert told == "memory was told nothing of ledger it still holds today (2026-12-06)"
