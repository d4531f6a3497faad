"""Recall ranking rules of issue 11 (walks follow the question, a slot leg, vector scores)
and the relevance floor of issue 10, on every store."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from storekit import T0, Writer
from test_recall_legs import EMBEDDER, EmbeddingStore, vector

from twoclocks.domain.model import Tier
from twoclocks.domain.places import Workspace
from twoclocks.graph.port import FactQuery, Store
from twoclocks.graph.schema import fact_text
from twoclocks.service.recall import LEGS, RecallRequest, RecallService
from twoclocks.service.relevance import dot
from twoclocks.service.requests import Caller

pytestmark = pytest.mark.anyio

NOW = datetime(2030, 1, 1, tzinfo=UTC)


def service(store: Store, **weights: float) -> RecallService:
    legs = {leg: 0.0 for leg in LEGS} | weights if weights else None
    return RecallService(
        store, lambda: NOW, EMBEDDER, lambda _cwd: Workspace(), UTC, leg_weights=legs
    )


@pytest.fixture
def ew(store: Store, account: str) -> Writer:
    return Writer(EmbeddingStore(store), account)  # type: ignore[arg-type]


async def test_the_vector_leg_scores_each_fact_by_its_cosine_to_the_question(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("billing-api", "cache", "Redis", T0, tier=Tier.OBSERVED)
    await ew.write("billing-api", "language", "Python", T0, tier=Tier.OBSERVED)
    ask = vector("billing-api cache")
    got = await store.search_vector_scored(account, ask, FactQuery(now=NOW), 5)
    assert [v.object for v, _ in got] == ["Redis", "Python"]
    for version, score in got:
        want = dot(ask, vector(fact_text(version.subject, version.predicate, version.object)))
        # Neo4j quantizes its vector index (int8 by default), so its scores are near, not exact.
        assert score == pytest.approx(want, abs=0.06)


async def test_a_walk_ranks_what_it_reaches_by_the_question_not_by_store_order(
    store: Store, ew: Writer, account: str
) -> None:
    # The cache was recorded first: in store order (newest first) it comes last.
    await ew.write("billing-api", "cache", "Redis", T0, tier=Tier.OBSERVED)
    for predicate, value in [("language", "Python"), ("owner", "Priya"), ("port", "8080")]:
        await ew.write("billing-api", predicate, value, T0, tier=Tier.OBSERVED)
    got = await service(store, entity_walk=1.0).recall(
        Caller(account=account), RecallRequest(query="what cache does billing-api use?", k=4)
    )
    assert got.facts[0].predicate == "cache"


async def test_the_slot_leg_puts_the_slot_the_question_names_first(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("team", "on_call_engineer", "Dana", T0, tier=Tier.OBSERVED)
    for predicate, value in [("standup_time", "09:30"), ("chat_tool", "Slack")]:
        await ew.write("team", predicate, value, T0, tier=Tier.OBSERVED)
    ask = RecallRequest(query="who is the on call engineer of the team?", k=3)
    walk_only = await service(store, entity_walk=1.0, slot=0.0).recall(Caller(account=account), ask)
    assert walk_only.facts[0].predicate == "on_call_engineer"  # the walk ranks by the question
    slot_led = await service(store, entity_walk=0.01, slot=1.0).recall(Caller(account=account), ask)
    assert slot_led.facts[0].predicate == "on_call_engineer"


async def test_a_question_nothing_in_memory_is_about_comes_back_empty(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("billing-api", "cache", "Redis", T0, tier=Tier.OBSERVED)
    recall = service(store)
    caller = Caller(account=account)
    assert (await recall.recall(caller, RecallRequest(query="billing-api cache"))).status == "rows"
    nonsense = await recall.recall(caller, RecallRequest(query="zebra quantum banana"))
    assert nonsense.status == "empty" and nonsense.facts == []
