"""Close slots: pairs of one subject's current slots, left as two, that may name one thing.

Slot drift settles most new names as they arrive. Names in its grey zone (``owner`` /
``maintainer``) stay two slots, each with a current value, and the write's answer names the
close one (``RememberResult.near_slot``); but nobody reads the answers of capture hooks,
and an agent may not pass the hint on. This list shows every such pair when the person
asks, so they can merge it (``twoclocks merge``) or leave it. It is worked out on each
call with the matcher writes use, the newer slot asked against the older ones as its first
write was: a pair stays listed until merged or kept apart (``twoclocks keep-apart``; a
split keeps its pair apart too), and a pair the person kept apart for another subject is
not listed either (``service.slot_naming.held_apart``).

The CLI (``twoclocks close-slots``) and HTTP (``GET /v1/aliases/close``) call ``close_slots``.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Sequence

from pydantic import BaseModel, ConfigDict, Field

from twoclocks.domain.model import MAX_TEXT, FactVersion
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import SlotAlias, SlotsApart
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import Caller, FactsRequest, Line, Text
from twoclocks.service.slot_naming import PERSON_MERGE, held_apart, taught_by


class CloseSlotsRequest(BaseModel):
    """Which close slots to list: one subject's, or every subject's in the workspace."""

    model_config = ConfigDict(extra="forbid")

    subject: Line | None = Field(None, max_length=MAX_TEXT, description="only this subject")
    cwd: Text | None = Field(None, max_length=4096, description="the session's working directory")
    all_workspaces: bool = Field(False, description="every workspace (the person's reads)")


class CloseSlot(BaseModel):
    """Two current slots of one subject that may be one: ``other`` arrived beside ``slot``."""

    subject: str
    slot: str = Field(description="the older slot; a merge into it keeps its name")
    values: list[str] = Field(description="its current values")
    other: str = Field(description="the newer slot, left beside `slot` when it arrived")
    other_values: list[str] = Field(description="its current values")
    similarity: float = Field(description="how close the matcher scores the two names")
    why: str = Field(description="why they are listed: close names, or a rule or merge since")


class CloseSlotList(BaseModel):
    """Close slots, the closest first; `POST /v1/aliases/merge` joins a pair, `POST
    /v1/aliases/apart` keeps it apart."""

    close: list[CloseSlot]


async def close_slots(
    memory: MemoryService, caller: Caller, req: CloseSlotsRequest
) -> CloseSlotList:
    """Every pair of a subject's current slots that drift left as two and may be one."""
    matcher = memory.slot_matcher
    if matcher is None:  # drift is off: no names are compared, none are close
        return CloseSlotList(close=[])
    read = FactsRequest(subject=req.subject, cwd=req.cwd, all_workspaces=req.all_workspaces)
    rows = await memory.store.query(caller.account, await memory.fact_query(caller, read))
    taught = await memory.store.export_aliases(caller.account, decided_by=PERSON_MERGE)
    aparts = await memory.store.export_apart(caller.account)
    by_subject: dict[str, list[FactVersion]] = defaultdict(list)
    for v in rows:
        by_subject[v.subject].append(v)
    found: list[CloseSlot] = []
    for subject, held in by_subject.items():
        found += await asyncio.to_thread(_pairs_of, matcher, subject, held, taught, aparts)
    return CloseSlotList(close=sorted(found, key=lambda c: (-c.similarity, c.subject, c.slot)))


def _pairs_of(
    matcher: SlotMatcher,
    subject: str,
    rows: Sequence[FactVersion],
    taught: list[SlotAlias],
    aparts: Sequence[SlotsApart] = (),
) -> list[CloseSlot]:
    """One subject's close pairs: each slot asked against the slots older than it."""
    slots: dict[str, list[FactVersion]] = defaultdict(list)
    for v in sorted(rows, key=lambda v: v.created_at):
        slots[v.predicate].append(v)
    order = list(slots)  # by each slot's first record
    out: list[CloseSlot] = []
    for index, name in enumerate(order):
        apart = held_apart(subject, name, order[:index], aparts, taught)
        older = [n for n in order[:index] if _one_kind(slots[n], slots[name]) and n not in apart]
        if not older:
            continue
        latest = max(slots[name], key=lambda v: v.valid_at).object
        values = {n: [v.object for v in slots[n]] for n in older}
        # The person's word first: the matcher is asked only of pairs it does not settle.
        score: float | None = None
        lesson = taught_by(name, {n: n for n in older}, taught, aparts)
        if lesson is not None:
            pair, why = lesson[0], f"you merged the same two names for {lesson[1].subject}"
        else:
            match = matcher.decide(name, older, latest, values, subject)
            if match.name is not None and match.name != name:
                pair, why = match.name, "the drift rules now call them one slot"
            elif match.grey is not None and match.vouched:
                pair, why, score = (
                    match.grey,
                    "close names holding things of one kind",
                    match.similarity,
                )
            else:
                continue
        out.append(
            CloseSlot(
                subject=subject,
                slot=pair,
                values=values[pair],
                other=name,
                other_values=[v.object for v in slots[name]],
                similarity=round(matcher.similarity(name, pair) if score is None else score, 3),
                why=why,
            )
        )
    return out


def _one_kind(a: Sequence[FactVersion], b: Sequence[FactVersion]) -> bool:
    # A slot of one value and a slot of several are never one slot: no merge joins them.
    return {v.cardinality for v in a} == {v.cardinality for v in b}
