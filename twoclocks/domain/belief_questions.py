"""A question asking what memory believed at a past time, read on the record clock.

"What did we believe then" is one of the three questions twoclocks exists to answer
(DESIGN §3: ``as_believed(s)`` alone is "what did we believe then about then"). Asked in
words, it got what holds now: told Heroku on Monday and corrected to Render (never
Heroku) on Wednesday, "what did you think our host was on Tuesday?" got Render, the one
value memory did not believe then, and nothing at all of Heroku (a corrected value never
held, so the world-time list of what held then leaves it out).

Worked example (now Thursday 2026-12-10, UTC): the question names Tuesday 2026-12-08, so
memory's belief is read as it stood at the start and at the end of that day, each about
that same instant ([created_at <= 12-09T00:00 < expired_at) for the end): Heroku, believed
then, corrected since. The rows that hold now (Render) follow it. Read at the end alone, a
span still running ("what did you think the CI was this morning?", the correction made at
09:00, asked at 10:30) was read now, and told the value memory holds now: the start says
what it thought before. A belief that began and ended between the two reads (told at
09:00, corrected at 09:30) is in neither: ``believed_between`` finds it among the slot's
versions recorded then.

Pure: words and versions in, a verdict, versions or a line out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import datetime, timedelta, tzinfo

from twoclocks.domain.change_questions import this_span
from twoclocks.domain.model import FactVersion, RetiredReason
from twoclocks.domain.named_times import NamedTime, past_time_named, time_named, time_phrase
from twoclocks.domain.trust import shown_to_model

_ASKS_WHAT_WAS_BELIEVED = re.compile(
    r"\b(?:did|had)\s+(?:we|you|i|memory|twoclocks)\s+(?:think|thought|believe|believed|"
    r"know|knew|have\s+(?:on\s+record|down|written\s+down))\b"
    r"|\bwhat\s+(?:was|were)\s+(?:on\s+record|in\s+memory)\b"
    r"|\b(?:memory|you)\s+(?:said|believed|thought|had\s+on\s+record)\b"
    r"|\bas\s+(?:memory|we|you)\s+(?:believed|thought|knew)\s+(?:it\s+)?then\b",
    re.IGNORECASE,
)


def asks_what_was_believed(question: str) -> bool:
    """Whether a question asks what memory believed (thought, had on record), not what held.

    >>> asks_what_was_believed("what did you think our host was on Tuesday?")
    True
    >>> asks_what_was_believed("what did we have on record for the database last week?")
    True
    >>> asks_what_was_believed("what host did we use on Tuesday?")
    False
    """
    return _ASKS_WHAT_WAS_BELIEVED.search(question) is not None


_CLOCK_TIME = re.compile(
    r"\bat\s+(?P<hour>2[0-3]|[01]?\d)(?!\d)(?::(?P<minute>[0-5]\d))?"
    r"(?:\s*(?P<half>[ap])\.?m\b\.?)?",
    re.IGNORECASE,
)


def past_time_asked(question: str, now: datetime, tz: tzinfo) -> NamedTime | None:
    """The past time a question reads what held or what memory believed in.

    A question of the world: ``named_times.past_time_named``'s. One asking what memory
    believed names its time more ways: a moment by the clock ("at 15:29", "yesterday at
    10am"), read at that minute, and a time still running ("today", "this week"), read at
    its start, now, and in between; "what did you think the orchestrator was today?" got
    what holds now alone. Of the world, "what's the standup at 09:30?" names no time and
    "what port do we use today?" asks of now, so neither is read there.

    >>> from datetime import UTC
    >>> now = datetime(2026, 12, 7, 15, 40, tzinfo=UTC)
    >>> past_time_asked("what did you think the orchestrator was at 15:29?", now, UTC).label
    'at 15:29'
    >>> past_time_asked("what did you think it was yesterday at 10am?", now, UTC).label
    'at 2026-12-06 10:00'
    >>> past_time_asked("what did we believe the warehouse was today?", now, UTC).label
    'today (2026-12-07)'
    >>> past_time_asked("what port do we use today?", now, UTC) is None
    True
    """
    if not asks_what_was_believed(question):
        return past_time_named(question, now, tz)
    return (
        _clock_time(question, now, tz)
        or past_time_named(question, now, tz)
        or this_span(question, now, tz)
    )


def _clock_time(question: str, now: datetime, tz: tzinfo) -> NamedTime | None:
    """The past minute "at 15:29" or "at 10am" names: on the one day the question names
    ("yesterday", "on Tuesday", "this morning"), else today; None when it has not come yet,
    or when the question names a longer time ("last week at 10:00": which day?)."""
    match = _CLOCK_TIME.search(question)
    if match is None or not (match["minute"] or match["half"]):
        return None  # "at 3" alone may count replicas
    hour = int(match["hour"])
    if match["half"]:
        if not 1 <= hour <= 12:
            return None
        hour = hour % 12 + (12 if match["half"].lower() == "p" else 0)
    named = time_named(question, now, tz)
    if named is not None and named.end - named.start > timedelta(days=1):
        return None
    day = (named.start if named is not None else now).astimezone(tz).date()
    at = datetime(day.year, day.month, day.day, hour, int(match["minute"] or 0), tzinfo=tz)
    if at > now:
        return None
    today = now.astimezone(tz).date()
    label = f"at {at:%H:%M}" if day == today else f"at {at:%Y-%m-%d %H:%M}"
    return NamedTime(said=match[0], label=label, start=at, end=at + timedelta(minutes=1))


_NOT_TOLD = frozenset({RetiredReason.RETRACTED, RetiredReason.HELD_BACK, RetiredReason.REWRITTEN})
"""Why a version memory stopped believing is never named as a belief: forgotten on request,
held back by the refusal watch, or the same value written again."""


def believed_between(
    versions: Iterable[FactVersion], start: datetime, end: datetime
) -> list[FactVersion]:
    """The versions memory began and stopped believing within [start, end], shown to a
    model, the first told first: believed inside the time, yet at neither of its ends.

    Worked example: CI told GitHub Actions at 09:00 and corrected to Buildkite at 09:30;
    "what did you think the CI was this morning?", asked at 10:30, reads memory at 00:00
    (no CI yet) and at 10:30 (Buildkite). GitHub Actions, recorded [09:00, 09:30), is
    the belief those reads miss; a version still believed at 10:30, or told before 00:00,
    is not (one read has it). Nor is a value forgotten on request or held back (memory
    says nothing of those), or one written again (its value is in the version after it).
    """
    inside = [
        v
        for v in versions
        if start <= v.created_at
        and v.expired_at is not None
        and v.expired_at <= end
        and v.retired_reason not in _NOT_TOLD
        and shown_to_model(v.tier)
    ]
    return sorted(inside, key=lambda v: v.created_at)


def believed_then_head(label: str) -> str:
    """The line above the facts memory believed in the time the question names.

    >>> believed_then_head("yesterday (2026-12-09)")
    'memory believed yesterday (2026-12-09), read at its start, its end, and the slot asked in between (the question asks what it believed then; a mark says what changed since):'
    """  # noqa: E501
    return (
        f"memory believed {_at(label, between=True)} (the question asks what it believed "
        "then; a mark says what changed since):"
    )


def none_believed_line(label: str) -> str:
    """Said when memory believed nothing about the question in that time (no slot was
    found to read in between).

    >>> none_believed_line("2026-12-01")
    'memory believed nothing found for the question on 2026-12-01, read at its start and its end; these hold now'
    """  # noqa: E501
    return f"memory believed nothing found for the question {_at(label)}; these hold now"


def _at(label: str, between: bool = False) -> str:
    """When memory's belief is read: at a moment named ("at 10:00 (two hours ago)"), or at
    the start and the end of a span (and the slot asked ``between`` them).

    >>> _at("at 10:00 (two hours ago)"), _at("2026-12-01")
    ('at 10:00 (two hours ago)', 'on 2026-12-01, read at its start and its end')
    """
    if label.startswith("at "):
        return label
    if between:
        return f"{time_phrase(label)}, read at its start, its end, and the slot asked in between"
    return f"{time_phrase(label)}, read at its start and its end"
