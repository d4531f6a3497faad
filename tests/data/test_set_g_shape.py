"""Shape checks for set G (issue 11): slots that coexist under confusable names, and renames,
written on 2026-12-04 by a helper that read none of the code or the other sets."""

from test_labelled_data_shape import DATA, Row, assert_unique_ids, load

PAIR_FIELDS = ["id", "subject", "a", "value_a", "b", "value_b", "merge", "why", "family", "split"]
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
    assert len(rows) == 160
    assert_unique_ids(rows)
    for row in rows:
        assert list(row) == PAIR_FIELDS, row["id"]
        assert row["family"] in FAMILIES and isinstance(row["merge"], bool), row["id"]
        assert row["value_a"] != row["value_b"], row["id"]
        assert row["split"] == ("tune" if int(row["id"][1:]) % 2 else "heldout"), row["id"]
    for split in ("tune", "heldout"):
        part = [r for r in rows if r["split"] == split]
        assert sum(r["merge"] for r in part) == 40 and len(part) == 80
