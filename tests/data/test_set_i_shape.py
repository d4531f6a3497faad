"""Shape checks for set I (issue 11): recall facts and questions, written on 2026-12-05 by a
helper that read none of the code or the other sets, and measured before any tuning."""

from datetime import datetime

from test_labelled_data_shape import (
    DATA,
    Row,
    assert_recall_facts_shape,
    assert_recall_questions_shape,
    assert_split_follows_the_rule,
    load,
)

SET_I = DATA / "set_i"
SERVICE_REPOS = {
    "ride-api", "firmware", "fleet-dashboard", "companion-app", "ota-server", "telemetry-ingest",
}  # fmt: skip
NOW = datetime.fromisoformat("2026-11-30T00:00:00+00:00")


def facts() -> list[Row]:
    """Set I's facts."""
    return load("recall_facts.jsonl", SET_I)


def questions() -> list[Row]:
    """Set I's questions."""
    return load("recall_questions.jsonl", SET_I)


def test_set_i_facts_are_at_least_130_each_service_fact_in_its_repo() -> None:
    rows = facts()
    assert len(rows) >= 130
    assert_recall_facts_shape(rows, SERVICE_REPOS, NOW)
    assert all(f["subject"] == f["repo"] for f in rows if "repo" in f)


def test_set_i_questions_are_at_least_220_and_expect_stored_facts() -> None:
    rows = questions()
    assert len(rows) >= 220
    by_kind = assert_recall_questions_shape(rows, {f["id"] for f in facts()})
    assert by_kind["single"] >= 180 and by_kind["multi"] >= 20 and by_kind["none"] >= 20


def test_set_i_recall_split_is_stratified_by_kind() -> None:
    assert_split_follows_the_rule(questions(), lambda row: row["kind"])
