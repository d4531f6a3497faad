"""The plan of a merge by hand (domain.slot_merge): which windows the other slot cuts."""

from __future__ import annotations

import doctest
import itertools
from datetime import UTC, datetime

from twoclocks.domain import slot_merge
from twoclocks.domain.model import Cardinality, FactVersion, RetiredReason
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


def test_docstring_examples() -> None:
    assert doctest.testmod(slot_merge).failed == 0


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
