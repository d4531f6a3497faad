"""A slot name's core words (domain/name_core.py)."""

from __future__ import annotations

from twoclocks.domain.name_core import core_words, subject_words


def test_a_name_of_generic_words_only_keeps_one_word() -> None:
    # "tool_platform" has no subject matter left; an empty core would equal every other one.
    assert core_words(["tool", "platform"]) == ["tool"]
    assert core_words(["uses", "on"]) == ["on"]  # the verb goes first, then nothing more


def test_a_subjects_words_include_their_shortenings() -> None:
    assert {"data", "engineering", "eng", "engi"} <= subject_words("data-engineering")
