"""Crash check: SIGKILL a real `twoclocks serve` mid-burst on each store, and its FalkorDB.

    .venv/bin/python bench/crash.py [--writes 5000] [--clients 8] [--engines falkordb,neo4j]

1. A burst of ``--writes`` mixed writes (remember / revise / retract) from ``--clients``
   clients; the server is killed with SIGKILL once half are acknowledged, then restarted
   on the same data dir (or Neo4j); the whole export is checked: every write answered 2xx
   present with both clocks, no one-value slot with two current facts, no overlapping
   windows, no fact with two successors.
2. Embedded store only: the FalkorDB process is killed under a live server mid-burst;
   every call must end (no transport error, no hang), 5xx only as a typed 503, /healthz
   says what happened, and the watchdog restarts it.
3. The price of `appendfsync always`: sequential single-node writes with each policy.

Exit code 1 on any violation. `make crash-check` runs it with the defaults.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

from engines import load_average, pct
from served_runs import add_engine_arguments, served

from twoclocks.eval import invariants, workload
from twoclocks.eval.served import ServedProcess, kill_falkordb_mid_burst
from twoclocks.graph.falkordb.server import EmbeddedFalkorDB


async def _burst_and_kill(server: ServedProcess, args: argparse.Namespace) -> workload.Tally:
    tally, stop = workload.Tally(), asyncio.Event()
    shape = workload.Shape(clients=args.clients, cold_slots=1000)
    burst = asyncio.create_task(
        workload.run(server.url, server.key, shape, writes=args.writes, tally=tally, stop=stop)
    )
    while len(tally.acknowledged) < args.writes // 2 and not burst.done():
        await asyncio.sleep(0.01)
    await asyncio.to_thread(server.kill)
    stop.set()
    await burst
    return tally


def _check(server: ServedProcess, tally: workload.Tally) -> invariants.Report:
    versions = asyncio.run(workload.export_versions(server.url, server.key))
    return invariants.check(versions, tally.acknowledged, datetime.now(UTC))


def _print(title: str, tally: workload.Tally, report: invariants.Report) -> bool:
    summary = tally.summary()
    print(f"\n== {title} (load {load_average()})")
    print(f"sent {tally.writes_sent} writes, {summary['acknowledged_writes']} acknowledged in "
          f"{summary['wall_s']} s ({summary['calls_per_s']} calls/s)")  # fmt: skip
    for op, row in summary["per_op"].items():
        print(f"  {op:<9} n={row['n']:<6} p50 {row['p50_ms']} ms  p95 {row['p95_ms']} ms")
    print("  errors by type:", summary["errors"] or "none")
    print(f"  after restart: {report.versions} versions / {report.facts} facts, "
          f"{len(report.violations)} violations")  # fmt: skip
    for line in report.violations[:20]:
        print("   ", line)
    return not report.violations


def server_killed(engine: str, args: argparse.Namespace) -> bool:
    """Part 1 on one store."""
    with served(engine, args) as server:
        server.start()
        tally = asyncio.run(_burst_and_kill(server, args))
        started = time.monotonic()
        server.start()
        restart_s = time.monotonic() - started
        report = _check(server, tally)
    held = _print(f"{engine}: serve killed with SIGKILL mid-burst", tally, report)
    print(f"  restart to ready: {restart_s:.1f} s")
    return held and len(tally.acknowledged) >= args.writes // 2


async def _falkordb_killed(server: ServedProcess, args: argparse.Namespace) -> tuple[
    workload.Tally, set[int], set[str]
]:  # fmt: skip
    tally = workload.Tally()
    shape = workload.Shape(clients=args.clients, cold_slots=1000)
    writes = max(args.writes // 5, 200)
    burst = asyncio.create_task(
        workload.run(server.url, server.key, shape, writes=writes, tally=tally, timeout_s=60)
    )
    _, seen, problems = await kill_falkordb_mid_burst(server, burst, tally, after=writes // 4)
    return tally, seen, problems


def falkordb_killed(args: argparse.Namespace) -> bool:
    """Part 2: the embedded engine dies under a live server."""
    with served("falkordb", args) as server:
        server.start()
        tally, seen, problems = asyncio.run(_falkordb_killed(server, args))
        status, _ = server.health()
        report = _check(server, tally)
    held = _print("falkordb: the FalkorDB process killed under a live server", tally, report)
    hung = [k for k in tally.errors if "transport" in k]
    untyped = {k: n for k, n in tally.server_errors().items() if " 503 " not in k}
    print(f"  /healthz statuses seen: {sorted(seen)}; problems: {sorted(problems) or 'none'}")
    print(f"  /healthz after: {status}; transport errors (hangs): {hung or 'none'}; "
          f"untyped 5xx: {untyped or 'none'}")  # fmt: skip
    return held and status == 200 and not hung and not untyped


def fsync_cost(n: int = 500) -> None:
    """Part 3: one-node writes, one at a time, with each appendfsync policy."""
    print(f"\n== appendfsync cost: {n} sequential one-node writes (load {load_average()})")
    for policy in ("always", "everysec"):
        with (
            tempfile.TemporaryDirectory(prefix="tc-fsync-") as tmp,
            EmbeddedFalkorDB(Path(tmp), appendfsync=policy) as db,  # type: ignore[arg-type]
        ):
            graph = db.client().select_graph("fsync")
            samples = []
            for i in range(n):
                started = time.perf_counter()
                graph.query("CREATE (:N {i: $i})", {"i": i})
                samples.append((time.perf_counter() - started) * 1000)
        print(f"  {policy:<9} p50 {pct(samples, 50):.2f} ms  p95 {pct(samples, 95):.2f} ms")


def main() -> None:
    """Every part, each engine in turn."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--writes", type=int, default=5000)
    parser.add_argument("--clients", type=int, default=8)
    add_engine_arguments(parser)
    args = parser.parse_args()
    engines = args.engines.split(",")
    held = [server_killed(engine, args) for engine in engines]
    if "falkordb" in engines:
        held.append(falkordb_killed(args))
        fsync_cost()
    sys.exit(0 if all(held) else 1)


if __name__ == "__main__":
    main()
