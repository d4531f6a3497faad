"""Retiring a fact (DESIGN.md §3 "Revise"): ended, corrected, retract and reopen."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from twoclocks.domain.errors import (
    FactAlreadyRetired,
    FactNotFound,
    FactNotRetracted,
    InvalidInput,
    InvalidTemporalRange,
    NaiveDatetime,
)
from twoclocks.domain.model import (
    FactStatus,
    FactVersion,
    Incoming,
    Outcome,
    Plan,
    RetiredReason,
    Tier,
)
from twoclocks.domain.revise_plan import left_ended, plan_reopen, plan_retract, plan_revise
from twoclocks.domain.temporal import is_current, is_visible, status_of
from twoclocks.domain.write_plan import plan_write


def at(month: int, day: int = 1) -> datetime:
    return datetime(2026, month, day, tzinfo=UTC)


FEB2, MAR1, APR14, MAY1, JUN9, JUL1 = at(2, 2), at(3, 1), at(4, 14), at(5, 1), at(6, 9), at(7, 1)
NOW = at(10, 15)
ENDED, CORRECTED = RetiredReason.ENDED, RetiredReason.CORRECTED


def id_factory() -> Callable[[], str]:
    counter = itertools.count(1)
    return lambda: f"id{next(counter)}"


def version(obj: str = "main", **fields: Any) -> FactVersion:
    base: dict[str, Any] = {
        "version_id": "v1",
        "fact_id": "f1",
        "subject": "acme-api",
        "predicate": "deploys_from",
        "object": obj,
        "valid_at": FEB2,
        "created_at": FEB2,
        "episodes": ("ep-1",),
    }
    base.update(fields)
    return FactVersion(**base)


def replacement(obj: str, **fields: Any) -> Incoming:
    base: dict[str, Any] = {
        "subject": "acme-api",
        "predicate": "deploys_from",
        "object": obj,
        "valid_at": NOW,  # the planner sets the successor's window
        "episode_id": "ep-2",
    }
    base.update(fields)
    return Incoming(**base)


def apply(store: Sequence[FactVersion], plan: Plan) -> list[FactVersion]:
    """What a store does with a plan: expire, link episodes, append; nothing else."""
    expire = {e.version_id: e.reason for e in plan.expire}
    out: list[FactVersion] = []
    for v in store:
        if v.version_id in expire:
            assert v.expired_at is None, f"{v.version_id} expired twice"
            reason = expire.pop(v.version_id)
            v = v.model_copy(update={"expired_at": plan.now, "retired_reason": reason})
        out.append(v)
    assert not expire, "plan expires versions the store does not have"
    return out + list(plan.insert)


def of(store: Sequence[FactVersion], fact_id: str) -> list[FactVersion]:
    return [v for v in store if v.fact_id == fact_id]


def ended_store(new: Callable[[], str]) -> list[FactVersion]:
    """'deploys from main' [Feb 2, ∞), ended Apr 14 with no replacement."""
    store = [version()]
    return apply(store, plan_revise("f1", store, ENDED, APR14, new))


# ---- ended ---------------------------------------------------------------------------


def test_ended_at_before_valid_at_is_invalid_temporal_range() -> None:
    with pytest.raises(InvalidTemporalRange) as info:
        plan_revise(
            "f1", [version()], ENDED, NOW, id_factory(), at=FEB2 - timedelta(microseconds=1)
        )
    assert info.value.http_status == 422
    assert "before it began" in info.value.message
    assert "never stated" not in info.value.message


def test_ending_a_start_nobody_stated_before_it_says_how_to_date_the_change() -> None:
    told = version().model_copy(update={"start_stated": False})
    with pytest.raises(InvalidTemporalRange) as info:
        plan_revise("f1", [told], ENDED, NOW, id_factory(), at=FEB2 - timedelta(days=1))
    assert "its start was never stated" in info.value.message
    assert "remember the new value with that valid_at" in info.value.message


def test_a_correction_hands_its_start_as_known_to_the_value_written_in_its_place() -> None:
    for stated in (True, False):
        told = version().model_copy(update={"start_stated": stated})
        plan = plan_revise("f1", [told], CORRECTED, NOW, id_factory(), None, replacement("16"))
        assert [v.start_stated for v in plan.insert if v.fact_id != "f1"] == [stated]


def test_ended_exactly_at_valid_at_is_allowed() -> None:
    plan = plan_revise("f1", [version()], ENDED, NOW, id_factory(), at=FEB2)
    (copy,) = plan.insert
    assert (copy.valid_at, copy.invalid_at) == (FEB2, FEB2)
    after = apply([version()], plan)
    assert status_of(after) is FactStatus.ENDED
    assert not any(is_visible(v, NOW, as_of=FEB2) for v in after)


def test_ended_without_at_ends_now() -> None:
    plan = plan_revise("f1", [version()], ENDED, APR14, id_factory())
    (copy,) = plan.insert
    assert copy.invalid_at == APR14


def test_ended_replacement_starts_at_at() -> None:
    original = version()
    plan = plan_revise(
        "f1", [original], ENDED, JUN9, id_factory(), at=APR14, replacement=replacement("trunk")
    )

    assert [(e.version_id, e.reason) for e in plan.expire] == [("v1", ENDED)]
    copy, successor = plan.insert
    assert (copy.fact_id, copy.object, copy.valid_at, copy.invalid_at) == (
        "f1",
        "main",
        FEB2,
        APR14,
    )
    assert copy.created_at == JUN9 and copy.episodes == ("ep-1",)
    assert (successor.object, successor.valid_at, successor.invalid_at) == ("trunk", APR14, None)
    assert successor.supersedes == "f1"
    assert successor.created_at == JUN9
    assert successor.fact_id != "f1"
    assert (plan.fact_id, plan.successor_id, plan.closed) == ("f1", successor.fact_id, ("f1",))

    after = apply([original], plan)
    assert [v.object for v in after if is_current(v, NOW)] == ["trunk"]
    assert [v.object for v in after if is_visible(v, NOW, as_of=MAR1)] == ["main"]
    assert [v.object for v in after if is_visible(v, NOW, as_of=APR14)] == ["trunk"]


def test_ended_fact_refuses_a_second_ended() -> None:
    new = id_factory()
    store = ended_store(new)
    with pytest.raises(FactAlreadyRetired) as info:
        plan_revise("f1", store, ENDED, NOW, new, replacement=replacement("trunk"))
    assert info.value.message.endswith("re-read current state before revising")
    assert info.value.http_status == 409


def test_a_fact_whose_end_is_still_ahead_refuses_a_second_end_without_saying_it_ended() -> None:
    # Ended at next year's start, told today: it still holds, so "already ended" misleads.
    store = apply([version()], plan_revise("f1", [version()], ENDED, NOW, id_factory(), at=at(12)))
    with pytest.raises(FactAlreadyRetired) as info:
        plan_revise("f1", of(store, "f1"), ENDED, NOW, id_factory())
    assert f"has an end ({at(12).isoformat()})" in info.value.message
    assert "already ended" not in info.value.message


def test_a_retried_ended_leaves_exactly_one_successor() -> None:
    new = id_factory()
    store = [version()]
    first = plan_revise("f1", store, ENDED, APR14, new, replacement=replacement("trunk"))
    store = apply(store, first)
    # the retry re-reads the fact's versions and is refused, so no second successor
    with pytest.raises(FactAlreadyRetired):
        plan_revise("f1", of(store, "f1"), ENDED, APR14, new, replacement=replacement("trunk"))
    assert [v.object for v in store if is_current(v, NOW)] == ["trunk"]


def test_naive_at_is_refused_with_naive_datetime() -> None:
    with pytest.raises(NaiveDatetime):
        plan_revise("f1", [version()], ENDED, NOW, id_factory(), at=datetime(2026, 4, 14))


# ---- corrected -----------------------------------------------------------------------


def test_corrected_is_belief_axis_only_and_successor_inherits_whole_window() -> None:
    pg15 = version("Postgres 15", predicate="runs_on")
    plan = plan_revise(
        "f1",
        [pg15],
        CORRECTED,
        JUN9,
        id_factory(),
        replacement=replacement("Postgres 16", predicate="runs_on"),
    )

    # belief axis only: the version is expired, no closed copy is written
    assert [(e.version_id, e.reason) for e in plan.expire] == [("v1", CORRECTED)]
    (successor,) = plan.insert
    assert (successor.valid_at, successor.invalid_at) == (pg15.valid_at, pg15.invalid_at)
    assert successor.supersedes == "f1"
    assert successor.subject == pg15.subject
    assert successor.created_at == JUN9

    after = apply([pg15], plan)
    # never true: no world date returns Postgres 15 ...
    for t in (FEB2, MAR1, MAY1, NOW):
        assert [v.object for v in after if is_visible(v, NOW, as_of=t)] == ["Postgres 16"]
    # ... but the record of having believed it is kept
    assert [v.object for v in after if is_visible(v, NOW, as_believed=MAY1)] == ["Postgres 15"]
    assert status_of(of(after, "f1")) is FactStatus.CORRECTED


def test_corrected_without_replacement_leaves_nothing_current() -> None:
    plan = plan_revise("f1", [version()], CORRECTED, JUN9, id_factory())
    assert plan.insert == ()
    assert plan.successor_id is None
    assert not any(is_current(v, NOW) for v in apply([version()], plan))


def test_corrected_carries_the_original_valid_to_of_an_ended_fact() -> None:
    # The lontar bug: start from an ENDED fact, so an unset end cannot pass by accident.
    new = id_factory()
    store = [version()]
    store = apply(
        store, plan_revise("f1", store, ENDED, APR14, new, replacement=replacement("trunk"))
    )
    plan = plan_revise(
        "f1", of(store, "f1"), CORRECTED, JUN9, new, replacement=replacement("the main branch")
    )

    (successor,) = plan.insert
    assert (successor.valid_at, successor.invalid_at) == (FEB2, APR14)
    store = apply(store, plan)
    # the dead branch does not come back as current beside trunk
    assert [v.object for v in store if is_current(v, NOW)] == ["trunk"]
    assert [v.object for v in store if is_visible(v, NOW, as_of=MAR1)] == ["the main branch"]


def test_corrected_fact_is_terminal_any_revision_fails_fact_already_retired() -> None:
    new = id_factory()
    store = [version("Postgres 15")]
    store = apply(
        store,
        plan_revise("f1", store, CORRECTED, JUN9, new, replacement=replacement("Postgres 16")),
    )
    for reason in (ENDED, CORRECTED):
        with pytest.raises(FactAlreadyRetired) as info:
            plan_revise("f1", of(store, "f1"), reason, NOW, new, replacement=replacement("x 17"))
        assert "corrected" in info.value.message
        assert info.value.message.endswith("re-read current state before revising")
    with pytest.raises(FactAlreadyRetired):
        plan_retract("f1", of(store, "f1"), NOW)


def test_a_fact_outdated_when_told_refuses_every_revision_and_is_not_reopened() -> None:
    # "main", told Mar 1 with no start, then the person's word: "trunk since Feb 2".
    told = version(valid_at=MAR1, created_at=MAR1, start_stated=False, tier=Tier.ASSERTED)
    word = Incoming(subject="acme-api", predicate="deploys_from", object="trunk",
                    valid_at=FEB2, tier=Tier.ASSERTED, episode_id="ep-2")  # fmt: skip
    store = apply([told], plan_write(word, [told], APR14, id_factory()))
    assert status_of(of(store, "f1")) is FactStatus.OUTDATED
    for reason in (ENDED, CORRECTED):
        with pytest.raises(FactAlreadyRetired) as info:
            plan_revise("f1", of(store, "f1"), reason, NOW, id_factory())
        assert "already outdated" in info.value.message
    with pytest.raises(FactAlreadyRetired):
        plan_retract("f1", of(store, "f1"), NOW)
    with pytest.raises(FactNotRetracted):
        plan_reopen("f1", of(store, "f1"), store, NOW, id_factory())


def test_corrected_with_at_is_refused() -> None:
    with pytest.raises(InvalidInput) as info:
        plan_revise("f1", [version()], CORRECTED, NOW, id_factory(), at=MAR1)
    assert not isinstance(info.value, InvalidTemporalRange)
    assert "record clock" in info.value.message


def test_retracted_is_not_a_revise_reason() -> None:
    with pytest.raises(InvalidInput):
        plan_revise("f1", [version()], RetiredReason.RETRACTED, NOW, id_factory())


# ---- not found vs already retired ----------------------------------------------------


def test_unknown_fact_is_fact_not_found_distinct_from_already_retired() -> None:
    assert not issubclass(FactNotFound, FactAlreadyRetired)
    assert not issubclass(FactAlreadyRetired, FactNotFound)
    for call in (
        lambda: plan_revise("nope", [], ENDED, NOW, id_factory()),
        lambda: plan_revise("nope", [], CORRECTED, NOW, id_factory()),
        lambda: plan_retract("nope", [], NOW),
        lambda: plan_reopen("nope", [], [], NOW, id_factory()),
    ):
        with pytest.raises(FactNotFound) as info:
            call()
        assert info.value.http_status == 404
    # a known but retired fact is never reported as not found
    with pytest.raises(FactAlreadyRetired):
        plan_revise("f1", ended_store(id_factory()), ENDED, NOW, id_factory())


# ---- retract and reopen --------------------------------------------------------------


def test_retract_closes_on_belief_axis_and_keeps_the_row() -> None:
    main = version()
    plan = plan_retract("f1", [main], JUN9)
    assert [(e.version_id, e.reason) for e in plan.expire] == [("v1", RetiredReason.RETRACTED)]
    assert plan.insert == ()

    (row,) = apply([main], plan)
    assert row.version_id == "v1"
    assert (row.valid_at, row.invalid_at) == (FEB2, None)  # world axis untouched
    assert row.expired_at == JUN9
    assert not is_current(row, NOW)
    assert is_visible(row, NOW, as_believed=MAY1)
    assert status_of([row]) is FactStatus.RETRACTED


def test_retracted_fact_refuses_a_second_retract() -> None:
    store = apply([version()], plan_retract("f1", [version()], JUN9))
    with pytest.raises(FactAlreadyRetired):
        plan_retract("f1", store, NOW)


def test_reopen_undoes_a_retract() -> None:
    new = id_factory()
    store = apply([version()], plan_retract("f1", [version()], JUN9))

    plan = plan_reopen("f1", of(store, "f1"), store, JUL1, new)

    (reopened,) = plan.insert
    assert reopened.fact_id == "f1"
    assert reopened.version_id != "v1"
    assert (reopened.object, reopened.valid_at, reopened.invalid_at) == ("main", FEB2, None)
    assert reopened.episodes == ("ep-1",)
    assert reopened.created_at == JUL1
    store = apply(store, plan)
    assert status_of(of(store, "f1")) is FactStatus.LIVE
    assert [v.object for v in store if is_current(v, NOW)] == ["main"]
    # the retracted stretch of belief stays recorded
    assert not any(is_visible(v, NOW, as_believed=JUN9) for v in store)


def test_reopen_keeps_the_name_a_fact_was_written_under() -> None:
    drifted = version(written_as="deploy_branch")
    store = apply([drifted], plan_retract("f1", [drifted], JUN9))
    (reopened,) = plan_reopen("f1", of(store, "f1"), store, JUL1, id_factory()).insert
    assert (reopened.predicate, reopened.written_as) == ("deploys_from", "deploy_branch")


def test_reopen_after_a_merge_lands_in_the_slot_its_name_joined() -> None:
    new = id_factory()
    store = apply([version()], plan_retract("f1", [version()], JUN9))
    later = version("trunk", version_id="v9", fact_id="f9", predicate="source_branch",
                    valid_at=APR14, created_at=JUN9)  # fmt: skip

    plan = plan_reopen("f1", of(store, "f1"), [later], JUL1, new, slot="source_branch")

    reopened = [v for v in plan.insert if v.fact_id == "f1"]
    assert [(v.predicate, v.written_as, v.invalid_at) for v in reopened] == [
        ("source_branch", "deploys_from", APR14)  # trunk took over on Apr 14
    ]


def test_reopen_of_a_live_fact_is_refused() -> None:
    with pytest.raises(FactNotRetracted):
        plan_reopen("f1", [version()], [version()], NOW, id_factory())
    with pytest.raises(FactNotRetracted):
        plan_reopen("f1", ended_store(id_factory()), [], NOW, id_factory())


def test_reopen_respects_a_value_written_since_the_retract() -> None:
    new = id_factory()
    store = apply([version()], plan_retract("f1", [version()], MAY1))
    # trunk is written dated Apr 14 while main is retracted
    store = apply(store, plan_write(replacement("trunk", valid_at=APR14), store, JUN9, new))

    store = apply(store, plan_reopen("f1", of(store, "f1"), store, JUL1, new))

    believed = sorted((v for v in store if v.expired_at is None), key=lambda v: v.valid_at)
    assert [(v.object, v.valid_at, v.invalid_at) for v in believed] == [
        ("main", FEB2, APR14),
        ("trunk", APR14, None),
    ]


def test_reopen_leaves_a_guess_written_since_the_retract_as_it_would_have_been() -> None:
    # The person's main (asserted) is retracted by mistake; an agent then guesses trunk at
    # Jun 9. Had main never been retracted, the guess would have closed it at Jun 9; the
    # reopen gives that slot back, not the one the person's word would make of a new write.
    new = id_factory()
    mine = version(tier=Tier.ASSERTED)
    store = apply([mine], plan_retract("f1", [mine], MAY1))
    guess = replacement("trunk", valid_at=JUN9, tier=Tier.INFERRED)
    store = apply(store, plan_write(guess, store, JUN9, new))

    store = apply(store, plan_reopen("f1", of(store, "f1"), store, JUL1, new))

    believed = sorted((v for v in store if v.expired_at is None), key=lambda v: v.valid_at)
    assert [(v.object, v.valid_at, v.invalid_at) for v in believed] == [
        ("main", FEB2, JUN9),
        ("trunk", JUN9, None),
    ]


def test_reopen_of_a_closed_fact_does_not_erase_the_current_value() -> None:
    # main [Feb 2, Apr 14) is history; it is retracted, then trunk is written dated Feb 2.
    new = id_factory()
    store = ended_store(new)
    store = apply(store, plan_retract("f1", of(store, "f1"), MAY1))
    store = apply(store, plan_write(replacement("trunk", valid_at=FEB2), store, JUN9, new))
    assert [v.object for v in store if is_current(v, NOW)] == ["trunk"]

    store = apply(store, plan_reopen("f1", of(store, "f1"), store, JUL1, new))

    # main takes back its own window; trunk keeps the rest, so a value stays current
    assert [v.object for v in store if is_visible(v, NOW, as_of=MAR1)] == ["main"]
    assert [v.object for v in store if is_current(v, NOW)] == ["trunk"]
    assert [v.object for v in store if is_visible(v, NOW, as_of=APR14)] == ["trunk"]


def test_reopen_into_a_restated_value_reopens_nothing() -> None:
    new = id_factory()
    store = apply([version()], plan_retract("f1", [version()], MAY1))
    store = apply(store, plan_write(replacement("main", valid_at=FEB2), store, JUN9, new))
    plan = plan_reopen("f1", of(store, "f1"), store, JUL1, new)
    assert plan.outcome is Outcome.RESTATED
    assert plan.fact_id != "f1"
    assert plan.insert == () and plan.expire == ()


def test_a_retract_that_leaves_its_slot_empty_names_what_stays_ended() -> None:
    # Redis [Feb 2, May 1), Memcached [May 1, open) closed it; Memcached is retracted.
    def cache(vid: str, obj: str, start: datetime, end: datetime | None = None) -> FactVersion:
        return version(obj, version_id=vid, fact_id=f"f-{vid}", valid_at=start, invalid_at=end)

    redis, memcached = cache("r", "Redis", FEB2, MAY1), cache("m", "Memcached", MAY1)
    assert [v.object for v in left_ended([memcached], [redis], NOW)] == ["Redis"]
    # With a value holding now, nothing is left ended; nor when the old value had ended
    # on its own before the retracted one started.
    valkey = cache("v", "Valkey", JUL1)
    assert left_ended([memcached], [redis, valkey], NOW) == []
    earlier = cache("e", "Redis", FEB2, APR14)
    assert left_ended([memcached], [earlier], NOW) == []
    # What the retracted fact's dated word had overruled is named too, unless a value holds.
    told = cache("t", "Valkey", JUN9).model_copy(update={"start_stated": False})
    assert [v.object for v in left_ended([memcached], [], NOW, [told])] == ["Valkey"]
    assert left_ended([memcached], [valkey], NOW, [told]) == []
