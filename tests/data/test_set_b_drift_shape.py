"""Shape checks for set B, the second, independently written drift set (issue 11)."""

import re
from collections import defaultdict

from test_labelled_data_shape import (
    DATA,
    PAIR_FAMILIES,
    Row,
    assert_split_follows_the_rule,
    assert_unique_ids,
    load,
)

SET_B = DATA / "set_b"
FIELDS = {"id", "subject", "a", "value_a", "b", "value_b", "merge", "why", "family", "split"}
OPTIONAL_FIELDS = {"also_in_first_set"}
# Families whose label follows from the family: two names of one slot, or two slots.
ALWAYS_MERGE = {"synonym", "abbreviation", "reorder", "inflection", "case_style", "verb_noun"}
NEVER_MERGE = {"contrast", "related_slot"}
# The contrasting modifiers the brief lists; each must be kept apart at least once.
CONTRASTS = [
    ("home", "work"), ("min", "max"), ("read", "write"), ("source", "target"),
    ("previous", "current"), ("staging", "production"), ("first", "last"),
    ("upstream", "downstream"), ("primary", "secondary"), ("internal", "external"),
    ("frontend", "backend"), ("inbound", "outbound"), ("start", "end"), ("old", "new"),
    ("local", "remote"), ("public", "private"), ("dev", "prod"), ("test", "prod"),
    ("client", "server"), ("request", "response"), ("input", "output"),
]  # fmt: skip


def pairs() -> list[Row]:
    """The rows of set B's drift pairs."""
    return load("drift_pairs.jsonl", SET_B)


def words(name: str) -> set[str]:
    """Lower-case words of a name in any case style (snake, kebab, camel, spaces)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    return {word for word in re.split(r"[^A-Za-z0-9]+", spaced.lower()) if word}


def test_set_b_drift_pairs_are_at_least_320_about_half_merging() -> None:
    rows = pairs()
    assert len(rows) >= 320
    assert_unique_ids(rows)
    for row in rows:
        assert FIELDS <= row.keys() <= FIELDS | OPTIONAL_FIELDS, row["id"]
        assert row.get("also_in_first_set", True) is True, row["id"]
        assert re.fullmatch(r"b\d{3}", row["id"]), row["id"]
        assert row["family"] in PAIR_FAMILIES, row["id"]
        assert isinstance(row["merge"], bool), row["id"]
        assert row["a"] != row["b"] and row["subject"] and row["why"], row["id"]
    merges = sum(row["merge"] for row in rows)
    assert 0.40 <= merges / len(rows) <= 0.60


def test_set_b_names_each_pair_once_per_subject() -> None:
    names = [(row["subject"], frozenset((row["a"], row["b"]))) for row in pairs()]
    assert len(names) == len(set(names))


def test_set_b_split_follows_the_rule() -> None:
    assert_split_follows_the_rule(pairs(), lambda row: (row["family"], row["merge"]))


def test_set_b_families_that_decide_the_label_agree_with_it() -> None:
    for row in pairs():
        if row["family"] in ALWAYS_MERGE:
            assert row["merge"], row["id"]
        if row["family"] in NEVER_MERGE:
            assert not row["merge"], row["id"]


def test_set_b_numbers_and_ordinals_come_with_both_labels() -> None:
    by_label: dict[tuple[str, bool], int] = defaultdict(int)
    for row in pairs():
        by_label[row["family"], row["merge"]] += 1
    assert by_label["number", False] >= 20
    assert by_label["number", True] >= 5, "digits that belong to a name"
    assert by_label["ordinal", False] >= 10
    assert by_label["ordinal", True] >= 1
    assert by_label["generic_head", True] >= 10
    assert by_label["generic_head", False] >= 3, "names sharing only a generic word"
    assert by_label["contrast", False] >= 60
    assert by_label["related_slot", False] >= 40


def test_set_b_keeps_every_listed_contrast_apart() -> None:
    kept_apart = [(words(row["a"]), words(row["b"])) for row in pairs() if not row["merge"]]
    for one, other in CONTRASTS:
        found = any({one, other} == {x, y} for a, b in kept_apart for x in a for y in b)
        assert found, (one, other)
