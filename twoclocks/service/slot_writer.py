"""Applying a plan to one slot: read, plan, apply iff the slot did not move, else again.

The store's slot counter is what keeps writes correct, across processes and replicas: a
write applies only if the counter did not move since its read. Within one server, though,
racing on a hot slot is pure waste: every loser has paid a read, a plan, an embedding and
a write transaction (on Neo4j it even takes the slot's write lock before it finds out it
lost), then retries. Under 50 clients on 10 hot slots those retries made the Neo4j tail
seconds long, so this process's writers of one slot queue first (``SlotQueue``); the
counter check then almost always passes at once, and still guards against other processes.

A slot whose name became an alias of another (a merge by hand) takes no more writes: a
writer that reaches it moves on to the slot it was merged into and plans there. Recording
the alias moves the name's counter (``Store.record_alias``), so a writer that read the slot
just before is refused and reads again, in this process or any other.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from datetime import datetime

from twoclocks.domain.errors import WriteConflict
from twoclocks.domain.model import FactVersion, Plan
from twoclocks.domain.slot_names import fact_text
from twoclocks.embeddings.port import Embedder
from twoclocks.graph.port import SlotState, Store

MAX_ATTEMPTS = 60
"""Optimistic retries per write; 20 racing writers on one slot need at most 20 rounds."""

Planner = Callable[[SlotState, datetime], Awaitable[Plan]]


class SlotQueue:
    """One asyncio lock per slot that has a writer waiting or running, dropped when idle."""

    def __init__(self) -> None:
        self._locks: dict[tuple[str, str, str], asyncio.Lock] = {}
        self._waiting: dict[tuple[str, str, str], int] = {}

    @contextlib.asynccontextmanager
    async def turn(self, account: str, subject: str, predicate: str) -> AsyncIterator[None]:
        """Wait until no other writer of this slot in this process is running, then run."""
        key = (account, subject, predicate)
        lock = self._locks.setdefault(key, asyncio.Lock())
        self._waiting[key] = self._waiting.get(key, 0) + 1
        try:
            async with lock:
                yield
        finally:
            self._waiting[key] -= 1
            if not self._waiting[key]:  # nobody queued behind: forget the lock
                del self._waiting[key], self._locks[key]

    def __len__(self) -> int:
        """How many slots have a writer waiting or running."""
        return len(self._locks)


class SlotWriter:
    """Writes plans to slots with optimistic concurrency, queued per slot in-process."""

    def __init__(
        self, store: Store, clock: Callable[[], datetime], embedder: Embedder | None
    ) -> None:
        self.store = store
        self.clock = clock
        self.embedder = embedder
        self.queue = SlotQueue()

    async def apply(
        self,
        account: str,
        subject: str,
        predicate: str,
        plan: Planner,
        known: dict[str, list[float]] | None = None,
    ) -> Plan:
        """Read the slot, plan, apply iff the slot did not move meanwhile; else retry.

        The planner runs again on every attempt, so a racer that lost sees the
        winner's write: N racing revisions leave one successor and N-1
        FactAlreadyRetired. It plans for the slot ``SlotState.predicate`` names, which
        is not ``predicate`` when that name was merged into another slot meanwhile.
        """
        # By fact text, so a retry does not re-encode; ``known`` comes encoded already.
        vectors: dict[str, list[float]] = dict(known or {})
        passed = {predicate}
        for attempt in range(MAX_ATTEMPTS):
            async with self.queue.turn(account, subject, predicate):
                state = await self.store.read_slot(account, subject, predicate)
                into = state.merged_into
                if into is not None and into != predicate and into not in passed:
                    passed.add(into)
                    predicate = into
                    continue
                planned = await plan(state, self.clock())
                if not planned.changes_anything:
                    return planned
                embeddings = await self._embeddings(planned.insert, vectors)
                if await self.store.apply(
                    account, planned, subject, predicate, state.counter, embeddings
                ):
                    return planned
            # Another process moved the slot: back off a little so racers spread out.
            await asyncio.sleep(random.uniform(0, 0.002 * (attempt + 1)))
        raise WriteConflict(
            f"slot ({subject}, {predicate}) kept changing during {MAX_ATTEMPTS} attempts; try again"
        )

    async def embedding_of(self, subject: str, predicate: str, obj: str) -> dict[str, list[float]]:
        """The vector of one fact's text, keyed by that text (empty without an embedder)."""
        if self.embedder is None:
            return {}
        text = fact_text(subject, predicate, obj)
        return {text: (await asyncio.to_thread(self.embedder.embed_documents, [text]))[0]}

    async def _embeddings(
        self, versions: Sequence[FactVersion], known: dict[str, list[float]]
    ) -> dict[str, list[float]] | None:
        """Fact embeddings of the versions a plan inserts, encoded in one batch off the loop."""
        if self.embedder is None or not versions:
            return None
        texts = [fact_text(v.subject, v.predicate, v.object) for v in versions]
        missing = [t for t in dict.fromkeys(texts) if t not in known]
        if missing:
            encoded = await asyncio.to_thread(self.embedder.embed_documents, missing)
            known.update(zip(missing, encoded, strict=True))
        return {v.version_id: known[t] for v, t in zip(versions, texts, strict=True)}
