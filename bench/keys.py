"""What checking each request's key in the store costs (issue 15 point 4).

No server caches keys, so a revoked key is refused at once by every replica: each request
reads its key by hash (one indexed lookup) and, at most once a minute per key, writes its
last use. This prints p50/p95 of ``Accounts.authenticate`` per engine: a warm key (read
only), a key whose last use is due (read + write), and the old in-process cache (a dict
lookup) for the ratio.

Run from the repository root: ``.venv/bin/python bench/keys.py [--calls 2000] [--neo4j]``.
FalkorDB is the embedded one in a temp dir; ``--neo4j`` starts one from ci/neo4j (or give
``--neo4j-uri``).
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

from engines import Neo4jServer, load_average, pct

from twoclocks.graph.falkordb.store import FalkorDBStore
from twoclocks.graph.neo4j.store import Neo4jStore
from twoclocks.graph.port import Store
from twoclocks.service.accounts import Accounts, hash_key


async def measure(store: Store, calls: int) -> dict[str, list[float]]:
    """Wall times in ms of warm and due authentications, and of a dict lookup."""
    now = datetime(2026, 12, 1, tzinfo=UTC)

    def clock() -> datetime:
        return now

    accounts = Accounts(store, clock)
    for _ in range(50):  # other accounts' keys in the index
        await accounts.create(f"b{uuid.uuid4().hex[:12]}")
    key = await accounts.create(f"b{uuid.uuid4().hex[:12]}")
    await accounts.authenticate(key)
    cache = {hash_key(key): "account"}
    out: dict[str, list[float]] = {"warm (read)": [], "last use due (read+write)": [],
                                   "old cache (dict)": []}  # fmt: skip
    for i in range(calls):
        start = time.perf_counter()
        await accounts.authenticate(key)
        out["warm (read)"].append((time.perf_counter() - start) * 1000)
        if i % 10 == 0:
            now += timedelta(minutes=2)
            start = time.perf_counter()
            await accounts.authenticate(key)
            out["last use due (read+write)"].append((time.perf_counter() - start) * 1000)
        start = time.perf_counter()
        _ = cache[hash_key(key)]
        out["old cache (dict)"].append((time.perf_counter() - start) * 1000)
    return out


def report(engine: str, samples: dict[str, list[float]]) -> None:
    """One line per case: p50, p95 and the ratio to the dict lookup's p50."""
    base = pct(samples["old cache (dict)"], 50)
    for case, times in samples.items():
        print(
            f"{engine:<9} {case:<27} n={len(times):>5}  p50 {pct(times, 50):7.3f} ms  "
            f"p95 {pct(times, 95):7.3f} ms  x{pct(times, 50) / base:,.0f} of the dict"
        )


async def main() -> None:
    """Both engines when asked, FalkorDB always."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--neo4j", action="store_true", help="also Neo4j (started here)")
    parser.add_argument("--neo4j-uri", help="an already running Neo4j to use")
    options = parser.parse_args()
    print(f"load average before: {load_average()}")
    with tempfile.TemporaryDirectory() as data:
        store = FalkorDBStore.embedded(Path(data))
        await store.start()
        try:
            report("falkordb", await measure(store, options.calls))
        finally:
            await store.close()
    if options.neo4j or options.neo4j_uri:
        with Neo4jServer(options.neo4j_uri) as uri:
            neo = Neo4jStore(uri)
            await neo.start()
            try:
                report("neo4j", await measure(neo, options.calls))
            finally:
                await neo.close()
    print(f"load average after: {load_average()}")


if __name__ == "__main__":
    asyncio.run(main())
