"""The interval predicates of both clocks, as pure functions.

Both intervals are half-open: start inclusive, end exclusive. The stores answer
the same questions in Cypher; a contract test drives both over points that land
exactly on every boundary, so the two must agree.

Worked example (the running example of the Postgres seed, record time in
brackets): on Feb 2 [Feb 2] "deploys from main" is written; on Apr 14 [Apr 14]
it is ``ended`` and "deploys from trunk" starts. Then:

* ``is_current(main', now)`` is False: its closed copy has ``invalid_at = Apr 14``;
* ``holds_at(main', Mar 1)`` is True: ``Feb 2 <= Mar 1 < Apr 14``;
* ``believed_at(main, Mar 1)`` is True for the open version written Feb 2 and
  expired Apr 14, so "what did we believe on Mar 1 about May 1" still finds
  "deploys from main" (``holds_at(main, May 1)`` is True for that version).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import date, datetime, tzinfo

from twoclocks.domain.model import FactStatus, FactVersion, RetiredReason


def holds_at(version: FactVersion, t: datetime) -> bool:
    """World axis: ``valid_at <= t < invalid_at`` (an open end holds forever)."""
    return version.valid_at <= t and (version.invalid_at is None or t < version.invalid_at)


def believed_at(version: FactVersion, s: datetime) -> bool:
    """Record axis: ``created_at <= s < expired_at`` (an open end is still believed)."""
    return version.created_at <= s and (version.expired_at is None or s < version.expired_at)


def is_current(version: FactVersion, now: datetime) -> bool:
    """Believed now and true now: a fact dated next month is not current yet.

    DESIGN.md §2 writes this as ``invalid_at IS NULL``; that is the same test
    whenever ends lie in the past. An end scheduled in the future (a value that
    changes next month) keeps the old value current until then.
    """
    return version.expired_at is None and holds_at(version, now)


def world_instant(
    as_of: datetime | None, as_believed: datetime | None, include_history: bool
) -> datetime | None:
    """The world time a read filters on: ``as_believed`` alone means "about then" too."""
    if as_of is None and as_believed is not None and not include_history:
        return as_believed
    return as_of


def is_visible(
    version: FactVersion,
    now: datetime,
    as_of: datetime | None = None,
    as_believed: datetime | None = None,
    include_history: bool = False,
    include_later: bool = False,
) -> bool:
    """The read filter every query applies, on either clock or both.

    * neither: current facts only (or, with ``include_history``, every version; with
      ``include_later``, current facts and the ones believed now that start later);
    * ``as_of`` alone: believed now and true at ``as_of``;
    * ``as_believed`` alone: "what did we believe then about then": held at
      ``as_believed`` and true at that same instant (``as_of`` defaults to it); with
      ``include_history``, held at ``as_believed`` whatever its world window;
    * both: held at ``as_believed`` and true at ``as_of``.

    Example: Render [Jun, Sep) was closed in October by "AWS from Sep". Asked
    ``as_believed=Aug 1``, the store held Render open then, so Render is returned;
    asked ``as_believed=Nov 1``, the closed Render copy is held but not true on
    Nov 1, so AWS is returned and Render is not.
    """
    as_of = world_instant(as_of, as_believed, include_history)
    if as_of is None and as_believed is None:
        if include_later and version.expired_at is None and version.valid_at > now:
            return True  # "deploy freeze from the 20th", read on the 4th: not true yet
        return include_history or is_current(version, now)
    if as_believed is None:
        believed = version.expired_at is None
    else:
        believed = believed_at(version, as_believed)
    if not believed:
        return False
    return as_of is None or holds_at(version, as_of)


def last_version(versions: Iterable[FactVersion]) -> FactVersion:
    """The version memory stopped believing last, or the newest one: a fact's last word."""
    return max(versions, key=lambda v: (v.expired_at or v.created_at, v.created_at))


def status_of(versions: Iterable[FactVersion]) -> FactStatus:
    """Read a logical fact's state off all its versions (one ``fact_id``).

    The belief-current version decides: open means live, closed means ended.
    With none believed, the most recently expired version's reason decides.
    """
    rows = list(versions)
    if not rows:
        raise ValueError("status_of needs at least one version")
    believed = [v for v in rows if v.expired_at is None]
    if believed:
        return FactStatus.LIVE if believed[0].invalid_at is None else FactStatus.ENDED
    reason = last_version(rows).retired_reason or RetiredReason.RETRACTED
    return {
        RetiredReason.ENDED: FactStatus.ENDED,
        RetiredReason.CORRECTED: FactStatus.CORRECTED,
        RetiredReason.RETRACTED: FactStatus.RETRACTED,
        RetiredReason.HELD_BACK: FactStatus.HELD_BACK,
        RetiredReason.OUTDATED: FactStatus.OUTDATED,
        # A rewrite leaves its value believed: in a later version of the same fact (then
        # one is believed, above), or, folded by a slot merge, in the fact that said the
        # same (a split brings it back). Called retracted, a revise of it said "already
        # retracted", and reopen answered as if it had reopened it while the write planner
        # only restated the value into the fact that holds it.
        RetiredReason.REWRITTEN: FactStatus.FOLDED,
    }[reason]


def told_after(start_stated: bool, valid_at: datetime, t: datetime) -> bool:
    """A value whose start nobody stated, told after ``t``: not true at ``t`` on the record,
    yet it may have held then (a past read's ``told_later``).

    >>> from datetime import UTC
    >>> told_after(False, datetime(2026, 3, 2, tzinfo=UTC), datetime(2026, 2, 1, tzinfo=UTC))
    True
    """
    return not start_stated and valid_at > t


DATE_ONLY = re.compile(r"^\d{4}-\d{2}-\d{2}$")
"""A time written as a date alone (2026-11-30): midnight in the account's zone."""


def midnight_of(text: str, zone: tzinfo) -> datetime | None:
    """A date written alone, as midnight in ``zone``; None for anything else.

    A person (or an agent passing on their "since Friday") writes the day, not the hour:
    midnight in the account's own zone is what the day means there, not a guessed zone.

    >>> from datetime import timezone, timedelta
    >>> midnight_of("2026-11-29", timezone(timedelta(hours=3))).isoformat()
    '2026-11-29T00:00:00+03:00'
    >>> midnight_of("2026-11-29T09:00:00", timezone.utc) is None
    True
    """
    value = text.strip()
    if not DATE_ONLY.match(value):
        return None
    day = date.fromisoformat(value)
    return datetime(day.year, day.month, day.day, tzinfo=zone)
