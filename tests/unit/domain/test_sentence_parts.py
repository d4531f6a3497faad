"""A fact typed as one sentence, read into the three parts ``remember`` suggests."""

from __future__ import annotations

import pytest

from twoclocks.domain.sentence_parts import SentenceParts, sentence_parts


@pytest.mark.parametrize(
    ("sentence", "parts"),
    [
        ("the shop frontend uses Next.js 14", SentenceParts("shop frontend", None, "Next.js 14")),
        ("Anna owns the checkout flow", SentenceParts("checkout flow", "owner", "Anna")),
        (
            "our staging database is Postgres on Neon.",
            SentenceParts("staging database", None, "Postgres on Neon"),
        ),
        ("the api runs on Fly", SentenceParts("api", None, "Fly")),
        ("payments standup is at 10:00", SentenceParts("payments standup", None, "10:00")),
    ],
)
def test_a_sentence_stating_a_fact_gives_its_subject_and_value(
    sentence: str, parts: SentenceParts
) -> None:
    assert sentence_parts(sentence) == parts


@pytest.mark.parametrize(
    "sentence",
    [
        "we deploy the shop to Vercel",  # no subject to name: "we" is the person
        "never push directly to main; open a PR",  # a rule, no verb relating two things
        "it is Tuesday",
        "the api is",
        "owns the checkout flow",
    ],
)
def test_a_sentence_with_no_subject_or_no_value_gives_no_parts(sentence: str) -> None:
    assert sentence_parts(sentence) is None
