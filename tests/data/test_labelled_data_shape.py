"""Shape checks for the labelled drift and recall data (issue 11) and the cross-project set (17)."""

import json
from collections import defaultdict
from collections.abc import Callable, Hashable
from datetime import datetime
from pathlib import Path
from typing import Any

DATA = Path(__file__).parent
PAIR_FAMILIES = {
    "synonym", "abbreviation", "reorder", "inflection", "generic_head", "case_style",
    "verb_noun", "number", "ordinal", "contrast", "related_slot", "other",
}  # fmt: skip
FACT_CLASSES = {"user", "rule", "project", "environment", "decision", "task"}
QUESTION_KINDS = {"single", "multi", "none"}
TUNE_POSITIONS = {1, 3}

Row = dict[str, Any]


def load(name: str, folder: Path = DATA) -> list[Row]:
    """Rows of one JSONL file of `folder` (this folder unless told)."""
    with (folder / name).open(encoding="utf-8") as lines:
        return [json.loads(line) for line in lines if line.strip()]


def expected_split(rows: list[Row], stratum: Callable[[Row], Hashable]) -> dict[str, str]:
    """The split the README's rule gives: per stratum, by id, positions 1 and 3 of every 5 tune."""
    groups: dict[Hashable, list[Row]] = defaultdict(list)
    for row in rows:
        groups[stratum(row)].append(row)
    split = {}
    for group in groups.values():
        for position, row in enumerate(sorted(group, key=lambda r: r["id"])):
            split[row["id"]] = "tune" if position % 5 in TUNE_POSITIONS else "heldout"
    return split


def assert_split_follows_the_rule(rows: list[Row], stratum: Callable[[Row], Hashable]) -> None:
    rule = expected_split(rows, stratum)
    assert {r["id"]: r["split"] for r in rows} == rule
    tune_share = sum(r["split"] == "tune" for r in rows) / len(rows)
    assert 0.35 <= tune_share <= 0.45, tune_share


def assert_history_in_order(fact: Row, current: datetime) -> None:
    """At most 3 older values, oldest first, each dated before the current one and unlike it."""
    assert len(fact["history"]) <= 3, fact["id"]
    previous = None
    for older in fact["history"]:
        when = datetime.fromisoformat(older["valid_at"])
        assert when < current, fact["id"]
        assert previous is None or previous < when, fact["id"]
        assert older["object"] != fact["object"], fact["id"]
        previous = when


RECALL_FACT_FIELDS = {"id", "subject", "predicate", "object", "valid_at", "class", "history"}
RECALL_QUESTION_FIELDS = {"id", "question", "expect", "kind", "split"}
EXPECTED_IDS = {"single": {1}, "multi": {2, 3}, "none": {0}}


def assert_recall_facts_shape(rows: list[Row], repos: set[str], now: datetime) -> None:
    """A later set's facts: known fields and classes, repos from ``repos``, one fact per
    slot, dated before ``now`` with history in order, 35-45% with older values."""
    assert_unique_ids(rows)
    for fact in rows:
        assert RECALL_FACT_FIELDS <= fact.keys() <= RECALL_FACT_FIELDS | {"repo"}, fact["id"]
        assert fact["class"] in FACT_CLASSES, fact["id"]
        assert "repo" not in fact or fact["repo"] in repos, fact["id"]
        current = datetime.fromisoformat(fact["valid_at"])
        assert current.tzinfo is not None and current < now, fact["id"]
        assert_history_in_order(fact, current)
    slots = [(f["subject"], f["predicate"]) for f in rows]
    assert len(slots) == len(set(slots))
    assert 0.35 <= sum(bool(f["history"]) for f in rows) / len(rows) <= 0.45


def assert_recall_questions_shape(rows: list[Row], fact_ids: set[str]) -> dict[str, int]:
    """A later set's questions: known fields, kinds and stored ids, as many ids as the
    kind asks; returns the count of each kind."""
    assert_unique_ids(rows)
    by_kind: dict[str, int] = defaultdict(int)
    for question in rows:
        assert question.keys() == RECALL_QUESTION_FIELDS, question["id"]
        assert question["kind"] in QUESTION_KINDS, question["id"]
        by_kind[question["kind"]] += 1
        expect = question["expect"]
        assert set(expect) <= fact_ids and len(set(expect)) == len(expect), question["id"]
        assert len(expect) in EXPECTED_IDS[question["kind"]], question["id"]
    return by_kind


def assert_unique_ids(rows: list[Row]) -> None:
    ids = [r["id"] for r in rows]
    assert len(ids) == len(set(ids))


PAIR_FIELDS = ["id", "subject", "a", "value_a", "b", "value_b", "merge", "why", "family", "split"]


def assert_pairs_split_by_odd_and_even_ids(rows: list[Row]) -> None:
    """160 drift pairs with the fields in order, odd ids tune, 40 of 80 merging per part
    (the later sets' shape: F, G, H)."""
    assert len(rows) == 160
    assert_unique_ids(rows)
    for row in rows:
        assert list(row) == PAIR_FIELDS, row["id"]
        assert isinstance(row["merge"], bool), row["id"]
        assert row["split"] == ("tune" if int(row["id"][1:]) % 2 else "heldout"), row["id"]
    for split in ("tune", "heldout"):
        part = [r for r in rows if r["split"] == split]
        assert sum(r["merge"] for r in part) == 40 and len(part) == 80


def test_drift_pairs_are_at_least_320_about_half_merging() -> None:
    pairs = load("drift_pairs.jsonl")
    assert len(pairs) >= 320
    assert_unique_ids(pairs)
    fields = {"id", "subject", "a", "value_a", "b", "value_b", "merge", "why", "family", "split"}
    for pair in pairs:
        assert fields <= pair.keys() <= fields | {"also_in_slot_pairs"}, pair["id"]
        assert pair["family"] in PAIR_FAMILIES, pair["id"]
        assert isinstance(pair["merge"], bool), pair["id"]
        assert pair["a"] != pair["b"] and pair["subject"] and pair["why"], pair["id"]
    merges = sum(p["merge"] for p in pairs)
    assert 0.45 <= merges / len(pairs) <= 0.55


def test_drift_pairs_cover_numbers_ordinals_and_contrasts_that_must_not_merge() -> None:
    pairs = load("drift_pairs.jsonl")
    kept_apart: dict[str, int] = defaultdict(int)
    for pair in pairs:
        if not pair["merge"]:
            kept_apart[pair["family"]] += 1
    assert kept_apart["number"] >= 20
    assert kept_apart["ordinal"] >= 10
    assert kept_apart["contrast"] >= 40
    assert kept_apart["related_slot"] >= 30


def test_drift_split_is_stratified_by_family_and_label() -> None:
    assert_split_follows_the_rule(
        load("drift_pairs.jsonl"), lambda row: (row["family"], row["merge"])
    )


def test_recall_facts_are_at_least_110_with_older_history() -> None:
    facts = load("recall_facts.jsonl")
    assert len(facts) >= 110
    assert_unique_ids(facts)
    slots = [(f["subject"], f["predicate"]) for f in facts]
    assert len(slots) == len(set(slots)), "one current value per subject and predicate"
    for fact in facts:
        assert fact["class"] in FACT_CLASSES, fact["id"]
        assert fact["predicate"] == fact["predicate"].lower().replace(" ", "_"), fact["id"]
        current = datetime.fromisoformat(fact["valid_at"])
        assert current.tzinfo is not None, fact["id"]
        assert_history_in_order(fact, current)
    with_history = sum(bool(f["history"]) for f in facts) / len(facts)
    assert 0.25 <= with_history <= 0.45, with_history


def test_recall_questions_are_at_least_220_and_expect_stored_facts() -> None:
    questions = load("recall_questions.jsonl")
    fact_ids = {f["id"] for f in load("recall_facts.jsonl")}
    assert len(questions) >= 220
    assert_unique_ids(questions)
    by_kind: dict[str, int] = defaultdict(int)
    for question in questions:
        kind = question["kind"]
        assert kind in QUESTION_KINDS, question["id"]
        by_kind[kind] += 1
        expect = question["expect"]
        assert set(expect) <= fact_ids, question["id"]
        assert len(set(expect)) == len(expect), question["id"]
        assert len(expect) == {"single": 1, "multi": len(expect), "none": 0}[kind], question["id"]
        if kind == "multi":
            assert 2 <= len(expect) <= 3, question["id"]
    assert by_kind["single"] >= 170
    assert by_kind["none"] >= 20
    assert by_kind["multi"] >= 10
    texts = [q["question"].lower() for q in questions]
    assert len(texts) == len(set(texts))


def test_every_fact_is_asked_about_at_least_once() -> None:
    asked = {fact_id for q in load("recall_questions.jsonl") for fact_id in q["expect"]}
    assert {f["id"] for f in load("recall_facts.jsonl")} <= asked


def test_recall_split_is_stratified_by_kind() -> None:
    assert_split_follows_the_rule(load("recall_questions.jsonl"), lambda row: row["kind"])


def test_cross_project_questions_expect_facts_placed_in_repos() -> None:
    questions = load("cross_project.jsonl")
    repo_of = {f["id"]: f.get("repo") for f in load("recall_facts.jsonl")}
    repos = {repo for repo in repo_of.values() if repo}
    assert len(repos) >= 4
    assert len(questions) >= 30
    assert_unique_ids(questions)
    for question in questions:
        assert question["from_repo"] in repos, question["id"]
        assert question["kind"] in QUESTION_KINDS, question["id"]
        assert (question["kind"] == "none") == (not question["expect"]), question["id"]
        for fact_id in question["expect"]:
            assert repo_of.get(fact_id), (question["id"], fact_id)
    from_elsewhere = [
        q for q in questions if any(repo_of[f] != q["from_repo"] for f in q["expect"])
    ]
    assert len(from_elsewhere) >= 25


def test_cross_project_split_is_stratified_by_kind() -> None:
    assert_split_follows_the_rule(load("cross_project.jsonl"), lambda row: row["kind"])
