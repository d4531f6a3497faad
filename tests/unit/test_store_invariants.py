"""The invariant check the crash and soak runs rely on flags each broken rule, and only those."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from twoclocks.domain.model import FactVersion
from twoclocks.eval.invariants import Acknowledged, check

T0 = datetime(2026, 1, 1, tzinfo=UTC)
NOW = T0 + timedelta(days=30)


def v(
    vid: str, fid: str, obj: str, start: int, end: int | None = None, **kw: object
) -> FactVersion:
    return FactVersion(
        version_id=vid, fact_id=fid, subject="api", predicate="runs_on", object=obj,
        valid_at=T0 + timedelta(days=start),
        invalid_at=None if end is None else T0 + timedelta(days=end),
        created_at=T0 + timedelta(days=start), **kw,
    )  # fmt: skip


def test_a_sound_history_has_no_violations() -> None:
    rows = [v("v1", "f1", "fly", 0, 10), v("v2", "f2", "render", 10, supersedes="f1")]
    acks = [Acknowledged("remember", "f1", version_id="v1"), Acknowledged("revise", "f1")]
    assert check(rows, acks[:1], NOW).violations == []


def test_an_acknowledged_write_missing_from_the_store_is_a_violation() -> None:
    report = check([v("v1", "f1", "fly", 0)], [Acknowledged("remember", "f9", "v9")], NOW)
    assert report.missing == ["remember f9/v9: version lost"]


def test_a_one_value_slot_with_two_current_facts_is_a_violation() -> None:
    report = check([v("v1", "f1", "fly", 0), v("v2", "f2", "render", 5)], [], NOW)
    assert len(report.two_current) == 1 and len(report.overlapping) == 1


def test_overlapping_windows_in_the_past_are_a_violation() -> None:
    report = check([v("v1", "f1", "fly", 0, 10), v("v2", "f2", "render", 5, 12)], [], NOW)
    assert report.two_current == [] and len(report.overlapping) == 1


def test_a_fact_with_two_successors_is_a_violation() -> None:
    rows = [
        v("v1", "f1", "fly", 0, 10),
        v("v2", "f2", "render", 10, 20, supersedes="f1"),
        v("v3", "f3", "heroku", 20, supersedes="f1"),
    ]
    assert check(rows, [], NOW).two_successors == ["fact f1: 2 successors ['f2', 'f3']"]
