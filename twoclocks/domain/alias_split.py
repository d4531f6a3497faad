"""Undoing a slot-drift merge: an alias goes back to being its own slot (issue 11 point 2).

When drift files ``ci_platform = Buildkite`` under the existing slot ``ci_provider``,
the Buildkite version records ``written_as = "ci_platform"`` and, being a new value of a
one-value slot, closes CircleCI. Splitting the alias says the merge was a mistake:

* r1 ``ci_provider`` CircleCI [Jan, ∞); r2 ``ci_platform`` Buildkite at Mar, merged:
  CircleCI is closed to [Jan, Mar), Buildkite is [Mar, ∞) under ``ci_provider``.
* r3 split ``ci_platform``: Buildkite's version is expired (``rewritten``: the value
  still holds, it was only filed under the wrong slot) and written again under
  ``ci_platform`` with its own valid window; CircleCI's closed copy is expired
  (``corrected``: that end was never true) and CircleCI [Jan, ∞) is believed again.
* Now both are current, each in its slot; "as believed at r2" still says CircleCI was
  closed and Buildkite was ``ci_provider``: nothing is rewritten, only believed or not.

A version of either side keeps an end the other side did not cause (a ``revise
ended``, a later value of its own slot); only ends that fall on a start of the other
side, and were made by a write, are undone (``domain.correction.natural_end``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from twoclocks.domain.correction import believed_again, natural_end, places_overlap
from twoclocks.domain.model import Cardinality, Expiry, FactVersion, Plan, RetiredReason


def _end_without(
    version: FactVersion,
    own: Sequence[FactVersion],
    other_starts: set[datetime],
    history: Sequence[FactVersion],
) -> datetime | None:
    """The end ``version`` has once the other side's values no longer cut it."""
    if (
        version.invalid_at is None
        or version.cardinality is not Cardinality.ONE
        or version.invalid_at not in other_starts
    ):
        return version.invalid_at
    later = [
        v.valid_at
        for v in own
        if v.fact_id != version.fact_id
        and v.valid_at > version.valid_at
        and places_overlap(v, version)
    ]
    ends = [e for e in [*later, natural_end(version, history)] if e is not None]
    return min(ends) if ends else None


def _folded(alias: str, history: Sequence[FactVersion]) -> list[FactVersion]:
    """What a merge of ``alias`` folded into a same value of the other slot
    (``domain.slot_merge``): the last version of each such fact, to believe again.

    A folded fact has no believed version and its last was expired ``rewritten``: a
    value of the alias's own slot name, or one expired at the instant the merge wrote
    the alias's values under the slot.
    """
    merged_at = {v.created_at for v in history if v.written_as == alias}
    believed = {v.fact_id for v in history if v.expired_at is None}
    last: dict[str, FactVersion] = {}
    for v in sorted(history, key=lambda v: v.expired_at or v.created_at):
        last[v.fact_id] = v
    return [
        v
        for fact_id, v in last.items()
        if fact_id not in believed
        and v.retired_reason is RetiredReason.REWRITTEN
        and (v.predicate == alias or v.expired_at in merged_at)
    ]


_LENT = ("tier", "writer", "place", "workspace", "fact_class", "category")
"""What a folded value may have raised in the fact it was folded into
(``domain.write_plan.vouches_more``), and a split takes back."""


def _lent(
    folded: Sequence[FactVersion], history: Sequence[FactVersion]
) -> dict[str, dict[str, object]]:
    """What the merge's folds lent each fact they were folded into: fact id -> fields back.

    An agent's guess "owner Aiko" (inferred) with the person's "steward Aiko" folded into
    it became asserted at the merge; split, the person's word goes back to the steward
    fact, and the owner fact is the agent's guess again. Only a version the merge itself
    wrote is taken back: one raised again later, by a restatement, keeps what it was given.
    """
    merged_at = {v.expired_at for v in folded}
    lent: dict[str, dict[str, object]] = {}
    for v in history:
        if v.expired_at is not None or v.created_at not in merged_at:
            continue
        for before in history:
            if before.fact_id == v.fact_id and before.expired_at == v.created_at:
                back = {k: getattr(before, k) for k in _LENT if getattr(before, k) != getattr(v, k)}
                if back:
                    lent[v.fact_id] = back
                break
    return lent


def plan_split(
    alias: str, history: Sequence[FactVersion], now: datetime, new_id: Callable[[], str]
) -> Plan:
    """Move the facts written as ``alias`` out of their slot into a slot of that name.

    ``history`` is every version of the merged slot, believed or not, and of the alias's
    own slot name (where a value the merge folded stays). Facts whose versions
    were written as ``alias`` move (believed versions re-written under ``alias``, with
    ``created_at = now``); the rest stay; on both sides a window cut by the other side
    is re-opened to the next value of its own side. Nothing believed changes when no
    version was written as ``alias`` (the plan then changes nothing).
    """
    moved_ids = {v.fact_id for v in history if v.written_as == alias}
    believed = [v for v in history if v.expired_at is None]
    moved = [v for v in believed if v.fact_id in moved_ids]
    kept = [v for v in believed if v.fact_id not in moved_ids]
    folded = _folded(alias, history)
    lent = _lent(folded, history)
    expire: list[Expiry] = []
    insert = [believed_again(v, v.invalid_at, now, new_id) for v in folded]
    for side, other in ((moved, kept), (kept, moved)):
        other_starts = {v.valid_at for v in other}
        # A folded value coming back holds its own time again: what it had ended still ends.
        back = [v for v in folded if (v.predicate == alias) == (side is moved)]
        for version in side:
            end = _end_without(version, [*side, *back], other_starts, history)
            moving = version.fact_id in moved_ids
            taken_back = lent.get(version.fact_id, {})
            if not moving and end == version.invalid_at and not taken_back:
                continue
            # Moved as it was, the value still holds (rewritten); re-opened, its window
            # was wrong (corrected), as a correction re-opens what a mistake closed.
            same = end == version.invalid_at
            reason = RetiredReason.REWRITTEN if same else RetiredReason.CORRECTED
            expire.append(Expiry(version_id=version.version_id, reason=reason))
            again = believed_again(version, end, now, new_id).model_copy(update=taken_back)
            if moving:
                again = again.model_copy(update={"predicate": alias, "written_as": None})
            insert.append(again)
    return Plan(now=now, expire=tuple(expire), insert=tuple(insert), predicate=alias)
