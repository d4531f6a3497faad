"""The interval predicates of both clocks (DESIGN.md §2): half-open, start inclusive."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from twoclocks.domain.model import FactStatus, FactVersion, RetiredReason
from twoclocks.domain.temporal import believed_at, holds_at, is_current, is_visible, status_of

US = timedelta(microseconds=1)


def at(month: int, day: int, hour: int = 0) -> datetime:
    return datetime(2026, month, day, hour, tzinfo=UTC)


NOW = at(10, 15)
FEB2, MAR1, APR14, MAY1, JUN9 = at(2, 2), at(3, 1), at(4, 14), at(5, 1), at(6, 9)


def version(**fields: Any) -> FactVersion:
    base: dict[str, Any] = {
        "version_id": "v1",
        "fact_id": "f1",
        "subject": "acme-api",
        "predicate": "deploys_from",
        "object": "main",
        "valid_at": FEB2,
        "created_at": FEB2,
    }
    base.update(fields)
    return FactVersion(**base)


# One version with both windows closed: valid [Feb 2, Apr 14), record [Mar 1, Jun 9).
CLOSED = version(valid_at=FEB2, invalid_at=APR14, created_at=MAR1, expired_at=JUN9)


@pytest.mark.parametrize(
    ("point", "inside"),
    [
        (FEB2 - US, False),
        (FEB2, True),
        (FEB2 + US, True),
        (APR14 - US, True),
        (APR14, False),
        (APR14 + US, False),
    ],
    ids=["start-1us", "start", "start+1us", "end-1us", "end", "end+1us"],
)
def test_world_axis_is_half_open_start_inclusive_end_exclusive(
    point: datetime, inside: bool
) -> None:
    assert holds_at(CLOSED, point) is inside
    # the read filter with as_of alone says the same for a version believed now
    believed_now = CLOSED.model_copy(update={"expired_at": None})
    assert is_visible(believed_now, NOW, as_of=point) is inside


@pytest.mark.parametrize(
    ("point", "inside"),
    [
        (MAR1 - US, False),
        (MAR1, True),
        (MAR1 + US, True),
        (JUN9 - US, True),
        (JUN9, False),
        (JUN9 + US, False),
    ],
    ids=["start-1us", "start", "start+1us", "end-1us", "end", "end+1us"],
)
def test_record_axis_is_half_open_start_inclusive_end_exclusive(
    point: datetime, inside: bool
) -> None:
    assert believed_at(CLOSED, point) is inside
    # as_believed with history ignores the world window, so it is the record axis alone
    assert is_visible(CLOSED, NOW, as_believed=point, include_history=True) is inside


def test_open_ends_hold_and_are_believed_forever() -> None:
    live = version(valid_at=FEB2, created_at=FEB2)
    far = datetime(9999, 12, 31, tzinfo=UTC)
    assert holds_at(live, far)
    assert believed_at(live, far)


def test_current_is_believed_now_and_true_now() -> None:
    live = version(valid_at=FEB2, created_at=FEB2)
    assert is_current(live, NOW)
    assert is_visible(live, NOW)
    expired = live.model_copy(update={"expired_at": JUN9})
    assert not is_current(expired, NOW)
    ended = live.model_copy(update={"invalid_at": APR14})
    assert not is_current(ended, NOW)


def test_future_dated_fact_is_not_current() -> None:
    next_month = version(valid_at=NOW + timedelta(days=30), created_at=NOW)
    assert not is_current(next_month, NOW)
    assert not is_visible(next_month, NOW)
    # ... and it becomes current exactly at its own start
    assert is_current(next_month, NOW + timedelta(days=30))
    assert not is_current(next_month, NOW + timedelta(days=30) - US)


def test_value_with_a_scheduled_end_stays_current_until_the_end() -> None:
    """An end in the future (a future-dated successor) keeps the old value current until then.

    DESIGN.md §2 writes ``current`` as ``invalid_at IS NULL``; that reading would leave
    a slot with no current value between a future-dated write and its start. The
    domain answers ``holds_at(now)`` instead, which agrees whenever ends are past.
    """
    scheduled = version(valid_at=FEB2, invalid_at=NOW + timedelta(days=30), created_at=NOW)
    assert is_current(scheduled, NOW)
    assert not is_current(scheduled, NOW + timedelta(days=30))


def test_as_of_alone_reads_what_is_believed_now() -> None:
    # held on Mar 1 in the world, but the store no longer believes it (corrected Jun 9)
    corrected = version(valid_at=FEB2, created_at=FEB2, expired_at=JUN9)
    assert holds_at(corrected, MAR1)
    assert not is_visible(corrected, NOW, as_of=MAR1)


def test_as_believed_alone_means_what_we_believed_then_about_then() -> None:
    # Closed in the world on Apr 14 and believed on May 1: not what we believed held on May 1.
    main_copy = version(valid_at=FEB2, invalid_at=APR14, created_at=APR14)
    assert not holds_at(main_copy, MAY1)
    assert not is_visible(main_copy, NOW, as_believed=MAY1)
    assert is_visible(main_copy, NOW, as_believed=MAY1, as_of=MAR1)  # both explicit: kept
    # The open version written Feb 2 and expired Apr 14: believed and true on Mar 1.
    main_open = version(valid_at=FEB2, created_at=FEB2, expired_at=APR14)
    assert is_visible(main_open, NOW, as_believed=MAR1)
    # A fact dated after the belief point was not yet true then.
    later = version(valid_at=JUN9, created_at=APR14)
    assert not is_visible(later, NOW, as_believed=MAY1)


def test_as_believed_with_history_ignores_the_world_axis() -> None:
    main_copy = version(valid_at=FEB2, invalid_at=APR14, created_at=APR14)
    assert is_visible(main_copy, NOW, as_believed=MAY1, include_history=True)
    later = version(valid_at=JUN9, created_at=APR14)
    assert is_visible(later, NOW, as_believed=MAY1, include_history=True)
    # but the record axis still applies: not yet written, or already expired
    assert not is_visible(main_copy, NOW, as_believed=APR14 - US, include_history=True)
    gone = main_copy.model_copy(update={"expired_at": MAY1})
    assert not is_visible(gone, NOW, as_believed=MAY1, include_history=True)


def test_as_of_and_as_believed_together_apply_both_axes() -> None:
    main_copy = version(valid_at=FEB2, invalid_at=APR14, created_at=APR14)
    # believed on May 1, but not true on May 1
    assert not is_visible(main_copy, NOW, as_of=MAY1, as_believed=MAY1)
    # true on Mar 1, but not yet believed on Mar 1 (the copy was written Apr 14)
    assert not is_visible(main_copy, NOW, as_of=MAR1, as_believed=MAR1)
    # both axes hold
    assert is_visible(main_copy, NOW, as_of=MAR1, as_believed=MAY1)
    # the pair does not fall back to "believed now": an expired version answers for its past
    pg15 = version(object="Postgres 15", valid_at=FEB2, created_at=FEB2, expired_at=JUN9)
    assert is_visible(pg15, NOW, as_of=MAY1, as_believed=MAY1)
    assert not is_visible(pg15, NOW, as_of=MAY1)


def test_include_history_returns_every_version_when_no_clock_is_given() -> None:
    rows = [
        version(expired_at=JUN9),
        version(invalid_at=APR14),
        version(valid_at=NOW + timedelta(days=1)),
    ]
    assert [is_visible(v, NOW) for v in rows] == [False, False, False]
    assert all(is_visible(v, NOW, include_history=True) for v in rows)


def test_status_of_a_live_fact_is_live() -> None:
    assert status_of([version()]) is FactStatus.LIVE


def test_status_of_an_ended_fact_is_ended() -> None:
    original = version(version_id="v1", expired_at=APR14, retired_reason=RetiredReason.ENDED)
    copy = version(
        version_id="v2", invalid_at=APR14, created_at=APR14, retired_reason=RetiredReason.ENDED
    )
    assert status_of([original, copy]) is FactStatus.ENDED
    # replaced at its own start: nothing believed, the expiry says ended
    assert status_of([original]) is FactStatus.ENDED


def test_status_of_a_corrected_fact_is_corrected() -> None:
    corrected = version(expired_at=JUN9, retired_reason=RetiredReason.CORRECTED)
    assert status_of([corrected]) is FactStatus.CORRECTED


def test_status_of_a_retracted_fact_is_retracted() -> None:
    retracted = version(expired_at=JUN9, retired_reason=RetiredReason.RETRACTED)
    assert status_of([retracted]) is FactStatus.RETRACTED


@pytest.mark.parametrize(
    ("last_reason", "expected"),
    [
        (RetiredReason.CORRECTED, FactStatus.CORRECTED),
        (RetiredReason.RETRACTED, FactStatus.RETRACTED),
    ],
)
def test_status_of_a_retired_history_follows_the_latest_expiry(
    last_reason: RetiredReason, expected: FactStatus
) -> None:
    # ended Apr 14 (original expired, copy written), then the copy was retired Jun 9
    original = version(version_id="v1", expired_at=APR14, retired_reason=RetiredReason.ENDED)
    copy = version(
        version_id="v2",
        invalid_at=APR14,
        created_at=APR14,
        expired_at=JUN9,
        retired_reason=last_reason,
    )
    assert status_of([copy, original]) is expected
    assert status_of([original, copy]) is expected


def test_status_of_needs_a_version() -> None:
    with pytest.raises(ValueError):
        status_of([])


def test_status_of_a_fact_a_merge_folded_is_folded_not_retracted() -> None:
    # Its value is held by the fact that said the same; nobody asked to forget it.
    folded = version(expired_at=JUN9, retired_reason=RetiredReason.REWRITTEN)
    assert status_of([folded]) is FactStatus.FOLDED
