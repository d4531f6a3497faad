"""Shape checks for set E (issue 11): whole subjects for slot drift as it runs, written on
2026-12-02 by a helper that read none of the code or the other sets."""

from test_labelled_data_shape import (
    DATA,
    Row,
    assert_split_follows_the_rule,
    assert_unique_ids,
    load,
)

from twoclocks.eval.data import whole_subjects

SET_E = DATA / "set_e"
KINDS = {"service", "person", "team", "environment", "workstation", "project"}


def subjects() -> list[Row]:
    """Set E's subjects."""
    return load("subjects.jsonl", SET_E)


def folded(name: str) -> str:
    """A name without case or separators: "maxConcurrency" and "max_concurrency" meet."""
    return "".join(ch for ch in name.lower() if ch.isalnum())


def test_set_e_holds_40_subjects_of_8_to_15_distinct_slots() -> None:
    rows = subjects()
    assert len(rows) == 40
    assert_unique_ids(rows)
    for row in rows:
        assert row["kind"] in KINDS, row["id"]
        names = [s["predicate"] for s in row["slots"]]
        assert 8 <= len(names) <= 15, row["id"]
        assert len({folded(n) for n in names}) == len(names), row["id"]


def test_set_e_renames_name_a_slot_and_new_slots_name_none() -> None:
    for row in subjects():
        names = {s["predicate"] for s in row["slots"]}
        assert 2 <= len(row["renames"]) <= 4 and 1 <= len(row["new_slots"]) <= 3, row["id"]
        for rename in row["renames"]:
            assert rename["of"] in names and rename["predicate"] not in names, row["id"]
            old = next(s["value"] for s in row["slots"] if s["predicate"] == rename["of"])
            assert rename["value"] != old, row["id"]
        later = {folded(r["predicate"]) for r in row["renames"]}
        for new in row["new_slots"]:
            assert folded(new["predicate"]) not in {folded(n) for n in names} | later, row["id"]


def test_set_e_split_follows_the_rule_by_kind() -> None:
    assert_split_follows_the_rule(subjects(), lambda r: r["kind"])


def test_set_e_loads_as_typed_subjects() -> None:
    loaded = whole_subjects(SET_E / "subjects.jsonl")
    assert sum(len(s.renames) for s in loaded) == 155
    assert sum(len(s.new_slots) for s in loaded) == 119
