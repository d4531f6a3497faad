"""The contract suite runs every test against every real store (FalkorDB and Neo4j).

``store`` is a started store; ``account`` a fresh account name per test; ``writer``
drives the pure planners against them with a fake clock (plain datetimes, never sleep).
The session fixtures ``falkordb_server`` and ``neo4j_uri`` come from tests/conftest.py.
"""

from __future__ import annotations

import shutil
import socket
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import urlparse

import pytest
from severable import SeverableLink
from storekit import Writer, fresh_account

from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import Store

ENGINES = [
    pytest.param("falkordb", marks=pytest.mark.falkordb),
    pytest.param("neo4j", marks=pytest.mark.neo4j),
]


@pytest.fixture
def anyio_backend() -> str:
    """Run the async tests on asyncio only (the drivers are asyncio clients)."""
    return "asyncio"


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> str:
    """The engine under test; requesting its session fixture starts it (or skips)."""
    name: str = request.param
    request.getfixturevalue("falkordb_server" if name == "falkordb" else "neo4j_uri")
    return name


def new_store(engine: str, request: pytest.FixtureRequest) -> Store:
    """An unstarted store of ``engine`` on the session's server."""
    if engine == "falkordb":
        from twoclocks.graph.falkordb.store import FalkorDBStore

        return FalkorDBStore(request.getfixturevalue("falkordb_server").socket_path)
    from twoclocks.graph.neo4j.store import Neo4jStore

    return Neo4jStore(request.getfixturevalue("neo4j_uri"))


@pytest.fixture
async def store(engine: str, request: pytest.FixtureRequest) -> AsyncIterator[Store]:
    """A started store of each engine, closed after the test."""
    s = new_store(engine, request)
    await s.start()
    try:
        yield s
    finally:
        await s.close()


@pytest.fixture
async def linked_store(
    engine: str, request: pytest.FixtureRequest
) -> AsyncIterator[tuple[Store, SeverableLink]]:
    """A started store of each engine that reaches its server through a link the test can
    cut, to lose the engine mid-run without stopping the session's server."""
    short_dir = Path(tempfile.mkdtemp(prefix="link", dir="/tmp"))  # unix paths max ~100
    if engine == "falkordb":
        from twoclocks.graph.falkordb.store import FalkorDBStore

        path = str(request.getfixturevalue("falkordb_server").socket_path)

        def to_falkordb() -> socket.socket:
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.connect(path)
            return sock

        link = SeverableLink(to_falkordb)
        s: Store = FalkorDBStore(link.listen_unix(short_dir / "falkordb.sock"))
    else:
        from twoclocks.graph.neo4j.store import Neo4jStore

        target = urlparse(request.getfixturevalue("neo4j_uri"))
        address = (target.hostname or "127.0.0.1", target.port or 7687)
        link = SeverableLink(lambda: socket.create_connection(address))
        s = Neo4jStore(f"bolt://127.0.0.1:{link.listen_tcp()}")
    await s.start()
    try:
        yield s, link
    finally:
        link.cut()
        await s.close()
        shutil.rmtree(short_dir, ignore_errors=True)


@pytest.fixture
def account() -> str:
    """A fresh account per test, so tests never see each other's rows."""
    return fresh_account()


@pytest.fixture
def writer(store: Store, account: str) -> Writer:
    """A Writer on this test's store and account."""
    return Writer(store, account)


@pytest.fixture(scope="session")
def matcher() -> SlotMatcher:
    """The real MiniLM slot matcher, loaded once for every test that writes through drift."""
    from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder

    return SlotMatcher(SentenceTransformerEmbedder().load())
