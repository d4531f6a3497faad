"""The store eval (issue 16) at small size: the shipped arm must show no stale value and
answer every date question; the other arms must show what they are there to show."""

from __future__ import annotations

import pytest

from twoclocks.embeddings.port import Embedder
from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder
from twoclocks.eval import store_eval
from twoclocks.eval.scenario import FACTS
from twoclocks.graph.port import Store

pytestmark = [pytest.mark.anyio, pytest.mark.slow]

SMALL = FACTS[:8]
"""8 facts, 12 changes: enough for three-value slots, quick on 2 cores."""


@pytest.fixture(scope="module")
def embedder() -> Embedder:
    return SentenceTransformerEmbedder().load()


async def test_the_bi_temporal_arm_shows_no_stale_value_and_answers_every_date_question(
    store: Store, embedder: Embedder
) -> None:
    result = await store_eval.run_arm(store, embedder, "bi-temporal", facts=SMALL)
    assert result.date_questions == sum(len(f.values) - 1 for f in SMALL)
    assert (result.block_stale, result.block6_stale, result.old_values_current) == (0, 0, 0), (
        result.misses
    )
    assert result.block_current == len(SMALL), result.misses
    assert result.date_right == result.date_questions, result.misses
    assert result.stale_first == 0, result.misses


async def test_the_append_only_arm_leaves_every_old_value_current_and_in_the_block(
    store: Store, embedder: Embedder
) -> None:
    result = await store_eval.run_arm(store, embedder, "append-only", facts=SMALL)
    assert result.closed_facts == 0
    assert result.old_values_current == result.date_questions
    assert result.block_stale == result.date_questions


async def test_the_overwrite_arm_forgets_what_was_true_before_each_change(
    store: Store, embedder: Embedder
) -> None:
    result = await store_eval.run_arm(store, embedder, "overwrite", facts=SMALL)
    assert result.block_stale == 0
    assert result.date_right == 0


async def test_an_eval_arm_leaves_no_fact_row_behind_in_the_store(
    store: Store, embedder: Embedder
) -> None:
    account = "storeevalcleanup"
    await store_eval.run_arm(store, embedder, "bi-temporal", facts=SMALL[:2], account=account)
    assert [v async for v in store.export(account)] == []
