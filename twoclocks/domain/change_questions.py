"""A question that asks what changed, the time it asks about, and the facts that began or
ended then.

"What changed this week?" names no slot: recall's rows are what holds now and matches the
question's words, and "empty" reads as "nothing changed" when pnpm replaced npm on
Wednesday. Such a question gets the believed facts whose world-time start or end falls in
the time it names, beside the rows (DESIGN §6): when something changed in the world, not
when memory was told.

Worked example (now Sunday 2026-12-06 12:00, account zone UTC): "what changed this week?"
asks of [2026-11-30 00:00, now). npm, valid [2025-01-01, 2026-12-02), ended in it and pnpm,
valid from 2026-12-02, began in it: both are named, oldest change first. PostgreSQL, valid
all week, did not change; a value corrected away is not named (memory no longer believes it
held), nor an event (it happened; "what happened this week?" is ``named_times``').

The time: "since <a time>" runs from that time's start up to now; "this week / month /
quarter / year" and "today" from their calendar start; any other time ``named_times``
reads ("last week", "in November", "the past 3 days", "between March and May") is that
span; with none, the past 7 days, and a time it names that is not read ("in the last
sprint", "after the launch") is said so in the label. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from datetime import date, datetime, timedelta, tzinfo
from typing import NamedTuple

from twoclocks.domain.corrections_made import asks_what_was_corrected
from twoclocks.domain.model import FactVersion, Kind, RetiredReason
from twoclocks.domain.named_times import NamedTime, time_named, time_phrase
from twoclocks.domain.slot_names import canonical_tokens
from twoclocks.domain.trust import shown_to_model

MAX_CHANGES = 10
"""Changed facts named at most, the latest ones: the timeline tells every version."""

MAX_CHANGES_A_SLOT = 3
"""Versions of one slot named at most, its latest: a branch switched twenty times in a week
would crowd out the one change to the database."""

DEFAULT_SPAN = timedelta(days=7)
"""The time a question asking what changed covers when it names none."""

_ASKS_WHAT_CHANGED = re.compile(
    r"\bwhat(?:'s|\s+has|\s+have|\s+else)?(?:\s+(?:we|you|i|they))?\s+(?:been\s+)?changed\b"
    r"|\b(?:has|have|did)\s+anything\s+(?:been\s+)?change[ds]?\b"
    r"|\banything\s+(?:changed|new)\b"
    r"|\bwhat(?:'s|\s+is)\s+new\b"
    r"|\bwhat\s+changes\s+(?:did|were|have|has|happened|went|since|this|last|in\s+the)\b"
    r"|\b(?:any|recent|latest)\s+changes\b"
    # "Did the rust toolchain change today?", "has our database changed since Monday?"
    r"|\b(?:did|has|have)\s+(?:[\w.'-]+\s+){1,4}(?:been\s+)?(?<!\bto\s)change[ds]?\b"
    # "When did we switch to uv?", "have we moved off Heroku?": a move between values.
    r"|\b(?:did|has|have)\s+(?:[\w.'-]+\s+){1,4}(?<!\bto\s)"
    r"(?:switch|move|migrate|upgrade|downgrade|swap)(?:e?d)?\s+(?:to|from|off|over|away)\b"
    # "Who left the team?", "what did we stop using?": an end (or a start) with no value
    # named; answered with what holds, the members still there read as the ones who left.
    r"|\bwho\s+(?:has\s+|have\s+)?(?:left|joined|quit)\b(?!\s+(?:a|an)\b)"
    r"|\bwh(?:o|at)\s+(?:was|were|got|has\s+been|have\s+been)\s+(?:added|removed|dropped)\b"
    r"|\bwhat\s+(?:did|have|has)\s+(?:we|you|i|they)\s+"
    r"(?:stop(?:ped)?\s+using|drop(?:ped)?|remove[d]?|add(?:ed)?)\b",
    re.IGNORECASE,
)
_ASKS_WHY = re.compile(r"\s*(?:so\s+|and\s+|but\s+)?why\b", re.IGNORECASE)
# "What did you learn this week?" asks what memory was told then, on the record clock:
# a person who told memory five facts today hears them, not "nothing changed".
_ASKS_WHAT_WAS_TOLD = re.compile(
    r"\bwhat\s+(?:did|have|has)\s+(?:you|memory|twoclocks)\s+(?:just\s+)?"
    r"(?:learn|learnt|learned|remember|remembered|capture|captured|store|stored|save|saved|"
    r"note|noted|record|recorded|pick(?:ed)?\s+up|been\s+told)\b"
    r"|\bwhat\s+(?:did|have)\s+(?:i|we)\s+(?:told|tell)\s+(?:you|memory)\b"
    r"|\bwhat(?:'s|\s+is|\s+was|\s+has\s+been|\s+got)\s+(?:been\s+)?"
    r"(?:remembered|captured|stored|saved|recorded|learned|learnt)\b",
    re.IGNORECASE,
)
_SINCE = re.compile(r"\bsince\s+(?P<rest>.+)", re.IGNORECASE)
_WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")
_WEEKDAY = re.compile(
    r"\s*(?:last\s+)?(?P<day>(?:mon|tues|wednes|thurs|fri|satur|sun)day)\b", re.IGNORECASE
)
# Times a question names that ``change_span`` does not read: "after the launch", "in the
# last sprint", "in Q3". Said so in the label, never read as "no time named".
_TIME_NOT_READ = re.compile(
    r"\b(?:after|before|between|during|until|till)\s+\S.*"
    r"|\b(?:(?:the\s+)?(?:last|past|previous|current)\s+)?(?:sprint|quarter|iteration)\b"
    r"|\bq[1-4]\b",
    re.IGNORECASE,
)
_THIS = re.compile(r"\bthis\s+(?P<unit>week|month|quarter|year)\b|\btoday\b", re.IGNORECASE)


def asks_what_changed(question: str) -> bool:
    """Whether a question asks what changed, not what holds.

    >>> asks_what_changed("what changed in ledger this week?")
    True
    >>> asks_what_changed("has anything changed since Monday?")
    True
    >>> asks_what_changed("who approves schema changes?")
    False
    >>> asks_what_changed("why did we switch to uv?")  # a reason, not what or when
    False
    >>> asks_what_changed("who left the team?"), asks_what_changed("what did we stop using?")
    (True, True)
    >>> asks_what_changed("who left a comment on the PR?")  # no end of a fact: read as asked
    False
    """
    return _ASKS_WHY.match(question) is None and _ASKS_WHAT_CHANGED.search(question) is not None


def asks_what_was_told(question: str) -> bool:
    """Whether a question asks what memory was told (learned, captured) in a time.

    >>> asks_what_was_told("what did you learn this week?")
    True
    >>> asks_what_was_told("what have I told you today?")
    True
    >>> asks_what_was_told("what do you remember about ledger?")
    False
    """
    return _ASKS_WHAT_WAS_TOLD.search(question) is not None


def change_span(question: str, now: datetime, tz: tzinfo) -> NamedTime | None:
    """The time a question asking what changed asks about, in the account's zone ``tz``;
    None when it asks no such thing. Its end is never after ``now``.

    >>> from datetime import UTC
    >>> now = datetime(2026, 12, 6, 12, tzinfo=UTC)
    >>> change_span("what changed this week?", now, UTC).label
    'this week (from 2026-11-30)'
    >>> change_span("what has changed since last month?", now, UTC).start.date()
    datetime.date(2026, 11, 1)
    >>> change_span("anything new?", now, UTC).label
    'the past 7 days (no time named)'
    """
    asked = (asks_what_changed, asks_what_was_told, asks_what_was_corrected)
    if not any(asks(question) for asks in asked):
        return None
    since = _SINCE.search(question)
    named = _since(since["rest"], now, tz) if since else None
    if since and named is not None:
        label = f"since {named.label}"
        return NamedTime(said=since[0], label=label, start=named.start, end=now)
    this = this_span(question, now, tz)
    if this is not None:
        return this
    named = time_named(question, now, tz)
    if named is not None:
        return NamedTime(named.said, named.label, named.start, min(named.end, now))
    # "Since we moved to Render", "in the last sprint" name a time this does not read:
    # said, never passed off as a question that named none (whose ``said`` alone is empty).
    unread = _TIME_NOT_READ.search(question)
    if since:
        said, why = since[0], "the time after 'since' not read"
    elif unread:
        said = unread[0].strip(" ?!.")
        why = f"the time '{said}' names not read"
    else:
        said, why = "", "no time named"
    label = f"the past {DEFAULT_SPAN.days} days ({why})"
    return NamedTime(said=said, label=label, start=now - DEFAULT_SPAN, end=now)


ANY_TIME_LABEL = "at any time (no time named)"
"""The label of the changes of one thing or slot a question asks of with no time named."""

_CHANGE_WORDS = frozenset(
    {"anything", "change", "changed", "else", "far", "lately", "latest", "make", "made", "new"}
    | {"recent", "recently"}
    | {"left", "joined", "quit", "added", "removed", "dropped", "stop", "stopped", "using"}
    | {"drop", "remove", "add"}
)
"""Words of a question asking what changed that narrow it to nothing: "anything new lately?"."""


def narrowed_words(words: frozenset[str]) -> frozenset[str]:
    """A change question's content words that may name what it asks of: "what changed in
    the database?" asks of the database, "anything new lately?" of nothing.

    >>> sorted(narrowed_words(frozenset({"changed", "database"})))
    ['database']
    """
    return words - _CHANGE_WORDS


_ANY_PLACE = frozenset(
    "project repository code app application workspace here thing stuff memory everything "
    "anything work world since lately recently".split()
)
"""Words a change question may hold that name no thing it asks of: "what changed in the
codebase this week?" asks of every change."""


def holds_words(words: frozenset[str], text: str) -> bool:
    """Whether ``text`` (a fact's subject, slot, written-as name and value) holds one of the
    ``words`` a change question narrows to that names a thing ("codebase", "project" name
    none; with none left, every text does): inside a word too ("ci" in "circleci", "test" in
    "pytest"), or by plural and short form.

    A word and a name that differ only by a plural or a short form name one thing: "did the
    retry count change?" was told no retry changed while ``max_retries`` went from 3 to 5.

    >>> holds_words(frozenset({"retry", "count"}), "loader max_retries 5")
    True
    >>> holds_words(frozenset({"database"}), "api db postgres 16")
    True
    >>> holds_words(frozenset({"kubernetes"}), "api deploy_target render")
    False
    """
    asked = words - _ANY_PLACE
    if not asked:
        return True
    folded = text.casefold()
    if any(word in folded for word in asked):
        return True
    canonical = " ".join(canonical_tokens(folded))
    return any(form in canonical for word in asked for form in canonical_tokens(word))


def named_of_nothing(words: frozenset[str], texts: Iterable[str]) -> tuple[str, ...]:
    """The words a change question narrows to (``words``: its ``narrowed_words``, the
    time's own left out), when no text of the facts that changed then holds any of them
    (``holds_words``): "what changed with kubernetes today?" in a memory with no kubernetes
    fact asks of nothing it holds, and every change of the day read as the answer.

    >>> named_of_nothing(frozenset({"kubernetes"}), ["api deploy_target render"])
    ('kubernetes',)
    >>> named_of_nothing(frozenset({"ci", "project"}), ["team ci_provider circleci"])
    ()
    """
    if any(holds_words(words, text) for text in texts):
        return ()
    return tuple(sorted(words - _ANY_PLACE))


def other_changes_line(count: int, label: str) -> str:
    """Said after "no fact memory holds of kubernetes began or ended today" when ``count``
    changes of other things were made then: none of them is the answer, and none is listed.

    >>> other_changes_line(3, "today (2026-12-07)")
    '… 3 changes of other things today (2026-12-07), not listed: ask what changed without naming a thing to read them'
    """  # noqa: E501
    things = "change" if count == 1 else "changes"
    return (
        f"… {count} {things} of other things {time_phrase(label)}, not listed: ask what changed"
        " without naming a thing to read them"
    )


def any_time(changes: Sequence[FactVersion], now: datetime) -> NamedTime:
    """The span of the latest changes of a thing or slot, asked of with no time named: from
    the start of the earliest version listed (``changed_in``'s), so that every listed
    version's window lies within it, up to now."""
    moments = [m for v in changes for m in (v.valid_at, v.invalid_at) if m is not None]
    return NamedTime(said="", label=ANY_TIME_LABEL, start=min(moments, default=now), end=now)


def _since(rest: str, now: datetime, tz: tzinfo) -> NamedTime | None:
    """The time named after "since": "since November", "since last week", "since Monday"."""
    day = _WEEKDAY.match(rest)
    if day is not None:
        today = now.astimezone(tz).date()
        back = (today.weekday() - _WEEKDAYS.index(day["day"][:3].lower()) - 1) % 7 + 1
        first = today - timedelta(days=back)  # the last one before today
        start = datetime(first.year, first.month, first.day, tzinfo=tz)
        return NamedTime(
            said=day[0], label=f"{day['day']} ({first.isoformat()})", start=start, end=now
        )
    # A month or a year alone reads as one after "in" ("since November" is "in November"'s start).
    return time_named(f"in {rest}", now, tz)


def this_span(question: str, now: datetime, tz: tzinfo) -> NamedTime | None:
    """The calendar day, week, month, quarter or year now running that the question names
    ("today", "this week"), from its start in the zone ``tz`` up to now; None if none.

    >>> from datetime import UTC
    >>> this_span("what changed this week?", datetime(2026, 12, 9, 12, tzinfo=UTC), UTC).label
    'this week (from 2026-12-07)'
    """
    this = _THIS.search(question)
    if this is None:
        return None
    today = now.astimezone(tz).date()
    first, label = _this(today, (this["unit"] or "day").lower())
    start = datetime(first.year, first.month, first.day, tzinfo=tz)
    return NamedTime(said=this[0], label=label, start=start, end=now)


def _this(today: date, unit: str) -> tuple[date, str]:
    """The first day of the calendar day, week (from Monday), month or year now running."""
    if unit == "day":
        return today, f"today ({today.isoformat()})"
    if unit == "week":
        monday = today - timedelta(days=today.weekday())
        return monday, f"this week (from {monday.isoformat()})"
    if unit == "month":
        return today.replace(day=1), f"this month (from {today.replace(day=1).isoformat()})"
    if unit == "quarter":
        first = date(today.year, 3 * ((today.month - 1) // 3) + 1, 1)
        return first, f"this quarter (from {first.isoformat()})"
    return today.replace(month=1, day=1), f"this year ({today.year})"


class Listed(NamedTuple):
    """The versions a change question names, oldest first, and how many more there were
    (``more``: the latest ``MAX_CHANGES`` are named, at most ``MAX_CHANGES_A_SLOT`` a slot)."""

    shown: list[FactVersion]
    more: int


def changed_in(
    versions: Sequence[FactVersion], span: NamedTime, now: datetime, firsts: bool = True
) -> list[FactVersion]:
    """The believed, tiered facts that began or ended during ``span``: the latest
    ``MAX_CHANGES`` (at most ``MAX_CHANGES_A_SLOT`` a slot), oldest change first
    (``changes_listed``, without the count of the rest)."""
    return changes_listed(versions, span, now, firsts).shown


def changes_listed(
    versions: Sequence[FactVersion], span: NamedTime, now: datetime, firsts: bool = True
) -> Listed:
    """The believed, tiered facts that began or ended during ``span``: the latest
    ``MAX_CHANGES`` (at most ``MAX_CHANGES_A_SLOT`` a slot), oldest change first, and the
    count of the others.

    A value told with no start stated began then only when it closed another value then:
    "we use PostgreSQL", told today with nothing before it, may have held for years. Nor
    does a slot's first value when ``firsts`` is False (the latest changes of a thing, at
    any time): CI on GitHub Actions since 2025 is how the slot began, not a change to it;
    Render from June, after Heroku ended in March, is one.
    """

    def within(moment: datetime | None) -> bool:
        # A span up to now takes now too: a branch switch seen as the question is asked.
        return (
            moment is not None
            and span.start <= moment <= now
            and (moment < span.end or span.end >= now)
        )

    def changed_at(v: FactVersion) -> tuple[datetime, int]:
        # Of a version that began and ended in the span, its end is the later change; at
        # one moment, the value that ended comes before the one that began (old, then new).
        if v.invalid_at is not None and within(v.invalid_at):
            return v.invalid_at, 0
        return v.valid_at, 1

    believed = [v for v in versions if v.expired_at is None]
    closed_at = {(v.slot, v.invalid_at) for v in believed if v.invalid_at is not None}
    first_start: dict[tuple[str, str], datetime] = {}
    for v in believed:
        first_start[v.slot] = min(first_start.get(v.slot, v.valid_at), v.valid_at)
    # A value told late, which a dated word outdated, came before that word's value:
    # "BigQuery since November 15" after "Snowflake" is a change, though its slot's first.
    outdated = {v.fact_id for v in versions if v.retired_reason is RetiredReason.OUTDATED}

    def began_then(v: FactVersion) -> bool:
        later = v.valid_at > first_start[v.slot] or v.supersedes in outdated
        stated = v.start_stated and (firsts or later)
        return within(v.valid_at) and (stated or (v.slot, v.valid_at) in closed_at)

    found = [
        v
        for v in believed
        if v.kind is Kind.FACT
        and shown_to_model(v.tier)
        and (began_then(v) or within(v.invalid_at))
    ]
    return _latest_a_few(found, changed_at)


def told_in(versions: Sequence[FactVersion], span: NamedTime, now: datetime) -> Listed:
    """The believed, tiered versions memory was told during ``span`` (record time): the
    latest ``MAX_CHANGES`` (at most ``MAX_CHANGES_A_SLOT`` a slot), the first told first.

    Worked example: told on Monday "database MySQL 8, from 2026-12-03", closing PostgreSQL:
    "what did you learn this week?" names MySQL 8 and the closed PostgreSQL, both recorded
    Monday (memory learned then that PostgreSQL ended); CI, told a year ago, is not named,
    nor a value told Monday and corrected away on Tuesday (memory no longer believes it).
    """
    told = [
        v
        for v in versions
        if v.expired_at is None
        and shown_to_model(v.tier)
        and span.start <= v.created_at <= now
        and (v.created_at < span.end or span.end >= now)
    ]
    return _latest_a_few(told, lambda v: (v.created_at, 0))


def _latest_a_few(
    found: Sequence[FactVersion], moment: Callable[[FactVersion], tuple[datetime, int]]
) -> Listed:
    """The latest ``MAX_CHANGES`` by ``moment``, at most ``MAX_CHANGES_A_SLOT`` a slot,
    returned oldest first, and the count of the rest.

    A change is never cut in half: a value that began at the moment its slot's last value
    ended is left out with it ("uv" alone, with poetry cut, does not say what it replaced).
    """
    latest_first = sorted(found, key=lambda v: (moment(v), v.version_id), reverse=True)
    kept: list[FactVersion] = []
    per_slot: dict[tuple[str, str], int] = {}
    for v in latest_first:
        per_slot[v.slot] = per_slot.get(v.slot, 0) + 1
        if per_slot[v.slot] <= MAX_CHANGES_A_SLOT:
            kept.append(v)
    shown, cut = kept[:MAX_CHANGES], kept[MAX_CHANGES:]
    oldest = shown[-1] if shown else None
    if oldest is not None and moment(oldest)[1] == 1:
        at = moment(oldest)[0]
        if any(v.slot == oldest.slot and moment(v) == (at, 0) for v in cut):
            shown = shown[:-1]
    return Listed(shown[::-1], len(found) - len(shown))


def changed_head(label: str, told: bool = False) -> str:
    """The line above the facts that changed in the time a question asks about, or that
    memory was ``told`` then ("what did you learn this week?").

    >>> changed_head("2026-12-01")
    'changed on 2026-12-01: began or ended then, oldest first (the question asks what changed):'
    """
    if told:
        return (
            f"told to memory {time_phrase(label)}, first told first (the question asks what "
            "memory learned; each line says when it held):"
        )
    if label == ANY_TIME_LABEL:
        return "the latest changes (no time named): began or ended then, oldest first:"
    return (
        f"changed {time_phrase(label)}: began or ended then, oldest first "
        "(the question asks what changed):"
    )


def nothing_changed_line(label: str, told: bool = False, about: Sequence[str] = ()) -> str:
    """Said when a question asks what changed and no fact memory believes began or ended
    then, or what memory was ``told`` and it was told nothing it still holds. ``about``:
    the things or slots the question asked of, when it named any; the line says so, or
    "nothing changed this week" would read as nothing changed anywhere.

    >>> nothing_changed_line("this week (from 2026-12-07)", about=["ledger · ci"])
    'no fact memory holds of ledger · ci began or ended this week (from 2026-12-07) (the question asks what changed)'
    """  # noqa: E501
    of = f" of {', '.join(about)}" if about else ""
    if told:
        return f"memory was told nothing{of} it still holds {time_phrase(label)}"
    if label == ANY_TIME_LABEL:
        of = of or " about it"
        return f"no fact memory holds{of} began or ended at any time (no time named)"
    return (
        f"no fact memory holds{of} began or ended {time_phrase(label)} "
        "(the question asks what changed)"
    )


def more_changes_line(count: int, label: str, told: bool = False) -> str:
    """Said after the changes a question asking what changed is told, when there were
    ``count`` more than it names (the latest ``MAX_CHANGES``, ``MAX_CHANGES_A_SLOT`` a slot):
    ten lines read as all of them in a week of captured branches and test runs.

    >>> more_changes_line(4, "this week (from 2026-12-07)")
    '… 4 more changes this week (from 2026-12-07), not listed: ask of one thing or slot, or read the timeline'
    """  # noqa: E501
    things = ("fact" if told else "change") + ("" if count == 1 else "s")
    if told:
        what = f"{count} more {things} told to memory {time_phrase(label)}"
    elif label == ANY_TIME_LABEL:
        what = f"{count} earlier {things}"
    else:
        what = f"{count} more {things} {time_phrase(label)}"
    return f"… {what}, not listed: ask of one thing or slot, or read the timeline"
