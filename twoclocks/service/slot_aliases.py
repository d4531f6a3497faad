"""Changing which names are one slot by hand: split a drift merge, merge what drift missed,
or keep two close names apart.

A split and a keep-apart are remembered (``SlotsApart``): drift never merges the pair
again, and the person's also teach every other subject (``service.slot_naming``).

Both run on the slot writer, so they queue behind this process's writers of the slots they
touch and apply only if the merged slot did not move meanwhile (``service.slot_writer``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime

from twoclocks.domain.alias_split import plan_split
from twoclocks.domain.errors import AliasNotFound, InvalidInput, SlotNotFound
from twoclocks.domain.model import FactVersion, Plan
from twoclocks.domain.slot_merge import plan_merge
from twoclocks.graph.port import FactQuery, SlotAlias, SlotsApart, SlotState, Store
from twoclocks.service.alias_requests import (
    KeepApartRequest,
    MergeSlotRequest,
    MergeSlotResult,
    SplitAliasRequest,
    SplitAliasResult,
)
from twoclocks.service.requests import (
    Caller,
)
from twoclocks.service.slot_naming import (
    apart_pair,
    held_apart,
    kept_apart_by,
    merged_by,
    taught_by,
)
from twoclocks.service.slot_writer import SlotWriter


class SlotAliases:
    """Split and merge slot names of one store."""

    def __init__(self, store: Store, writer: SlotWriter, new_id: Callable[[], str]) -> None:
        self.store = store
        self.writer = writer
        self.new_id = new_id
        # Only a merge holds two slots' queues; one merge at a time cannot deadlock.
        self._merging = asyncio.Lock()

    async def split(self, caller: Caller, req: SplitAliasRequest) -> SplitAliasResult:
        """Undo a slot-drift merge (``domain.alias_split``): both slots current again."""
        subject = req.subject.strip() if req.subject else None
        found = [
            a
            for a in await self.store.export_aliases(caller.account)
            if a.alias == req.alias.strip() and subject in (None, a.subject)
        ]
        if not found:
            where = f" for subject {subject!r}" if subject else ""
            raise AliasNotFound(f"no slot alias {req.alias!r}{where}: `facts` shows written_as")
        if len(found) > 1:
            names = ", ".join(sorted(a.subject for a in found))
            raise InvalidInput(f"alias {req.alias!r} is recorded for {names}: name the subject")
        alias = found[0]

        async def plan(_state: SlotState, now: datetime) -> Plan:
            history: list[FactVersion] = []
            # The alias's own name too: a value the merge folded into a same value of the
            # slot is still filed under it (domain.slot_merge).
            for predicate in (alias.canonical, alias.alias):
                query = FactQuery(
                    now=now, subject=alias.subject, predicate=predicate, include_history=True
                )
                history += await self.store.query(caller.account, query)
            return plan_split(alias.alias, history, now, self.new_id)

        done = await self.writer.apply(caller.account, alias.subject, alias.canonical, plan)
        # Forgotten only once the facts are back: a failed split leaves the alias to retry.
        # Kept apart before the alias goes: once it is gone a retry finds nothing to split.
        decided = kept_apart_by(caller.writer)
        apart = apart_pair(alias.subject, alias.alias, alias.canonical, decided)
        await self.store.record_apart(caller.account, apart)
        await self.store.delete_alias(caller.account, alias.subject, alias.alias)
        moved = [v.fact_id for v in done.insert if v.predicate == alias.alias]
        return SplitAliasResult(
            subject=alias.subject,
            alias=alias.alias,
            canonical=alias.canonical,
            moved=list(dict.fromkeys(moved)),
            reopened=list(
                dict.fromkeys(v.fact_id for v in done.insert if v.predicate != alias.alias)
            ),
            values={v.fact_id: v.object for v in done.insert},
        )

    async def merge(self, caller: Caller, req: MergeSlotRequest) -> MergeSlotResult:
        """Fold slot ``req.alias`` into slot ``req.canonical`` (``domain.slot_merge``).

        Run again after a failure, it finishes the merge: the name is then an alias
        whose slot still holds versions to move.
        """
        account, subject = caller.account, req.subject.strip()
        name, into = await self._merge_names(account, subject, req.alias, req.canonical)
        async with self._merging, self.writer.queue.turn(account, subject, name):
            await self._check_kinds(account, subject, name, into)
            # The alias goes first. It moves the name's slot counter, so from here on every
            # write of the name, in any process, lands in ``into`` (``service.slot_writer``)
            # and what the name's slot holds now is all there is to move.
            decided = merged_by(caller.writer)
            alias = SlotAlias(subject=subject, alias=name, canonical=into, decided_by=decided)
            await self.store.record_alias(account, alias)
            aparts = await self._forget_apart(account, subject, name, into)
            await self._point_aliases(account, subject, name, into)
            moved, values, done = await self._move(account, subject, name, into)
        # The lesson as a new name will meet it (``service.slot_naming.taught_by``).
        teaches = taught_by(name, {into: into}, [alias], aparts) is not None
        return MergeSlotResult(
            subject=subject,
            alias=name,
            canonical=into,
            moved=[f for f in dict.fromkeys(moved) if f not in dict(done.folded)],
            closed=list(dict.fromkeys(done.closed)),
            folded=dict(done.folded),
            teaches=teaches,
            values={
                f: values[f]
                for f in [*moved, *done.closed, *(f for pair in done.folded for f in pair)]
                if f in values
            },
        )

    async def keep_apart(self, caller: Caller, req: KeepApartRequest) -> SlotsApart:
        """Remember that two current slots of a subject are two: drift never merges them."""
        account, subject = caller.account, req.subject.strip()
        slot, other = req.slot.strip(), req.other.strip()
        if slot == other:
            raise InvalidInput(f"{slot!r} is one name: keep apart two different slots")
        names = await self.store.slot_names(account, subject)
        for given in (slot, other):
            if given not in names:
                raise SlotNotFound(
                    f"{subject!r} has no slot {given!r}: `twoclocks facts --subject "
                    f"{subject}` lists its slots"
                )
        if names[slot] == names[other]:
            raise InvalidInput(
                f"{slot!r} and {other!r} are one slot ({names[slot]!r}): split the alias "
                f"first (`twoclocks split ALIAS --subject {subject}`), which keeps them apart"
            )
        apart = apart_pair(subject, slot, other, kept_apart_by(caller.writer))
        await self.store.record_apart(account, apart)
        return apart

    async def _forget_apart(
        self, account: str, subject: str, name: str, into: str
    ) -> list[SlotsApart]:
        """A merge by hand is the latest word on its pair: the subject's "apart" goes.

        Returns the account's pairs still kept apart, so the caller need not read them again.
        """
        kept: list[SlotsApart] = []
        for record in await self.store.export_apart(account):
            if record.subject == subject and held_apart(subject, name, [into], [record]):
                await self.store.delete_apart(account, subject, record.first, record.second)
            else:
                kept.append(record)
        return kept

    async def _merge_names(
        self, account: str, subject: str, alias: str, canonical: str
    ) -> tuple[str, str]:
        """The slot name a merge folds in and the slot it joins, or why it cannot."""
        names = await self.store.slot_names(account, subject)
        name, asked = alias.strip(), canonical.strip()
        for given in (name, asked):
            if given not in names:
                raise SlotNotFound(
                    f"{subject!r} has no slot {given!r}: `twoclocks facts --subject "
                    f"{subject}` lists its slots"
                )
        into = names[asked]
        if names[name] not in (name, into):
            raise InvalidInput(
                f"{name!r} is already written under {names[name]!r}: split it first "
                f"(`twoclocks split {name} --subject {subject}`) to merge it elsewhere"
            )
        if into == name:
            raise InvalidInput(f"{name!r} and {asked!r} are already one slot")
        if names[name] == into and not await self._believed(account, subject, name):
            raise InvalidInput(f"{name!r} is already written under {into!r}")
        return name, into

    async def _check_kinds(self, account: str, subject: str, name: str, into: str) -> None:
        """Refuse to merge a one-value slot with a slot of several values."""
        held = [*await self._believed(account, subject, name)]
        held += await self._believed(account, subject, into)
        if len({v.cardinality for v in held}) > 1:
            raise InvalidInput(
                f"{name!r} and {into!r} hold different numbers of values (one at a time, "
                "several at once): they are not one slot"
            )

    async def _point_aliases(self, account: str, subject: str, name: str, into: str) -> None:
        """Aliases of the merged name now name the slot it joined."""
        for alias in await self.store.export_aliases(account):
            if alias.subject == subject and alias.canonical == name:
                await self.store.record_alias(account, alias.model_copy(update={"canonical": into}))

    async def _move(
        self, account: str, subject: str, name: str, into: str
    ) -> tuple[list[str], dict[str, str], Plan]:
        """Move what slot ``name`` still believes into ``into``: the moved facts, the value
        of every fact either slot held (by fact id), and the plan."""
        moved: list[str] = []
        values: dict[str, str] = {}

        async def plan(state: SlotState, now: datetime) -> Plan:
            versions = await self._believed(account, subject, name)
            moved[:] = [v.fact_id for v in versions]
            values.update({v.fact_id: v.object for v in (*versions, *state.versions)})
            return plan_merge(name, state.predicate, versions, state.versions, now, self.new_id)

        done = await self.writer.apply(account, subject, into, plan)
        return moved, values, done

    async def _believed(
        self, account: str, subject: str, predicate: str
    ) -> tuple[FactVersion, ...]:
        return (await self.store.read_slot(account, subject, predicate)).versions
