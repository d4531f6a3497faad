"""A correction restores what the mistake replaced (DESIGN.md §3 "Revise", issue 9.1).

Each scenario is played through the real planners (plan_write, plan_revise) over an
in-memory list that does exactly what a store does with a plan, one record instant
per write, so the history the correction reads is the one a store would hold.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from twoclocks.domain.errors import FactAlreadyRetired
from twoclocks.domain.fact_text import history_note, mended_ends
from twoclocks.domain.model import Expiry, FactVersion, Incoming, Plan, RetiredReason, Tier
from twoclocks.domain.revise_plan import plan_revise
from twoclocks.domain.temporal import is_current, is_visible
from twoclocks.domain.write_plan import plan_write

ENDED, CORRECTED = RetiredReason.ENDED, RetiredReason.CORRECTED


def d(year: int, month: int, day: int = 1) -> datetime:
    return datetime(year, month, day, tzinfo=UTC)


class Slot:
    """One slot's versions, written through the planners with a clock that moves a day a write."""

    def __init__(self) -> None:
        self.rows: list[FactVersion] = []
        self.now = d(2025, 12, 1)
        ids = itertools.count(1)
        self.new_id = lambda: f"id{next(ids)}"

    def _apply(self, plan: Plan) -> Plan:
        expire = {e.version_id: e.reason for e in plan.expire}
        out = []
        for v in self.rows:
            if v.version_id in expire:
                assert v.expired_at is None, "expired twice"
                v = v.model_copy(
                    update={"expired_at": plan.now, "retired_reason": expire[v.version_id]}
                )
            out.append(v)
        self.rows = out + list(plan.insert)
        return plan

    def tick(self) -> datetime:
        self.now += timedelta(days=1)
        return self.now

    def write(self, value: str, valid_at: datetime, **fields: Any) -> str:
        incoming = Incoming(
            subject="acme-web", predicate="deploy_target", object=value, valid_at=valid_at,
            **fields,
        )  # fmt: skip
        believed = [v for v in self.rows if v.expired_at is None]
        return self._apply(plan_write(incoming, believed, self.tick(), self.new_id)).fact_id

    def revise(
        self,
        fact_id: str,
        reason: RetiredReason,
        replacement: str | None = None,
        at: datetime | None = None,
    ) -> Plan:
        mine = [v for v in self.rows if v.fact_id == fact_id]
        repl = None
        if replacement is not None:
            repl = Incoming(
                subject="acme-web",
                predicate="deploy_target",
                object=replacement,
                valid_at=at or self.now,
            )
        plan = plan_revise(
            fact_id, mine, reason, self.tick(), self.new_id, at, repl, slot_history=self.rows
        )
        return self._apply(plan)

    def current(self) -> list[str]:
        return sorted(v.object for v in self.rows if is_current(v, self.now))

    def as_of(self, t: datetime) -> list[str]:
        return sorted(v.object for v in self.rows if is_visible(v, self.now, as_of=t))

    def believed_then(self, s: datetime) -> list[str]:
        return sorted(v.object for v in self.rows if is_visible(v, self.now, as_believed=s))

    def windows(self, value: str) -> list[tuple[datetime, datetime | None]]:
        believed = [v for v in self.rows if v.expired_at is None and v.object == value]
        return sorted((v.valid_at, v.invalid_at) for v in believed)


def overlaps(rows: Sequence[FactVersion]) -> bool:
    believed = sorted((v for v in rows if v.expired_at is None), key=lambda v: v.valid_at)
    for a, b in itertools.pairwise(believed):
        if a.invalid_at is None or a.invalid_at > b.valid_at:
            return True
    return False


HEROKU, RENDER, AWS, GCP, FLY = "Heroku", "Render", "AWS", "GCP", "Fly.io"
JAN6, JUN1, JUL1, SEP1, OCT1, OCT15, DEC1 = (
    d(2025, 1, 6),
    d(2025, 6, 1),
    d(2025, 7, 1),
    d(2025, 9, 1),
    d(2025, 10, 1),
    d(2025, 10, 15),
    d(2025, 12, 1),
)


@pytest.fixture
def mistake() -> tuple[Slot, str, datetime]:
    """Heroku (Jan 6) -> Render (Jun 1) -> AWS (Sep 1, entered by mistake)."""
    slot = Slot()
    slot.write(HEROKU, JAN6)
    slot.write(RENDER, JUN1)
    aws = slot.write(AWS, SEP1)
    return slot, aws, slot.now


def test_history_marks_the_end_a_correction_took_back_not_the_value_it_gave_back(
    mistake: tuple[Slot, str, datetime],
) -> None:
    # Render's closed copy [Jun 1, Sep 1) is retired as "corrected" when AWS is: read as
    # "Render [corrected]" it said Render was never true, while Render holds again.
    slot, aws, _ = mistake
    slot.revise(aws, CORRECTED)
    mended = mended_ends(slot.rows)

    def note(v: FactVersion) -> str:
        day = lambda t: t.date().isoformat()  # noqa: E731
        return history_note(
            v.invalid_at, v.expired_at, v.retired_reason, day, slot.now, v.version_id in mended
        )

    notes = {(v.object, v.invalid_at): note(v) for v in slot.rows if v.expired_at is not None}
    assert notes[(RENDER, SEP1)] == "[end corrected]"
    assert notes[(AWS, None)] == "[corrected]"
    assert [v.object for v in slot.rows if v.version_id in mended] == [RENDER]
    # A fact corrected with nothing given back is never true, whatever else was written then.
    fly = slot.write(FLY, OCT1)
    slot.revise(fly, CORRECTED)
    assert FLY not in {v.object for v in slot.rows if v.version_id in mended_ends(slot.rows)}


def test_a_correction_restores_what_the_mistake_replaced(
    mistake: tuple[Slot, str, datetime],
) -> None:
    slot, aws, day_of_mistake = mistake
    plan = slot.revise(aws, CORRECTED)
    assert slot.current() == [RENDER]
    assert slot.as_of(OCT1) == [RENDER]
    assert slot.as_of(JUL1) == [RENDER]
    assert slot.as_of(d(2025, 3, 1)) == [HEROKU]
    # what we believed on the day of the mistake, about that day, is still AWS
    assert slot.believed_then(day_of_mistake) == [AWS]
    assert slot.windows(RENDER) == [(JUN1, None)]
    assert not overlaps(slot.rows)
    # the closed copy the mistake made is expired as corrected, never deleted
    copies = [v for v in slot.rows if v.object == RENDER and v.invalid_at == SEP1]
    assert len(copies) == 1 and copies[0].retired_reason is CORRECTED
    assert plan.expire[0].reason is CORRECTED


def test_a_correction_with_a_replacement_keeps_the_predecessor_ending_where_it_starts(
    mistake: tuple[Slot, str, datetime],
) -> None:
    slot, aws, _ = mistake
    slot.revise(aws, CORRECTED, replacement=GCP)
    assert slot.current() == [GCP]
    assert slot.windows(GCP) == [(SEP1, None)]
    assert slot.windows(RENDER) == [(JUN1, SEP1)]
    assert slot.as_of(JUL1) == [RENDER]
    assert not overlaps(slot.rows)


def test_a_correction_of_a_mistake_that_closed_a_mistake_restores_each_in_turn(
    mistake: tuple[Slot, str, datetime],
) -> None:
    slot, aws, _ = mistake
    gcp = slot.write(GCP, OCT1)  # a second mistake closes the first one
    slot.revise(gcp, CORRECTED)
    assert slot.current() == [AWS]
    assert slot.windows(AWS) == [(SEP1, None)]
    slot.revise(aws, CORRECTED)
    assert slot.current() == [RENDER]
    assert slot.windows(RENDER) == [(JUN1, None)]
    assert not overlaps(slot.rows)


def test_correcting_the_older_mistake_first_then_the_newer_one_restores_the_original(
    mistake: tuple[Slot, str, datetime],
) -> None:
    slot, aws, _ = mistake
    gcp = slot.write(GCP, OCT1)
    slot.revise(aws, CORRECTED)  # AWS is already closed by GCP: a late, closed value
    assert slot.current() == [GCP]
    assert slot.windows(RENDER) == [(JUN1, OCT1)]
    assert slot.as_of(SEP1) == [RENDER]
    slot.revise(gcp, CORRECTED)
    assert slot.current() == [RENDER]
    assert slot.windows(RENDER) == [(JUN1, None)]
    assert not overlaps(slot.rows)


def test_a_correction_of_a_late_closed_value_gives_its_window_back_up_to_the_next_value() -> None:
    slot = Slot()
    slot.write(RENDER, JUN1)
    slot.write(FLY, SEP1)
    late = slot.write(AWS, JUL1)  # late and wrong: stored as [Jul, Sep), Render cut to [Jun, Jul)
    assert slot.windows(RENDER) == [(JUN1, JUL1)]
    slot.revise(late, CORRECTED)
    assert slot.windows(RENDER) == [(JUN1, SEP1)]
    assert slot.current() == [FLY]
    assert slot.as_of(d(2025, 8, 1)) == [RENDER]
    assert not overlaps(slot.rows)


def test_a_correction_keeps_an_end_that_revise_ended_gave_explicitly() -> None:
    slot = Slot()
    render = slot.write(RENDER, JUN1)
    slot.revise(render, ENDED, at=SEP1)  # Render ended on Sep 1 and nothing replaced it
    aws = slot.write(AWS, OCT1)  # then a mistaken value from October
    slot.revise(aws, CORRECTED)
    assert slot.windows(RENDER) == [(JUN1, SEP1)]
    assert slot.current() == []


def test_a_correction_does_not_reopen_what_a_revise_ended_with_replacement_closed() -> None:
    slot = Slot()
    render = slot.write(RENDER, JUN1)
    plan = slot.revise(render, ENDED, replacement=AWS, at=SEP1)
    assert plan.successor_id is not None
    slot.revise(plan.successor_id, CORRECTED)
    # "Render ended on Sep 1" was said on its own; only the value that followed was wrong.
    assert slot.windows(RENDER) == [(JUN1, SEP1)]


def test_a_correction_of_an_ended_fact_restores_its_predecessor_up_to_the_next_value() -> None:
    slot = Slot()
    slot.write(RENDER, JUN1)
    aws = slot.write(AWS, SEP1)  # the mistake
    slot.write(FLY, DEC1)  # the real next value, which ends the mistake
    slot.revise(aws, CORRECTED)
    assert slot.windows(RENDER) == [(JUN1, DEC1)]
    assert slot.current() == [FLY]
    assert slot.as_of(OCT15) == [RENDER]
    assert not overlaps(slot.rows)


def test_a_corrected_fact_stays_terminal_after_a_restoring_correction(
    mistake: tuple[Slot, str, datetime],
) -> None:
    slot, aws, _ = mistake
    slot.revise(aws, CORRECTED)
    with pytest.raises(FactAlreadyRetired):
        slot.revise(aws, CORRECTED)
    assert slot.current() == [RENDER]


def test_a_correction_sees_through_a_rewrite_to_why_a_value_ended(
    mistake: tuple[Slot, str, datetime],
) -> None:
    """A merge or split files Render's closed version again, window unchanged
    (``rewritten``); the mistake that closed it is still what a correction undoes."""
    slot, aws, _ = mistake
    (closed,) = [v for v in slot.rows if v.object == RENDER and v.expired_at is None]
    now = slot.tick()
    copy = closed.model_copy(update={"version_id": slot.new_id(), "created_at": now})
    slot._apply(
        Plan(
            now=now,
            expire=(Expiry(version_id=closed.version_id, reason=RetiredReason.REWRITTEN),),
            insert=(copy,),
        )
    )
    slot.revise(aws, CORRECTED)
    assert slot.windows(RENDER) == [(JUN1, None)]
    assert slot.current() == [RENDER]
    assert not overlaps(slot.rows)


def test_correcting_the_word_that_outdated_a_value_told_late_gives_that_value_back() -> None:
    # Vercel told with no start; then "Netlify since Jan 6", the person's word, outdates it;
    # then Netlify is corrected (it was another project's). Vercel holds again, as told.
    slot = Slot()
    told_at = slot.now + timedelta(days=1)  # a start nobody stated is the told time
    vercel = slot.write("Vercel", told_at, start_stated=False, tier=Tier.ASSERTED)
    netlify = slot.write("Netlify", JAN6, tier=Tier.ASSERTED)
    assert slot.current() == ["Netlify"]
    plan = slot.revise(netlify, CORRECTED)
    assert slot.current() == ["Vercel"] and slot.windows("Vercel") == [(told_at, None)]
    (back,) = [v for v in plan.insert if v.fact_id == vercel]
    assert (back.start_stated, back.tier, back.retired_reason) == (False, Tier.ASSERTED, None)
    # What was believed while Netlify held is still answerable.
    assert slot.believed_then(told_at + timedelta(days=1)) == ["Netlify"]
    assert not overlaps(slot.rows)


def test_correcting_the_persons_word_gives_back_the_guess_it_overruled() -> None:
    slot = Slot()
    slot.write("Render", OCT1, tier=Tier.INFERRED)  # an agent's guess, dated
    word = slot.write(FLY, JUN1, tier=Tier.ASSERTED)  # the person: "Fly.io since June"
    assert slot.current() == [FLY]
    slot.revise(word, CORRECTED)
    assert slot.current() == ["Render"] and slot.windows("Render") == [(OCT1, None)]


def test_a_replacement_of_the_corrected_word_speaks_for_what_it_had_overruled() -> None:
    slot = Slot()
    slot.write("Vercel", slot.now + timedelta(days=1), start_stated=False, tier=Tier.ASSERTED)
    netlify = slot.write("Netlify", JAN6, tier=Tier.ASSERTED)
    slot.revise(netlify, CORRECTED, replacement=FLY)
    assert slot.current() == [FLY]


def test_what_a_revise_corrected_is_not_given_back_when_its_replacement_is_corrected() -> None:
    slot = Slot()
    pg15 = slot.write("Postgres 15", JAN6)
    slot.revise(pg15, CORRECTED, replacement="Postgres 16")
    (pg16,) = {v.fact_id for v in slot.rows if v.object == "Postgres 16"}
    slot.revise(pg16, CORRECTED)
    assert slot.current() == []
