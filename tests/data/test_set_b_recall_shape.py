"""Shape checks for set B of the recall data (issue 11): a second, independently written set."""

from collections import defaultdict
from datetime import datetime

from test_labelled_data_shape import (
    DATA,
    FACT_CLASSES,
    Row,
    assert_history_in_order,
    assert_recall_questions_shape,
    assert_split_follows_the_rule,
    assert_unique_ids,
    load,
)

SET_B = DATA / "set_b"
FACT_FIELDS = {"id", "subject", "predicate", "object", "valid_at", "class", "history"}
SERVICE_REPOS = {"orders-svc", "inventory", "notifier", "data-pipeline", "ios-app", "infra"}
NOW = datetime.fromisoformat("2026-12-01T00:00:00+00:00")


def facts() -> list[Row]:
    """The facts of set B."""
    return load("recall_facts.jsonl", SET_B)


def questions() -> list[Row]:
    """The questions of set B."""
    return load("recall_questions.jsonl", SET_B)


def test_set_b_facts_are_at_least_110_with_the_fields_the_loader_reads() -> None:
    rows = facts()
    assert len(rows) >= 110
    assert_unique_ids(rows)
    assert [r["id"] for r in rows] == [f"g{n:03d}" for n in range(1, len(rows) + 1)]
    for fact in rows:
        assert FACT_FIELDS <= fact.keys() <= FACT_FIELDS | {"repo"}, fact["id"]
        assert fact["class"] in FACT_CLASSES, fact["id"]
        assert fact["subject"] and fact["object"], fact["id"]
        assert fact["predicate"] == fact["predicate"].lower().replace(" ", "_"), fact["id"]
        assert fact.get("repo", "orders-svc") in SERVICE_REPOS, fact["id"]


def test_set_b_has_one_current_value_per_slot() -> None:
    slots = [(f["subject"], f["predicate"]) for f in facts()]
    assert len(slots) == len(set(slots))


def test_set_b_history_is_older_than_the_current_value_and_oldest_first() -> None:
    rows = facts()
    for fact in rows:
        current = datetime.fromisoformat(fact["valid_at"])
        assert current.tzinfo is not None and current < NOW, fact["id"]
        assert all(older.keys() == {"object", "valid_at"} for older in fact["history"]), fact["id"]
        assert_history_in_order(fact, current)
    with_history = sum(bool(f["history"]) for f in rows) / len(rows)
    assert 0.35 <= with_history <= 0.45, with_history


def test_set_b_places_about_half_the_facts_in_service_repos() -> None:
    rows = facts()
    placed: dict[str, int] = defaultdict(int)
    for fact in rows:
        if "repo" in fact:
            placed[fact["repo"]] += 1
    assert placed.keys() == SERVICE_REPOS
    assert 0.4 <= sum(placed.values()) / len(rows) <= 0.6


def test_set_b_shares_service_slots_so_questions_must_name_the_service() -> None:
    subjects_of: dict[str, set[str]] = defaultdict(set)
    for fact in facts():
        if "repo" in fact:
            subjects_of[fact["predicate"]].add(fact["subject"])
    for predicate in ("owner", "language", "http_port", "ci", "deploy_target"):
        assert len(subjects_of[predicate]) >= 3, predicate


def test_set_b_questions_are_at_least_220_of_each_kind_and_expect_stored_facts() -> None:
    rows = questions()
    fact_ids = {f["id"] for f in facts()}
    assert len(rows) >= 220
    assert [r["id"] for r in rows] == [f"h{n:03d}" for n in range(1, len(rows) + 1)]
    by_kind = assert_recall_questions_shape(rows, fact_ids)
    assert by_kind["single"] >= 170
    assert by_kind["multi"] >= 20
    assert by_kind["none"] >= 20
    texts = [q["question"].strip().lower() for q in rows]
    assert len(texts) == len(set(texts))


def test_set_b_asks_about_every_fact_and_no_fact_more_than_twice() -> None:
    asked: dict[str, int] = defaultdict(int)
    for question in questions():
        for fact_id in question["expect"]:
            asked[fact_id] += 1
    assert asked.keys() == {f["id"] for f in facts()}
    assert max(asked.values()) <= 2


def test_set_b_split_is_stratified_by_kind() -> None:
    assert_split_follows_the_rule(questions(), lambda row: row["kind"])
