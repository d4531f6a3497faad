"""The first-turn block's "Recent changes": values that ended in the last 48 h, old -> new,
and values found wrong in the last 48 h.

Which ending gets a line, what replaced it and how the line reads (DESIGN.md §6); the
block (``domain.block``) decides where the lines go and fits them in the budget. A slot
that changed three times in two days is one line ("Heroku -> Render -> Fly.io").

A correction ends nothing in the world, yet a session told the wrong value yesterday
must hear that it was wrong: the current value alone reads like one more fact, and work
built on the wrong one goes unquestioned. So a fact corrected in the last 48 h gets a
line too, "Postgres 15 -> Postgres 16 (corrected …: Postgres 15 was never true)". Pure.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta, tzinfo

from twoclocks.domain.block_lines import format_time, one_line, slot_label
from twoclocks.domain.model import FactVersion, RetiredReason, Tier
from twoclocks.domain.restatement import is_restatement
from twoclocks.domain.slot_names import humanize_predicate
from twoclocks.domain.slot_verdict import name_used
from twoclocks.domain.succession import replacements, successor
from twoclocks.domain.temporal import is_current
from twoclocks.domain.trust import shown_to_model

MAX_RECENT_CHANGES = 3
"""Change lines the block holds at most."""
MAX_EARLIER_NAMED = 2
"""A slot's earlier values in the 48 h before its last change, named on its change line."""
RECENT_WINDOW = timedelta(hours=48)


def is_recent_ending(v: FactVersion, now: datetime) -> bool:
    """True for a version still believed whose world-time end fell in the last 48 h."""
    return (
        v.expired_at is None
        and v.invalid_at is not None
        and v.invalid_at <= now
        and now - v.invalid_at <= RECENT_WINDOW
    )


def unreplaced_endings(rows: Sequence[FactVersion], now: datetime) -> list[FactVersion]:
    """Versions that ended in the last 48 h with no successor among ``rows``, newest end first.

    The block would say these ``ended``; the caller checks each slot outside the
    workspace first (``replaced_elsewhere``), since a value can be replaced from a
    place this read does not see, and then "ended" would be false.
    """
    found = [
        v
        for v in rows
        if shown_to_model(v.tier) and is_recent_ending(v, now) and not replacements(v, rows)
    ]
    # Newest end first, as the block lists them.
    return sorted(found, key=lambda v: (-(v.invalid_at or now).timestamp(), v.version_id))


def recent_change(
    old: FactVersion, rows: Sequence[FactVersion], replaced_elsewhere: Collection[str]
) -> tuple[FactVersion | None] | None:
    """What the block says about a recent ending: (successor,), (None,) for ended, or None.

    None means the line is left out: the successor is not shown (no tier, another
    workspace) or says the same value again, so no line could be both true and useful.
    """
    if not replacements(old, rows):
        return None if old.version_id in replaced_elsewhere else (None,)
    new = successor(old, rows)
    if new is None or not shown_to_model(new.tier):
        return None
    if new.predicate == old.predicate and is_restatement(old.object, new.object):
        return None
    return (new,)


def earlier_in_window(
    old: FactVersion, closed: Sequence[FactVersion], rows: Sequence[FactVersion], now: datetime
) -> list[FactVersion]:
    """The values ``old`` itself replaced in the last 48 h, oldest first, each by the next.

    A slot that changed three times in a day reads as one line, "Heroku -> Render ->
    Fly.io": three lines for it would leave no room for any other slot's change.
    """
    same_slot = [
        p for p in closed
        if p.version_id != old.version_id and is_recent_ending(p, now)
        and p.slot == old.slot and p.workspace == old.workspace
    ]  # fmt: skip
    # Who replaced whom, asked once per version: a slot closed at every commit has
    # dozens of endings in 48 h, and asking again at each link grew with their square.
    replaced_by: dict[str, list[FactVersion]] = {}
    for p in same_slot:
        if (s := successor(p, rows)) is not None:
            replaced_by.setdefault(s.version_id, []).append(p)
    chain = [old]
    while before := [
        p for p in replaced_by.get(chain[0].version_id, [])
        if p not in chain and not is_restatement(p.object, chain[0].object)
    ]:  # fmt: skip
        chain.insert(0, min(before, key=lambda p: (p.valid_at, p.version_id)))
    return chain[:-1]


def change_line(
    old: FactVersion,
    new: FactVersion | None,
    now: datetime,
    tz: tzinfo,
    earlier: Sequence[FactVersion] = (),
) -> str:
    """The "Recent changes" line of ``old``: ``a -> b (changed …)``, or ended with nothing.

    A new value told with no start (``start_stated`` false) began when it was told or
    before: ``Heroku -> Fly.io (changed by 2026-03-02 11:00 +00)``.
    """
    assert old.invalid_at is not None
    if earlier:
        # Each value of a chain was written under its own name: the head names the slot
        # alone and a value that leans on its name says so ("Netlify -> Vercel (as deployed
        # to) -> AWS"); a head "hosting (written as deployed to)" read as true of all three.
        named = earlier[-MAX_EARLIER_NAMED:]
        cut = "… -> " if len(earlier) > len(named) else ""
        label = one_line(humanize_predicate(old.predicate))
        head = f"- {one_line(old.subject)} · {label}: {cut}"
        head += "".join(f"{_value_as_written(v)} -> " for v in named)
        before = _value_as_written(old)
    else:
        label = slot_label(old)
        head, before = f"- {one_line(old.subject)} · {label}: ", one_line(old.object)
    when = format_time(old.invalid_at, tz)
    if new is None:
        return f"{head}{before} (ended {when}, nothing replaced it)"
    value, written = one_line(new.object), ""
    if new.predicate != old.predicate:
        value = f"{slot_label(new)}: {value}"
    elif (used := name_used(new.predicate, new.written_as)) and slot_label(new) != label:
        # The slot is named once, at the head; repeating it before the new value read as
        # a second fact ("Render -> deploy target (written as hosting): Fly.io").
        written = f"written as {one_line(used)}, "
    guess = ", new value inferred — a guess" if new.tier is Tier.INFERRED else ""
    # With its own change cut from the block, "a -> b" would read as "b is current".
    gone = ", new value no longer current" if not is_current(new, now) else ""
    # A new value told with no start changed at that time or before: "by" says so.
    told = not new.start_stated and new.valid_at == old.invalid_at
    return (
        f"{head}{before} -> {value} ({written}changed {'by ' if told else ''}{when}{guess}{gone})"
    )


def _value_as_written(v: FactVersion) -> str:
    """A value of a chain, with the name it was written under when that says more."""
    used = name_used(v.predicate, v.written_as)
    return f"{one_line(v.object)} (as {one_line(used)})" if used else one_line(v.object)


def correction_successor(old: FactVersion, rows: Sequence[FactVersion]) -> FactVersion | None:
    """What holds instead of a corrected version: the value written to replace it, or the
    value the correction believed again; None when neither is among ``rows``.

    A replacement names it (``supersedes``); a value the mistaken write had closed is
    believed again from the correction's own record instant, in the same slot and place.
    """
    believed = [v for v in rows if v.expired_at is None and v.fact_id != old.fact_id]
    found = [v for v in believed if v.supersedes == old.fact_id] or [
        v
        for v in believed
        if v.created_at == old.expired_at and v.slot == old.slot and v.workspace == old.workspace
    ]
    return min(found, key=lambda v: (v.valid_at, v.version_id)) if found else None


def more_changes_line(count: int) -> str:
    """Said after the recent changes shown when ``count`` more happened in the window: a
    model told three of five would take them for all (the database replaced, unsaid).

    >>> more_changes_line(2)
    '- … 2 more changes in the last 48 h: call recall with "what changed in the past 2 days?"'
    """
    changes = "change" if count == 1 else "changes"
    hours = RECENT_WINDOW // timedelta(hours=1)
    return (
        f"- … {count} more {changes} in the last {hours} h: call recall with "
        f'"what changed in the past {hours // 24} days?"'
    )


def correction_line(old: FactVersion, new: FactVersion | None, now: datetime, tz: tzinfo) -> str:
    """The "Recent changes" line of a corrected fact: ``a -> b (corrected …: a was never true)``.

    For example, database Postgres 15 corrected on March 2 with Postgres 16 reads
    ``- shop · database: Postgres 15 -> Postgres 16 (corrected 2026-03-02 09:00 +00: Postgres
    15 was never true)``; with nothing in its place, ``- shop · database: Postgres 15
    (corrected 2026-03-02 09:00 +00: never true)``. A value whose start nobody stated,
    overruled by a word that dates the change before it was told (``outdated``,
    ``domain.write_plan``), was not wrong, only told late: Heroku told at 09:20, then
    "Fly.io since 00:00" told at 11:00, reads ``- api · deploy target: Heroku -> Fly.io
    (changed 2026-12-06 00:00 +00, told 2026-12-06 11:00 +00)``.
    """
    assert old.expired_at is not None
    label = slot_label(old)
    before = one_line(old.object)
    when = format_time(old.expired_at, tz)
    head = f"- {one_line(old.subject)} · {label}: {before}"
    if new is None or not shown_to_model(new.tier):
        if old.retired_reason is RetiredReason.OUTDATED:
            return f"{head} (outdated when told {when}: it had changed before)"
        return f"{head} (corrected {when}: never true)"
    value = one_line(new.object)
    if new.predicate != old.predicate:
        value = f"{slot_label(new)}: {value}"
    guess = ", new value inferred — a guess" if new.tier is Tier.INFERRED else ""
    gone = ", new value no longer current" if not is_current(new, now) else ""
    if old.retired_reason is RetiredReason.OUTDATED:
        # Its start was never given, only when it was told: it held until the change the
        # later word dates, so the line tells a change, told late, not a mistake.
        changed = format_time(new.valid_at, tz)
        return f"{head} -> {value} (changed {changed}, told {when}{guess}{gone})"
    return f"{head} -> {value} (corrected {when}: {before} was never true{guess}{gone})"
