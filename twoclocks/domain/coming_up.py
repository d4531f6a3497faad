"""What the block says is about to change: values that start within the next week.

A value written to start later ("release day is Friday from January 1st", "deploy
freeze from the 20th") is not true yet, so the block's facts leave it out; the value it
replaces shows with its "until". A session on the 19th still needs to know that the
freeze starts tomorrow. Worked example (``now`` 2026-12-18 12:00 UTC)::

    Coming up (next 7 days):
    - team · deploy freeze: on (starts 2026-12-20 00:00 +00, asserted)
    - team · release day: Tuesday -> Friday (changes 2026-12-21 00:00 +00, asserted)

Rules: believed versions only, shown to a model (a tier), starting after ``now`` and
at most ``COMING_WINDOW`` later; soonest first, at most ``MAX_COMING``; a value that
replaces one (``domain.succession``: the one the block's recent changes would name as
its successor) names the old value. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timedelta, tzinfo

from twoclocks.domain.block_lines import format_time, one_line, slot_label, tier_note
from twoclocks.domain.model import FactVersion
from twoclocks.domain.succession import predecessor
from twoclocks.domain.trust import shown_to_model

COMING_WINDOW = timedelta(days=7)
"""How far ahead the block looks: a week covers what a session plans around."""

MAX_COMING = 3
"""Lines at most, as for recent changes: the block's room belongs to what holds now."""

HEADING = "Coming up (next 7 days):"


def coming_up(rows: Sequence[FactVersion], now: datetime) -> list[FactVersion]:
    """Believed, tiered versions that start in ``(now, now + COMING_WINDOW]``, soonest first."""
    return starting_after(rows, now, now + COMING_WINDOW)[:MAX_COMING]


def coming_more(rows: Sequence[FactVersion], now: datetime) -> int:
    """How many more start in the window than ``coming_up`` names."""
    return max(0, len(starting_after(rows, now, now + COMING_WINDOW)) - MAX_COMING)


def more_coming_line(count: int) -> str:
    """Said after the values coming up when ``count`` more start in the window: a model told
    three of five would take them for all (the deploy freeze on day six, unsaid).

    >>> print(more_coming_line(2))
    - … 2 more start in the next 7 days: call recall with "what's coming up in the next 7 days?"
    """
    days = COMING_WINDOW.days
    starts = "starts" if count == 1 else "start"
    return (
        f"- … {count} more {starts} in the next {days} days: call recall with "
        f'"what\'s coming up in the next {days} days?"'
    )


def starting_after(
    rows: Sequence[FactVersion], now: datetime, until: datetime
) -> list[FactVersion]:
    """Believed, tiered versions that start in ``(now, until]``, soonest first: the block's
    coming week, and what a question asking what is to come is told."""
    found = [
        v for v in rows
        if v.expired_at is None and shown_to_model(v.tier) and now < v.valid_at <= until
    ]  # fmt: skip
    return sorted(found, key=lambda v: (v.valid_at, v.version_id))


def coming_line(new: FactVersion, rows: Sequence[FactVersion], tz: tzinfo) -> str:
    """One line of the section: ``old -> new (changes ...)`` or ``new (starts ...)``."""
    old = predecessor(new, rows)
    value = one_line(new.object)
    when = "starts"
    if old is not None:
        value = f"{one_line(old.object)} -> {value}"
        when = "changes"
    until = f" until {format_time(new.invalid_at, tz)}" if new.invalid_at is not None else ""
    return (
        f"- {one_line(new.subject)} · {slot_label(new)}: {value}"
        f" ({when} {format_time(new.valid_at, tz)}{until}, {tier_note(new.tier)})"
    )
