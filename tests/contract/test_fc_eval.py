"""`twoclocks eval fc` end to end on a handful of FactConsolidation-style facts (issue 16):
a later fact closes the earlier value of its slot, and recall answers with the later one."""

from __future__ import annotations

import pytest

from twoclocks.embeddings.port import Embedder
from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder
from twoclocks.eval import fc_eval
from twoclocks.eval.fc_data import FcSet, Question
from twoclocks.graph.port import Store

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

SMALL = FcSet(
    size="tiny",
    sentences=(
        (0, "The author of Hard Times is Charles Dickens."),
        (1, "Frank Zappa died in the city of Los Angeles."),
        (2, "Charles Dickens is a citizen of United Kingdom."),
        (3, "The author of Hard Times is Martin Luther King Jr.."),
        (4, "Frank Zappa died in the city of Berlin."),
        (5, "Martin Luther King Jr. is a citizen of France."),
    ),
    single_hop=(
        Question("sh0", "Who is the author of Hard Times?", ("Martin Luther King Jr.",)),
        Question("sh1", "In which city did Frank Zappa die?", ("Berlin",)),
    ),
    multi_hop=(
        Question(
            "mh0",
            "What is the country of citizenship of the author of Hard Times?",
            ("France",),
        ),
    ),
)


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return SentenceTransformerEmbedder().load()


async def test_a_later_fact_closes_the_earlier_value_and_recall_answers_with_the_later_one(
    store: Store, embedder: Embedder
) -> None:
    result = await fc_eval.run(store, embedder, SMALL, account="fcevalsmall")
    assert (result.facts, result.unparsed, result.slots_changed) == (6, 0, 2)
    assert (result.closed, result.wrong_closes) == (2, 0), result.misses
    assert (result.single_hop, result.hit1, result.stale_first) == (2, 1.0, 0), result.misses
    assert result.multi_hop == 1
    assert [v async for v in store.export("fcevalsmall")] == []  # nothing left behind
