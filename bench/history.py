"""Writes planned in memory, as the service would plan them, to bulk-load a bench graph.

Each slot's believed versions are kept here, so every write is planned with the pure
planner against the slot's real state and its history (expired originals, closed copies)
comes out exactly as the store would hold it.
"""

from __future__ import annotations

from datetime import datetime

from twoclocks.domain.model import FactVersion, Incoming, Plan
from twoclocks.domain.write_plan import plan_write


class PlannedHistory:
    """Every version written so far, with the clocks its later writes gave it."""

    def __init__(self, id_prefix: str) -> None:
        self._ids = (f"{id_prefix}{i:09d}" for i in range(10**9))
        self._believed: dict[tuple[str, str], list[FactVersion]] = {}
        self._versions: dict[str, FactVersion] = {}

    def __contains__(self, slot: tuple[str, str]) -> bool:
        return slot in self._believed

    def write(self, incoming: Incoming, now: datetime) -> Plan:
        """Plan one write against its slot as it stands, and keep the outcome."""
        slot_key = (incoming.subject, incoming.predicate)
        plan = plan_write(incoming, self._believed.get(slot_key, []), now, lambda: next(self._ids))
        expired = {x.version_id for x in plan.expire}
        for vid in expired:
            self._versions[vid] = self._versions[vid].model_copy(update={"expired_at": now})
        slot = [v for v in self._believed.get(slot_key, []) if v.version_id not in expired]
        for v in plan.insert:
            self._versions[v.version_id] = v
            slot.append(v)
        self._believed[slot_key] = slot
        return plan

    def rows(self) -> list[FactVersion]:
        """Every version, oldest record first (the order to load them in)."""
        return sorted(self._versions.values(), key=lambda v: v.created_at)
