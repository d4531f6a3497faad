"""graphiti-core's own hybrid search, as the baseline the recall benchmark compares with.

graphiti gets our MiniLM as its embedder (uncached) and model clients that refuse to be
called: its search must not need an LLM or a cross-encoder.
"""

from __future__ import annotations

import asyncio
from typing import Any

from engines import timed

WARMUP = 10


class MiniLMForGraphiti:
    """graphiti-core EmbedderClient over our MiniLM, uncached (every call encodes)."""

    def __new__(cls, embedder: Any) -> Any:
        from graphiti_core.embedder.client import EmbedderClient

        class _Client(EmbedderClient):
            async def create(self, input_data: Any) -> list[float]:
                texts = [input_data] if isinstance(input_data, str) else list(input_data)
                out = await asyncio.to_thread(embedder.embed_documents, texts[:1])
                return out[0]

            async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
                return await asyncio.to_thread(embedder.embed_documents, input_data_list)

        return _Client()


def graphiti_clients(embedder: Any) -> dict[str, Any]:
    """LLM and cross-encoder that refuse to be called; the embedder is our MiniLM."""
    from graphiti_core.cross_encoder.client import CrossEncoderClient
    from graphiti_core.llm_client.client import LLMClient

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("graphiti called a model client the search must not need")

    class NoLLM(LLMClient):
        async def _generate_response(self, *a: Any, **k: Any) -> dict[str, Any]:
            return refuse()

    class NoReranker(CrossEncoderClient):
        async def rank(self, *a: Any, **k: Any) -> list[tuple[str, float]]:
            return refuse()

    return {
        "llm_client": NoLLM(None),
        "embedder": MiniLMForGraphiti(embedder),
        "cross_encoder": NoReranker(),
    }


async def run_graphiti(
    driver: Any, account: str, embedder: Any, measured: list[tuple[str, str]]
) -> tuple[list[float], int]:
    """Time graphiti's edge search (BM25 + cosine, RRF) on each question; ms and hits@10."""
    from graphiti_core import Graphiti
    from graphiti_core.search.search_config import (
        EdgeReranker,
        EdgeSearchConfig,
        EdgeSearchMethod,
        SearchConfig,
    )

    graphiti = Graphiti(graph_driver=driver, **graphiti_clients(embedder))
    config = SearchConfig(
        edge_config=EdgeSearchConfig(
            search_methods=[EdgeSearchMethod.bm25, EdgeSearchMethod.cosine_similarity],
            reranker=EdgeReranker.rrf,
        ),
        limit=10,
    )
    samples: list[float] = []
    hits = 0
    try:
        for q, _ in measured[:WARMUP]:
            await graphiti.search_(q + " (warm-up)", config=config, group_ids=[account])
        for q, want in measured:
            got = await timed(
                samples,
                lambda q=q: graphiti.search_(q, config=config, group_ids=[account]),
            )
            hits += want in {e.uuid for e in got.edges}
    finally:
        await driver.close()
    return samples, hits
