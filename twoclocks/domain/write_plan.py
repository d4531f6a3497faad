"""The write planner: ``(incoming, visible versions of the slot, now) -> plan``.

Rules (DESIGN.md §3), each with a worked example; times are valid times:

* **new value, one-value slot**: "Hetzner" [Jan, ∞) is current; "Render" arrives
  at Mar. The Hetzner version is expired and a closed copy [Jan, Mar) is written;
  Render is [Mar, ∞). The windows meet with no gap and no overlap.
* **late, older value**: "Render" [Mar, ∞) is current; "Fly" arrives dated Feb.
  It is stored already closed as [Feb, Mar); Render stays current.
* **restatement**: "CI runs on CircleCI" is current; "our CI runs on CircleCI"
  arrives. No new version: the episode is added to the existing one. Only a
  version whose window covers the incoming one's restates it: with Render closed
  as [Jun, Sep) and nothing newer believed, "Render since Jun" opens Render again;
  with Fly.io current from Sep, "Render in Jul" gets [Jul, Sep), which the closed
  Render covers, so it confirms history.
* **many-value slot**: every value is kept open; near-copies are restatements.

The planner only sees what the writer can see; the caller decides that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from twoclocks.domain.cardinality import resolve_cardinality
from twoclocks.domain.model import (
    Cardinality,
    EpisodeLink,
    Expiry,
    FactVersion,
    Incoming,
    Outcome,
    Plan,
    RetiredReason,
)
from twoclocks.domain.restatement import is_restatement
from twoclocks.domain.temporal import holds_at

IdFactory = Callable[[], str]


def _restated(incoming: Incoming, candidates: Sequence[FactVersion], now: datetime) -> Plan | None:
    for version in sorted(candidates, key=lambda v: v.valid_at, reverse=True):
        if is_restatement(version.object, incoming.object):
            links: tuple[EpisodeLink, ...] = ()
            if incoming.episode_id and incoming.episode_id not in version.episodes:
                links = (
                    EpisodeLink(version_id=version.version_id, episode_id=incoming.episode_id),
                )
            return Plan(
                now=now,
                link_episodes=links,
                outcome=Outcome.RESTATED,
                fact_id=version.fact_id,
                version_id=version.version_id,
                predicate=version.predicate,
            )
    return None


def covers(version: FactVersion, start: datetime, end: datetime | None) -> bool:
    """True when the version's valid window contains the whole window [start, end)."""
    if version.valid_at > start:
        return False
    if version.invalid_at is None:
        return True
    return end is not None and end <= version.invalid_at


def new_version(
    incoming: Incoming,
    *,
    version_id: str,
    fact_id: str,
    cardinality: Cardinality,
    now: datetime,
    invalid_at: datetime | None,
) -> FactVersion:
    """Build the version an incoming write becomes, with ``created_at = now``."""
    return FactVersion(
        version_id=version_id,
        fact_id=fact_id,
        subject=incoming.subject,
        predicate=incoming.predicate,
        object=incoming.object,
        kind=incoming.kind,
        cardinality=cardinality,
        tier=incoming.tier,
        fact_class=incoming.fact_class,
        category=incoming.category,
        place=incoming.place,
        workspace=incoming.workspace,
        valid_at=incoming.valid_at,
        invalid_at=invalid_at,
        created_at=now,
        supersedes=incoming.supersedes,
        episodes=(incoming.episode_id,) if incoming.episode_id else (),
        writer=incoming.writer,
        written_as=incoming.written_as,
    )


def closed_copy(
    version: FactVersion, *, version_id: str, invalid_at: datetime, now: datetime
) -> FactVersion:
    """The copy of ``version`` that records its world-time end; the original gets expired."""
    return version.model_copy(
        update={
            "version_id": version_id,
            "invalid_at": invalid_at,
            "created_at": now,
            "expired_at": None,
            "retired_reason": RetiredReason.ENDED,
        }
    )


def plan_write(
    incoming: Incoming,
    visible: Sequence[FactVersion],
    now: datetime,
    new_id: IdFactory,
    fact_id: str | None = None,
) -> Plan:
    """Plan one write against the believed versions of its slot that the writer can see.

    ``fact_id`` keeps an existing logical fact's id (used by reopen); by default a
    new fact is started.
    """
    believed = [v for v in visible if v.expired_at is None]
    cardinality = resolve_cardinality(incoming.cardinality, incoming.predicate, incoming.kind)
    t = incoming.valid_at

    if cardinality is Cardinality.MANY:
        restated = _restated(incoming, [v for v in believed if v.invalid_at is None], now)
        if restated:
            return restated
        end = incoming.invalid_at
        version = new_version(
            incoming,
            version_id=new_id(),
            fact_id=fact_id or new_id(),
            cardinality=cardinality,
            now=now,
            invalid_at=end,
        )
        return Plan(
            now=now,
            insert=(version,),
            outcome=Outcome.STORED_CLOSED if end else Outcome.INSERTED,
            fact_id=version.fact_id,
            version_id=version.version_id,
            predicate=version.predicate,
        )

    # The new window runs until the next known value starts (a late, older value
    # is therefore stored already closed), or until the writer's own end.
    later_starts = [v.valid_at for v in believed if v.valid_at > t]
    ends = [e for e in ([min(later_starts)] if later_starts else []) + [incoming.invalid_at] if e]
    end = min(ends) if ends else None

    holding = [v for v in believed if holds_at(v, t)]
    # Only a version whose window covers the one this write would get is restated: a
    # closed "Render [Jun, Sep)" does not cover an open "Render since June" when nothing
    # newer holds, so that write opens Render again instead of vanishing into history.
    restated = _restated(incoming, [v for v in holding if covers(v, t, end)], now)
    if restated:
        return restated

    expire: list[Expiry] = []
    insert: list[FactVersion] = []
    closed: list[str] = []
    for old in holding:
        # ``old`` covers t: its window is cut at t. A copy of zero length would
        # never hold, so a value replaced at its own start is only expired.
        expire.append(Expiry(version_id=old.version_id, reason=RetiredReason.ENDED))
        if old.valid_at < t:
            insert.append(closed_copy(old, version_id=new_id(), invalid_at=t, now=now))
        if end is not None and (old.invalid_at is None or end < old.invalid_at):
            # A bounded incoming window (a reopened closed version) ends inside ``old``:
            # the rest of ``old`` is kept, as its own fact so each fact has one believed
            # version, instead of being lost from the timeline.
            rest = {"version_id": new_id(), "fact_id": new_id(), "valid_at": end}
            insert.append(old.model_copy(update={**rest, "created_at": now, "expired_at": None}))
        if old.invalid_at is None:
            closed.append(old.fact_id)

    version = new_version(
        incoming,
        version_id=new_id(),
        fact_id=fact_id or new_id(),
        cardinality=cardinality,
        now=now,
        invalid_at=end,
    )
    insert.append(version)
    return Plan(
        now=now,
        expire=tuple(expire),
        insert=tuple(insert),
        outcome=Outcome.STORED_CLOSED if end else Outcome.INSERTED,
        fact_id=version.fact_id,
        version_id=version.version_id,
        predicate=version.predicate,
        closed=tuple(closed),
    )
