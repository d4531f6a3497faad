"""Corrections memory made in a time: a question that asks for them, and how they are told.

A correction changes what memory believes, not the world: GitHub Actions corrected to
Buildkite never held, so "what changed today?" (world time) names neither, and "what did we
correct today?" found no fact matching its words. Yet the first-turn block tells it under
"Recent changes", and a person who asks wants the answer the block gave. So a question
asking what changed, what memory was told, or what was corrected in a time also gets the
facts found wrong in that time (record time), each followed by what holds instead.

Worked example (now 2026-12-07 12:00, account zone UTC): at 04:13 ci "GitHub Actions" was
corrected to "Buildkite", and at 04:20 rust version "1.82" to "1.83". "What did we correct
today?" asks of [2026-12-07 00:00, now): GitHub Actions [corrected], Buildkite, 1.82
[corrected], 1.83, oldest correction first. "What changed today?" names them after the
values that began or ended today. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from twoclocks.domain.model import FactVersion
from twoclocks.domain.named_times import time_phrase

MAX_CORRECTIONS = 5
"""Corrections told at most, the latest: each takes two lines, the wrong and the instead."""

_ASKS_WHAT_WAS_CORRECTED = re.compile(
    r"\bwhat(?:\s+else)?\s+(?:did|have|has)\s+(?:we|you|i|they|memory|twoclocks)\s+"
    r"(?:just\s+)?(?:correct|corrected|get\s+wrong|got\s+wrong|gotten\s+wrong)\b"
    r"|\bwhat(?:'s|\s+was|\s+were|\s+is|\s+has\s+been|\s+have\s+been)\s+(?:been\s+)?"
    r"(?:corrected|wrong)\b"
    r"|\b(?:any|which|what|recent|latest)\s+corrections?\b"
    r"|\bwhat\s+(?:facts?|values?)\s+(?:was|were|turned\s+out)\s+(?:to\s+be\s+)?wrong\b",
    re.IGNORECASE,
)
# "Fix" is left out on purpose: "what did we fix this morning?" asks of the work (a bug, a
# flaky test), which memory keeps as facts and events, not of memory's own mistakes.


def asks_what_was_corrected(question: str) -> bool:
    """Whether a question asks which facts memory found wrong (corrected) in a time.

    >>> asks_what_was_corrected("what did we correct today?")
    True
    >>> asks_what_was_corrected("any corrections this week?")
    True
    >>> asks_what_was_corrected("what was wrong yesterday?")
    True
    >>> asks_what_was_corrected("what did we fix this morning?")
    False
    >>> asks_what_was_corrected("who corrected the migration?")
    False
    """
    return _ASKS_WHAT_WAS_CORRECTED.search(question) is not None


def corrections_told(
    corrected: Sequence[FactVersion],
    instead_of: Callable[[FactVersion], FactVersion | None],
) -> list[FactVersion]:
    """The latest ``MAX_CORRECTIONS`` of ``corrected`` (one version each, by when they were
    found wrong), oldest first, each followed by what holds instead (``instead_of``) when
    memory holds one: ``[GitHub Actions, Buildkite, 1.82, 1.83]``. A value corrected twice
    in the time (Drone to CircleCI to Buildkite) is listed once, where it first appears."""
    found = {v.fact_id: v for v in corrected if v.expired_at is not None}
    latest = sorted(found.values(), key=lambda v: (v.expired_at, v.version_id))[-MAX_CORRECTIONS:]
    told: dict[str, FactVersion] = {}
    for wrong in latest:
        told.setdefault(wrong.version_id, wrong)
        if (instead := instead_of(wrong)) is not None:
            told.setdefault(instead.version_id, instead)
    return list(told.values())


def corrected_head(label: str) -> str:
    """The line above the corrections made in the time a question names.

    >>> corrected_head("today (2026-12-07)")
    "corrected today (2026-12-07): found wrong then, each followed by what holds instead (memory's belief changed, not the world):"
    """  # noqa: E501
    return (
        f"corrected {time_phrase(label)}: found wrong then, each followed by what holds "
        "instead (memory's belief changed, not the world):"
    )


def none_corrected_line(label: str) -> str:
    """Said when a question asks what was corrected and memory corrected nothing then.

    >>> none_corrected_line("this week (from 2026-12-07)")
    'memory corrected no fact this week (from 2026-12-07) (the question asks what was corrected)'
    """
    return f"memory corrected no fact {time_phrase(label)} (the question asks what was corrected)"
