"""The words of one block line: times, values folded onto one line, slot labels, tiers.

Shared by the block's sections (``block``, ``coming_up``) and by the CLI and MCP
renderers, so a fact reads the same wherever a model or a person meets it. Pure.
"""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

from twoclocks.domain.answer_kinds import states_a_rule
from twoclocks.domain.model import FactVersion, Tier, on_one_line
from twoclocks.domain.slot_names import humanize_predicate
from twoclocks.domain.slot_verdict import name_used

BLOCK_MARKER = "[[CM-MEM]]"


def format_time(moment: datetime, tz: tzinfo) -> str:
    """A time in the account's zone, minutes only, offset in hours when whole.

    >>> from datetime import timezone
    >>> six_utc = datetime(2026, 1, 10, 6, 0, tzinfo=timezone.utc)
    >>> format_time(six_utc, timezone(timedelta(hours=3)))
    '2026-01-10 09:00 +03'
    >>> format_time(six_utc, timezone(timedelta(hours=-5.5)))
    '2026-01-10 00:30 -05:30'
    """
    local = moment.astimezone(tz)
    offset = local.utcoffset() or timedelta(0)
    sign = "-" if offset < timedelta(0) else "+"
    minutes = abs(int(offset.total_seconds())) // 60
    hours, mins = divmod(minutes, 60)
    zone = f"{sign}{hours:02d}" + (f":{mins:02d}" if mins else "")
    return f"{local:%Y-%m-%d %H:%M} {zone}"


def one_line(text: str) -> str:
    """A value folded onto one line, safe to print inside the block."""
    # A line break inside a value would forge a line of its own (a fake rule, a
    # fake "result:"), so every value is folded onto its fact's single line; a control
    # or bidi character (in a row stored before the one-line rule) shows as an escape,
    # and the block's own marker cannot open a second block inside a value.
    folded = on_one_line(" ".join(text.split()))
    return folded.replace(BLOCK_MARKER, "(CM-MEM)")


def slot_label(v: FactVersion) -> str:
    """A fact's slot in words, with the name it was written under when that says more."""
    # ("timeout seconds (written as timeout ms): 45000").
    used = name_used(v.predicate, v.written_as)
    label = one_line(humanize_predicate(v.predicate))
    return f"{label} (written as {one_line(used)})" if used else label


RULE_WORDS_ALONE = 3
"""Words from which a rule's value reads as a rule on its own ("squash before merging");
two do when they state one ("no headings")."""


def rule_line(v: FactVersion) -> str:
    """A rule the person set, in their words: alone when they say a rule, else with its slot.

    "never merge on Friday" and "no headings" say the rule by themselves, so they are
    quoted alone. "09:30" (or "never") written as a rule under ``standup_time``
    (``force_push``) would read as "- 09:30", a rule about nothing, so it keeps its subject
    and slot, as a fact's line does: "- team · standup time: 09:30".
    """
    value = one_line(v.object)
    words = len(value.split())
    if words >= RULE_WORDS_ALONE or (words > 1 and states_a_rule(value)):
        return f"- {value}"
    return f"- {one_line(v.subject)} · {slot_label(v)}: {value}"


def tier_note(tier: Tier | None) -> str:
    """How a line names a fact's tier to a model; an inferred fact says it is a guess."""
    if tier is Tier.INFERRED:
        return "inferred — a guess, verify"
    return tier.value if tier else ""


def fact_line(
    v: FactVersion, since: datetime, tz: tzinfo, begun: str = "since", elsewhere: bool = False
) -> str:
    """One fact's line: subject, slot, value, when it began (and ends), tier, and its
    workspace when that is ``elsewhere`` (another workspace than the session's)."""
    # A current value with a scheduled end says so: "since" alone would read as open-ended.
    until = f" until {format_time(v.invalid_at, tz)}" if v.invalid_at is not None else ""
    place = f", from {one_line(v.workspace)}" if elsewhere and v.workspace else ""
    return (
        f"- {one_line(v.subject)} · {slot_label(v)}: {one_line(v.object)}"
        f" ({begun} {format_time(since, tz)}{until}, {tier_note(v.tier)}{place})"
    )
