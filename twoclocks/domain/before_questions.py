"""A question asking what came before a value, and the time that names.

"What chat did we use before Discord?" answered with Discord alone got the one value it
did not ask for. The value is read off the question ("before Discord", "prior to Kafka",
"before we moved to Fly.io"), or, when it names none ("what was the port before?", "our
previous database?"), it is the first row's; the time before it runs from the start of
the believed value of its slot that ended last by then (``time_before``), and what held
in it is named as for any past time (``named_times.held_then``).

Pure: words and versions in, a time out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import UTC, datetime

from twoclocks.domain.answer_kinds import names_values_to_check
from twoclocks.domain.model import FactVersion, RetiredReason
from twoclocks.domain.named_times import NamedTime, held_then, speaks_of_the_past

_BEFORE = re.compile(
    r"\b(?:before|prior\s+to|previous\s+to|until\s+we\s+(?:moved|switched|migrated)\s+to)"
    r"\s+(?:(?:we\s+)?(?:moved|moving|switched|switching|migrated|migrating)\s+to\s+)?"
    r"(?P<what>[^,;?!]+)",
    re.IGNORECASE,
)
_WORDS_AFTER_BEFORE = 5
"""How many words after "before" may name the value: "before Discord", "before we moved to
the Postgres cluster", not the rest of "before I open a PR on the firmware, which…"."""


def what_came_before(question: str) -> str | None:
    """The words that name what the question asks came before ("before Discord?"), if any.

    >>> what_came_before("what chat did we use before switching to Discord?")
    'Discord'
    >>> what_came_before("which chat do we use?") is None
    True
    """
    match = _BEFORE.search(question)
    if match is None:
        return None
    return " ".join(match["what"].split()[:_WORDS_AFTER_BEFORE])


_BEFORE_NOW = re.compile(
    r"\bbefore\W*$|\b(?:previously|formerly|beforehand)\b"
    # "which test failed earlier?", "what broke last time?": before now, said at the end.
    r"|\b(?:earlier(?:\s+on)?|last\s+time)\W*$"
    r"|\b(?:the|our|its|their|my)\s+(?:old|previous|former)\s+\w",
    re.IGNORECASE,
)


def asks_what_came_before(question: str) -> bool:
    """Whether a question asks for a slot's value before the one it holds now, naming no
    value ("what was the port before?", "the previous database?"): the first row's slot.

    >>> asks_what_came_before("what was max db connections before?")
    True
    >>> asks_what_came_before("which chat did we use previously")
    True
    >>> asks_what_came_before("which test failed earlier?")
    True
    >>> asks_what_came_before("what do I run before I open a PR?")
    False
    >>> asks_what_came_before("have we seen this error before?")  # a yes or a no
    False
    """
    return _BEFORE_NOW.search(question) is not None and not names_values_to_check(question)


BEFORE_ANY_FACT = datetime(1, 1, 1, tzinfo=UTC)
"""Before any fact memory holds: the start of the time before a slot's first value, and
of a change question's read of every change of a thing (``service.changes``)."""


def first_value_line(said: str) -> str:
    """Said when a question asks what came before a value (``said``: "before Bea") that is
    the first its slot holds: "who owned checkout before?" answered with Bea alone read Bea
    as the former owner.

    >>> first_value_line("before Bea")
    'nothing memory holds came before Bea: Bea is the first value memory holds of its slot'
    """
    value = said.removeprefix("before ")
    return f"nothing memory holds came {said}: {value} is the first value memory holds of its slot"


def time_before(value: FactVersion, versions: Sequence[FactVersion]) -> NamedTime | None:
    """The time a question names as "before ``value``": from the start of the believed
    value of its slot that ended last by the time ``value`` began, up to ``value``'s start.

    Worked example: Slack [Jan 10, Jul 1), Discord [Jul 1, ∞); "what chat did we use before
    Discord?" names [Jan 10, Jul 1), in which Slack held (``held_then`` names it). None
    when nothing believed ended by then: Discord was the slot's first value.
    """
    earlier = [
        v
        for v in versions
        if v.expired_at is None
        and v.fact_id != value.fact_id
        and v.invalid_at is not None
        and v.invalid_at <= value.valid_at
    ]
    if not earlier:
        return None
    last = max(earlier, key=lambda v: (v.invalid_at, v.valid_at))
    return _time_before(value, last.valid_at)


def _time_before(value: FactVersion, start: datetime) -> NamedTime:
    return NamedTime(
        said=f"before {value.object}",
        label=f"the time before {value.object}",
        start=start,
        end=value.valid_at,
    )


def held_before(
    value: FactVersion, versions: Sequence[FactVersion], now: datetime
) -> tuple[NamedTime, list[FactVersion]]:
    """The time before ``value`` (of its slot's ``versions``, read whole) and what memory
    holds of it: what held then and ended (``time_before``, ``held_then``), or, before the
    slot's first value, the time from ``BEFORE_ANY_FACT`` with nothing in it but the values
    its stated start outdated (``told_before``): "who owned checkout before?" answered
    with Bea alone read Bea as the former owner."""
    named = time_before(value, versions)
    if named is None:
        return _time_before(value, BEFORE_ANY_FACT), told_before(value, versions)
    return named, [v for v in held_then(versions, named, now) if v.fact_id != value.fact_id]


def told_before(value: FactVersion, versions: Sequence[FactVersion]) -> list[FactVersion]:
    """The values of ``value``'s slot that its stated start outdated: told with no start,
    they are what memory was told came before it, though not since when.

    Worked example: "warehouse Snowflake" told on December 7 with no start, then "BigQuery
    since November 15": Snowflake is outdated (it had changed before it was told) and
    BigQuery is its slot's first believed value, so ``time_before`` finds nothing ended
    before it. "What was the warehouse before BigQuery?" is Snowflake, as the block's
    "Snowflake -> BigQuery" says, not "nothing came before".
    """
    return [
        v
        for v in versions
        if v.fact_id == value.supersedes and v.retired_reason is RetiredReason.OUTDATED
    ]


def outdated_before(versions: Sequence[FactVersion], named: NamedTime) -> list[FactVersion]:
    """Of one slot's ``versions``, the values a believed value's stated start outdated, when
    that value began after ``named`` began: told late with no start, memory was told they
    came before it, not since when, so they may have held in ``named``.

    Worked example: "build tool Expo" told on December 7 with no start, then "React Native
    CLI since November 30": Expo is outdated, and the block says "Expo -> React Native CLI
    (changed 2026-11-30)". "What build tool did we use two weeks ago?" (the week of
    November 23) finds nothing that held then and ended: Expo is what may have, not
    nothing. Asked of the week of November 30, React Native CLI had begun: Expo is not named.
    """
    began_after = [w for w in versions if w.expired_at is None and w.valid_at > named.start]
    # Each once: a value and its closed copy both name what they outdated.
    found = {v.version_id: v for w in began_after for v in told_before(w, versions)}
    return list(found.values())


_EVER = re.compile(r"\b(?:ever|previously|in\s+the\s+past|at\s+some\s+point)\b", re.IGNORECASE)


def asks_whether_it_held(text: str) -> bool:
    """Whether a question asks whether a value held at all, not whether it holds now.

    >>> asks_whether_it_held("did we ever use SQLite?")
    True
    >>> asks_whether_it_held("have we used Heroku in the past?")
    True
    >>> asks_whether_it_held("is the docs site still on Jekyll?")
    False
    """
    return speaks_of_the_past(text) or _EVER.search(text) is not None
