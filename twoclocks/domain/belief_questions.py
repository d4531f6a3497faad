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
from datetime import datetime

from twoclocks.domain.model import FactVersion, RetiredReason
from twoclocks.domain.named_times import time_phrase
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
