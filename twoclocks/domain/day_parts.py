"""A part of a day a question names: "this morning", "earlier today", "last night",
"yesterday afternoon".

A branch switched at 09:00 and a value corrected before lunch are asked of this way ("what
was the branch this morning?", "what changed this morning?"), and read as no time named
they got the branch now, or the past 7 days. Parts are fixed hours in the account's zone:
morning [00:00, 12:00), afternoon [12:00, 18:00), evening [18:00, 24:00), and last night
[18:00 yesterday, 06:00 today). A part still running ends now; one not begun is not a past
time (``named_times`` gives it none).

Worked example (now 2026-12-07 10:30, account zone UTC): "what was the branch this
morning?" names [2026-12-07 00:00, 10:30), labelled "this morning (2026-12-07, to 10:30)";
"earlier today" the same hours, labelled so; "yesterday afternoon" [2026-12-06 12:00,
18:00); "this afternoon" has not begun, and names no past time. Pure.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, tzinfo

PARTS = {"morning": (0, 12), "afternoon": (12, 18), "evening": (18, 24)}
"""The hours [start, end) of each part of a day, in the account's zone."""

_PART = re.compile(
    r"\b(?P<which>this|yesterday|earlier)\s+(?P<part>morning|afternoon|evening|today)\b"
    r"|\b(?P<night>last\s+night)\b",
    re.IGNORECASE,
)

DayPart = tuple[str, str, datetime, datetime]
"""The words, a label, the start and the end (exclusive) of a part of a day."""


def day_part(question: str, now: datetime, tz: tzinfo) -> DayPart | None:
    """The part of a day the question names, up to now at most; None when it names none or
    one that has not begun.

    >>> from datetime import UTC
    >>> now = datetime(2026, 12, 7, 10, 30, tzinfo=UTC)
    >>> day_part("what was the branch this morning?", now, UTC)[1]
    'this morning (2026-12-07, to 10:30)'
    >>> day_part("what changed yesterday afternoon?", now, UTC)[1]
    'yesterday afternoon (2026-12-06 12:00-18:00)'
    >>> day_part("what will we ship this afternoon?", now, UTC) is None
    True
    """
    match = _PART.search(question)
    if match is None:
        return None
    local = now.astimezone(tz)
    today = local.date()
    if match["night"]:
        day = today - timedelta(days=1)
        start = _at(day, 18, tz)
        end = _at(today, 6, tz)
        said, head = match[0], "last night"
    else:
        which, part = match["which"].lower(), match["part"].lower()
        if (which == "earlier") != (part == "today"):
            return None  # "this today", "earlier morning": not a part of a day
        day = today - timedelta(days=1) if which == "yesterday" else today
        first, last = PARTS.get(part, (0, 24))
        start = _at(day, first, tz)
        end = _at(day, 0, tz) + timedelta(hours=last)
        said, head = match[0], f"{which} {part}"
    if start >= now:
        return None
    if end > now:
        return said, f"{head} ({today.isoformat()}, to {local:%H:%M})", start, now
    if match["night"]:
        return said, f"{head} ({start:%Y-%m-%d %H:%M} to {end:%Y-%m-%d %H:%M})", start, end
    return said, f"{head} ({start:%Y-%m-%d %H:%M}-{end:%H:%M})", start, end


def _at(day: date, hour: int, tz: tzinfo) -> datetime:
    """That hour of ``day`` on the clocks of ``tz``."""
    return datetime(day.year, day.month, day.day, hour, tzinfo=tz)
