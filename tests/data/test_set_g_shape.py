"""Shape checks for set G (issue 11): slots that coexist under confusable names, and renames,
written on 2026-12-04 by a helper that read none of the code or the other sets."""

from test_labelled_data_shape import DATA, Row, assert_pairs_split_by_odd_and_even_ids, load

FAMILIES = {
    "coexisting_roles",
    "generic_head",
    "people_roles",
    "synonym",
    "abbreviation",
    "rephrase",
}


def pairs() -> list[Row]:
    """Set G's drift pairs."""
    return load("drift_pairs.jsonl", DATA / "set_g")


def test_set_g_pairs_have_the_fields_and_a_balanced_odd_even_split() -> None:
    rows = pairs()
    assert_pairs_split_by_odd_and_even_ids(rows)
    for row in rows:
        assert row["family"] in FAMILIES, row["id"]
        assert row["value_a"] != row["value_b"], row["id"]
