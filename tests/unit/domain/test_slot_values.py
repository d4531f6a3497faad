"""What slot values say about slot drift (issue 11): kinds of values, pure."""

from __future__ import annotations

from twoclocks.domain.slot_values import holds_same_value, value_kind, values_verdict


def test_two_values_of_one_kind_vouch_for_a_merge() -> None:
    assert values_verdict("3.12", ["3.11"]) == "same_kind"
    assert values_verdict("https://b.example.com", ["https://a.example.com"]) == "same_kind"
    assert values_verdict("45s", ["30"]) == "same_kind"


def test_values_of_different_kinds_block_a_merge() -> None:
    assert values_verdict("https://docs.acme.dev", ["3.11"]) == "different_kind"
    assert values_verdict("Priya Raman", ["42"]) == "different_kind"
    assert values_verdict("ops@acme.dev", ["/srv/ops"]) == "different_kind"


def test_plain_text_values_prove_nothing_on_their_own() -> None:
    assert values_verdict("Lyon", ["Paris"]) == "unknown"
    assert values_verdict("Lyon", []) == "unknown"
    assert value_kind("GitHub Actions") == "text"


def test_an_equal_value_folds_case_spacing_and_edge_punctuation() -> None:
    assert holds_same_value("Mary Barra", ["MARY  BARRA", "Marc Benioff"])
    assert holds_same_value("Redis.", ["redis"])
    assert not holds_same_value("Redis 7", ["Redis 6"])
    assert not holds_same_value("", [""])
    assert not holds_same_value("Redis", [])
