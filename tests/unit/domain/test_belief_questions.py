"""A question asking what memory believed at a past time (domain.belief_questions)."""

from __future__ import annotations

import pytest

from twoclocks.domain.belief_questions import (
    asks_what_was_believed,
    believed_then_head,
    none_believed_line,
)


@pytest.mark.parametrize(
    "question",
    [
        "what did you think our host was on Tuesday?",
        "what did we believe the database was last week?",
        "what did memory know about the deploy target yesterday?",
        "what did we have on record for the on-call engineer on December 1?",
        "what was on record for the cache in March?",
        "what had you thought the port was two hours ago?",
    ],
)
def test_a_question_asking_what_memory_believed_reads_as_one(question: str) -> None:
    assert asks_what_was_believed(question)


@pytest.mark.parametrize(
    "question",
    [
        "what host did we use on Tuesday?",  # what held, on the world clock
        "what did you learn yesterday?",  # what memory was told: change_questions
        "do you think we should move to Fly.io?",  # an opinion asked, not a past belief
        "what do you know about the cache?",
    ],
)
def test_a_question_about_the_world_or_what_memory_was_told_is_not_one(question: str) -> None:
    assert not asks_what_was_believed(question)


def test_the_head_says_when_the_belief_was_read_a_moment_or_the_end_of_a_span() -> None:
    assert believed_then_head("at 10:00 (two hours ago)").startswith(
        "memory believed at 10:00 (two hours ago) (the question asks what it believed then"
    )
    assert believed_then_head("March 2026").startswith(
        "memory believed in March 2026, read at its start and its end"
    )
    assert none_believed_line("2026-12-01") == (
        "memory believed nothing found for the question on 2026-12-01, read at its start and its "
        "end; these hold now"
    )
