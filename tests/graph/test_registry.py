"""The registry bases: each engine's store says how it reaches where the accounts live."""

from __future__ import annotations

import pytest

from twoclocks.graph.falkordb.store import FalkorDBStore
from twoclocks.graph.key_store import KeyStore
from twoclocks.graph.neo4j.store import Neo4jStore
from twoclocks.graph.registry import RegistryStore
from twoclocks.graph.turn_queue import TurnQueueStore


@pytest.mark.parametrize("base", [KeyStore, TurnQueueStore])
def test_a_store_that_does_not_say_how_it_reads_the_registry_cannot_be_made(
    base: type[RegistryStore],
) -> None:
    class NoRegistry(base):  # type: ignore[valid-type,misc]
        pass

    with pytest.raises(TypeError, match="_registry_rows"):
        NoRegistry()


@pytest.mark.parametrize("engine_store", [FalkorDBStore, Neo4jStore])
def test_every_engine_store_supplies_the_registry(engine_store: type[RegistryStore]) -> None:
    assert not engine_store.__abstractmethods__
    assert issubclass(engine_store, KeyStore) and issubclass(engine_store, TurnQueueStore)
