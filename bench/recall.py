"""Recall benchmark: hybrid recall (keyword + vector index + traversal, RRF) on each engine.

    .venv/bin/python bench/recall.py --sizes 10000,100000 --engines falkordb,neo4j

For each size N, N writes over realistic slots (service-like subjects, ~40 predicates such
as ci_provider or deploy_target, ~15% of writes replace a value, so history exists) are
planned with the pure planner and bulk-loaded with fact embeddings in batched applies.

Embeddings: MiniLM (all-MiniLM-L6-v2) encodes only the DISTINCT "predicate words + value"
texts and subject kinds (~5k, batches of 64); a fact's vector is its (predicate, value)
vector plus half its subject kind's, with a small random perturbation (renormalised), not
its own encoding, because encoding 100k facts at ~150-300/s on 2 cores would take longer
than the rest of the run. Query embeddings are real and uncached (every query distinct)
unless reported as cached.

Measured per engine and size:

* bulk load rows/s through ``Store.apply`` (vectors precomputed), MiniLM docs/s;
* recall p50/p95 through ``RecallService.recall`` INCLUDING the query embedding, distinct
  queries (cache misses), then the same queries again (cache hits); per-leg p50s;
* hit@10: the asked slot's current version is among the 10 results;
* graphiti-core's own hybrid search (edge BM25 + cosine, RRF) on the same graph with the
  same embedding model, and its ratio to ours;
* writes with embeddings: one at a time through ``MemoryService.remember`` (slot-drift
  matcher on, as ``bootstrap`` wires it) vs batched (encode 64, apply 64 per plan);
* RSS of this process (with the model) and of the engine's server process.

FalkorDB runs in a temp dir of its own; Neo4j comes from ci/neo4j/start in a run dir of its
own (``NEO4J_RUN_DIR``, stopped again afterwards) unless --neo4j-uri is given.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from engines import Neo4jServer, load_average, pct, rss_mb, timed
from graphiti_baseline import run_graphiti
from recall_workload import NOISE, SLOTS, distinct_texts, fact_vector, synth

from twoclocks.domain.model import FactVersion, Incoming, Plan, Tier
from twoclocks.domain.places import Workspace
from twoclocks.domain.write_plan import plan_write
from twoclocks.graph.port import FactQuery, Store
from twoclocks.graph.schema import fact_text

BATCH = 500
QUERIES = 200
WARMUP = 10
LEG_SAMPLES = 60
SINGLE_WRITES = 60
BATCHED_WRITES = 640
ENCODE_BATCH = 64


@dataclass
class Result:
    """One engine at one size."""

    engine: str
    size: int
    versions: int = 0
    load_rows_s: float = 0.0
    recall_ms: list[float] = field(default_factory=list)
    recall_cached_ms: list[float] = field(default_factory=list)
    graphiti_ms: list[float] = field(default_factory=list)
    legs: dict[str, list[float]] = field(default_factory=dict)
    hits: int = 0
    graphiti_hits: int = 0
    single_ms: list[float] = field(default_factory=list)
    batched_facts_s: float = 0.0
    pipelined_facts_s: float = 0.0
    rss_mb: float = 0.0
    server_rss_mb: float = 0.0
    notes: list[str] = field(default_factory=list)


async def run_engine(
    store: Store,
    engine: str,
    size: int,
    embedder: Any,
    vectors: dict[str, list[float]],
    graphiti_driver: Callable[[str], Any],
    server_pid: int | None,
    graphiti_queries: int,
) -> Result:
    from twoclocks.embeddings.slot_matcher import SlotMatcher
    from twoclocks.service.memory import MemoryService
    from twoclocks.service.recall import RecallService
    from twoclocks.service.recall_requests import RecallRequest
    from twoclocks.service.requests import Caller, RememberRequest

    result = Result(engine, size)
    account = f"recall-{size}-{uuid.uuid4().hex[:8]}"
    rows, current = synth(size)
    result.versions = len(rows)
    rng = random.Random(3)
    embedded = {v.version_id: fact_vector(v, vectors, rng) for v in rows}
    start = time.perf_counter()
    for counter, i in enumerate(range(0, len(rows), BATCH)):
        chunk = tuple(rows[i : i + BATCH])
        plan = Plan(now=chunk[-1].created_at, insert=chunk)
        assert await store.apply(
            account,
            plan,
            "bench",
            "bulk",
            counter,
            {v.version_id: embedded[v.version_id] for v in chunk},
        )
    result.load_rows_s = len(rows) / (time.perf_counter() - start)
    del embedded
    print(
        f"  {engine} {size}: loaded {len(rows)} versions at {result.load_rows_s:.0f} rows/s",
        flush=True,
    )

    # Distinct questions about random slots; the answer is the slot's current version.
    asked = rng.sample(sorted(current), QUERIES + WARMUP)
    questions = [(SLOTS[p][0].format(s=s), current[(s, p)]) for s, p in asked]
    clock = lambda: datetime.now(UTC)  # noqa: E731
    recall = RecallService(store, clock, embedder, lambda _cwd: Workspace(), UTC)
    await recall.warm(account)  # as `twoclocks serve` does at start
    caller = Caller(account=account)
    for q, _ in questions[:WARMUP]:  # warm connections, caches of the engine, not ours
        await recall.recall(caller, RecallRequest(query=q + " (warm-up)", k=10))
    measured = questions[WARMUP:]
    embedder.clear_query_cache()
    for q, want in measured:
        got = await timed(
            result.recall_ms, lambda q=q: recall.recall(caller, RecallRequest(query=q, k=10))
        )
        result.hits += want in {f.version_id for f in got.facts}
    info = embedder.query_cache_info()
    result.notes.append(f"query cache during distinct run: {info.hits} hits, {info.misses} misses")
    for q, _ in measured:
        await timed(
            result.recall_cached_ms, lambda q=q: recall.recall(caller, RecallRequest(query=q, k=10))
        )

    # Where the time goes: each leg alone (uncached embedding timed separately).
    legs: dict[str, list[float]] = {
        k: [] for k in ("embed", "entities", "text", "vector", "traverse")
    }
    query = FactQuery(now=clock(), workspaces=())
    for q, _ in measured[:LEG_SAMPLES]:
        vec = await timed(
            legs["embed"], lambda q=q: asyncio.to_thread(embedder.embed_documents, [q + " (legs)"])
        )
        ents = await timed(legs["entities"], lambda q=q: store.entities_named(account, q, 10))
        await timed(legs["text"], lambda q=q: store.search_text(account, q, query, 30))
        await timed(legs["vector"], lambda v=vec[0]: store.search_vector(account, v, query, 30))
        await timed(legs["traverse"], lambda e=ents: store.traverse(account, e, query, 3, 30))
    result.legs = legs

    # graphiti-core's own hybrid search on the same graph: edge BM25 + cosine, RRF.
    result.graphiti_ms, result.graphiti_hits = await run_graphiti(
        graphiti_driver(account), account, embedder, measured[:graphiti_queries]
    )
    result.notes.append("graphiti: no temporal filter by default (history edges can come back)")

    # Writes with embeddings: one at a time through the service, then batched.
    matcher = SlotMatcher(embedder)
    memory = MemoryService(
        store, clock, lambda: uuid.uuid4().hex, embedder, lambda _cwd: Workspace(), matcher
    )
    for i in range(SINGLE_WRITES):
        s, p = asked[i]
        req = RememberRequest(
            subject=s,
            predicate=p,
            tier=Tier.OBSERVED,
            object=f"{rng.choice(SLOTS[p][1])} after change {i}",
        )
        await timed(result.single_ms, lambda r=req: memory.remember(caller, r))
    result.batched_facts_s = await batched_writes(store, account, embedder, rng, False)
    result.pipelined_facts_s = await batched_writes(store, account, embedder, rng, True)
    result.rss_mb = rss_mb()
    result.notes.append(
        "load average at the end (other processes share the cores): " + load_average()
    )
    result.server_rss_mb = rss_mb(server_pid) if server_pid else float("nan")
    return result


async def batched_writes(
    store: Store, account: str, embedder: Any, rng: random.Random, pipelined: bool
) -> float:
    """Facts/s for BATCHED_WRITES new facts (planning included): each chunk of ENCODE_BATCH
    encoded in one call, then applied as one plan. ``pipelined``: the next chunk encodes
    in a worker thread while this one applies (the engine works on the other core)."""
    start = time.perf_counter()
    now = datetime.now(UTC)
    tag = "pipelined" if pipelined else "batched"
    rows: list[FactVersion] = []
    for i in range(BATCHED_WRITES):
        p = rng.choice(list(SLOTS))
        incoming = Incoming(
            subject=f"{tag}-{i}", predicate=p, tier=Tier.OBSERVED,
            object=f"{rng.choice(SLOTS[p][1])} {tag} {i}", valid_at=now,
        )  # fmt: skip
        rows.extend(plan_write(incoming, [], now, lambda: uuid.uuid4().hex).insert)
    chunks = [tuple(rows[i : i + ENCODE_BATCH]) for i in range(0, len(rows), ENCODE_BATCH)]

    def encode(chunk: tuple[FactVersion, ...]) -> list[list[float]]:
        out: list[list[float]] = embedder.embed_documents(
            [fact_text(v.subject, v.predicate, v.object) for v in chunk]
        )
        return out

    pending: Awaitable[list[list[float]]] = asyncio.to_thread(encode, chunks[0])
    for counter, chunk in enumerate(chunks):
        vectors = await pending
        if counter + 1 < len(chunks):
            pending = asyncio.to_thread(encode, chunks[counter + 1])
            if pipelined:
                pending = asyncio.ensure_future(pending)  # starts now, overlapping the apply
        plan = Plan(now=now, insert=chunk)
        ids = [v.version_id for v in chunk]
        assert await store.apply(
            account, plan, "bench", tag, counter, dict(zip(ids, vectors, strict=True))
        )
    return BATCHED_WRITES / (time.perf_counter() - start)


async def bench(
    engine: str,
    sizes: list[int],
    embedder: Any,
    vectors: dict[str, list[float]],
    neo4j_uri: str | None,
    graphiti_queries: int,
) -> list[Result]:
    results: list[Result] = []
    if engine == "falkordb":
        from falkordb.asyncio import FalkorDB
        from graphiti_core.driver.falkordb_driver import FalkorDriver

        from twoclocks.graph.falkordb.store import FalkorDBStore

        with tempfile.TemporaryDirectory(prefix="tc-recall-") as tmp:
            store = FalkorDBStore.embedded(tmp, appendfsync="everysec")
            await store.start()
            socket = str(Path(tmp) / "falkordb.sock")
            pid = store._server.pid if store._server else None

            def driver(account: str) -> Any:
                return FalkorDriver(falkor_db=FalkorDB(unix_socket_path=socket), database=account)

            try:
                for size in sizes:
                    results.append(
                        await run_engine(
                            store, engine, size, embedder, vectors, driver, pid, graphiti_queries
                        )
                    )
                    print(table(results[-1:]), flush=True)
            finally:
                await store.close()
        return results
    from graphiti_core.driver.neo4j_driver import Neo4jDriver

    from twoclocks.graph.neo4j.store import Neo4jStore

    server = Neo4jServer(neo4j_uri, java_opts="-Xmx2g -Xms2g")
    with server as uri:
        store4 = Neo4jStore(uri)
        try:
            await store4.start()
            for size in sizes:
                results.append(
                    await run_engine(
                        store4, engine, size, embedder, vectors,
                        lambda _account: Neo4jDriver(uri, None, None), server.pid,
                        graphiti_queries,
                    )
                )  # fmt: skip
                print(table(results[-1:]), flush=True)
        finally:
            await store4.close()
    return results


def table(results: list[Result]) -> str:
    lines = []
    for r in results:
        n = len(r.recall_ms)
        ours, theirs = pct(r.recall_ms, 50), pct(r.graphiti_ms, 50)
        lines += [
            f"{r.engine} {r.size} writes -> {r.versions} versions; load {r.load_rows_s:.0f} "
            f"rows/s (batches of {BATCH}, vectors precomputed)",
            f"  recall (RecallService, k=10, incl. query embedding), {n} distinct queries: "
            f"p50 {ours:.1f} ms, p95 {pct(r.recall_ms, 95):.1f} ms; hit@10 {r.hits}/{n}",
            f"  recall, same queries again (embedding cached): p50 "
            f"{pct(r.recall_cached_ms, 50):.1f} ms, p95 {pct(r.recall_cached_ms, 95):.1f} ms",
            "  legs alone p50/p95 ms: "
            + ", ".join(f"{k} {pct(v, 50):.1f}/{pct(v, 95):.1f}" for k, v in r.legs.items()),
            f"  graphiti-core search_ (edge BM25 + cosine, RRF, same model): p50 {theirs:.1f} "
            f"ms, p95 {pct(r.graphiti_ms, 95):.1f} ms; hit@10 {r.graphiti_hits}/"
            f"{len(r.graphiti_ms)}; "
            f"graphiti/ours p50 ratio {theirs / ours:.2f}x",
            f"  writes with embeddings: one at a time (MemoryService.remember, drift matcher "
            f"on) p50 {pct(r.single_ms, 50):.1f} ms, p95 {pct(r.single_ms, 95):.1f} ms "
            f"(~{1000 / pct(r.single_ms, 50):.0f} facts/s); batched (encode "
            f"{ENCODE_BATCH}, then apply them as one plan) {r.batched_facts_s:.0f} facts/s; "
            f"pipelined (next chunk encodes while this one applies) "
            f"{r.pipelined_facts_s:.0f} facts/s; batched/single "
            f"{r.batched_facts_s * pct(r.single_ms, 50) / 1000:.1f}x",
            f"  RSS: bench process (model loaded) {r.rss_mb:.0f} MB, engine server "
            f"{r.server_rss_mb:.0f} MB",
            *(f"  note: {note}" for note in r.notes),
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000", help="comma-separated write counts")
    parser.add_argument("--engines", default="falkordb,neo4j", help="falkordb,neo4j")
    parser.add_argument("--neo4j-sizes", default=None, help="sizes for Neo4j (default: --sizes)")
    parser.add_argument("--neo4j-uri", default=None, help="use this Neo4j instead of ci/neo4j")
    parser.add_argument(
        "--graphiti-queries",
        type=int,
        default=100,
        help="questions timed on graphiti-core's search (brute-force cosine: slow at 100k)",
    )
    args = parser.parse_args()
    os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder

    sizes = [int(s) for s in args.sizes.split(",") if s]
    neo4j_sizes = [int(s) for s in (args.neo4j_sizes or args.sizes).split(",") if s]
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, "
        f"{len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, "
        f"load average {load_average()}",
        flush=True,
    )
    start = time.perf_counter()
    embedder = SentenceTransformerEmbedder().load()
    took = time.perf_counter() - start
    print(f"MiniLM loaded in {took:.1f} s, encoding on {embedder.runtime_in_use}", flush=True)
    texts = distinct_texts()
    start = time.perf_counter()
    encoded = embedder.embed_documents(texts)
    took = time.perf_counter() - start
    vectors = dict(zip(texts, encoded, strict=True))
    print(
        f"MiniLM encoded {len(texts)} distinct fact texts in {took:.1f} s "
        f"({len(texts) / took:.0f}/s, batches of {embedder.batch_size}); a fact's vector is "
        f"its (predicate words + value) vector + 0.5 x its subject kind's ('billing-api'), "
        f"plus a random perturbation of norm {NOISE}, renormalised: NOT the fact's own "
        "encoding",
        flush=True,
    )
    results: list[Result] = []
    for engine in [e.strip() for e in args.engines.split(",") if e.strip()]:
        engine_sizes = neo4j_sizes if engine == "neo4j" else sizes
        started = time.perf_counter()
        results += asyncio.run(
            bench(engine, engine_sizes, embedder, vectors, args.neo4j_uri, args.graphiti_queries)
        )
        print(f"  ({engine}: {time.perf_counter() - started:.0f} s in all)", flush=True)
    print()
    print(table(results))


if __name__ == "__main__":
    main()
