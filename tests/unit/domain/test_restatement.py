"""Restatement (DESIGN.md §3): bigram overlap >= 0.7 and no new content."""

from __future__ import annotations

import pytest

from twoclocks.domain.restatement import (
    RESTATEMENT_OVERLAP,
    bigram_overlap,
    is_restatement,
    new_content,
)

STAGING = "the staging deploy runs on Render in the Oregon region"


def test_bigram_overlap_ignores_case_and_spacing() -> None:
    assert bigram_overlap("Render, Oregon", "render,   OREGON") == 1.0
    assert bigram_overlap("main", "trunk") == 0.0
    assert bigram_overlap("a", "b") == 0.0


def test_bigram_overlap_is_symmetric() -> None:
    assert bigram_overlap(STAGING, "deploy runs on Render") == bigram_overlap(
        "deploy runs on Render", STAGING
    )


@pytest.mark.parametrize(
    ("stored", "incoming"),
    [
        ("runs on CircleCI", "runs on CircleCI now"),
        ("CI runs on CircleCI", "our CI runs on CircleCI"),
        ("Render, Oregon", "render oregon"),
        ("the tests run with pytest -q", "tests run with pytest -q"),
    ],
)
def test_restatement_is_close_wording_with_no_new_content(stored: str, incoming: str) -> None:
    assert new_content(stored, incoming) == set()
    assert is_restatement(stored, incoming)


@pytest.mark.parametrize(
    ("stored", "incoming", "new"),
    [
        ("3 attempts", "5 attempts", {"5"}),
        ("uses Postgres 15", "uses Postgres 16", {"16"}),
        ("on call is Selin Aydin", "on call is Selin Kaya", {"kaya"}),
        ("pinned to v1.2.3", "pinned to v1.2.4", {"v1.2.4"}),
        ("deploys to Render", "deploys to Render in Oregon", {"oregon"}),
    ],
)
def test_changed_number_name_or_token_is_new_content(
    stored: str, incoming: str, new: set[str]
) -> None:
    assert bigram_overlap(stored, incoming) >= RESTATEMENT_OVERLAP  # close wording ...
    assert new_content(stored, incoming) == new  # ... but something new
    assert not is_restatement(stored, incoming)


def test_restatement_needs_an_overlap_of_at_least_0_7() -> None:
    assert RESTATEMENT_OVERLAP == 0.7
    just_over = "deploy runs on Render in Oregon"  # overlap 0.72, nothing new
    just_under = "staging deploy runs on Render"  # overlap 0.69, nothing new
    assert new_content(STAGING, just_over) == new_content(STAGING, just_under) == set()
    assert 0.7 <= bigram_overlap(STAGING, just_over) < 0.75
    assert 0.65 < bigram_overlap(STAGING, just_under) < 0.7
    assert is_restatement(STAGING, just_over)
    assert not is_restatement(STAGING, just_under)


def test_filler_words_are_not_new_content() -> None:
    assert new_content("CI runs on CircleCI", "our CI still runs on CircleCI now") == set()
    assert new_content("CI runs on CircleCI", "CI runs on CircleCI.") == set()
