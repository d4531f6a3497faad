"""Nothing is stored from a turn an unknown caller sends (DESIGN.md §5, issue 13 point 4):
no key, or a key naming no account, is 401 before anything is kept, queued or sent to the
extractor; the same turn with the account's key is queued."""

from __future__ import annotations

import uuid
from pathlib import Path
from typing import Any

import httpx
import pytest
from fake_llm import FakeLLM, fact, facts, serving

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore
from twoclocks.service.requests import Caller

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]

TURN = {"client": "claude-code", "event": {"session_id": "s1", "hook_event_name": "Stop",
        "twoclocks_turn": {"prompt": "payments uses SQS", "answer": "Noted."}}}  # fmt: skip


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_nothing_from_a_turn_an_unknown_caller_sends(
    falkordb_server: Any, tmp_path: Path
) -> None:
    async with serving(FakeLLM([facts(fact("payments", "queue", "SQS"))])) as llm:
        settings = bootstrap.load_settings(data_dir=tmp_path, extractor_url=llm.url)
        runtime = await bootstrap.start_runtime(
            settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
        )
        await runtime.turns.stop()  # drained by hand below
        try:
            account = f"u{uuid.uuid4().hex[:12]}"
            key = await runtime.accounts.create(account)
            transport = httpx.ASGITransport(app=create_app(runtime))
            async with httpx.AsyncClient(transport=transport, base_url="http://test") as http:
                for headers in ({}, {"Authorization": "Bearer tck_not_a_key"},
                                {"Authorization": key}):  # fmt: skip
                    r = await http.post("/v1/events/batch", json={"events": [TURN]},
                                        headers=headers)  # fmt: skip
                    assert r.status_code == 401 and r.json()["error"] == "Unauthorized"
                caller = Caller(account=account)
                assert await runtime.turns.drain() == 0 and llm.requests == []
                assert await runtime.store.turn_counts(account) == {}
                assert await runtime.store.search_episodes(account, "SQS", 5) == []
                ok = await http.post("/v1/events/batch", json={"events": [TURN]},
                                     headers={"Authorization": f"Bearer {key}"})  # fmt: skip
                assert ok.json()["results"][0]["turn"] == "queued"
                assert (await runtime.turns.stats(caller)).queue == {"queued": 1}
        finally:
            await runtime.close()
