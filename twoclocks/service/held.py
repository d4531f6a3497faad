"""Held-back facts: the refusal watch at work, and the person's list and restore.

After a refused turn, every current fact a model wrote whose value that turn carried is
checked against the turns kept as episodes (domain.refusal_watch decides); a fact held
back is closed with the reason ``held_back``, so it is neither current nor in the block.
The person lists them (``twoclocks held``, GET /v1/held) and restores one
(``twoclocks held restore ID``, POST /v1/held/{id}/restore): both call this module.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from datetime import datetime

from pydantic import BaseModel, Field

from twoclocks.capture.turns import Turn
from twoclocks.domain.errors import FactNotRetracted, ReadNotAllowed, WriteNotAllowed
from twoclocks.domain.model import FactStatus, FactVersion, RetiredReason
from twoclocks.domain.refusal_watch import MODEL_WRITERS, Answered, Sighting, hold_back
from twoclocks.domain.temporal import last_version, status_of
from twoclocks.domain.trust import Writer, value_in_evidence
from twoclocks.graph.port import Episode, FactQuery, Store
from twoclocks.service.fact_ids import resolve_fact_id
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import Caller, Fact

log = logging.getLogger(__name__)

TURN_SOURCE = "turn:"
SIGHTINGS_K = 100
"""Episodes read per fact value when counting the turns that carried it."""


def turn_source(client: str, skipped: str | None) -> str:
    """An episode's source for a turn: ``turn:<client>``, plus why nothing came of it."""
    return f"{TURN_SOURCE}{client}" + (f":{skipped}" if skipped else "")


def answered_of(source: str) -> Answered | None:
    """How a kept turn ended, read off its episode's source; None for other episodes."""
    if not source.startswith(TURN_SOURCE):
        return None
    reason = source.split(":")[2] if source.count(":") >= 2 else ""
    if reason == "refused":
        return Answered.REFUSED
    if reason == "cut_short":
        return Answered.CUT_SHORT
    return Answered.NORMAL


class HeldFact(BaseModel):
    """A fact the refusal watch held back (its last version)."""

    fact: Fact
    held_at: datetime = Field(description="when it was held back (the record clock)")


class HeldList(BaseModel):
    """The account's held-back facts, newest first."""

    held: list[HeldFact]


class Restored(BaseModel):
    """What a restore did."""

    fact_id: str
    status: str = Field(description="live once restored")


class HeldFacts:
    """The refusal watch over one store, and the person's view of what it held back."""

    def __init__(self, memory: MemoryService, store: Store, clock: Callable[[], datetime]) -> None:
        self.memory = memory
        self.store = store
        self.clock = clock

    async def after_refused(self, account: str, turn: Turn) -> list[str]:
        """Hold back the model-written facts a refused turn carried, when the rule says so;
        returns the ids held back."""
        now = self.clock()
        text = f"{turn.person}\n{turn.answer}"
        current = await self.store.query(account, FactQuery(now=now))
        carried = [
            v for v in current if v.writer in MODEL_WRITERS and value_in_evidence(v.object, text)
        ]
        held: list[str] = []
        for version in carried:
            versions = await self.store.versions_of(account, version.fact_id)
            restored_before = any(v.retired_reason is RetiredReason.HELD_BACK for v in versions)
            sightings = await self._sightings(account, version.object)
            # This turn counts even where the engine's fulltext misses the value's spelling.
            sightings.append(Sighting(turn_id=turn.turn_id, at=now, answered=Answered.REFUSED))
            if hold_back(version.writer, sightings, now, restored_before):
                system = Caller(account=account, writer=Writer.TOOL_RULE)
                await self.memory.retract(system, version.fact_id, RetiredReason.HELD_BACK)
                log.warning("refusal watch: held back fact %s", version.fact_id)
                held.append(version.fact_id)
        return held

    async def _sightings(self, account: str, value: str) -> list[Sighting]:
        episodes: list[Episode] = await self.store.search_episodes(account, value, SIGHTINGS_K)
        found = []
        for episode in episodes:
            answered = answered_of(episode.source)
            if answered is not None and value_in_evidence(value, episode.content):
                found.append(
                    Sighting(turn_id=episode.episode_id, at=episode.created_at, answered=answered)
                )
        return found

    async def held(self, caller: Caller) -> HeldList:
        """Every fact of the account the refusal watch holds back now, newest first.

        The person's review (the web screen, `twoclocks held`), like restoring one: these
        facts are held back from every model's reads, and an agent key listing them would
        undo the hold (and read every workspace's).
        """
        if caller.writer is not Writer.PERSON:
            raise ReadNotAllowed(
                "only the person lists held-back facts (every workspace's): use "
                "`twoclocks held` or the web screen"
            )
        rows = await self.store.query(
            caller.account, FactQuery(now=self.clock(), include_history=True)
        )
        by_fact: dict[str, list[FactVersion]] = {}
        for version in rows:
            by_fact.setdefault(version.fact_id, []).append(version)
        held = []
        for versions in by_fact.values():
            if status_of(versions) is FactStatus.HELD_BACK:
                last = last_version(versions)
                held.append(
                    HeldFact(fact=Fact.of(last), held_at=last.expired_at or last.created_at)
                )
        return HeldList(held=sorted(held, key=lambda h: h.held_at, reverse=True))

    async def restore(self, caller: Caller, fact_id: str) -> Restored:
        """The person takes a held-back fact back: current again, and never held again."""
        if caller.writer is not Writer.PERSON:
            raise WriteNotAllowed(
                "only the person restores a held-back fact: use `twoclocks held restore ID` "
                "or the web screen"
            )
        full_id = await resolve_fact_id(self.store, caller.account, fact_id)
        versions = await self.store.versions_of(caller.account, full_id)
        if status_of(versions) is not FactStatus.HELD_BACK:
            raise FactNotRetracted(
                f"fact {full_id} is not held back: `twoclocks held` lists the ones that are"
            )
        await self.memory.reopen(caller, full_id)
        return Restored(fact_id=full_id, status=FactStatus.LIVE.value)
