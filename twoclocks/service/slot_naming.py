"""Slot drift at write time: the slot a new name goes under, and the close one it did not join.

``ci_platform`` arriving where ``ci_provider`` exists is written under ``ci_provider``;
``deploy_region`` beside ``deploy_target`` stays its own slot. Between the two sit names
the matcher cannot settle (``owner`` / ``maintainer``): the slot judge decides them when
one is configured, and otherwise the write keeps its own slot and its answer names the
close one (``RememberResult.near_slot``), so the writer, who knows, can merge them.
A pair of names the person merged by hand for one subject is one slot for every subject:
``ticketing`` merged into ``tracker`` once, the next project's ``ticketing`` joins its
``tracker`` (``taught_slot``). A pair someone kept apart (a split, or "keep apart" on a
close pair) is never merged by the matcher again for that subject, nor, when the person
kept it apart, for any other (``held_apart``). When the person merged two names for one
subject and kept the same two apart for another, neither lesson teaches: the matcher
decides as if untaught.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime

from twoclocks.domain.cardinality import resolve_cardinality
from twoclocks.domain.model import FactVersion, Incoming
from twoclocks.domain.slot_names import canonical_tokens
from twoclocks.domain.trust import Writer, shown_to_model
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import FactQuery, SlotAlias, SlotsApart, Store
from twoclocks.service.requests import NearSlot
from twoclocks.service.slot_judge import SlotJudge, SlotQuestion


@dataclass(frozen=True)
class SlotName:
    """The slot a write goes under, and whether the name it arrived with is a new alias."""

    name: str
    new_alias: bool = False
    decided_by: str | None = None
    """Who merged a new alias when not the matcher itself: the slot judge's model."""
    near: str | None = None
    """An existing slot whose name scored in the grey zone and was not merged with this one."""
    similarity: float = 0.0
    """``near``'s similarity to the name written, as the matcher scored it."""
    near_rows: tuple[FactVersion, ...] = ()
    """``near``'s current versions as the matcher saw them (all workspaces: filter to show)."""


class SlotNaming:
    """Decides the slot of each write from the subject's existing slot names."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime],
        matcher: SlotMatcher | None,
        judge: SlotJudge | None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.matcher = matcher
        self.judge = judge

    async def name_for(self, account: str, subject: str, predicate: str, value: str) -> SlotName:
        """The slot to write under: the subject's existing slot when the name means the same.

        A name in the matcher's grey zone goes to the slot judge when one is configured;
        when none is, or it says "different", the write keeps its name and ``near`` names
        the close slot.
        """
        names = await self.store.slot_names(account, subject)
        if predicate in names:
            return SlotName(names[predicate])
        if self.matcher is None or not names:
            return SlotName(predicate)
        merges = await self.store.export_aliases(account, decided_by=PERSON_MERGE)
        aparts = await self.store.export_apart(account)
        apart = held_apart(subject, predicate, names, aparts, merges)
        taught = taught_slot(predicate, names, merges, aparts)
        # A pair kept apart for this subject is its own word, over a lesson from elsewhere.
        if taught is not None and taught.name not in apart:
            return taught
        slots = sorted(set(names.values()) - apart)
        if not slots:
            return SlotName(predicate)
        # The slots' current values vouch for or against a merge (two versions: one slot;
        # a version beside a URL: two), so the matcher sees them too.
        rows: dict[str, list[FactVersion]] = {}
        for v in await self.store.query(account, FactQuery(now=self.clock(), subject=subject)):
            rows.setdefault(v.predicate, []).append(v)
        values = {name: [v.object for v in held] for name, held in rows.items()}
        found = await asyncio.to_thread(
            self.matcher.decide, predicate, slots, value, values, subject
        )
        if found.name is not None and found.name != predicate:
            return SlotName(found.name, new_alias=True)
        if found.grey is None:
            return SlotName(predicate)
        held = tuple(rows.get(found.grey, ()))
        # Close names alone are mostly two slots of one subject; the values make a hint.
        near = (
            SlotName(predicate, near=found.grey, similarity=found.similarity, near_rows=held)
            if found.vouched
            else SlotName(predicate)
        )
        if self.judge is None:
            return near
        question = SlotQuestion(
            subject=subject,
            existing=found.grey,
            # A row with no tier is never sent to a model (DESIGN §4).
            existing_values=tuple(v.object for v in held if shown_to_model(v.tier)),
            new=predicate,
            new_value=value,
            similarity=found.similarity,
        )
        if await self.judge.same_slot(question):
            return SlotName(found.grey, new_alias=True, decided_by=self.judge.decided_by)
        return near


def merged_by(writer: Writer) -> str:
    """The ``decided_by`` of a merge by hand: ``merge by person``, ``merge by agent``."""
    return f"merge by {writer.value}"


PERSON_MERGE = merged_by(Writer.PERSON)


def taught_slot(
    predicate: str,
    names: dict[str, str],
    aliases: list[SlotAlias],
    aparts: Sequence[SlotsApart] = (),
) -> SlotName | None:
    """The subject's slot that a person's merge for another subject made one with ``predicate``.

    Only the person's merges teach: the matcher's and the judge's may be wrong, and an
    agent's is the agent's guess. Names compare by their canonical words, so
    ``Ticketing`` and ``ticketing`` are one name.

    >>> merge = SlotAlias(subject="api", alias="ticketing", canonical="tracker",
    ...     decided_by=PERSON_MERGE)
    >>> taught = taught_slot("ticketing", {"tracker": "tracker"}, [merge])
    >>> taught.name, taught.new_alias, taught.decided_by
    ('tracker', True, 'merge by person, for api')
    >>> taught_slot("tracker", {"Ticketing": "Ticketing"}, [merge]).name
    'Ticketing'
    >>> taught_slot("ticketing", {"tracker": "tracker"}, [merge.model_copy(
    ...     update={"decided_by": "model qwen"})]) is None
    True
    """
    found = taught_by(predicate, names, aliases, aparts)
    if found is None:
        return None
    slot, merge = found
    return SlotName(slot, new_alias=True, decided_by=f"{PERSON_MERGE}, for {merge.subject}")


def taught_by(
    predicate: str,
    names: dict[str, str],
    aliases: list[SlotAlias],
    aparts: Sequence[SlotsApart] = (),
) -> tuple[str, SlotAlias] | None:
    """``taught_slot``'s slot, with the person's merge that taught it."""
    asked = _words(predicate)
    unsure = {_pair(p.first, p.second) for p in aparts if p.decided_by == PERSON_APART}
    for alias in aliases:
        if alias.decided_by != PERSON_MERGE or _pair(alias.alias, alias.canonical) in unsure:
            continue
        pair = (_words(alias.alias), _words(alias.canonical))
        if asked not in pair:
            continue
        other = pair[1] if asked == pair[0] else pair[0]
        for name, slot in names.items():
            if _words(name) == other:
                return slot, alias
    return None


def _words(name: str) -> tuple[str, ...]:
    return tuple(canonical_tokens(name))


def _pair(a: str, b: str) -> frozenset[tuple[str, ...]]:
    return frozenset((_words(a), _words(b)))


def kept_apart_by(writer: Writer) -> str:
    """The ``decided_by`` of a pair kept apart: ``kept apart by person``."""
    return f"kept apart by {writer.value}"


PERSON_APART = kept_apart_by(Writer.PERSON)


def apart_pair(subject: str, a: str, b: str, decided_by: str) -> SlotsApart:
    """The record of two slot names kept apart, the names in sorted order."""
    first, second = sorted((a, b))
    return SlotsApart(subject=subject, first=first, second=second, decided_by=decided_by)


def held_apart(
    subject: str,
    predicate: str,
    names: dict[str, str] | Iterable[str],
    aparts: Sequence[SlotsApart],
    merges: Sequence[SlotAlias] = (),
) -> set[str]:
    """The slots ``predicate`` of ``subject`` must not join: pairs kept apart.

    A pair kept apart for this subject holds whoever kept it apart; one the person kept
    apart for another subject holds here too, unless the person also merged the same two
    names somewhere (then the lessons disagree and neither teaches). Names compare by
    their canonical words.

    >>> apart = apart_pair("api", "ticketing", "tracker", PERSON_APART)
    >>> held_apart("web", "Ticketing", {"tracker": "tracker", "ci": "ci"}, [apart])
    {'tracker'}
    >>> merged = SlotAlias(subject="cli", alias="ticketing", canonical="tracker",
    ...     decided_by=PERSON_MERGE)
    >>> held_apart("web", "ticketing", ["tracker"], [apart], [merged])
    set()
    >>> held_apart("api", "ticketing", ["tracker"], [apart], [merged])
    {'tracker'}
    """
    slot_of = dict(names) if isinstance(names, dict) else {n: n for n in names}
    merged = {_pair(m.alias, m.canonical) for m in merges if m.decided_by == PERSON_MERGE}
    asked = _words(predicate)
    out: set[str] = set()
    for record in aparts:
        pair = _pair(record.first, record.second)
        own = record.subject == subject
        if not own and (record.decided_by != PERSON_APART or pair in merged):
            continue
        if asked not in pair:
            continue
        for name, slot in slot_of.items():
            if _pair(predicate, name) == pair and name != predicate:
                out.add(slot)
    return out


def near_slot(
    slot: SlotName,
    slot_now: str,
    written: Incoming,
    visible_to: Callable[[FactVersion], bool],
) -> NearSlot | None:
    """The grey-zone slot a write was kept apart from, with the values the writer may see.

    None when there is none, when a merge has since made the two one slot, when the two
    hold different numbers of values (no merge joins those), or when none of its current
    values is the writer's to see (its name would say they exist). No store read: the
    rows are those the matcher saw; the write went to another slot and left them alone.
    """
    if slot.near is None or slot.near == slot_now:
        return None
    cardinality = resolve_cardinality(written.cardinality, slot_now, written.kind)
    values = [v.object for v in slot.near_rows if visible_to(v) and v.cardinality == cardinality]
    if not values:
        return None
    return NearSlot(predicate=slot.near, values=values, similarity=round(slot.similarity, 3))
