"""A graph written by twoclocks stays readable by graphiti-core's own search (DESIGN.md §9)."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from typing import Any

import pytest
from storekit import T0, Writer, fresh_account

from twoclocks.graph.port import Episode, Store

pytestmark = pytest.mark.anyio


def _refuse(*_: Any, **__: Any) -> Any:
    raise AssertionError("graphiti called a model client: the search must not need one")


def _clients() -> dict[str, Any]:
    """An LLM client, embedder and cross-encoder that fail loudly if anything calls them."""
    from graphiti_core.cross_encoder.client import CrossEncoderClient
    from graphiti_core.embedder.client import EmbedderClient
    from graphiti_core.llm_client.client import LLMClient

    class NoLLM(LLMClient):
        async def _generate_response(self, *a: Any, **k: Any) -> dict[str, Any]:
            return _refuse()

    class NoEmbedder(EmbedderClient):
        async def create(self, *a: Any, **k: Any) -> list[float]:
            return _refuse()

        async def create_batch(self, *a: Any, **k: Any) -> list[list[float]]:
            return _refuse()

    class NoReranker(CrossEncoderClient):
        async def rank(self, *a: Any, **k: Any) -> list[tuple[str, float]]:
            return _refuse()

    return {"llm_client": NoLLM(None), "embedder": NoEmbedder(), "cross_encoder": NoReranker()}


@pytest.fixture
def graphiti_driver(engine: str, request: pytest.FixtureRequest, account: str) -> Any:
    """graphiti-core's own driver for the engine, bound to the test's account.

    Built outside the event loop on purpose: inside one, graphiti's driver starts its
    index setup in the background, which our store already did (and which, on Neo4j,
    holds schema locks that stall the test's writes for seconds).
    """
    os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")
    if engine == "falkordb":
        from falkordb.asyncio import FalkorDB
        from graphiti_core.driver.falkordb_driver import FalkorDriver

        socket = str(request.getfixturevalue("falkordb_server").socket_path)
        return FalkorDriver(falkor_db=FalkorDB(unix_socket_path=socket), database=account)
    from graphiti_core.driver.neo4j_driver import Neo4jDriver

    return Neo4jDriver(request.getfixturevalue("neo4j_uri"), None, None)


@pytest.fixture
async def graphiti(graphiti_driver: Any) -> AsyncIterator[Any]:
    """graphiti-core's Graphiti on the same engine and account, with refusing model clients."""
    from graphiti_core import Graphiti

    try:
        yield Graphiti(graph_driver=graphiti_driver, **_clients())
    finally:
        await graphiti_driver.close()


async def test_graphiti_search_finds_facts_written_by_twoclocks(
    store: Store, writer: Writer, account: str, graphiti: Any
) -> None:
    from graphiti_core.search.search_config import (
        EdgeReranker,
        EdgeSearchConfig,
        EdgeSearchMethod,
        SearchConfig,
    )

    await store.save_episode(
        account,
        Episode(
            episode_id="ep-1",
            source="remember",
            content="we deploy to Render now",
            created_at=T0,
            valid_at=T0,
        ),
    )
    plan = await writer.write(
        "production", "deployed_to", "Render, Oregon region", T0, episode_id="ep-1"
    )
    await writer.write("ci", "provider", "CircleCI", T0)
    config = SearchConfig(
        edge_config=EdgeSearchConfig(
            search_methods=[EdgeSearchMethod.bm25], reranker=EdgeReranker.rrf
        ),
        limit=5,
    )
    results = await graphiti.search_("Render Oregon", config=config, group_ids=[account])
    hits = [e for e in results.edges if e.uuid == plan.version_id]
    assert hits, [e.fact for e in results.edges]
    (edge,) = hits
    assert edge.fact == "production deployed to Render, Oregon region"
    assert edge.valid_at == T0 and edge.invalid_at is None and edge.expired_at is None
    assert edge.name == "deployed_to" and edge.group_id == account
    assert edge.episodes == ["ep-1"]
    # Another account's search does not reach it (on FalkorDB: another graph).
    other = await graphiti.search_("Render Oregon", config=config, group_ids=[fresh_account()])
    assert not [e for e in other.edges if e.uuid == plan.version_id]
