"""Shape checks for set H (issue 11): pairs whose two values are one kind of thing, one
slot renamed or two roles, written on 2026-12-05 by a helper that read none of the code or
the other sets."""

from test_labelled_data_shape import DATA, Row, assert_unique_ids, load

PAIR_FIELDS = ["id", "subject", "a", "value_a", "b", "value_b", "merge", "why", "family", "split"]
FAMILIES = {"same_kind_synonym": True, "same_kind_rephrase": True, "same_kind_roles": False}


def pairs() -> list[Row]:
    """Set H's drift pairs."""
    return load("drift_pairs.jsonl", DATA / "set_h")


def test_set_h_pairs_have_the_fields_and_a_balanced_odd_even_split() -> None:
    rows = pairs()
    assert len(rows) == 160
    assert_unique_ids(rows)
    for row in rows:
        assert list(row) == PAIR_FIELDS, row["id"]
        assert FAMILIES[row["family"]] is row["merge"], row["id"]
        assert row["value_a"] != row["value_b"], row["id"]
        assert row["split"] == ("tune" if int(row["id"][1:]) % 2 else "heldout"), row["id"]
    for split in ("tune", "heldout"):
        part = [r for r in rows if r["split"] == split]
        assert sum(r["merge"] for r in part) == 40 and len(part) == 80
