"""The memory screen's reads at 10k and 100k versions (issue 14.2, 14.6).

    .venv/bin/python bench/web_pages.py --sizes 10000,100000 [--neo4j]

Each size loads bench/recall_workload.py's synthetic history (``size`` writes, ~15% of them
replacing a value, so history holds closed versions too) straight into the store, a third
of the rows written by the person and the rest by agents, every sixth of class
``environment``. Then it times what the page asks, through the real HTTP app in process
(routing, validation, the service, the engine): ``GET /v1/facts?limit=100&offset=0`` (the
first page: the page and its total, read together) for current rows, for every version
(history on), under a text filter, under the writer filter, and a deep page (the last
hundred, by offset). p50/p95 over ``--runs`` calls each, after warm-up calls; the 100k/10k
ratio of each p50. Embedded FalkorDB in a temp dir, or Neo4j from ci/neo4j/start with --neo4j.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
from engines import Neo4jServer, load_average, pct, timed
from recall_workload import synth

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.domain.model import FactClass, Plan
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.port import Store

BATCH = 500
WARMUP = 3
PAGE = 100


def load_rows(size: int) -> list[Any]:
    """The synthetic history, with writers and classes spread over it."""
    rows, _ = synth(size)
    return [
        v.model_copy(
            update={
                "writer": "person" if i % 3 == 0 else "agent",
                "fact_class": FactClass.ENVIRONMENT if i % 6 == 0 else None,
            }
        )
        for i, v in enumerate(rows)
    ]


def reads(total_current: int) -> Iterator[tuple[str, dict[str, Any]]]:
    """The reads the memory screen makes, by name."""
    first = {"limit": PAGE, "offset": 0}
    yield "first page, current", first
    yield "first page, history on", {**first, "include_history": True}
    yield "first page, text filter", {**first, "text": "postgres"}
    yield "first page, writer filter", {**first, "writer": "person"}
    yield "last page, current", {"limit": PAGE, "offset": max(0, total_current - PAGE)}


async def measure(store: Store, size: int, runs: int) -> dict[str, Any]:
    """Load ``size`` writes into a fresh account, then time each read."""
    with tempfile.TemporaryDirectory(prefix="webpages") as data_dir:
        settings = bootstrap.load_settings(data_dir=data_dir)
        runtime = await bootstrap.start_runtime(
            settings, store=store, embedder=HashingEmbedder(384)
        )
        account = f"web{size}x{uuid.uuid4().hex[:8]}"
        key = await runtime.accounts.create(account)
        rows = load_rows(size)
        for counter, start in enumerate(range(0, len(rows), BATCH)):
            chunk = tuple(rows[start : start + BATCH])
            plan = Plan(now=chunk[-1].created_at, insert=chunk)
            assert await store.apply(account, plan, "bench", "bulk", counter)
        out: dict[str, Any] = {"size": size, "versions": len(rows)}
        async with httpx.AsyncClient(
            transport=httpx.ASGITransport(app=create_app(runtime)),
            base_url="http://bench",
            headers={"Authorization": f"Bearer {key}"},
            timeout=120,
        ) as http:
            head = (await http.get("/v1/facts", params={"limit": 1})).json()
            out["current"] = head["total"]
            for name, params in reads(head["total"]):
                samples: list[float] = []
                for n in range(WARMUP + runs):
                    reply = await (
                        timed(samples, lambda p=params: http.get("/v1/facts", params=p))
                        if n >= WARMUP
                        else http.get("/v1/facts", params=params)
                    )
                    assert reply.status_code == 200, reply.text
                out[name] = {
                    "p50_ms": round(pct(samples, 50), 1),
                    "p95_ms": round(pct(samples, 95), 1),
                    "matches": reply.json()["total"],
                }
        out["load_average"] = load_average()
        await runtime.close()
    return out


async def on_engine(neo4j: bool, sizes: list[int], runs: int) -> list[dict[str, Any]]:
    """Every size on one engine, each in a fresh store."""
    results = []
    for size in sizes:
        if neo4j:
            from twoclocks.graph.neo4j.store import Neo4jStore

            with Neo4jServer() as uri:
                results.append({"engine": "neo4j", **await measure(Neo4jStore(uri), size, runs)})
            continue
        from twoclocks.graph.falkordb.store import FalkorDBStore

        with tempfile.TemporaryDirectory(prefix="webpagesdb") as tmp:
            store = FalkorDBStore.embedded(tmp, appendfsync="everysec")
            results.append({"engine": "falkordb", **await measure(store, size, runs)})
    return results


def main() -> None:
    """Print each size's figures, then the ratio of the largest to the smallest p50."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="10000,100000")
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--neo4j", action="store_true")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    results = asyncio.run(on_engine(args.neo4j, sizes, args.runs))
    for result in results:
        print(result)
    if len(results) > 1:
        low, high = results[0], results[-1]
        names = [name for name, value in low.items() if isinstance(value, dict)]
        ratios = {name: round(high[name]["p50_ms"] / low[name]["p50_ms"], 2) for name in names}
        print({"p50_ratio": f"{high['size']}/{low['size']}", **ratios})


if __name__ == "__main__":
    main()
