"""A part of a day a question names (domain.day_parts), on a fixed clock: Monday 2026-12-07
10:30 UTC."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from twoclocks.domain.change_questions import change_span
from twoclocks.domain.day_parts import day_part
from twoclocks.domain.named_times import past_time_named

NOW = datetime(2026, 12, 7, 10, 30, tzinfo=UTC)


def hours(question: str, now: datetime = NOW, tz: ZoneInfo | None = None) -> tuple[str, str]:
    part = day_part(question, now, tz or ZoneInfo("UTC"))
    assert part is not None, question
    _, _, start, end = part
    return start.astimezone(UTC).isoformat(" ", "minutes"), end.astimezone(UTC).isoformat(
        " ", "minutes"
    )


@pytest.mark.parametrize(
    ("question", "start", "end"),
    [
        # Still running: up to now.
        ("what was the branch this morning?", "2026-12-07 00:00", "2026-12-07 10:30"),
        ("what did we correct earlier today?", "2026-12-07 00:00", "2026-12-07 10:30"),
        ("What changed yesterday afternoon?", "2026-12-06 12:00", "2026-12-06 18:00"),
        ("what did we deploy yesterday evening?", "2026-12-06 18:00", "2026-12-07 00:00"),
        ("what broke last night?", "2026-12-06 18:00", "2026-12-07 06:00"),
    ],
)
def test_recall_a_part_of_a_day_is_its_hours_up_to_now(question: str, start: str, end: str) -> None:
    assert hours(question) == (f"{start}+00:00", f"{end}+00:00")


def test_recall_a_part_of_a_day_not_begun_is_no_past_time() -> None:
    assert day_part("who is on call this afternoon?", NOW, UTC) is None
    assert past_time_named("who is on call this evening?", NOW, UTC) is None
    # Asked at 15:00, the morning has ended: its hours whole.
    later = datetime(2026, 12, 7, 15, tzinfo=UTC)
    assert hours("what was the branch this morning?", later)[1] == "2026-12-07 12:00+00:00"


def test_recall_a_part_of_a_day_is_read_in_the_accounts_zone() -> None:
    # 10:30 UTC is 19:30 in Tokyo: "this morning" there ran from 15:00 to 03:00 UTC.
    assert hours("what was the branch this morning?", tz=ZoneInfo("Asia/Tokyo")) == (
        "2026-12-06 15:00+00:00",
        "2026-12-07 03:00+00:00",
    )


def test_recall_a_question_naming_a_part_of_a_day_reads_it_as_its_time() -> None:
    past = past_time_named("what was the branch this morning?", NOW, UTC)
    assert past is not None and past.label == "this morning (2026-12-07, to 10:30)"
    changed = change_span("what changed this morning?", NOW, UTC)
    assert changed is not None and changed.label == "this morning (2026-12-07, to 10:30)"
    # Not a part of a day: "this today", "earlier morning", "the morning standup".
    for words in ("is the morning standup at 9?", "earlier morning meetings", "this today"):
        assert day_part(words, NOW, UTC) is None
