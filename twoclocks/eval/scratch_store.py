"""A throwaway store for a bench run: embedded FalkorDB in a temporary folder.

The benches that load a data set through the service (quality, recall_signals) want a
started store that leaves nothing behind. ``everysec`` because a lost second of writes
does not matter to a run that deletes its folder at the end.
"""

from __future__ import annotations

import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from twoclocks.graph.falkordb.server import EmbeddedFalkorDB
from twoclocks.graph.falkordb.store import FalkorDBStore


@asynccontextmanager
async def scratch_store(prefix: str) -> AsyncIterator[FalkorDBStore]:
    """A started store on an embedded FalkorDB in a temporary folder, removed after."""
    with (
        tempfile.TemporaryDirectory(prefix=prefix) as tmp,
        EmbeddedFalkorDB(Path(tmp), appendfsync="everysec") as server,
    ):
        store = FalkorDBStore(server.socket_path)
        await store.start()
        try:
            yield store
        finally:
            await store.close()
