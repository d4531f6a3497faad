"""The block's "Coming up" section: values that start within the next week (DESIGN.md §6)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from twoclocks.domain.block import render_block
from twoclocks.domain.coming_up import MAX_COMING, coming_up
from twoclocks.domain.model import Cardinality, FactVersion, Tier

NOW = datetime(2026, 12, 18, 12, 0, tzinfo=UTC)
HEADING = "Coming up (next 7 days):"


def fv(
    vid: str,
    predicate: str,
    obj: str,
    valid_at: datetime,
    *,
    invalid_at: datetime | None = None,
    tier: Tier | None = Tier.ASSERTED,
    supersedes: str | None = None,
    expired_at: datetime | None = None,
) -> FactVersion:
    return FactVersion(
        version_id=vid,
        fact_id=f"f-{vid}",
        subject="team",
        predicate=predicate,
        object=obj,
        tier=tier,
        workspace=None,
        valid_at=valid_at,
        invalid_at=invalid_at,
        created_at=NOW - timedelta(days=1),
        expired_at=expired_at,
        supersedes=supersedes,
        cardinality=Cardinality.ONE,
    )


def section(rows: list[FactVersion]) -> list[str]:
    lines = render_block(rows, now=NOW, tz=UTC, workspace_keys=(), status="rows").text
    text = lines.split("\n")
    if HEADING not in text:
        return []
    start = text.index(HEADING) + 1
    return [line for line in text[start:] if line.startswith("- ")]


def test_a_value_that_starts_this_week_is_coming_up_not_a_fact() -> None:
    # "deploy freeze from the 20th", told on the 18th: not true yet, but a session
    # planning a deploy for the 21st must hear of it.
    freeze = fv("z", "deploy_freeze", "on", NOW + timedelta(days=1, hours=12))
    text = render_block([freeze], now=NOW, tz=UTC, workspace_keys=(), status="rows").text
    assert text.split("\n")[3] == "result: rows"
    assert "Facts:" not in text.split("\n")
    assert section([freeze]) == [
        "- team · deploy freeze: on (starts 2026-12-20 00:00 +00, asserted)"
    ]


def test_a_coming_value_names_the_value_it_replaces() -> None:
    # release_day Tuesday until the 21st, then Friday: the current line says "until",
    # the coming line says what follows.
    start = NOW + timedelta(days=2, hours=12)
    tuesday = fv("t", "release_day", "Tuesday", NOW - timedelta(days=30), invalid_at=start)
    friday = fv("f", "release_day", "Friday", start)
    lines = render_block(
        [tuesday, friday], now=NOW, tz=UTC, workspace_keys=(), status="rows"
    ).text.split("\n")
    assert (
        "- team · release day: Tuesday (since 2026-11-18 12:00 +00"
        " until 2026-12-21 00:00 +00, asserted)" in lines
    )
    assert section([tuesday, friday]) == [
        "- team · release day: Tuesday -> Friday (changes 2026-12-21 00:00 +00, asserted)"
    ]


def test_only_the_next_week_of_believed_tiered_values_is_coming_up() -> None:
    later = fv("l", "release_day", "Friday", NOW + timedelta(days=8))
    untiered = fv("u", "on_call", "Dana", NOW + timedelta(days=1), tier=None)
    retracted = fv("r", "cache", "Redis", NOW + timedelta(days=1), expired_at=NOW)
    assert coming_up([later, untiered, retracted], NOW) == []
    many = [fv(f"v{i}", f"slot_{i}", "x", NOW + timedelta(days=6 - i)) for i in range(5)]
    soonest = coming_up(many, NOW)
    assert len(soonest) == MAX_COMING
    assert [v.version_id for v in soonest] == ["v4", "v3", "v2"]


def test_a_scheduled_end_with_a_successor_reads_old_to_new_with_the_successors_end() -> None:
    start, end = NOW + timedelta(days=1), NOW + timedelta(days=4)
    old = fv("o", "on_call", "Dana", NOW - timedelta(days=7), invalid_at=start)
    cover = fv("c", "on_call", "Sam", start, invalid_at=end, supersedes="f-o")
    assert section([old, cover]) == [
        "- team · on call: Dana -> Sam (changes 2026-12-19 12:00 +00 until 2026-12-22 12:00 +00,"
        " asserted)"
    ]
