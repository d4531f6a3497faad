"""A past time a question names in words, and the facts that held then and hold no more.

Recall answers what holds now unless ``as_of`` says otherwise (DESIGN §6), so "what
warehouse did we use in March?" gets today's warehouse. Said by a person at the CLI, that
answer misleads unless recall also names what held in March and has changed since. This
module reads the time ("in March", "last year", "two weeks ago", "on 2026-03-15") and
picks those facts; the answer's rows stay the current ones.

Worked example (now 2026-12-05, account zone UTC): "what warehouse did we use in march?"
names March 2026, [2026-03-01, 2026-04-01). Snowflake, valid [2025-06-01, 2026-11-01),
held then and has ended: it is named beside the answer (BigQuery, since 2026-11-01).
A Snowflake corrected away is not (memory no longer believes it ever held), and a value
valid all year and still current is the answer itself.

Only unambiguous times count: a month after "in", "during", "back in" or before a year
("March 2025"); a year after "in" or "during"; "last week / month / year"; "the past
week / month / year" and "the past N days / weeks / ..."; "between March and May" or
"from March to May 2026"; "yesterday"; "N days / weeks / months / years ago"; an ISO date;
a day by its month ("on July 1"; later this year only in the past tense, as last year's);
"last Tuesday", or "on Tuesday" in the past tense; "N hours / minutes ago", the minute
it names; and a part of a day, "this morning", "earlier today", "last night"
(``day_parts``). A time that has not begun is ``times_to_come``'s; the month or year now
running ("in December", asked on the 5th) asks of the present, and a month named with no
year in a question about what is to come ("what will we use in February?") is the one to
come.
Pure: the clock is passed in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime, timedelta, tzinfo

from twoclocks.domain.calendar_words import (
    MONTH_WORD_PATTERN,
    WEEKDAYS,
    days_named,
    month_name,
    month_number,
)
from twoclocks.domain.day_parts import day_part
from twoclocks.domain.model import FactVersion, Kind

MAX_HELD_THEN = 3
"""Values at most named as holding then: one slot rarely changes more often in a span."""

MAX_HAPPENED_THEN = 10
"""Events at most named as happening then: "which PRs did I open last week?" has more."""


@dataclass(frozen=True)
class NamedTime:
    """A past span a question names: its words, a label, and [start, end) in world time."""

    said: str
    label: str
    start: datetime
    end: datetime


_MONTH = re.compile(
    rf"\b(?:(?:back\s+)?in|during|throughout)\s+(?:the\s+month\s+of\s+)?(?P<last>last\s+)?"
    rf"(?P<month>{MONTH_WORD_PATTERN})(?:\s+(?P<year>(?:19|20)\d\d))?\b"
    rf"|\b(?P<last_alone>last)\s+(?P<month_after_last>{MONTH_WORD_PATTERN})(?!\s+\d)"
    rf"|\b(?P<month_of_year>{MONTH_WORD_PATTERN})\s+(?P<year_alone>(?:19|20)\d\d)\b",
    re.IGNORECASE,
)
# "between March and May", "from March to May 2026": the months from the first's start to
# the last's end.
_BETWEEN = re.compile(
    rf"\b(?:between|from)\s+(?P<first>{MONTH_WORD_PATTERN})(?:\s+(?P<first_year>(?:19|20)\d\d))?"
    rf"\s+(?:and|to|until|till|through)\s+(?P<last>{MONTH_WORD_PATTERN})"
    rf"(?:\s+(?P<last_year>(?:19|20)\d\d))?\b",
    re.IGNORECASE,
)
_YEAR = re.compile(r"\b(?:(?:back\s+)?in|during|throughout)\s+(?P<year>(?:19|20)\d\d)\b", re.I)
# "last week" is the calendar week before this one; "the last week" and "the past week"
# are the seven days up to today.
_LAST = re.compile(r"(?<!\bthe\s)\blast\s+(?P<unit>week|month|year)\b", re.IGNORECASE)
_NUMBERS = {
    "a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
    "seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12,
}  # fmt: skip
COUNT_PATTERN = rf"(?:\d{{1,3}}|{'|'.join(_NUMBERS)})"
# "the past week", "the last 3 days", "over the past two weeks": the days up to today.
_PAST = re.compile(
    rf"\b(?:the\s+(?:past|last)|past)\s+(?:(?P<n>{COUNT_PATTERN})\s+)?(?P<unit>day|week|month|year)s?\b",
    re.IGNORECASE,
)
_UNIT_DAYS = {"day": 1, "week": 7, "month": 30, "year": 365}
_AGO = re.compile(
    rf"\b(?P<n>{COUNT_PATTERN})\s+(?P<unit>day|week|month|year)s?\s+ago\b",
    re.IGNORECASE,
)
# A question about what is to come: a month it names with no year is the next one. "will"
# in lower case, or opening the question ("Will we still…"): "did Will own it" names a man.
_SPEAKS_OF_WHAT_COMES = re.compile(
    r"\bwill\b|^\s*Will\b|'ll\b|\b(?:[Ss]hall|[Gg]oing\s+to|[Gg]onna|[Uu]pcoming)\b"
)


def speaks_of_what_comes(question: str) -> bool:
    """Whether a question asks about what is to come ("what will we use in February?").

    >>> speaks_of_what_comes("what database will we use in February?")
    True
    >>> speaks_of_what_comes("did Will own billing?")
    False
    """
    return _SPEAKS_OF_WHAT_COMES.search(question) is not None


_SPEAKS_OF_THE_PAST = re.compile(r"\b(?:did|was|were|had)\b", re.IGNORECASE)


def speaks_of_the_past(question: str) -> bool:
    """Whether a question is put in the past tense ("what did we use on December 10?").

    >>> speaks_of_the_past("who was on call on December 10?")
    True
    >>> speaks_of_the_past("who is on call on December 10?")
    False
    """
    return _SPEAKS_OF_THE_PAST.search(question) is not None


_ISO_DAY = re.compile(r"\b(?P<y>\d{4})-(?P<m>\d{2})-(?P<d>\d{2})\b")
_YESTERDAY = re.compile(r"\byesterday\b", re.IGNORECASE)
# "the week of Dec 21": the week (from Monday) that holds the day, not the day alone.
_WEEK_OF = re.compile(
    r"\b(?:the\s+)?week\s+(?:(?P<of>of)|starting|beginning)(?:\s+on)?\s+", re.IGNORECASE
)


def past_time_named(question: str, now: datetime, tz: tzinfo) -> NamedTime | None:
    """The past span the question names, in the account's zone ``tz``; None if it names none.

    >>> from datetime import UTC
    >>> now = datetime(2026, 12, 5, 12, tzinfo=UTC)
    >>> past_time_named("what warehouse did we use in march?", now, UTC).label
    'March 2026'
    >>> past_time_named("who owned billing last year?", now, UTC).label
    '2025'
    >>> past_time_named("which CI do we use in december?", now, UTC) is None
    True
    >>> past_time_named("may I merge on friday?", now, UTC) is None
    True
    >>> past_time_named("what was the branch two hours ago?", now, UTC).label
    'at 10:00 (two hours ago)'
    """
    moment = _moment_ago(question, now, tz)
    if moment is not None:
        return moment
    named = time_named(question, now, tz)
    # A calendar span that has not ended ("in December", asked on the 5th) is the present.
    return None if named is None or named.end > now else named


_MOMENT_AGO = re.compile(
    rf"\b(?P<n>{COUNT_PATTERN})\s+(?P<unit>hour|minute)s?\s+ago\b", re.IGNORECASE
)


def _moment_ago(question: str, now: datetime, tz: tzinfo) -> NamedTime | None:
    """ "Two hours ago", "30 minutes ago": the minute it names, which a branch switched or a
    value corrected within the day is read at ("what was the branch an hour ago?")."""
    match = _MOMENT_AGO.search(question)
    if match is None:
        return None
    back = timedelta(**{f"{match['unit'].lower()}s": count(match["n"])})
    at = (now - back).astimezone(tz).replace(second=0, microsecond=0)
    shown = f"{at:%H:%M}" if at.date() == now.astimezone(tz).date() else f"{at:%Y-%m-%d %H:%M}"
    label = f"at {shown} ({match[0]})"
    return NamedTime(said=match[0], label=label, start=at, end=at + timedelta(minutes=1))


def time_named(question: str, now: datetime, tz: tzinfo) -> NamedTime | None:
    """The time the question names that has begun, as ``past_time_named`` reads it; a span
    still running ends at its calendar end, after now ("what changed in December?")."""
    part = day_part(question, now, tz)
    if part is not None:
        return NamedTime(*part)
    today = now.astimezone(tz).date()
    readers = (
        _week_of, iso_day, _month_day, _weekday, _ago, _yesterday, _the_past, _last, _between,
        _month, _year,
    )  # fmt: skip
    for read in readers:
        found = read(question, today)
        if found is None:
            continue
        said, label, first, after = found
        start = midnight(first, tz)
        # "The past week" runs up to now.
        end = now if after is None else midnight(after, tz)
        return None if start >= now else NamedTime(said=said, label=label, start=start, end=end)
    return None


def held_then(
    versions: Sequence[FactVersion], named: NamedTime, now: datetime
) -> list[FactVersion]:
    """Of one slot's ``versions``, the believed ones valid during ``named`` that ended by now;
    of an event slot, the believed events that happened during ``named``.

    Believed: not corrected or retracted (``expired_at`` unset), so a row says what memory
    holds now about then. A fact still valid now is the answer itself, never named twice
    (``still_held`` names it beside these). An event happened once, at its ``valid_at``:
    "what incidents did we have in November?" is answered by November's. In the order
    they began, at most ``MAX_HELD_THEN`` facts or ``MAX_HAPPENED_THEN`` events.
    """
    events = [
        v for v in versions
        if v.kind is Kind.EVENT and v.expired_at is None and named.start <= v.valid_at < named.end
    ]  # fmt: skip
    found = [
        v for v in versions
        if v.kind is not Kind.EVENT and v.expired_at is None and v.invalid_at is not None
        and v.invalid_at <= now and v.valid_at < named.end and v.invalid_at > named.start
    ]  # fmt: skip
    events.sort(key=lambda v: (v.valid_at, v.version_id))
    found.sort(key=lambda v: (v.valid_at, v.version_id))
    return events[:MAX_HAPPENED_THEN] + found[:MAX_HELD_THEN]


def still_held(
    versions: Sequence[FactVersion], named: NamedTime, now: datetime
) -> list[FactVersion]:
    """Of one slot's ``versions``, the believed ones valid during ``named`` that hold now.

    Worked example: maintainers Ana [Jan 5, ∞), Bo [Feb 1, Sep 1), Dana [Jun 1, ∞), asked
    in December "who maintained ledger in April?": Bo held then and ended since
    (``held_then``); Ana held then and holds still; Dana began after April. Named beside
    Bo, Ana keeps "Bo" from reading as April's whole answer. In the order they began, at
    most ``MAX_HELD_THEN``.
    """
    found = [
        v for v in versions
        if v.kind is not Kind.EVENT and v.expired_at is None and v.valid_at < named.end
        and v.valid_at <= now and (v.invalid_at is None or v.invalid_at > now)
    ]  # fmt: skip
    found.sort(key=lambda v: (v.valid_at, v.version_id))
    return found[:MAX_HELD_THEN]


_NO_PREPOSITION = (
    "yesterday", "today", "tomorrow", "the day after", "this ", "next ", "since ", "at ", "from ",
    "earlier today", "last night",
)  # fmt: skip
"""Labels that need no preposition before them: "held yesterday (2026-12-05)"."""


def time_phrase(label: str) -> str:
    """A time's label with the preposition it needs.

    >>> [time_phrase(x) for x in ("2026-12-01", "March 2026", "yesterday (2026-12-05)")]
    ['on 2026-12-01', 'in March 2026', 'yesterday (2026-12-05)']
    >>> time_phrase("Friday 2026-12-11")
    'on Friday 2026-12-11'
    """
    if label.startswith(_NO_PREPOSITION):
        return label
    a_day = _ISO_DAY.fullmatch(label) or label.split(" ")[0].lower() in WEEKDAYS
    return f"on {label}" if a_day else f"in {label}"


def held_then_head(label: str, events: bool = False) -> str:
    """The line above the facts that held at the named time (``NamedTime.label``), or the
    ``events`` that happened in it.

    >>> held_then_head("2026-12-01")
    'held on 2026-12-01 (the question names it), ended since (not true now):'
    >>> held_then_head("November 2026", events=True)
    'happened in November 2026 (the question names it):'
    """
    if events:
        return f"happened {time_phrase(label)} (the question names it):"
    return f"held {time_phrase(label)} (the question names it), ended since (not true now):"


def still_held_head(label: str, after_ended: bool = True) -> str:
    """The line above the asked slot's facts that held at the named time and hold now:
    after the ones that ended since (``after_ended``), or first, when none did."""
    if after_ended:
        return f"held {time_phrase(label)} too, and still holds now:"
    return f"held {time_phrase(label)} (the question names it), and still holds now:"


def none_held_line(label: str) -> str:
    """Said when the question names a past time and no fact found for it ended since."""
    return (
        f"these hold now; the question names {label}, and no fact found for it held then "
        "and ended since"
    )


Span = tuple[str, str, date, date | None]
"""What a reader found: the words, a label, the first day, the day after (None: up to now)."""


def iso_day(question: str, today: date) -> Span | None:
    """The day an ISO date in the question names ("2026-03-15"), whenever it is."""
    match = _ISO_DAY.search(question)
    if match is None:
        return None
    try:
        day = date(int(match["y"]), int(match["m"]), int(match["d"]))
    except ValueError:
        return None
    return match[0], day.isoformat(), day, day + timedelta(days=1)


def week_holding(
    question: str, today: date, read_day: Callable[[str, date], Span | None]
) -> Span | None:
    """ "The week of Dec 21": the week, from Monday, holding the day ``read_day`` reads
    right after those words (a past one here, one to come in ``times_to_come``); "the week
    starting Dec 16", the seven days from it; None when no day follows ("the week of the
    launch").

    >>> week_holding("what broke the week of 2026-11-18?", date(2026, 12, 7), iso_day)[1:3]
    ('the week of 2026-11-16', datetime.date(2026, 11, 16))
    """
    match = _WEEK_OF.search(question)
    if match is None:
        return None
    rest = question[match.end() :]
    day = iso_day(rest, today) or read_day(rest, today)
    if day is None or not rest.startswith(day[0]):
        return None
    # "The week of" a Wednesday is from its Monday; "the week starting" it, from it.
    first = day[2] - timedelta(days=day[2].weekday()) if match["of"] else day[2]
    return match[0] + day[0], f"the week of {first.isoformat()}", first, first + timedelta(7)


def _week_of(question: str, today: date) -> Span | None:
    return week_holding(question, today, _month_day)


def _month_day(question: str, today: date) -> Span | None:
    for named in days_named(question):
        year = named.year or today.year
        try:
            day = date(year, named.month, named.day)
            if named.year is None and day > today and speaks_of_the_past(question):
                day = date(year - 1, named.month, named.day)  # "on December 10", in January
        except ValueError:
            continue  # "February 30"
        # A day later this year with no year said is one to come (``times_to_come``).
        if named.year is not None or day <= today:
            return named.said, day.isoformat(), day, day + timedelta(days=1)
    return None


_WEEKDAY = re.compile(rf"\b(?P<how>last|on)\s+(?P<day>{'|'.join(WEEKDAYS)})\b", re.IGNORECASE)


def _weekday(question: str, today: date) -> Span | None:
    # "last Tuesday", or "on Tuesday" asked in the past tense ("what did we ship on
    # Tuesday?"): the latest such day before today ("may I merge on Friday?" is to come).
    match = _WEEKDAY.search(question)
    last = match is not None and match["how"].lower() == "last"
    if match is None or not (last or speaks_of_the_past(question)):
        return None
    wanted = WEEKDAYS.index(match["day"].lower())
    day = today - timedelta(days=(today.weekday() - wanted) % 7 or (7 if last else 0))
    return match[0], f"{WEEKDAYS[wanted].capitalize()} {day.isoformat()}", day, day + timedelta(1)


def _yesterday(question: str, today: date) -> Span | None:
    match = _YESTERDAY.search(question)
    if match is None:
        return None
    day = today - timedelta(days=1)
    return match[0], f"yesterday ({day.isoformat()})", day, today


def _ago(question: str, today: date) -> Span | None:
    match = _AGO.search(question)
    if match is None:
        return None
    return calendar_span(match[0], match["unit"].lower(), today, count(match["n"]))


def _last(question: str, today: date) -> Span | None:
    match = _LAST.search(question)
    if match is None:
        return None
    return calendar_span(match[0], match["unit"].lower(), today, 1)


def count(said: str) -> int:
    """A count ``COUNT_PATTERN`` matched, in digits or words: "3", "two", "a"."""
    word = said.lower()
    return _NUMBERS[word] if word in _NUMBERS else int(word)


def _the_past(question: str, today: date) -> Span | None:
    match = _PAST.search(question)
    if match is None:
        return None
    unit = match["unit"].lower()
    if unit == "day" and match["n"] is None:
        return None  # "the last day of the freeze" names no time of the past
    n = count(match["n"] or "one")
    label = f"the past {unit}" if n == 1 else f"the past {n} {unit}s"
    return match[0], label, today - timedelta(days=n * _UNIT_DAYS[unit]), None


def _month(question: str, today: date) -> Span | None:
    for match in _MONTH.finditer(question):
        word = match["month"] or match["month_after_last"] or match["month_of_year"]
        number = month_number(word)
        if number is None:
            continue
        year_said = match["year"] or match["year_alone"]
        if year_said:
            year = int(year_said)
        elif match["last"] or match["last_alone"]:
            # "last March": the latest March that is over ("last December", in December,
            # is a year ago).
            year = today.year if number < today.month else today.year - 1
        elif speaks_of_what_comes(question):
            return None  # "what will we use in February?", asked in December: the one to come
        else:
            # The latest one begun: the month now running is the present (not a past time).
            year = today.year if number <= today.month else today.year - 1
        first = date(year, number, 1)
        return match[0], f"{month_name(number)} {year}", first, next_month(first)
    return None


def _between(question: str, today: date) -> Span | None:
    match = _BETWEEN.search(question)
    if match is None:
        return None
    first_number, last_number = month_number(match["first"]), month_number(match["last"])
    if first_number is None or last_number is None:
        return None
    if match["last_year"]:
        last_year = int(match["last_year"])
    elif speaks_of_what_comes(question):
        return None  # "from March to May" to come: not a past time
    else:  # the latest such month begun, as ``_month`` reads one
        last_year = today.year if last_number <= today.month else today.year - 1
    if match["first_year"]:
        first_year = int(match["first_year"])
    else:  # "from November to February": the November before
        first_year = last_year if first_number <= last_number else last_year - 1
    first, last = date(first_year, first_number, 1), date(last_year, last_number, 1)
    if first > last:
        return None
    label = f"from {month_name(first_number)} {first_year} to {month_name(last_number)} {last_year}"
    return match[0], label, first, next_month(last)


def _year(question: str, today: date) -> Span | None:
    match = _YEAR.search(question)
    if match is None:
        return None
    year = int(match["year"])
    return match[0], str(year), date(year, 1, 1), date(year + 1, 1, 1)


def calendar_span(said: str, unit: str, today: date, back: int) -> Span:
    """The calendar day, week (from Monday), month or year ``back`` of them before today's
    (a negative ``back``: after it, for ``times_to_come``)."""
    if unit == "day":
        day = today - timedelta(days=back)
        return said, day.isoformat(), day, day + timedelta(days=1)
    if unit == "week":
        monday = today - timedelta(days=today.weekday() + 7 * back)
        return said, f"the week of {monday.isoformat()}", monday, monday + timedelta(days=7)
    if unit == "month":
        index = today.year * 12 + today.month - 1 - back
        first = date(index // 12, index % 12 + 1, 1)
        return said, f"{month_name(first.month)} {first.year}", first, next_month(first)
    year = today.year - back
    return said, str(year), date(year, 1, 1), date(year + 1, 1, 1)


def midnight(day: date, tz: tzinfo) -> datetime:
    return datetime(day.year, day.month, day.day, tzinfo=tz)


def next_month(first: date) -> date:
    """The first day of the month after the one ``first`` opens."""
    return date(first.year + first.month // 12, first.month % 12 + 1, 1)
