"""The block's read of recent corrections (``Store.corrected_since``) on a loaded store.

    .venv/bin/python bench/corrections.py --sizes 10000,100000 --corrected 50,2000

For each size N, N writes are planned as in bench/store.py (history included) and
bulk-loaded into the embedded FalkorDB; then C of the facts still believed are retired as
corrected in the hour after the history ends (tiered, so the read counts them), and the
read the block makes, the corrections of the last 48 h that are their fact's last word,
is timed 20 times. A real account corrects a few facts a day; 2,000 in 48 h is the worst
case the soak's workload comes near.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
import uuid
from datetime import timedelta

from engines import pct
from store import batches, synth_history

from twoclocks.domain.model import RetiredReason, Tier
from twoclocks.graph.falkordb.store import FalkorDBStore

READS = 20
LIMIT = 6  # what the block asks for: twice the lines it shows


async def measure(size: int, corrected: int) -> str:
    """Load one account, correct ``corrected`` facts, time the read; one result line."""
    with tempfile.TemporaryDirectory(prefix="tc-bench-corrections-") as tmp:
        store = FalkorDBStore.embedded(tmp, appendfsync="everysec")
        await store.start()
        try:
            account = f"bench-{uuid.uuid4().hex[:8]}"
            rows, end = synth_history(size)
            marked = 0
            for i, v in enumerate(rows):
                if v.expired_at is None and marked < corrected:
                    rows[i] = v.model_copy(
                        update={
                            "expired_at": end + timedelta(seconds=marked + 1),
                            "retired_reason": RetiredReason.CORRECTED,
                            "tier": Tier.ASSERTED,
                        }
                    )
                    marked += 1
            for counter, plan in enumerate(batches(rows, 500)):
                assert await store.apply(account, plan, "bench", "bulk", counter)
            since, until = end - timedelta(hours=47), end + timedelta(hours=1)
            took: list[float] = []
            for _ in range(READS):
                start = time.perf_counter()
                found = await store.corrected_since(account, since, until, None, LIMIT)
                took.append((time.perf_counter() - start) * 1000)
        finally:
            await store.close()
    return (
        f"{len(rows):>9,} versions  {marked:>6,} corrected in 48 h  "
        f"p50 {pct(took, 50):6.1f} ms  p95 {pct(took, 95):6.1f} ms  rows {len(found)}"
    )


def main() -> None:
    """Parse flags, run every size and correction count, print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000", help="comma-separated write counts")
    parser.add_argument("--corrected", default="50,2000", help="facts corrected in the 48 h")
    args = parser.parse_args()
    os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")
    for size in (int(s) for s in args.sizes.split(",") if s):
        for corrected in (int(c) for c in args.corrected.split(",") if c):
            print(asyncio.run(measure(size, corrected)), flush=True)


if __name__ == "__main__":
    main()
