"""How the CLI lays out a recall's answer: what comes first, under which head.

A recall's rows hold now; what held at a time the question names, an ended value it
names, what changed in a time, and what starts later are said beside them, each under a
line saying what it is. Whichever answers the question comes right after the result line,
or a person (and a model) would take the first current row for the answer.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from twoclocks.domain.before_questions import first_value_line
from twoclocks.domain.belief_questions import believed_then_head, none_believed_line
from twoclocks.domain.change_questions import (
    changed_head,
    more_changes_line,
    nothing_changed_line,
    other_changes_line,
)
from twoclocks.domain.corrections_made import corrected_head, none_corrected_line
from twoclocks.domain.fact_text import ENDED_SLOT_HEAD, ended_values_head
from twoclocks.domain.named_times import (
    NamedTime,
    held_then_head,
    none_held_line,
    still_held_head,
)
from twoclocks.domain.times_to_come import (
    NOTHING_MATCHES_NOW,
    holds_during,
    more_to_come_line,
    none_to_come_line,
    nothing_to_come_line,
    to_come_head,
)

LATER_HEAD = "starts later (not true yet):"
LATER_FIRST_HEAD = "starts later (not true yet), the best match for the question:"
NOW_AFTER_HEAD = "holds now, each a weaker match:"
"""The line above the facts a read names that start after now (recall, facts)."""


def later_lines(current: list[str], later: list[str], first: bool = False) -> list[str]:
    """Current facts' lines, then the ones still to start under their own head.

    "result: empty" alone would read as "no freeze" when one starts on the 20th. ``first``
    (a recall's ``later_first``): the plan matches the question best, so it comes right
    after the result line and the current rows follow as weaker matches.
    """
    if not later:
        return current
    if first and len(current) > 1:
        return [current[0], LATER_FIRST_HEAD, *later, NOW_AFTER_HEAD, *current[1:]]
    return [*current, LATER_HEAD if current else f"{NOTHING_MATCHES_NOW}; {LATER_HEAD}", *later]


def to_come_lines(
    current: list[str], label: str, during: list[str], rest: list[str], first: bool, more: int = 0
) -> list[str]:
    """A recall's lines for a question naming a time to come ("who is on call next week?").

    ``during``: the facts starting later that hold then, under a head naming the time;
    right after the result line when ``first`` (a recall's ``later_first``: Ravi, on call
    from Monday, before Dana's row, on call now). ``rest``: the other facts starting later.
    With none holding then, a line says so: the rows hold now, and are all memory knows.
    ``more``: how many more start then than ``during`` lists (``starting_later_more``).
    """
    after = [LATER_HEAD, *rest] if rest else []
    during = [*during, more_to_come_line(more, label)] if more and during else during
    if not during:
        if len(current) <= 1:
            return [*current, nothing_to_come_line(label), *after]
        return [current[0], none_to_come_line(label), *current[1:], *after]
    head = to_come_head(label, len(during) > 1)
    if len(current) <= 1:
        return [*current, f"{NOTHING_MATCHES_NOW}; {head}", *during, *after]
    if first:
        return [current[0], head, *during, NOW_AFTER_THEN_HEAD, *current[1:], *after]
    return [*current, head, *during, *after]


def holds_in(fact: dict[str, Any], span: dict[str, Any]) -> bool:
    """Whether a fact of a recall's JSON holds in a time it names (``time_to_come``)."""
    named = NamedTime(
        said=span["said"],
        label=span["label"],
        start=datetime.fromisoformat(span["since"]),
        end=datetime.fromisoformat(span["until"]),
    )
    ends = fact.get("invalid_at")
    return holds_during(
        named, datetime.fromisoformat(fact["valid_at"]), ends and datetime.fromisoformat(ends)
    )


NOW_AFTER_THEN_HEAD = "holds now:"
"""The line above a recall's current facts when what held at the time asked about, or an
ended value the question names, comes first."""

NOW_OTHER_SLOTS_HEAD = "holds now, in other slots:"
"""The line above a recall's current facts when an ended slot the question names comes first."""


def _first(lines: list[str], head: str, first: list[str], held_now: bool, now: str) -> list[str]:
    """``first`` under ``head`` right after the result line, the current facts after it
    under ``now``; after "nothing holds now" when there are none. With ``held_now`` and no
    line after the result's, every current fact is among ``first`` (what memory believed
    today and still does): ``now`` heads nothing."""
    if not held_now:
        return [*lines, f"nothing holds now; {head}", *first]
    if len(lines) == 1:
        return [lines[0], head, *first]
    return [lines[0], head, *first, now, *lines[1:]]


def then_lines(
    lines: list[str],
    label: str | None,
    then: list[str],
    held_now: bool,
    still: Sequence[str] = (),
    events: bool = False,
    believed: bool = False,
    first_value: str | None = None,
) -> list[str]:
    """A recall's lines, with the facts that held at the time the question names first.

    "What warehouse did we use in March?" answered with today's warehouse alone would read
    as March's, and read first, today's would still be taken for the answer: March's
    comes right after the result line, today's after it under their own head. ``still``:
    the facts of the same slots that held then and hold now (Ana, a maintainer in April
    and now, beside Bo, who left), said next, or Bo would read as April's whole answer;
    ``lines`` then leaves them out. ``held_now``: ``lines`` lists current facts after its
    first. ``events``: ``then`` are events that happened in that time (November's incidents).
    ``believed``: ``then`` is what memory believed at its start and its end (a recall's
    ``then_believed``: "what did you think our host was on Tuesday?"). ``first_value``: the
    question asked what came before a value its slot held first ("before Bea"), said
    right after the first row.
    """
    if label is None:
        return lines
    if first_value is not None and not then:
        return [*lines[:2], first_value_line(first_value), *lines[2:]]
    if believed:
        if not then:
            return [lines[0], none_believed_line(label), *lines[1:]] if held_now else lines
        return _first(lines, believed_then_head(label), then, held_now, NOW_AFTER_THEN_HEAD)
    if not then and not still:
        # Said first: after every row, "what warehouse did we use in October?" read
        # BigQuery, from November 15, as October's.
        return [lines[0], none_held_line(label), *lines[1:]] if held_now else lines
    if then:
        head, first = held_then_head(label, events), [*then]
        first += [still_held_head(label), *still] if still else []
    else:  # nothing ended: what held then and holds still is the answer
        head, first = still_held_head(label, after_ended=False), [*still]
    if still and not held_now:
        return [lines[0], head, *first, *lines[1:]]
    return _first(lines, head, first, held_now, NOW_AFTER_THEN_HEAD)


NOW_MATCHING_HEAD = "holds now, matching the question's words:"
"""The line above a recall's current facts when a question asks what changed."""


def changed_lines(
    lines: list[str],
    label: str,
    changed: list[str],
    held_now: bool,
    told: bool = False,
    corrected: Sequence[str] = (),
    corrections: bool = False,
    about: Sequence[str] = (),
    more: int = 0,
) -> list[str]:
    """A recall's lines for a question asking what changed: the facts that began or ended
    in the time it asks about first (or that memory was ``told`` then), or a word that none
    did, then the facts found wrong then (``corrected``, each followed by what holds
    instead), then the rows that hold now and match its words. "result: empty" alone would
    read as "nothing changed" by chance. ``corrections``: the question asks what was
    corrected ("what did we correct today?"), and the corrections, or a word that there
    were none, come first alone. ``about``: the things or slots it asked of, if any;
    ``more``: the changes the list leaves out, counted after it."""
    wrong = [corrected_head(label), *corrected] if corrected else []
    if corrections:
        first = wrong or [none_corrected_line(label)]
    else:
        first = (
            [
                changed_head(label, told),
                *changed,
                *([more_changes_line(more, label, told)] if more else []),
            ]
            if changed
            else [
                nothing_changed_line(label, told, about),
                *([other_changes_line(more, label)] if more else []),
            ]
        )
        first += wrong
    return [lines[0], *first, *([NOW_MATCHING_HEAD, *lines[1:]] if held_now else [])]


def ended_lines(
    lines: list[str],
    ended: list[str],
    ended_values: list[str],
    held_now: bool,
    reasons: Sequence[str | None] = (),
) -> list[str]:
    """A recall's lines, with the last value of an ended slot the question names, and the
    ended values it names of slots holding others, first.

    "What was our release cadence?" after it ended: the rows about other slots (the sprint
    length, "two weeks") would be taken for the cadence. "Is Bo still a maintainer?": the
    maintainers now do not say that Bo's value ended, or when. ``held_now`` as ``then_lines``;
    ``reasons``: why each ended value is history (one found wrong is not "ended").
    """
    sections = [
        *([ENDED_SLOT_HEAD, *ended] if ended else []),
        *([ended_values_head(reasons), *ended_values] if ended_values else []),
    ]
    if not sections:
        return lines
    now = NOW_AFTER_THEN_HEAD if ended_values else NOW_OTHER_SLOTS_HEAD
    return _first(lines, sections[0], sections[1:], held_now, now)
