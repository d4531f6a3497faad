"""Store benchmark: bulk load, single writes and as-of reads on each engine.

    .venv/bin/python bench/store.py --sizes 10000,100000 --engines falkordb,neo4j

For each size N, N writes over ~2k subjects and ~40 predicates are planned with the pure
planner against an in-memory copy of each slot (each slot changes a few times, some values
arrive late, so every write leaves history: expired originals and closed copies). The
resulting versions are bulk-loaded in batched applies (no embeddings), then measured:

* bulk load: versions per second through ``Store.apply`` in batches;
* export: versions per second out of ``Store.export`` (paged);
* single write: the service's path (read_slot, plan_write, apply) on the loaded graph;
* as-of reads: one slot, and one subject's every slot, at a random past time.

FalkorDB runs in a temp dir of its own; Neo4j comes from ci/neo4j/start in a run dir of its
own (stopped again afterwards) unless --neo4j-uri is given.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path

from engines import Neo4jServer, pct, timed
from history import PlannedHistory

from twoclocks.domain.model import FactVersion, Incoming, Plan
from twoclocks.domain.write_plan import plan_write
from twoclocks.graph.port import FactQuery, Store

REPO = Path(__file__).resolve().parent.parent
T0 = datetime(2025, 1, 1, tzinfo=UTC)
SUBJECTS, PREDICATES, CHANGES_PER_SLOT = 2000, 40, 3
BATCH = 500
READS = 300
WRITES = 200


@dataclass
class Result:
    """One engine at one size: throughputs and latency samples in milliseconds."""

    engine: str
    size: int
    versions: int = 0
    load_rows_s: float = 0.0
    export_rows_s: float = 0.0
    write_ms: list[float] = field(default_factory=list)
    slot_ms: list[float] = field(default_factory=list)
    subject_ms: list[float] = field(default_factory=list)


def synth_history(n: int, seed: int = 7) -> tuple[list[FactVersion], datetime]:
    """Plan ``n`` writes in memory; return every version (with final expiries) and the end time."""
    rng = random.Random(seed)
    slots = max(1, n // CHANGES_PER_SLOT)
    keys = rng.sample(range(SUBJECTS * PREDICATES), min(slots, SUBJECTS * PREDICATES))
    history = PlannedHistory("b")
    now = T0
    for i in range(n):
        key = keys[rng.randrange(len(keys))]
        subject, predicate = f"service-{key // PREDICATES}", f"setting_{key % PREDICATES}"
        now += timedelta(minutes=1)
        # Mostly "now"; one in ten is dated up to a month back (a late, older value).
        valid_at = now - timedelta(days=rng.random() * 30) if rng.random() < 0.1 else now
        incoming = Incoming(
            subject=subject, predicate=predicate, object=f"value {i} of {key}", valid_at=valid_at
        )
        history.write(incoming, now)
    return history.rows(), now


def batches(rows: list[FactVersion], size: int) -> Iterator[Plan]:
    """Plans that insert ``size`` finished versions each (clocks already final)."""
    for i in range(0, len(rows), size):
        chunk = tuple(rows[i : i + size])
        yield Plan(now=chunk[-1].created_at, insert=chunk)


async def run_engine(store: Store, engine: str, size: int) -> Result:
    """Load ``size`` writes into a fresh account and measure."""
    result = Result(engine, size)
    account = f"bench-{size}-{uuid.uuid4().hex[:8]}"
    rows, end = synth_history(size)
    result.versions = len(rows)
    start = time.perf_counter()
    for counter, plan in enumerate(batches(rows, BATCH)):
        assert await store.apply(account, plan, "bench", "bulk", counter)
    result.load_rows_s = len(rows) / (time.perf_counter() - start)
    start = time.perf_counter()
    exported = sum([1 async for _ in store.export(account)])
    result.export_rows_s = exported / (time.perf_counter() - start)
    assert exported == len(rows)

    rng = random.Random(11)
    slots = sorted({v.slot for v in rows})
    now = end + timedelta(days=1)
    for i in range(WRITES):  # warm nothing: the first writes are part of the story
        subject, predicate = slots[rng.randrange(len(slots))]

        async def write(subject: str = subject, predicate: str = predicate, i: int = i) -> None:
            state = await store.read_slot(account, subject, predicate)
            incoming = Incoming(
                subject=subject, predicate=predicate, object=f"new value {i}", valid_at=now
            )
            plan = plan_write(incoming, state.versions, now, lambda: uuid.uuid4().hex)
            assert await store.apply(account, plan, subject, predicate, state.counter)

        await timed(result.write_ms, write)

    for i in range(READS + 20):
        subject, predicate = slots[rng.randrange(len(slots))]
        as_of = T0 + (end - T0) * rng.random()
        slot_q = FactQuery(now=now, subject=subject, predicate=predicate, as_of=as_of)
        subject_q = FactQuery(now=now, subject=subject, as_of=as_of)
        slot_ms: list[float] = result.slot_ms if i >= 20 else []  # 20 warm-up reads
        subject_ms: list[float] = result.subject_ms if i >= 20 else []
        await timed(slot_ms, lambda q=slot_q: store.query(account, q))
        await timed(subject_ms, lambda q=subject_q: store.query(account, q))
    return result


def table(results: list[Result]) -> str:
    """The results as a fixed-width table."""
    head = (
        f"{'engine':<9}{'writes':>8}{'versions':>10}{'load rows/s':>13}{'export rows/s':>15}"
        f"{'write p50/p95 ms':>19}{'slot as_of p50/p95':>21}{'subject as_of p50/p95':>24}"
    )
    lines = [head, "-" * len(head)]
    for r in results:
        lines.append(
            f"{r.engine:<9}{r.size:>8}{r.versions:>10}{r.load_rows_s:>13.0f}{r.export_rows_s:>15.0f}"
            f"{pct(r.write_ms, 50):>10.1f}/{pct(r.write_ms, 95):<8.1f}"
            f"{pct(r.slot_ms, 50):>12.2f}/{pct(r.slot_ms, 95):<8.2f}"
            f"{pct(r.subject_ms, 50):>15.2f}/{pct(r.subject_ms, 95):<8.2f}"
        )
    lines.append(
        f"(writes/s on the single-write path = 1000 / write p50; "
        f"reads: {READS} each, mean subject rows ~{PREDICATES} slots x history)"
    )
    return "\n".join(lines)


async def bench(engine: str, sizes: list[int], neo4j_uri: str | None) -> list[Result]:
    """Every size on one engine, each into a fresh account."""
    results: list[Result] = []
    if engine == "falkordb":
        from twoclocks.graph.falkordb.store import FalkorDBStore

        with tempfile.TemporaryDirectory(prefix="tc-bench-") as tmp:
            store: Store = FalkorDBStore.embedded(tmp, appendfsync="everysec")
            await store.start()
            try:
                for size in sizes:
                    results.append(await run_engine(store, engine, size))
                    print(table(results[-1:]).splitlines()[2], flush=True)
            finally:
                await store.close()
        return results
    from twoclocks.graph.neo4j.store import Neo4jStore

    with Neo4jServer(neo4j_uri) as uri:
        store = Neo4jStore(uri)
        try:
            await store.start()
            for size in sizes:
                results.append(await run_engine(store, engine, size))
                print(table(results[-1:]).splitlines()[2], flush=True)
        finally:
            await store.close()
    return results


def main() -> None:
    """Parse flags, run every engine and size, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000", help="comma-separated write counts")
    parser.add_argument("--engines", default="falkordb,neo4j", help="falkordb,neo4j")
    parser.add_argument("--neo4j-uri", default=None, help="use this Neo4j instead of ci/neo4j")
    args = parser.parse_args()
    os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")
    sizes = [int(s) for s in args.sizes.split(",") if s]
    results: list[Result] = []
    for engine in [e.strip() for e in args.engines.split(",") if e.strip()]:
        results += asyncio.run(bench(engine, sizes, args.neo4j_uri))
    print()
    print(table(results))


if __name__ == "__main__":
    main()
