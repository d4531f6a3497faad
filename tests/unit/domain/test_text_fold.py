"""The folds values are compared under: one for wording, one for value equality."""

from __future__ import annotations

from twoclocks.domain.restatement import bigram_overlap
from twoclocks.domain.slot_values import holds_same_value
from twoclocks.domain.text_fold import fold_case_and_spacing, fold_value


def test_case_and_spacing_fold_away_for_both() -> None:
    assert fold_case_and_spacing("  Mary\t BARRA ") == fold_value("Mary  barra") == "mary barra"
    assert fold_case_and_spacing("STRASSE") == fold_case_and_spacing("Straße")


def test_a_value_fold_drops_edge_punctuation_a_wording_fold_keeps_it() -> None:
    assert fold_value('"Redis."') == "redis"
    assert fold_case_and_spacing('"Redis."') == '"redis."'
    assert fold_value("(a, b)") == "a, b"  # inner punctuation stays


def test_equal_values_and_restatement_overlap_share_the_case_and_spacing_fold() -> None:
    assert holds_same_value("Render,  OREGON", ["render, oregon"])
    assert bigram_overlap("Render,  OREGON", "render, oregon") == 1.0
    # Edge punctuation makes no other value, but it is wording that overlap measures.
    assert holds_same_value("v2.", ["v2"])
    assert bigram_overlap("v2.", "v2") < 1.0
