"""Retiring a fact: revise (ended / corrected), retract and reopen.

Worked example (the Postgres seed's acme-api, valid times):

* "deploys from main" [Feb 2, ∞) is revised ``ended`` at Apr 14 with the
  replacement "deploys from trunk": the open version is expired, a closed copy
  [Feb 2, Apr 14) is written, and "trunk" starts at Apr 14, pointing back with
  ``supersedes``.
* "runs on Postgres 15" [Feb 2, ∞) is revised ``corrected`` with "Postgres 16":
  the version is expired (record axis only) and the successor inherits the whole
  window [Feb 2, ∞). Correcting an already-ended fact carries its end forward.
* A fact already corrected refuses every revision; one already ended refuses
  ``ended``. Both with ``FactAlreadyRetired``, never ``FactNotFound``.
* A correction also gives back what the mistaken write took (``domain.correction``):
  Heroku [Jan, Jun) -> Render [Jun, Sep) -> AWS [Sep, ∞) entered by mistake;
  ``corrected`` on AWS expires it and Render's closed copy, and writes Render
  [Jun, ∞) again, so "now" and "as of Oct" say Render while "as believed in
  September" still says AWS. With a replacement, the replacement takes AWS's
  window and Render still ends where it starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from twoclocks.domain.correction import places_overlap, restore_after_correction
from twoclocks.domain.errors import (
    FactAlreadyRetired,
    FactNotFound,
    FactNotRetracted,
    InvalidInput,
    InvalidTemporalRange,
)
from twoclocks.domain.model import (
    Cardinality,
    EpisodeLink,
    Expiry,
    FactStatus,
    FactVersion,
    Incoming,
    Outcome,
    Plan,
    RetiredReason,
    require_aware,
)
from twoclocks.domain.temporal import is_current, last_version, status_of
from twoclocks.domain.write_plan import IdFactory, closed_copy, new_version, plan_write

REVISE_REASONS = (RetiredReason.ENDED, RetiredReason.CORRECTED)
_RETIRED = (FactStatus.CORRECTED, FactStatus.RETRACTED, FactStatus.HELD_BACK, FactStatus.OUTDATED)
"""A fact in one of these states is believed nowhere: revise and retract refuse it."""


def _believed(fact_id: str, versions: Sequence[FactVersion]) -> tuple[FactStatus, FactVersion]:
    if not versions:
        raise FactNotFound(f"no fact {fact_id} in this account: list facts to find its id")
    status = status_of(versions)
    believed = [v for v in versions if v.expired_at is None]
    if status is FactStatus.FOLDED:
        raise FactAlreadyRetired(
            f"{_folded(fact_id, versions)}: use that one (recall or list facts for its id)"
        )
    if status in _RETIRED or not believed:
        raise FactAlreadyRetired(
            f"fact {fact_id} was already {status.value}: re-read current state before revising"
        )
    return status, believed[0]


def _folded(fact_id: str, versions: Sequence[FactVersion]) -> str:
    """What a revise or a reopen of a fact a slot merge folded is told: where its value is."""
    last = last_version(versions)
    return (
        f"fact {fact_id} ({last.subject} · {last.predicate}: {last.object!r}) was folded into "
        f"another fact of {last.subject} that says the same when {last.predicate} was merged "
        "into another slot"
    )


def plan_revise(
    fact_id: str,
    versions: Sequence[FactVersion],
    reason: RetiredReason,
    now: datetime,
    new_id: IdFactory,
    at: datetime | None = None,
    replacement: Incoming | None = None,
    slot_history: Sequence[FactVersion] = (),
) -> Plan:
    """Plan an ``ended`` or ``corrected`` revision of one fact, with an optional successor.

    ``replacement`` carries the successor's text; its window is set here: from
    ``at`` for ``ended``, the original's whole window for ``corrected``.
    ``slot_history`` is every version of the fact's slot, believed or not: a
    correction re-opens what the mistaken write closed (see ``domain.correction``).
    """
    if reason not in REVISE_REASONS:
        raise InvalidInput(f"reason must be 'ended' or 'corrected', not {reason.value!r}")
    require_aware(at, "at")
    status, current = _believed(fact_id, versions)

    if reason is RetiredReason.ENDED:
        if status is FactStatus.ENDED:
            ended = current.invalid_at
            # An end still ahead is an end too; "already ended" would say it no longer holds.
            told = "has an end" if ended is not None and ended > now else "has already ended"
            when = f" ({ended.isoformat()})" if ended is not None else ""
            raise FactAlreadyRetired(
                f"fact {fact_id} {told}{when}: re-read current state before revising"
            )
        end = at or now
        if end < current.valid_at:
            raise InvalidTemporalRange(
                f"cannot end fact {fact_id} at {end.isoformat()}: that is before it began "
                f"({current.valid_at.isoformat()}); give an `at` on or after valid_at"
                + (
                    ""
                    if current.start_stated
                    else " (its start was never stated: that is when it was told; to say "
                    "the value changed earlier, remember the new value with that valid_at)"
                )
            )
        copy = closed_copy(current, version_id=new_id(), invalid_at=end, now=now)
        inserts = [copy]
        successor_start, successor_end = end, None
        successor_stated = True  # the revision says when the change came
    else:
        if at is not None:
            raise InvalidInput(
                "a correction happens on the record clock, which only the store sets: omit `at`"
            )
        inserts = []
        successor_start, successor_end = current.valid_at, current.invalid_at
        successor_stated = current.start_stated  # the window it takes over, as known

    successor_id: str | None = None
    version_id = inserts[0].version_id if inserts else current.version_id
    if replacement is not None:
        incoming = replacement.model_copy(
            update={
                "subject": current.subject,
                "valid_at": successor_start,
                "invalid_at": successor_end,
                "supersedes": fact_id,
                "start_stated": successor_stated,
            }
        )
        successor = new_version(
            incoming,
            version_id=new_id(),
            fact_id=new_id(),
            cardinality=current.cardinality,
            now=now,
            invalid_at=successor_end,
        )
        inserts.append(successor)
        successor_id = successor.fact_id
        version_id = successor.version_id

    expire = [Expiry(version_id=current.version_id, reason=reason)]
    if reason is RetiredReason.CORRECTED:
        restored_expire, restored = restore_after_correction(
            fact_id,
            slot_history,
            now,
            new_id,
            replacement_start=successor_start if replacement is not None else None,
        )
        expire += restored_expire
        inserts += restored

    return Plan(
        now=now,
        expire=tuple(expire),
        insert=tuple(inserts),
        outcome=Outcome.INSERTED,
        fact_id=fact_id,
        version_id=version_id,
        predicate=current.predicate,
        closed=(fact_id,),
        successor_id=successor_id,
    )


def plan_retract(
    fact_id: str,
    versions: Sequence[FactVersion],
    now: datetime,
    reason: RetiredReason = RetiredReason.RETRACTED,
) -> Plan:
    """Forget a fact (or hold it back): close it on the record axis and keep the row, so it
    can be reopened."""
    _, current = _believed(fact_id, versions)
    return Plan(
        now=now,
        expire=(Expiry(version_id=current.version_id, reason=reason),),
        fact_id=fact_id,
        version_id=current.version_id,
        predicate=current.predicate,
        closed=(fact_id,),
    )


def left_ended(
    retracted: Sequence[FactVersion],
    slot: Sequence[FactVersion],
    now: datetime,
    overruled: Sequence[FactVersion] = (),
) -> list[FactVersion]:
    """The values a retracted fact had replaced, when its slot holds no value now.

    ``retracted`` is the fact's believed versions before the retract; ``slot`` every
    believed version of its slot after it; ``overruled`` what the fact's dated word retired
    outright (``domain.correction.overruled_by``: a value told late, a guess). A retract
    closes the fact on the record clock and gives nothing back (a correction does), so
    saying what stays history lets the person choose.

    Example: Redis [Jan 5, Jun 1), then Memcached [Jun 1, ∞) closed it. Retract
    Memcached in July: the slot holds nothing, and Redis [Jan 5, Jun 1) is returned. Had
    Valkey been written since, nothing would be: the slot has its value.
    """
    mine = [v for v in retracted if v.cardinality is Cardinality.ONE]
    if not mine:
        return []
    starts = {v.valid_at for v in mine}
    others = [
        v for v in slot
        if v.fact_id != mine[0].fact_id and v.expired_at is None and places_overlap(v, mine[0])
    ]  # fmt: skip
    if any(is_current(v, now) for v in others):
        return []
    closed = [
        v for v in others
        if v.invalid_at is not None and v.invalid_at in starts and v.invalid_at <= now
    ]  # fmt: skip
    return closed + list(overruled)


def plan_link(
    fact_id: str, versions: Sequence[FactVersion], now: datetime, episode_id: str
) -> Plan:
    """Add an episode (a person's review of the fact) to its believed version's provenance."""
    _, current = _believed(fact_id, versions)
    return Plan(
        now=now,
        link_episodes=(EpisodeLink(version_id=current.version_id, episode_id=episode_id),),
        outcome=Outcome.RESTATED,
        fact_id=fact_id,
        version_id=current.version_id,
        predicate=current.predicate,
    )


def plan_reopen(
    fact_id: str,
    versions: Sequence[FactVersion],
    slot_visible: Sequence[FactVersion],
    now: datetime,
    new_id: IdFactory,
    slot: str | None = None,
) -> Plan:
    """Undo a mistaken retract: the last retracted version is believed again.

    It re-enters its slot through the write planner, so a value written since
    the retract is respected exactly as a late write would be. ``slot`` is the slot it
    re-enters when that is not its own name any more (the name was merged into
    ``slot`` meanwhile); it then keeps the name it was written under as ``written_as``.

    Example: ``steward`` = Lucía is retracted, then ``steward`` is merged into
    ``owner``; reopened with ``slot="owner"``, Lucía comes back as ``owner`` (written
    as ``steward``) and meets ``owner``'s values as a write would.
    """
    if not versions:
        raise FactNotFound(f"no fact {fact_id} in this account: list facts to find its id")
    status = status_of(versions)
    if status is FactStatus.FOLDED:
        raise FactNotRetracted(
            f"{_folded(fact_id, versions)}, which holds the value now: nothing to reopen "
            "(splitting the name brings this one back)"
        )
    if status not in (FactStatus.RETRACTED, FactStatus.HELD_BACK):
        raise FactNotRetracted(f"fact {fact_id} is not retracted, so there is nothing to reopen")
    last = last_version(versions)
    into = slot or last.predicate
    incoming = Incoming(
        subject=last.subject,
        predicate=into,
        object=last.object,
        valid_at=last.valid_at,
        invalid_at=last.invalid_at,
        kind=last.kind,
        cardinality=last.cardinality,
        tier=last.tier,
        fact_class=last.fact_class,
        category=last.category,
        place=last.place,
        workspace=last.workspace,
        writer=last.writer,
        supersedes=last.supersedes,
        written_as=last.written_as if into == last.predicate else last.written_as or last.predicate,
        start_stated=last.start_stated,
    )
    others = [v for v in slot_visible if v.fact_id != fact_id]
    plan = plan_write(incoming, others, now, new_id, fact_id=fact_id, overrule_guesses=False)
    if plan.outcome is Outcome.RESTATED:
        # The same value came back under another fact since: nothing to reopen into.
        return plan
    reopened = tuple(
        v.model_copy(update={"episodes": last.episodes}) if v.fact_id == fact_id else v
        for v in plan.insert
    )
    return plan.model_copy(update={"insert": reopened})
