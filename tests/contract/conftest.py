"""The contract suite runs every test against every real store (FalkorDB and Neo4j).

``store`` is a started store; ``account`` a fresh account name per test; ``writer``
drives the pure planners against them with a fake clock (plain datetimes, never sleep).
The session fixtures ``falkordb_server`` and ``neo4j_uri`` come from tests/conftest.py.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from storekit import Writer, fresh_account

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
def account() -> str:
    """A fresh account per test, so tests never see each other's rows."""
    return fresh_account()


@pytest.fixture
def writer(store: Store, account: str) -> Writer:
    """A Writer on this test's store and account."""
    return Writer(store, account)
