"""Undoing a mistaken write: what a ``corrected`` revision gives back to its slot.

A correction says a version was never true. It must also undo, on the belief axis,
what that version's write did to its one-value slot: the value it closed is
believed open again, from its own ``valid_at``, until the next value the store
still believes (or its own end, if it had one that the mistake did not cause).

Worked example (valid times; record times r1..r4):

* r1 Heroku [Jan 6, ∞); r2 Render [Jun 1, ∞) closes Heroku to [Jan 6, Jun 1);
  r3 AWS [Sep 1, ∞), a mistake, closes Render to [Jun 1, Sep 1).
* r4 ``revise AWS corrected``: AWS is expired, and so is Render's closed copy
  [Jun 1, Sep 1); a new Render version [Jun 1, ∞) is written with record time r4.
* Now "current" says Render, "as of Oct 1" says Render, and "as believed at r3"
  still says AWS: nothing is rewritten, only believed or not.

Why a closed version ended where it did is read off the history of its slot, since
every change of a plan shares one record instant:

* **closed by a write**: the version it replaced (same fact) was expired at its
  ``created_at``, and another fact's version inserted at that instant holds where
  it ends (not a successor that names it in ``supersedes``): a new value cut it;
* **cut**: it was born closed (a late, older value; the end is the next start), or it
  was re-windowed by an earlier correction (its predecessor was expired as
  ``corrected``); a version copied by a rewrite (``rewritten``) ends where and why the
  version it copied did;
* **explicit**: anything else, i.e. a ``revise ended`` said so; that end is kept.

Only versions whose end falls on a start of the corrected fact (or that the corrected
fact's own write closed: a fact widened to everywhere closes other worktrees' values at
the widening, after its own start), and that are not explicit ends, are re-windowed;
a replacement that takes the corrected window counts as a start like any believed
version, so "the predecessor's window still ends where the replacement starts".

A write can also retire values outright: a word dated before an agent's guess
(``corrected``) or before a value told with no start (``outdated``) speaks for them
(``domain.write_plan``, ``overruled_by_the_word``). When that word is corrected, what it
overruled is believed again, as it was written, unless a replacement takes the word's
window (it then speaks for them in turn). Example: "deploy target Vercel" told at 11:51;
at 12:00, "Netlify since Nov 30" retires Vercel as outdated; at 12:10 the person corrects
Netlify (it was another project's): Vercel is current again, known since 11:51, instead
of the slot holding nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime

from twoclocks.domain.model import (
    Cardinality,
    Expiry,
    FactVersion,
    RetiredReason,
)
from twoclocks.domain.temporal import holds_at

# A predecessor expired for these reasons says nothing about why its successor's window
# ends: a correction re-windowed it, or a rewrite (a restatement that vouched more, a
# slot merge or split moving it) copied it unchanged.
_WINDOW_KEPT_OR_MENDED = (RetiredReason.CORRECTED, RetiredReason.REWRITTEN)


def _replaced(version: FactVersion, history: Sequence[FactVersion]) -> FactVersion | None:
    """The version of the same fact that was expired when ``version`` was written, if any."""
    return next(
        (
            v
            for v in history
            if v.fact_id == version.fact_id
            and v.version_id != version.version_id
            and v.expired_at == version.created_at
        ),
        None,
    )


def _closers(version: FactVersion, history: Sequence[FactVersion]) -> set[str]:
    """The facts whose write closed ``version``: written in its plan, holding at its end.

    Usually the new value starts where the old one ends; a fact widened to everywhere
    keeps its own earlier start and still closes, at the instant of the widening, what
    another worktree held (domain.write_plan).
    """
    end = version.invalid_at
    if end is None:
        return set()
    return {
        v.fact_id
        for v in history
        if v.fact_id != version.fact_id
        and v.created_at == version.created_at
        and holds_at(v, end)
        and v.supersedes != version.fact_id
    }


def _closed_by_a_write(version: FactVersion, history: Sequence[FactVersion]) -> bool:
    return bool(_closers(version, history))


def natural_end(version: FactVersion, history: Sequence[FactVersion]) -> datetime | None:
    """The end a version's fact would have if the values that cut it were never written.

    ``None`` is open. An explicit end (``revise ended``) is its own natural end.
    """
    seen: set[str] = set()
    current: FactVersion | None = version
    while current is not None and current.invalid_at is not None:
        if current.version_id in seen:  # a malformed history must not loop forever
            return current.invalid_at
        seen.add(current.version_id)
        before = _replaced(current, history)
        if before is None:
            return None  # born closed: a late value, cut by the next start
        if before.retired_reason in _WINDOW_KEPT_OR_MENDED or _closed_by_a_write(current, history):
            current = before
            continue
        return current.invalid_at  # explicit: revise ended said so
    return None


def _explicit(version: FactVersion, history: Sequence[FactVersion]) -> bool:
    seen: set[str] = set()
    before = _replaced(version, history)
    # A rewrite copies the window it replaced, so the end was decided further back.
    while (
        before is not None
        and before.retired_reason is RetiredReason.REWRITTEN
        and before.version_id not in seen
    ):
        seen.add(before.version_id)
        version, before = before, _replaced(before, history)
    if before is None:
        return False
    return before.retired_reason is not RetiredReason.CORRECTED and not _closed_by_a_write(
        version, history
    )


def believed_again(
    version: FactVersion, end: datetime | None, now: datetime, new_id: Callable[[], str]
) -> FactVersion:
    """``version`` written again at ``now`` with the window ending at ``end``: what a
    correction or a split re-opens (the old version is expired beside it)."""
    return version.model_copy(
        update={
            "version_id": new_id(),
            "invalid_at": end,
            "created_at": now,
            "expired_at": None,
            "retired_reason": None if end is None else RetiredReason.ENDED,
        }
    )


_OVERRULED = (RetiredReason.CORRECTED, RetiredReason.OUTDATED)


def overruled_by(corrected_fact_id: str, history: Sequence[FactVersion]) -> list[FactVersion]:
    """The versions the corrected fact's own write overruled, none of whose facts is believed
    now: retired as ``corrected`` or ``outdated`` at the instant the fact was first written,
    each starting after it (a revise's replacement inherits the window it corrects, so what
    a revise corrected never starts after it; a value a correction believed again is a later
    version of its fact, so what was corrected beside it is not taken for overruled)."""
    mine = [v for v in history if v.fact_id == corrected_fact_id]
    if not mine:
        return []
    word = min(mine, key=lambda v: v.created_at)
    believed = {v.fact_id for v in history if v.expired_at is None}
    return [
        v
        for v in history
        if v.fact_id != corrected_fact_id
        and v.fact_id not in believed
        and v.cardinality is Cardinality.ONE
        and v.retired_reason in _OVERRULED
        and v.expired_at == word.created_at
        and v.valid_at > word.valid_at
        and places_overlap(v, word)
    ]


def places_overlap(a: FactVersion, b: FactVersion) -> bool:
    """Two versions of a slot constrain each other's windows when their places overlap."""
    return a.workspace is None or b.workspace is None or a.workspace == b.workspace


def restore_after_correction(
    corrected_fact_id: str,
    history: Sequence[FactVersion],
    now: datetime,
    new_id: Callable[[], str],
    replacement_start: datetime | None = None,
) -> tuple[list[Expiry], list[FactVersion]]:
    """What a correction gives back: closed versions to expire, re-windowed copies to insert.

    ``history`` is every version of the slot, believed or not (all facts);
    ``replacement_start`` is where a replacement of the corrected fact starts.
    """
    mine = [v for v in history if v.fact_id == corrected_fact_id]
    starts = {v.valid_at for v in mine}
    believed = [v for v in history if v.expired_at is None and v.fact_id != corrected_fact_id]
    expire: list[Expiry] = []
    insert: list[FactVersion] = []
    for closed in believed:
        if (
            closed.cardinality is not Cardinality.ONE
            or (
                closed.invalid_at not in starts
                and corrected_fact_id not in _closers(closed, history)
            )
            or _explicit(closed, history)
        ):
            continue
        later = [
            v.valid_at
            for v in believed
            if v.fact_id != closed.fact_id
            and v.valid_at > closed.valid_at
            and places_overlap(v, closed)
        ]
        if replacement_start is not None and replacement_start > closed.valid_at:
            later.append(replacement_start)
        ends = [e for e in [*later, natural_end(closed, history)] if e is not None]
        end = min(ends) if ends else None
        if end == closed.invalid_at:
            continue
        expire.append(Expiry(version_id=closed.version_id, reason=RetiredReason.CORRECTED))
        insert.append(believed_again(closed, end, now, new_id))
    # The replacement speaks for what starts after it, as the corrected word did.
    back = [
        v
        for v in overruled_by(corrected_fact_id, history)
        if replacement_start is None or replacement_start > v.valid_at
    ]
    for spoken_for in back:
        later = [
            v.valid_at
            for v in believed + insert + back
            if v.valid_at > spoken_for.valid_at and places_overlap(v, spoken_for)
        ]
        ends = [e for e in [*later, spoken_for.invalid_at] if e is not None]
        insert.append(believed_again(spoken_for, min(ends) if ends else None, now, new_id))
    return expire, insert
