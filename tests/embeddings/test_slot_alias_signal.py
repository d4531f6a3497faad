"""Recall's slot signal reads the name a value was written as (slot drift, a merge), with the
real MiniLM model: a question in the writer's words finds the slot they were merged into."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from twoclocks.domain.model import FactVersion
from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.service.relevance import relevance_signals

pytestmark = pytest.mark.anyio

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def version(predicate: str, written_as: str | None = None) -> FactVersion:
    return FactVersion(
        fact_id=predicate, version_id=predicate, subject="checkout", predicate=predicate,
        object="x", valid_at=T0, created_at=T0, written_as=written_as,
    )  # fmt: skip


async def test_a_question_in_the_writers_words_finds_the_slot_their_name_was_merged_into() -> None:
    matcher = SlotMatcher(SentenceTransformerEmbedder().load())
    question = "which ticketing system does checkout use?"
    vector = matcher.embedder.embed_query(question)

    async def slot_order(written_as: str | None) -> list[str]:
        facts = {
            "tracker": version("tracker", written_as),
            "ticket_prefix": version("ticket_prefix"),
            "deploy_target": version("deploy_target"),
        }
        signals = await relevance_signals(question, frozenset(), vector, facts, {}, matcher)
        return sorted(facts, key=lambda n: -signals[n].slot)

    # As a name alone, "tracker" is further from the question than "ticket prefix"; the
    # value written as "ticketing_system" (then merged into tracker) answers to that name.
    assert (await slot_order(None))[0] == "ticket_prefix"
    assert (await slot_order("ticketing_system"))[0] == "tracker"
