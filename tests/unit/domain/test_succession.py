"""Which value took over from which (domain/succession.py): one rule for the block's recent
changes and its coming-up lines."""

from __future__ import annotations

from datetime import UTC, datetime

from twoclocks.domain.model import Cardinality, FactVersion, Place, Tier
from twoclocks.domain.succession import predecessor, replacements, successor

JUN, SEP, OCT = (datetime(2026, m, 1, tzinfo=UTC) for m in (6, 9, 10))


def fv(
    name: str,
    valid_at: datetime,
    invalid_at: datetime | None = None,
    *,
    predicate: str = "deploy_target",
    workspace: str | None = "w1",
    supersedes: str | None = None,
    cardinality: Cardinality = Cardinality.ONE,
    place: Place | None = None,
) -> FactVersion:
    return FactVersion(
        version_id=f"v-{name}",
        fact_id=f"f-{name}",
        subject="production",
        predicate=predicate,
        object=name,
        tier=Tier.ASSERTED,
        workspace=workspace,
        valid_at=valid_at,
        invalid_at=invalid_at,
        created_at=JUN,
        supersedes=supersedes,
        cardinality=cardinality,
        place=place,
    )


def test_succession_the_value_holding_the_slot_when_the_old_one_ended_took_over() -> None:
    render, aws = fv("Render", JUN, SEP), fv("AWS", SEP)
    rows = [render, aws]
    assert successor(render, rows) == aws and predecessor(aws, rows) == render
    assert successor(aws, rows) is None and predecessor(render, rows) is None


def test_succession_a_value_that_starts_after_a_gap_replaced_nothing() -> None:
    render, aws = fv("Render", JUN, SEP), fv("AWS", OCT)
    assert replacements(render, [render, aws]) == []
    assert predecessor(aws, [render, aws]) is None


def test_succession_a_named_replacement_wins_over_the_slot() -> None:
    render = fv("Render", JUN, SEP)
    fly = fv("Fly.io", SEP, predicate="hosting", supersedes="f-Render")
    aws = fv("AWS", SEP)
    rows = [render, fly, aws]
    assert successor(render, rows) == fly
    assert predecessor(fly, rows) == render and predecessor(aws, rows) is None


def test_succession_another_worktrees_value_is_not_this_ones_successor() -> None:
    render, aws = fv("Render", JUN, SEP), fv("AWS", SEP, workspace="w2")
    rows = [render, aws]
    assert replacements(render, rows) == [aws]  # the slot is held: not "ended"
    assert successor(render, rows) is None and predecessor(aws, rows) is None
    everywhere = fv("Heroku", SEP, workspace=None)
    assert successor(render, [render, everywhere]) == everywhere


def test_succession_a_many_value_slot_adds_values_without_replacing() -> None:
    many = Cardinality.MANY
    python = fv("Python", JUN, SEP, predicate="languages", cardinality=many)
    go = fv("Go", SEP, predicate="languages", cardinality=many)
    assert successor(python, [python, go]) is None and predecessor(go, [python, go]) is None


def test_succession_a_narrower_value_written_where_the_wider_one_ended_took_over() -> None:
    # The project's Railway, closed by a --class task Render in one worktree: that
    # worktree's block sees both, and Render took over ("Railway -> Render").
    railway = fv("Railway", JUN, SEP, workspace="project:p", place=Place.PROJECT)
    render = fv("Render", SEP, workspace="worktree:w", place=Place.WORKTREE)
    assert successor(railway, [railway, render]) == render
    assert predecessor(render, [railway, render]) == railway
    # One that began before the wider value ended did not take over from it.
    early = fv("Fly.io", JUN, workspace="worktree:w", place=Place.WORKTREE)
    assert successor(railway, [railway, early]) is None
