"""Recall's slot signal reads a slot's gloss (``domain.slot_glosses``, issue 11 point 4),
with the real MiniLM model: a question in other words than the slot's name finds it."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC, datetime

import pytest

from twoclocks.domain.model import FactVersion
from twoclocks.domain.slot_glosses import slot_gloss
from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.service.relevance import relevance_signals

pytestmark = pytest.mark.anyio

T0 = datetime(2026, 1, 1, tzinfo=UTC)
# One service's slots; the values are left out of the slot signal, so they are all "x".
NAMES = ["deploy_target", "min_replicas", "nightly_run", "dead_letter_queue", "error_tracker"]


@pytest.fixture(scope="module")
def matcher() -> SlotMatcher:
    return SlotMatcher(SentenceTransformerEmbedder().load())


def version(predicate: str) -> FactVersion:
    return FactVersion(
        fact_id=predicate, version_id=predicate, subject="checkout", predicate=predicate,
        object="x", valid_at=T0, created_at=T0,
    )  # fmt: skip


@pytest.mark.parametrize(
    ("question", "gloss_says", "name_wins_without"),
    [
        # "deploy target" is further from the question than "min replicas" and "nightly run".
        ("where does checkout run in the cloud?", "deploy_target", "min_replicas"),
        # "error tracker" is closer than "dead letter queue" to failed messages, as names.
        ("where do failed messages from checkout end up?", "dead_letter_queue", "error_tracker"),
    ],
)
async def test_a_question_in_other_words_finds_the_slot_its_gloss_says(
    matcher: SlotMatcher,
    question: str,
    gloss_says: str,
    name_wins_without: str,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    facts = {n: version(n) for n in NAMES}
    vector = matcher.embedder.embed_query(question)

    async def slot_order() -> list[str]:
        signals = await relevance_signals(question, frozenset(), vector, facts, {}, matcher)
        return sorted(NAMES, key=lambda n: -signals[n].slot)

    assert (await slot_order())[0] == gloss_says
    monkeypatch.setattr("twoclocks.domain.slot_glosses.SLOT_GLOSSES", {})
    slot_gloss.cache_clear()  # glosses are cached per name; cleared again after the test
    assert (await slot_order())[0] == name_wins_without


@pytest.fixture(autouse=True)
def _fresh_glosses() -> Iterator[None]:
    yield
    slot_gloss.cache_clear()
