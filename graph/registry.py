"""The one call each engine's store supplies for what lives beside the accounts.

API keys (``graph.key_store``) and the turn queue (``graph.turn_queue``) live where an
engine keeps its accounts (FalkorDB's accounts graph, Neo4j's one database). Both are
written once over ``_registry_rows``; only that differs by engine.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class RegistryStore(ABC):
    """Base of each engine's store: run one statement where the accounts live."""

    @abstractmethod
    async def _registry_rows(
        self, statement: str, params: dict[str, Any], *, write: bool, repeatable: bool = False
    ) -> list[dict[str, Any]]:
        """Run one statement where the engine keeps accounts and keys; rows as dicts.

        ``write`` says whether the statement changes anything (an engine may route reads
        and writes differently). A write is run once, unless ``repeatable`` says a second
        run of one that landed answers the same (then a lost connection is retried)."""
