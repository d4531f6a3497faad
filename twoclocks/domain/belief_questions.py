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
what it thought before.

Pure: words in, a verdict or a line out.
"""

from __future__ import annotations

import re

from twoclocks.domain.named_times import time_phrase

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


def believed_then_head(label: str) -> str:
    """The line above the facts memory believed in the time the question names.

    >>> believed_then_head("yesterday (2026-12-09)")
    'memory believed yesterday (2026-12-09), read at its start and its end (the question asks what it believed then; a mark says what changed since):'
    """  # noqa: E501
    return (
        f"memory believed {_at(label)} (the question asks what it believed then; a mark says "
        "what changed since):"
    )


def none_believed_line(label: str) -> str:
    """Said when memory believed nothing about the question in that time.

    >>> none_believed_line("2026-12-01")
    'memory believed nothing found for the question on 2026-12-01, read at its start and its end; these hold now'
    """  # noqa: E501
    return f"memory believed nothing found for the question {_at(label)}; these hold now"


def _at(label: str) -> str:
    """When memory's belief is read: at a moment named ("at 10:00 (two hours ago)"), or at
    the start and the end of a span.

    >>> _at("at 10:00 (two hours ago)"), _at("2026-12-01")
    ('at 10:00 (two hours ago)', 'on 2026-12-01, read at its start and its end')
    """
    if label.startswith("at "):
        return label
    return f"{time_phrase(label)}, read at its start and its end"
