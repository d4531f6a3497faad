"""Shape checks for set D (issue 11): drift pairs and recall, written on 2026-12-02 by two
helpers that read none of the code or the other sets, and measured before any tuning."""

import re
from collections import defaultdict
from datetime import datetime

from test_labelled_data_shape import (
    DATA,
    PAIR_FIELDS,
    Row,
    assert_recall_facts_shape,
    assert_recall_questions_shape,
    assert_split_follows_the_rule,
    assert_unique_ids,
    load,
)

SET_D = DATA / "set_d"
SERVICE_REPOS = {"forecast-api", "ingestor", "tiles", "billing", "android-app", "platform"}
NOW = datetime.fromisoformat("2026-12-01T00:00:00+00:00")


def pairs() -> list[Row]:
    """Set D's drift pairs."""
    return load("drift_pairs.jsonl", SET_D)


def facts() -> list[Row]:
    """Set D's facts."""
    return load("recall_facts.jsonl", SET_D)


def questions() -> list[Row]:
    """Set D's questions."""
    return load("recall_questions.jsonl", SET_D)


def test_set_d_drift_pairs_are_240_about_half_merging() -> None:
    rows = pairs()
    assert len(rows) == 240
    assert_unique_ids(rows)
    for row in rows:
        assert list(row) == PAIR_FIELDS, row["id"]
        assert re.fullmatch(r"d\d{3}", row["id"]), row["id"]
        assert row["a"].lower() != row["b"].lower(), row["id"]
        assert row["value_a"] and row["value_b"], row["id"]
    assert 0.45 <= sum(r["merge"] for r in rows) / len(rows) <= 0.55


def test_set_d_drift_holds_numbers_ordinals_and_contrasts_that_must_not_merge() -> None:
    apart: dict[str, int] = defaultdict(int)
    for row in pairs():
        if not row["merge"]:
            apart[row["family"]] += 1
    assert apart["contrast"] >= 40 and apart["number"] >= 10 and apart["ordinal"] >= 5


def test_set_d_drift_split_is_stratified_by_family_and_label() -> None:
    assert_split_follows_the_rule(pairs(), lambda row: (row["family"], row["merge"]))


def test_set_d_facts_are_at_least_110_with_older_history() -> None:
    rows = facts()
    assert len(rows) >= 110
    assert_recall_facts_shape(rows, SERVICE_REPOS, NOW)


def test_set_d_questions_are_at_least_220_and_expect_stored_facts() -> None:
    rows = questions()
    assert len(rows) >= 220
    by_kind = assert_recall_questions_shape(rows, {f["id"] for f in facts()})
    assert by_kind["single"] >= 180 and by_kind["multi"] >= 20 and by_kind["none"] >= 20


def test_set_d_recall_split_is_stratified_by_kind() -> None:
    assert_split_follows_the_rule(questions(), lambda row: row["kind"])
