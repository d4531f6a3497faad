"""The store's invariants, checked over a whole export: what a crash or a load must not break.

Issue 15 points 1 and 2 check these after a SIGKILL mid-burst and after a soak:

* every write answered 2xx is present with both clocks (``missing_acknowledged``);
* no one-value slot has two current versions;
* no two believed versions of a one-value slot have overlapping valid windows;
* no fact has two successors (two distinct facts that supersede it).

Pure: versions in, a list of violations out (empty when the store is sound).
"""

from __future__ import annotations

import itertools
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from twoclocks.domain.model import Cardinality, FactVersion, Kind


@dataclass(frozen=True)
class Acknowledged:
    """One write the server answered 2xx, and what that answer promised."""

    op: str
    """remember, revise or retract."""
    fact_id: str
    version_id: str | None = None
    """remember: the version it stored."""
    successor_id: str | None = None
    """revise: the fact that replaced it."""


@dataclass
class Report:
    """What the checks found: empty lists when every invariant holds."""

    versions: int = 0
    facts: int = 0
    missing: list[str] = field(default_factory=list)
    two_current: list[str] = field(default_factory=list)
    overlapping: list[str] = field(default_factory=list)
    two_successors: list[str] = field(default_factory=list)

    @property
    def violations(self) -> list[str]:
        """Every violation found, each a line naming the ids."""
        return [*self.missing, *self.two_current, *self.overlapping, *self.two_successors]


def _slot_of(v: FactVersion) -> tuple[str, str, str, str]:
    # Places scope a slot: a value in one workspace does not close another workspace's.
    place = v.place.value if v.place is not None else ""
    return (v.subject, v.predicate, place, v.workspace or "")


def _one_value_facts(versions: Iterable[FactVersion]) -> dict[tuple[str, ...], list[FactVersion]]:
    slots: dict[tuple[str, ...], list[FactVersion]] = defaultdict(list)
    for v in versions:
        if v.believed and v.kind == Kind.FACT and v.cardinality == Cardinality.ONE:
            slots[_slot_of(v)].append(v)
    return slots


def _open_at(v: FactVersion, now: datetime) -> bool:
    return v.valid_at <= now and (v.invalid_at is None or v.invalid_at > now)


def missing_acknowledged(
    versions: Sequence[FactVersion], acknowledged: Iterable[Acknowledged]
) -> list[str]:
    """Acknowledged writes the export does not show as their answer promised."""
    by_version = {v.version_id: v for v in versions}
    by_fact: dict[str, list[FactVersion]] = defaultdict(list)
    for v in versions:
        by_fact[v.fact_id].append(v)
    missing = []
    for ack in acknowledged:
        rows = by_fact.get(ack.fact_id, [])
        if ack.op == "remember":
            row = by_version.get(ack.version_id or "")
            if row is None or row.fact_id != ack.fact_id:
                missing.append(f"remember {ack.fact_id}/{ack.version_id}: version lost")
            elif row.valid_at is None or row.created_at is None:
                missing.append(f"remember {ack.version_id}: a clock is missing")
        elif ack.op == "revise":
            if not any(r.retired_reason is not None or not r.believed for r in rows):
                missing.append(f"revise {ack.fact_id}: no version shows it retired")
            if ack.successor_id and ack.successor_id not in by_fact:
                missing.append(f"revise {ack.fact_id}: successor {ack.successor_id} lost")
        elif ack.op == "retract" and not any(r.expired_at is not None for r in rows):
            missing.append(f"retract {ack.fact_id}: record clock not closed")
    return missing


def check(
    versions: Sequence[FactVersion], acknowledged: Iterable[Acknowledged], now: datetime
) -> Report:
    """Every invariant over an account's whole export, as of ``now`` on the valid clock."""
    report = Report(versions=len(versions), facts=len({v.fact_id for v in versions}))
    report.missing = missing_acknowledged(versions, acknowledged)
    for slot, rows in sorted(_one_value_facts(versions).items()):
        current = sorted({v.fact_id for v in rows if _open_at(v, now)})
        if len(current) > 1:
            report.two_current.append(f"slot {slot}: {len(current)} current facts {current}")
        ordered = sorted(rows, key=lambda v: v.valid_at)
        for before, after in itertools.pairwise(ordered):
            end = before.invalid_at
            if before.fact_id != after.fact_id and (end is None or end > after.valid_at):
                report.overlapping.append(
                    f"slot {slot}: {before.version_id} [{before.valid_at}, {end}) overlaps "
                    f"{after.version_id} from {after.valid_at}"
                )
    successors: dict[str, set[str]] = defaultdict(set)
    for v in versions:
        if v.supersedes is not None and v.believed:
            successors[v.supersedes].add(v.fact_id)
    for fact, facts in sorted(successors.items()):
        if len(facts) > 1:
            report.two_successors.append(f"fact {fact}: {len(facts)} successors {sorted(facts)}")
    return report
