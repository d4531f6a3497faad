"""Shape checks for set H (issue 11): pairs whose two values are one kind of thing, one
slot renamed or two roles, written on 2026-12-05 by a helper that read none of the code or
the other sets."""

from test_labelled_data_shape import DATA, Row, assert_pairs_split_by_odd_and_even_ids, load

FAMILIES = {"same_kind_synonym": True, "same_kind_rephrase": True, "same_kind_roles": False}


def pairs() -> list[Row]:
    """Set H's drift pairs."""
    return load("drift_pairs.jsonl", DATA / "set_h")


def test_set_h_pairs_have_the_fields_and_a_balanced_odd_even_split() -> None:
    rows = pairs()
    assert_pairs_split_by_odd_and_even_ids(rows)
    for row in rows:
        assert FAMILIES[row["family"]] is row["merge"], row["id"]
        assert row["value_a"] != row["value_b"], row["id"]
