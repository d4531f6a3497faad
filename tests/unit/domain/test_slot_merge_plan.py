"""The plan of a merge by hand (domain.slot_merge): which windows the other slot cuts."""

from __future__ import annotations

import itertools
from datetime import UTC, datetime

from twoclocks.domain.model import Cardinality, FactVersion, RetiredReason, Tier
from twoclocks.domain.slot_merge import plan_merge

JAN, MAR, JUN, NOW = (datetime(2026, m, 1, tzinfo=UTC) for m in (1, 3, 6, 7))


def version(predicate: str, obj: str, valid_at: datetime, **more: object) -> FactVersion:
    return FactVersion(
        version_id=f"v-{obj}",
        fact_id=f"f-{obj}",
        subject="core",
        predicate=predicate,
        object=obj,
        valid_at=valid_at,
        created_at=valid_at,
        **more,  # type: ignore[arg-type]
    )


def ids() -> itertools.count[int]:
    return itertools.count()


def plan(moved: list[FactVersion], kept: list[FactVersion]):  # type: ignore[no-untyped-def]
    counter = ids()
    return plan_merge("steward", "owner", moved, kept, NOW, lambda: f"n{next(counter)}")


def windows(p) -> list[tuple[str, str, datetime, datetime | None, str | None]]:  # type: ignore[no-untyped-def]
    return sorted((v.predicate, v.object, v.valid_at, v.invalid_at, v.written_as) for v in p.insert)


def test_slot_merge_values_in_places_that_do_not_overlap_do_not_cut_each_other() -> None:
    aiko = version("owner", "Aiko", JAN, workspace="repo:web")
    lucia = version("steward", "Lucía", MAR, workspace="repo:api")
    p = plan([lucia], [aiko])
    assert windows(p) == [("owner", "Lucía", MAR, None, "steward")]
    assert p.closed == ()


def test_slot_merge_a_slot_of_several_values_only_moves() -> None:
    many = {"cardinality": Cardinality.MANY}
    go, rust = version("languages", "Go", JAN, **many), version("langs", "Rust", MAR, **many)
    p = plan([rust], [go])
    assert windows(p) == [("owner", "Rust", MAR, None, "steward")]
    assert [e.reason for e in p.expire] == [RetiredReason.REWRITTEN]


def test_slot_merge_keeps_an_earlier_end_and_cuts_a_later_one() -> None:
    aiko = version("owner", "Aiko", JAN, invalid_at=MAR)  # revise ended: she left in March
    lucia = version("steward", "Lucía", JUN)
    p = plan([lucia], [aiko])
    assert windows(p) == [("owner", "Lucía", JUN, None, "steward")]  # Aiko untouched
    mateo = version("owner", "Mateo", JAN, invalid_at=NOW)
    p = plan([lucia], [mateo])
    assert ("owner", "Mateo", JAN, JUN, None) in windows(p)
    assert p.closed == ()  # Mateo was not current: nothing current became history


def test_slot_merge_an_alias_of_the_merged_name_keeps_its_name() -> None:
    lucia = version("steward", "Lucía", MAR, written_as="stewardship")
    p = plan([lucia], [])
    assert windows(p) == [("owner", "Lucía", MAR, None, "stewardship")]


def test_slot_merge_with_nothing_to_move_changes_nothing() -> None:
    assert not plan([], [version("owner", "Aiko", JAN)]).changes_anything


def _second(v: FactVersion, **more: object) -> FactVersion:
    """The same value again, as another fact of the other slot."""
    return v.model_copy(
        update={"version_id": f"{v.version_id}-2", "fact_id": f"{v.fact_id}-2", **more}
    )


def test_slot_merge_folds_the_same_value_into_the_earlier_which_keeps_its_start() -> None:
    owner = version("owner", "Aiko", JAN, episodes=("e-jan",))
    steward = _second(owner, predicate="steward", valid_at=JUN, created_at=JUN, episodes=("e-jun",))
    p = plan([steward], [owner])
    # Nothing written again, nothing closed: the June words join the January fact.
    assert (windows(p), p.closed, p.folded) == ([], (), (("f-Aiko-2", "f-Aiko"),))
    assert [(e.version_id, e.reason) for e in p.expire] == [("v-Aiko-2", RetiredReason.REWRITTEN)]
    assert [(link.version_id, link.episode_id) for link in p.link_episodes] == [("v-Aiko", "e-jun")]
    # The other way round: the slot's later Aiko folds into the moved earlier one.
    early = version("steward", "Aiko", JAN)
    late = _second(early, predicate="owner", valid_at=JUN, created_at=JUN)
    p = plan([early], [late])
    assert windows(p) == [("owner", "Aiko", JAN, None, "steward")]
    assert p.folded == (("f-Aiko-2", "f-Aiko"),) and p.closed == ()


def test_slot_merge_folds_no_value_another_one_interrupts_or_in_another_place() -> None:
    owner = version("owner", "Aiko", JAN)
    lucia = version("steward", "Lucía", MAR, invalid_at=JUN)
    again = _second(owner, predicate="steward", valid_at=JUN, created_at=JUN)
    p = plan([lucia, again], [owner])
    assert p.folded == ()  # Lucía held March to June: Aiko since January is not true
    assert ("owner", "Aiko", JAN, MAR, None) in windows(p)
    elsewhere = _second(owner, predicate="steward", valid_at=JUN, workspace="repo:api")
    assert plan([elsewhere], [owner]).folded == ()


def test_slot_merge_keeps_the_higher_tier_of_a_folded_value() -> None:
    guess = version("owner", "Aiko", JAN, tier=Tier.INFERRED, writer="agent")
    said = _second(guess, predicate="steward", valid_at=JUN, tier=Tier.ASSERTED, writer="person")
    p = plan([said], [guess])
    assert [(v.fact_id, v.valid_at, v.tier) for v in p.insert] == [("f-Aiko", JAN, Tier.ASSERTED)]
    assert {e.version_id for e in p.expire} == {"v-Aiko", "v-Aiko-2"}
