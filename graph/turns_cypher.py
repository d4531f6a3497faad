"""The Cypher of the turn queue: turns waiting for the extractor, kept in the store.

A restart loses none. The queue lives where the accounts do (FalkorDB's accounts graph,
Neo4j's one database); ``graph.turn_queue`` runs it the same way on every engine.
"""

from __future__ import annotations

QUEUE_TURN = """
MERGE (t:TurnJob {account: $account, uuid: $uuid})
  ON CREATE SET t.payload = $payload, t.state = 'queued', t.queued_at_us = $at_us,
    t.saved_by = $token
RETURN t.saved_by = $token AS created
"""
"""Queue a turn once per id; ``created`` says whether this call queued it."""

QUEUED_TURNS = """
MATCH (t:TurnJob {state: 'queued'})
WHERE $account IS NULL OR t.account = $account
RETURN t.account AS account, t.uuid AS uuid, t.payload AS payload
ORDER BY t.queued_at_us, t.uuid
LIMIT $limit
"""
"""The oldest queued turns (of one account, or of all when ``$account`` is null)."""

FINISH_TURN = """
MATCH (t:TurnJob {account: $account, uuid: $uuid})
WHERE t.state = 'queued'
SET t.state = $state, t.finished_at_us = $at_us, t.payload = null
RETURN t.uuid AS uuid
"""
"""A queued turn is done (extracted, skipped or failed); its text stays only in its episode.
No row when it was finished already, so a turn is extracted once."""

TURN_COUNTS = """
MATCH (t:TurnJob {account: $account})
RETURN t.state AS state, count(t) AS turns
"""
"""Turns of an account by state: queued, extracted, failed."""
