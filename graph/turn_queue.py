"""The Store's turn-queue calls, written once over the Cypher in graph/turns_cypher.py.

Turns wait in the store for the extractor, so a restart loses none; each engine supplies
``_registry_rows`` (``graph.registry``), and the queue is the same on every engine.
"""

from __future__ import annotations

import uuid
from datetime import datetime

from twoclocks.graph import turns_cypher
from twoclocks.graph.port import QueuedTurn
from twoclocks.graph.registry import RegistryStore
from twoclocks.graph.schema import check_account, to_us


class TurnQueueStore(RegistryStore):
    """Base of each engine's store: the turn-queue calls of the Store port."""

    async def queue_turn(self, account: str, turn_id: str, payload: str, at: datetime) -> bool:
        """Queue a turn (JSON text) for the extractor; False when this id was queued before."""
        params = {"account": check_account(account), "uuid": turn_id, "payload": payload,
                  "at_us": to_us(at), "token": uuid.uuid4().hex}  # fmt: skip
        # Repeatable: a second run of a queue that landed finds its own token and answers
        # "created" again.
        rows = await self._registry_rows(
            turns_cypher.QUEUE_TURN, params, write=True, repeatable=True
        )
        return bool(rows and rows[0]["created"])

    async def queued_turns(self, account: str | None, limit: int) -> list[QueuedTurn]:
        """The oldest queued turns of one account (or of every account when None)."""
        params = {"account": None if account is None else check_account(account), "limit": limit}
        rows = await self._registry_rows(turns_cypher.QUEUED_TURNS, params, write=False)
        return [
            QueuedTurn(account=str(r["account"]), turn_id=str(r["uuid"]), payload=str(r["payload"]))
            for r in rows
        ]

    async def finish_turn(self, account: str, turn_id: str, state: str, at: datetime) -> bool:
        """Mark a queued turn done (its text is dropped); False when it was not queued."""
        params = {"account": check_account(account), "uuid": turn_id, "state": state,
                  "at_us": to_us(at)}  # fmt: skip
        # Not repeatable: a second run of a finish that landed finds nothing queued.
        return bool(await self._registry_rows(turns_cypher.FINISH_TURN, params, write=True))

    async def turn_counts(self, account: str) -> dict[str, int]:
        """The account's queued turns by state (queued, extracted, failed, ...)."""
        params = {"account": check_account(account)}
        rows = await self._registry_rows(turns_cypher.TURN_COUNTS, params, write=False)
        return {str(r["state"]): int(r["turns"]) for r in rows}
