"""Soak: 50 concurrent clients mixing every operation for 60 s on each store, then the invariants.

    .venv/bin/python bench/soak.py [--clients 50] [--seconds 60] [--engines falkordb,neo4j]

Ten hot slots (half the calls) and 1,000 cold ones, against a real `twoclocks serve`
(MiniLM; --fast for the hashing embedder). Prints throughput, p50/p95 per operation and
errors by type, then checks the whole export: every acknowledged write present with both
clocks, no one-value slot with two current facts, no overlapping windows, no fact with two
successors. A 5xx other than a typed 503 is a failure; so is any violation (exit code 1).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import UTC, datetime

from engines import load_average
from served_runs import add_engine_arguments, served

from twoclocks.eval import invariants, workload


def soak(engine: str, args: argparse.Namespace) -> bool:
    """One store: soak, check, print; True when it held."""
    with served(engine, args) as server:
        server.start()
        shape = workload.Shape(
            clients=args.clients, hot_slots=10, cold_slots=1000, mix=dict(workload.EVERYTHING)
        )
        tally = asyncio.run(
            workload.run(server.url, server.key, shape, duration_s=args.seconds, timeout_s=60)
        )
        versions = asyncio.run(workload.export_versions(server.url, server.key))
        report = invariants.check(versions, tally.acknowledged, datetime.now(UTC))
    summary = tally.summary()
    untyped = {k: n for k, n in tally.server_errors().items() if " 503 " not in k}
    print(f"\n== {engine}: {args.clients} clients, {args.seconds:g} s, load {load_average()}")
    print(f"calls {summary['calls']} in {summary['wall_s']} s = {summary['calls_per_s']} calls/s; "
          f"acknowledged writes {summary['acknowledged_writes']}")  # fmt: skip
    print(f"{'op':<10}{'n':>7}{'p50 ms':>10}{'p95 ms':>10}")
    for op, row in summary["per_op"].items():
        print(f"{op:<10}{row['n']:>7}{row['p50_ms']:>10}{row['p95_ms']:>10}")
    print("errors by type:", json.dumps(summary["errors"], indent=1) if tally.errors else "none")
    print(f"invariants over {report.versions} versions / {report.facts} facts: "
          f"{len(report.violations)} violations")  # fmt: skip
    for line in report.violations[:20]:
        print("  ", line)
    if untyped:
        print("5xx that are not a typed 503:", untyped)
    return not report.violations and not untyped


def main() -> None:
    """Soak each engine in turn."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
    add_engine_arguments(parser)
    args = parser.parse_args()
    held = [soak(engine, args) for engine in args.engines.split(",")]
    sys.exit(0 if all(held) else 1)


if __name__ == "__main__":
    main()
