"""The KeyStore base: each engine's store says how it reaches the accounts registry."""

from __future__ import annotations

import pytest

from twoclocks.graph.falkordb.store import FalkorDBStore
from twoclocks.graph.key_store import KeyStore
from twoclocks.graph.neo4j.store import Neo4jStore


def test_a_store_that_does_not_say_how_it_reads_the_registry_cannot_be_made() -> None:
    class NoRegistry(KeyStore):
        pass

    with pytest.raises(TypeError, match="_registry_rows"):
        NoRegistry()  # type: ignore[abstract]


@pytest.mark.parametrize("engine_store", [FalkorDBStore, Neo4jStore])
def test_every_engine_store_supplies_the_registry(engine_store: type[KeyStore]) -> None:
    assert not engine_store.__abstractmethods__
