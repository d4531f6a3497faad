"""Folding one slot into another by hand: the merge drift missed (the inverse of a split).

Slot drift favours precision, so two names for one slot sometimes stay two slots, each
with a current value. Merging the name says they are one slot; the name becomes an alias
of the slot, as if drift had merged it at the first write:

* ``owner`` Aiko [Jan, ∞) and ``maintainer`` Lucía [Mar, ∞), both current.
* r1 merge ``maintainer`` into ``owner``: Lucía's version is expired (``rewritten``: the
  value still holds, only the slot it is filed under changed) and written again under
  ``owner`` with ``written_as = "maintainer"``; Aiko's open version is expired and
  written again closed, [Jan, Mar) (``ended``: Lucía took over in March, as a write in
  March would have said).
* Now ``owner`` holds Lucía, and Aiko is history; "as believed before r1" still says
  both were current under two names. A split of ``maintainer`` undoes it
  (``domain.alias_split``).

Only values of one-value slots cut each other, each at the other side's next start
where their places overlap; an end a version already has (a ``revise ended``) is kept
when it comes sooner. A version that starts where the other side's later-recorded one
starts is replaced at its own start, as a write would replace it: expired, not copied.

**The same value in both slots is one fact.** ``owner`` Aiko [Jan, ∞) and ``steward``
Aiko [Jun, ∞): a write of "owner Aiko" in June would have been a restatement, so the
merge folds the later one into the earlier, which keeps its start ("since January"):
the later version is expired (``rewritten``), its episodes go to the earlier one, and a
higher tier it had is kept (the earlier is written again with it). Only a value in the
same place whose window the other covers is folded; a split brings it back.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from twoclocks.domain.correction import places_overlap
from twoclocks.domain.model import (
    Cardinality,
    EpisodeLink,
    Expiry,
    FactVersion,
    Plan,
    RetiredReason,
)
from twoclocks.domain.restatement import is_restatement
from twoclocks.domain.write_plan import covers, vouches_more


def _cuts(later: FactVersion, version: FactVersion) -> bool:
    """True when ``later``, a value of the other side, starts after ``version`` does."""
    if not places_overlap(later, version) or later.cardinality is not Cardinality.ONE:
        return False
    if later.valid_at == version.valid_at:
        return later.created_at > version.created_at
    return later.valid_at > version.valid_at


def merged_end(version: FactVersion, other: Sequence[FactVersion]) -> datetime | None:
    """The end ``version`` has once the other side's values share its slot.

    >>> from datetime import UTC
    >>> jan, mar = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 3, 1, tzinfo=UTC)
    >>> aiko = FactVersion(version_id="v1", fact_id="f1", subject="core", predicate="owner",
    ...     object="Aiko", valid_at=jan, created_at=jan)
    >>> lucia = aiko.model_copy(update={"version_id": "v2", "fact_id": "f2",
    ...     "predicate": "maintainer", "object": "Lucía", "valid_at": mar, "created_at": mar})
    >>> merged_end(aiko, [lucia]) == mar, merged_end(lucia, [aiko])
    (True, None)
    """
    if version.cardinality is not Cardinality.ONE:
        return version.invalid_at
    starts = [v.valid_at for v in other if _cuts(v, version)]
    ends = [e for e in [*starts, version.invalid_at] if e is not None]
    return min(ends) if ends else None


def _first(version: FactVersion) -> tuple[datetime, datetime]:
    return version.valid_at, version.created_at


def folds(moved: Sequence[FactVersion], kept: Sequence[FactVersion]) -> dict[str, FactVersion]:
    """Which versions say again what the other side already said: version id -> the
    earlier version of the other side, in the same place, whose merged window covers it.

    >>> from datetime import UTC
    >>> jan, jun = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC)
    >>> owner = FactVersion(version_id="v1", fact_id="f1", subject="core", predicate="owner",
    ...     object="Aiko", valid_at=jan, created_at=jan)
    >>> steward = owner.model_copy(update={"version_id": "v2", "fact_id": "f2",
    ...     "predicate": "steward", "valid_at": jun, "created_at": jun})
    >>> {k: v.fact_id for k, v in folds([steward], [owner]).items()}
    {'v2': 'f1'}
    """
    found: dict[str, FactVersion] = {}
    for side, other in ((moved, kept), (kept, moved)):
        for later in side:
            if later.cardinality is not Cardinality.ONE or later.expired_at is not None:
                continue
            rest = [v for v in side if v.version_id != later.version_id]
            for earlier in other:
                if (
                    earlier.cardinality is Cardinality.ONE
                    and earlier.expired_at is None
                    and earlier.workspace == later.workspace
                    and _first(earlier) < _first(later)
                    and is_restatement(earlier.object, later.object)
                    # Still holding all of ``later``'s window once the rest of that side
                    # has cut it: a value in between would leave ``later``'s time empty.
                    and covers(
                        earlier.model_copy(update={"invalid_at": merged_end(earlier, rest)}),
                        later.valid_at,
                        later.invalid_at,
                    )
                ):
                    found[later.version_id] = earlier
                    break
    return found


def _gains(
    folded: dict[str, FactVersion], versions: Sequence[FactVersion]
) -> dict[str, dict[str, object]]:
    """What each surviving version takes from those folded into it: their episodes, and
    the tier (and writer) of one trusted more."""
    by_id = {v.version_id: v for v in versions}
    gains: dict[str, dict[str, object]] = {}
    for version_id, survivor in folded.items():
        gone = by_id[version_id]
        gain = gains.setdefault(survivor.version_id, {})
        held = survivor.model_copy(update=gain)  # with what earlier folds gave it
        extra = tuple(e for e in gone.episodes if e not in held.episodes)
        if extra:
            gain["episodes"] = held.episodes + extra
        gain |= vouches_more(held, gone)
    return gains


def plan_merge(
    name: str,
    into: str,
    moved: Sequence[FactVersion],
    kept: Sequence[FactVersion],
    now: datetime,
    new_id: Callable[[], str],
) -> Plan:
    """Move the believed versions of slot ``name`` (``moved``) into the slot ``into``.

    ``kept`` are the believed versions of ``into``. Each moved version is expired
    (``rewritten``) and written again under that slot, ``written_as`` its old name; a
    version of either side whose window the other side now cuts is expired (``ended``)
    and written again closed; the facts that were current and are not any more are
    ``Plan.closed``; a value either side says again inside the other's window is folded
    into it (``Plan.folded``). With nothing to move, the plan changes nothing.
    """
    expire: list[Expiry] = []
    insert: list[FactVersion] = []
    links: list[EpisodeLink] = []
    closed: list[str] = []
    folded = folds(moved, kept)
    gains = _gains(folded, [*moved, *kept])
    for version_id in folded:
        expire.append(Expiry(version_id=version_id, reason=RetiredReason.REWRITTEN))
    gone = [v for v in [*moved, *kept] if v.version_id in folded]
    moved = [v for v in moved if v.version_id not in folded]
    kept = [v for v in kept if v.version_id not in folded]
    for version, other, moving in [
        *((v, kept, True) for v in moved),
        *((v, moved, False) for v in kept),
    ]:
        if version.expired_at is not None:
            continue
        end = merged_end(version, other)
        gain = gains.get(version.version_id, {})
        if not moving and end == version.invalid_at:
            if set(gain) - {"episodes"}:  # a value folded into it vouched more
                expire.append(Expiry(version_id=version.version_id, reason=RetiredReason.REWRITTEN))
                again = {**gain, "version_id": new_id(), "created_at": now, "expired_at": None}
                insert.append(version.model_copy(update=again))
            else:
                links.extend(
                    EpisodeLink(version_id=version.version_id, episode_id=e)
                    for e in version.model_copy(update=gain).episodes
                    if e not in version.episodes
                )
            continue
        cut = end != version.invalid_at
        if cut and version.invalid_at is None:
            closed.append(version.fact_id)
        reason = RetiredReason.ENDED if cut else RetiredReason.REWRITTEN
        expire.append(Expiry(version_id=version.version_id, reason=reason))
        if end is not None and end <= version.valid_at:
            continue  # replaced at its own start: a window of no length never holds
        update: dict[str, object] = {
            **gain,
            "version_id": new_id(),
            "invalid_at": end,
            "created_at": now,
            "expired_at": None,
        }
        if cut:
            update["retired_reason"] = RetiredReason.ENDED
        if moving:
            update |= {"predicate": into, "written_as": version.written_as or name}
        insert.append(version.model_copy(update=update))
    return Plan(
        now=now,
        expire=tuple(expire),
        insert=tuple(insert),
        link_episodes=tuple(links),
        predicate=into,
        closed=tuple(closed),
        folded=tuple((v.fact_id, folded[v.version_id].fact_id) for v in gone),
    )
