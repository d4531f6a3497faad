"""A fact as one line for the CLI and a model (twoclocks/domain/fact_text.py)."""

from __future__ import annotations

from datetime import UTC, datetime

from twoclocks.domain.fact_text import history_note, slot_label, triple
from twoclocks.domain.model import RetiredReason

JAN = datetime(2026, 1, 5, tzinfo=UTC)
JUNE = datetime(2026, 6, 1, 9, tzinfo=UTC)
NOW = datetime(2026, 12, 4, 17, tzinfo=UTC)


def _day(moment: datetime) -> str:
    return moment.date().isoformat()


def test_an_ended_fact_marks_its_closed_line_ended_and_its_replaced_belief_by_its_end() -> None:
    # CircleCI, told on January 5 as used since then; on June 1 we moved to Drone.
    # Memory now holds CircleCI as true January 5 -> June 1, and keeps what it believed
    # before (CircleCI, open) as a version no longer believed. Only the first one ended.
    closed = history_note(JUNE, None, RetiredReason.ENDED, _day, NOW)
    replaced_belief = history_note(None, JUNE, RetiredReason.ENDED, _day, NOW)
    assert closed == "[ended]"
    assert replaced_belief == "[believed until 2026-06-01]"


def test_a_version_found_wrong_says_why_it_left_belief() -> None:
    for reason in (RetiredReason.CORRECTED, RetiredReason.RETRACTED, RetiredReason.HELD_BACK):
        assert history_note(None, JUNE, reason, _day, NOW) == f"[{reason.value}]"
    # The same value vouched for again replaced this record: it was not wrong.
    assert (
        history_note(None, JUNE, RetiredReason.REWRITTEN, _day, NOW)
        == "[believed until 2026-06-01]"
    )


def test_a_value_told_after_it_had_changed_reads_outdated_when_told_not_corrected() -> None:
    assert history_note(None, JUNE, RetiredReason.OUTDATED, _day, NOW) == "[outdated when told]"


def test_a_held_open_fact_or_one_written_with_its_end_has_no_history_mark() -> None:
    assert history_note(None, None, None, _day, NOW) == ""
    # A freeze written as lasting until June: its window says so; nothing retired it.
    assert history_note(JUNE, None, None, _day, NOW) == ""


def test_an_end_still_to_come_is_not_history_yet() -> None:
    # Tuesday, told on December 4 that release day becomes Friday on January 1: Tuesday is
    # what holds now. Marked [ended], it read as no release day at all.
    new_year = datetime(2027, 1, 1, tzinfo=UTC)
    assert history_note(new_year, None, RetiredReason.ENDED, _day, NOW) == ""
    assert history_note(new_year, None, RetiredReason.ENDED, _day, new_year) == "[ended]"


def test_a_slot_names_the_name_it_was_written_as_when_its_own_would_mislabel_it() -> None:
    assert slot_label("timeout_seconds", "timeout_ms") == "timeout_seconds (written as timeout ms)"
    assert slot_label("deploy_target", None) == "deploy_target"
    assert "\n" not in triple("api", "cache", "Redis\nrows: 1")
