"""A time to come a question names in words, and the plans that will hold then.

Recall answers what holds now, and names beside it up to three facts that start later
(``starting_later``). Asked "who is on call next week?" with Dana on call until Sunday and
Ravi from Monday, an answer led by Dana misleads: next week is Ravi's. This module reads
the time ("tomorrow", "next week", "in two weeks", "next Friday", "on December 15", an ISO
date after today, a month of a question that says "will", "the week of Dec 21", "the week
after next", "the next ten days") and picks the facts starting
later that hold in it; recall puts those first, the rows that hold now after them.

Worked example (now Monday 2026-12-07 10:00, account zone UTC): "who is on call next
week?" names the week of 2026-12-14, [2026-12-14, 2026-12-21). Ravi, valid from
2026-12-14, holds then: he is named first. Dana, valid [2026-12-07, 2026-12-14), holds now
and is a row after him. "Who is on call tomorrow?" names [2026-12-08, 2026-12-09): Ravi
does not hold then, so Dana's row leads as before.

Only unambiguous times to come count, and only when the question names no past time
(``named_times`` reads those first): "on Friday" may be last Friday, "the 14th" any month.
Pure: the clock is passed in.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from datetime import date, datetime, timedelta, tzinfo

from twoclocks.domain.calendar_words import (
    MONTH_WORD_PATTERN,
    WEEKDAYS,
    days_named,
    month_name,
    month_number,
)
from twoclocks.domain.named_times import (
    COUNT_PATTERN,
    NamedTime,
    Span,
    calendar_span,
    count,
    iso_day,
    midnight,
    next_month,
    speaks_of_the_past,
    speaks_of_what_comes,
    time_phrase,
    week_holding,
)

_TOMORROW = re.compile(r"\b(?P<after>(?:the\s+)?day\s+after\s+)?tomorrow\b", re.IGNORECASE)
_NEXT = re.compile(r"\bnext\s+(?P<unit>week|month|year)\b", re.IGNORECASE)
_WEEK_AFTER_NEXT = re.compile(r"\b(?:the\s+)?week\s+after\s+next\b", re.IGNORECASE)
# "in the next two weeks", "over the coming 10 days": from now to that many on.
_NEXT_COUNT = re.compile(
    rf"\b(?:next|coming|following)\s+(?P<n>{COUNT_PATTERN})\s+(?P<unit>day|week|month)s?\b",
    re.IGNORECASE,
)
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30}
# "in a month" is as often "per month" ("how much downtime can prod have in a month?"):
# only a count said as a number reads as a time to come.
_IN_COUNT = re.compile(
    rf"\bin\s+(?!an?\b)(?P<n>{COUNT_PATTERN})\s+(?P<unit>day|week|month|year)s?(?:'\s*time)?\b",
    re.IGNORECASE,
)
_WEEKDAY = re.compile(rf"\b(?:next|this|coming)\s+(?P<day>{'|'.join(WEEKDAYS)})\b", re.IGNORECASE)
_NEXT_MONTH_NAMED = re.compile(
    rf"\b(?P<next>next|(?:in|during)|this\s+coming)\s+(?P<month>{MONTH_WORD_PATTERN})"
    rf"(?:\s+(?P<year>20\d\d))?\b",
    re.IGNORECASE,
)


# "What's coming up?", "anything planned?", "what's next?": what is to come, no time named.
_WHAT_COMES = re.compile(
    r"\b(?:coming\s+up|upcoming|planned|scheduled|on\s+the\s+horizon)\b"
    r"|\bwhat(?:'s|\s+is|\s+comes)\s+next\b"
    r"|\bwhat(?:'s|\s+is|\s+are)\s+(?:coming|happening)\b",
    re.IGNORECASE,
)
# The words such a question holds when it asks of nothing but what is to come.
_ONLY_WHAT_COMES = frozenset(
    "what s is are anything any coming up upcoming planned scheduled next comes on the "
    "horizon soon for us me we i do have got there change changes plan plans new in this of "
    "coming happening over during "
    "at day days week weeks month months".split()
)
ANY_TIME_TO_COME_LABEL = "from now on (no time named)"
"""The label of the time a question asking what is to come names when it names none."""

_ANY_TIME_TO_COME = timedelta(days=3660)
"""How far "what's coming up?" reads: ten years, every plan a team writes down."""


def asks_only_what_comes(question: str, said: str = "") -> bool:
    """Whether a question asks what is to come and of nothing else, the time it names
    (``said``) left out: "what's coming up?", "anything planned next week?", not "what
    infra upgrade is coming up?" (its words name what it asks of).

    >>> asks_only_what_comes("anything planned next week?", "next week")
    True
    >>> asks_only_what_comes("what's next on the tiles backlog?")
    False
    """
    if _WHAT_COMES.search(question) is None:
        return False
    rest = question.lower().replace(said.lower(), " ") if said else question.lower()
    return set(re.findall(r"[a-z]+", rest)) <= _ONLY_WHAT_COMES


def time_to_come(question: str, now: datetime, tz: tzinfo) -> NamedTime | None:
    """The span to come the question names, in the account's zone ``tz``; None if none.

    >>> from datetime import UTC
    >>> now = datetime(2026, 12, 7, 10, tzinfo=UTC)  # a Monday
    >>> time_to_come("who is on call next week?", now, UTC).label
    'next week (the week of 2026-12-14)'
    >>> time_to_come("what ships on December 15?", now, UTC).label
    '2026-12-15'
    >>> time_to_come("who was on call on December 1?", now, UTC) is None
    True
    >>> time_to_come("did we finish in two weeks?", now, UTC) is None
    True
    >>> time_to_come("what's coming up?", now, UTC).label
    'from now on (no time named)'
    >>> time_to_come("anything scheduled for the week of Dec 21?", now, UTC).label
    'the week of 2026-12-21'
    >>> time_to_come("who is on call in the next two weeks?", now, UTC).label
    'the next 2 weeks (to 2026-12-21 10:00)'
    """
    today = now.astimezone(tz).date()
    if (ahead := _next_count(question, now, tz)) is not None:
        return ahead
    readers: tuple[Callable[[str, date], Span | None], ...] = (
        _week_of, iso_day, _tomorrow, _week_after_next, _next, _in_count, _weekday,
        _month_day, _month,
    )  # fmt: skip
    for read in readers:
        found = read(question, today)
        if found is None:
            continue
        said, label, first, after = found
        start = midnight(first, tz)
        if start <= now or after is None:
            continue  # begun already: the present, or a past time ``named_times`` reads
        return NamedTime(said=said, label=label, start=start, end=midnight(after, tz))
    if asks_only_what_comes(question) and not speaks_of_the_past(question):
        asked = _WHAT_COMES.search(question)
        assert asked is not None
        end = now + _ANY_TIME_TO_COME
        return NamedTime(said=asked[0], label=ANY_TIME_TO_COME_LABEL, start=now, end=end)
    return None


def holds_during(span: NamedTime, valid_at: datetime, invalid_at: datetime | None) -> bool:
    """Whether a valid window [valid_at, invalid_at) meets the span: it holds within it."""
    return valid_at < span.end and (invalid_at is None or invalid_at > span.start)


def to_come_head(label: str, plural: bool) -> str:
    """The line above the facts that will hold at the time the question names.

    >>> to_come_head("next week (the week of 2026-12-14)", plural=False)
    'holds next week (the week of 2026-12-14), the time the question names (not true yet):'
    """
    verb = "hold" if plural else "holds"
    if label == ANY_TIME_TO_COME_LABEL:
        return (
            f"{verb} {time_phrase(label)}, soonest first (not true yet; the question asks "
            "what is to come):"
        )
    return f"{verb} {time_phrase(label)}, the time the question names (not true yet):"


def none_to_come_line(label: str) -> str:
    """Said when the question names a time to come and no fact that starts later holds then.

    >>> none_to_come_line("tomorrow (2026-12-08)")
    'these hold now; nothing found that starts later holds tomorrow (2026-12-08), the time the question names'
    """  # noqa: E501
    return f"these hold now; {nothing_to_come_line(label)}"


def nothing_to_come_line(label: str) -> str:
    """Said when a question names a time to come, nothing that starts later holds then,
    and nothing that matches it holds now: "result: empty" alone does not say the question
    was read as asking what is to come.

    >>> nothing_to_come_line(ANY_TIME_TO_COME_LABEL)
    'nothing memory holds starts later (the question asks what is to come)'
    """
    if label == ANY_TIME_TO_COME_LABEL:  # every plan was read, whatever its words
        return "nothing memory holds starts later (the question asks what is to come)"
    return (
        f"nothing found that starts later holds {time_phrase(label)}, the time the question names"
    )


def _tomorrow(question: str, today: date) -> Span | None:
    match = _TOMORROW.search(question)
    if match is None:
        return None
    day = today + timedelta(days=2 if match["after"] else 1)
    said = "the day after tomorrow" if match["after"] else "tomorrow"
    return match[0], f"{said} ({day.isoformat()})", day, day + timedelta(days=1)


def _next_count(question: str, now: datetime, tz: tzinfo) -> NamedTime | None:
    """ "The next two weeks": from now, not from tomorrow, so a plan from this afternoon
    is in it, to that many days on (a month as 30)."""
    match = _NEXT_COUNT.search(question)
    if match is None or speaks_of_the_past(question):
        return None
    n, unit = count(match["n"]), match["unit"].lower()
    end = now + timedelta(days=n * _UNIT_DAYS[unit])
    to = end.astimezone(tz).strftime("%Y-%m-%d %H:%M")
    label = f"the next {n} {unit}{'' if n == 1 else 's'} (to {to})"
    return NamedTime(said=match[0], label=label, start=now, end=end)


def _week_of(question: str, today: date) -> Span | None:
    return week_holding(question, today, _month_day)


def _week_after_next(question: str, today: date) -> Span | None:
    match = _WEEK_AFTER_NEXT.search(question)
    if match is None:
        return None
    said, label, first, after = calendar_span(match[0], "week", today, back=-2)
    return said, f"the week after next ({label})", first, after


def _next(question: str, today: date) -> Span | None:
    match = _NEXT.search(question)
    if match is None:
        return None
    unit = match["unit"].lower()
    said, label, first, after = calendar_span(match[0], unit, today, back=-1)
    if unit == "week":
        label = f"next week ({label})"
    return said, label, first, after


def _in_count(question: str, today: date) -> Span | None:
    match = _IN_COUNT.search(question)
    # "did we finish in two weeks?" names a length of time, not a time to come.
    if match is None or speaks_of_the_past(question):
        return None
    return calendar_span(match[0], match["unit"].lower(), today, back=-count(match["n"]))


def _weekday(question: str, today: date) -> Span | None:
    match = _WEEKDAY.search(question)
    if match is None:
        return None
    wanted = WEEKDAYS.index(match["day"].lower())
    # The first such day after today ("next Friday", said on a Wednesday, is two days on);
    # "this Monday", said on a Monday, is today: the present, not a time to come.
    ahead = (wanted - today.weekday()) % 7
    if ahead == 0 and not match[0].lower().startswith("this"):
        ahead = 7
    day = today + timedelta(days=ahead)
    label = f"{WEEKDAYS[wanted].capitalize()} {day.isoformat()}"
    return match[0], label, day, day + timedelta(days=1)


def _month_day(question: str, today: date) -> Span | None:
    if speaks_of_the_past(question):
        return None  # "what did we use on December 10?", asked in January: the past one
    for named in days_named(question):
        year = named.year or today.year
        try:
            day = date(year, named.month, named.day)
            if named.year is None and day <= today and speaks_of_what_comes(question):
                day = date(year + 1, named.month, named.day)  # "on January 5", to come
        except ValueError:
            continue  # "February 30"
        if day > today:
            return named.said, day.isoformat(), day, day + timedelta(days=1)
    return None


def _month(question: str, today: date) -> Span | None:
    match = _NEXT_MONTH_NAMED.search(question)
    if match is None:
        return None
    number = month_number(match["month"])
    if number is None:
        return None
    if match["year"]:
        year = int(match["year"])
    elif match["next"].lower() in ("in", "during") and not speaks_of_what_comes(question):
        return None  # "in March" with no "will" is the past March (``named_times``)
    else:
        year = today.year if number > today.month else today.year + 1
    first = date(year, number, 1)
    return match[0], f"{month_name(number)} {year}", first, next_month(first)


def more_to_come_line(count: int, label: str) -> str:
    """Said after the plans a question asking only what is to come is told, when ``count``
    more start in its time than the answer's size: three lines read as all of them, and
    the deploy freeze from the 20th was the fourth.

    >>> more_to_come_line(2, ANY_TIME_TO_COME_LABEL)
    '… 2 more facts start later, not listed: ask with a larger k, or of one thing or slot'
    >>> more_to_come_line(1, "next week (the week of 2026-12-14)")
    '… 1 more fact starts next week (the week of 2026-12-14), not listed: ask with a larger k, or of one thing or slot'
    """  # noqa: E501
    things = "fact starts" if count == 1 else "facts start"
    when = "later" if label == ANY_TIME_TO_COME_LABEL else time_phrase(label)
    return (
        f"… {count} more {things} {when}, not listed: ask with a larger k, or of one thing or slot"
    )


NOTHING_MATCHES_NOW = "nothing that matches the question holds now"
"""Said before the facts starting later when no row answers now: "nothing holds now" read
as an empty store to "what's coming up?", where only the question's words found none."""
