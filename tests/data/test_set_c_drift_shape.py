"""Shape checks for set C, same-kind values (slot drift, issue 11)."""

import re

from test_labelled_data_shape import DATA, Row, assert_unique_ids, load

SET_C = DATA / "set_c"
FIELDS = {"id", "subject", "a", "value_a", "b", "value_b", "merge", "why", "family", "split"}
MERGE_OF_FAMILY = {"same_slot": True, "two_roles": False}


def pairs() -> list[Row]:
    """The rows of set C's drift pairs."""
    return load("drift_pairs.jsonl", SET_C)


def test_set_c_holds_60_pairs_of_each_family_whose_label_follows_it() -> None:
    rows = pairs()
    assert_unique_ids(rows)
    for row in rows:
        assert row.keys() == FIELDS, row["id"]
        assert re.fullmatch(r"c\d{3}", row["id"]), row["id"]
        assert row["merge"] is MERGE_OF_FAMILY[row["family"]], row["id"]
        assert row["a"] != row["b"] and row["value_a"] and row["value_b"], row["id"]
    assert [sum(r["family"] == f for r in rows) for f in MERGE_OF_FAMILY] == [60, 60]


def test_set_c_split_alternates_within_each_family_in_id_order() -> None:
    # The rule of set_c/README.md, applied once before any figure was computed.
    for family in MERGE_OF_FAMILY:
        rows = sorted((r for r in pairs() if r["family"] == family), key=lambda r: r["id"])
        assert [r["split"] for r in rows] == ["tune", "heldout"] * 30, family
