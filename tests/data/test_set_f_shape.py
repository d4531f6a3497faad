"""Shape checks for set F (issue 11): pairs whose names differ by an added word, written on
2026-12-03 by a helper that read none of the code or the other sets."""

from test_labelled_data_shape import DATA, Row, assert_pairs_split_by_odd_and_even_ids, load

from twoclocks.domain.slot_names import predicate_tokens


def pairs() -> list[Row]:
    """Set F's drift pairs."""
    return load("drift_pairs.jsonl", DATA / "set_f")


def test_set_f_pairs_have_the_fields_and_a_balanced_odd_even_split() -> None:
    rows = pairs()
    assert_pairs_split_by_odd_and_even_ids(rows)
    assert all(row["family"] == "qualifier" for row in rows)


def test_set_f_pairs_differ_by_added_words_only() -> None:
    # Most pairs are one name inside the other, word for word; plurals aside, a few
    # rephrase the shared words ("feature flags" / "feature flag service").
    inside = 0
    for row in pairs():
        a, b = set(predicate_tokens(row["a"])), set(predicate_tokens(row["b"]))
        assert a != b and row["value_a"] != row["value_b"], row["id"]
        inside += a < b or b < a
    assert inside >= 140
