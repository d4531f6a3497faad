"""Slot drift measured on labelled pairs: precision and recall of the merge decision.

For every pair, a fresh subject gets ``a = value_a`` and then ``b = value_b`` through
``MemoryService.remember`` (the path every entry point takes); the pair merged when the
second write landed under ``a``'s slot name.
"""

from __future__ import annotations

import itertools
import uuid
from collections import defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from twoclocks.domain.model import Tier
from twoclocks.domain.trust import Channel, Writer
from twoclocks.embeddings.slot_matcher import SlotMatch, SlotMatcher
from twoclocks.eval.data import DriftPair
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import Caller, RememberRequest
from twoclocks.service.slot_judge import SlotJudge


@dataclass(frozen=True)
class DriftOutcome:
    """One pair and what the matcher did with it."""

    pair: DriftPair
    merged: bool
    near: bool = False
    """Kept apart, the second write's answer named ``a`` as its close slot (``near_slot``)."""


@dataclass(frozen=True)
class Scores:
    """Precision, recall and F1 of the merge decision over some pairs."""

    pairs: int
    true_merges: int
    false_merges: int
    missed_merges: int

    @property
    def precision(self) -> float:
        """Merges that were right, of all merges made (1.0 when none were made)."""
        made = self.true_merges + self.false_merges
        return self.true_merges / made if made else 1.0

    @property
    def recall(self) -> float:
        """Merges made, of all the merges the labels ask for (1.0 when none are asked)."""
        wanted = self.true_merges + self.missed_merges
        return self.true_merges / wanted if wanted else 1.0

    @property
    def f1(self) -> float:
        """Harmonic mean of precision and recall."""
        p, r = self.precision, self.recall
        return 2 * p * r / (p + r) if p + r else 0.0


def scores(outcomes: Iterable[DriftOutcome]) -> Scores:
    """Count true, false and missed merges."""
    rows = list(outcomes)
    return Scores(
        pairs=len(rows),
        true_merges=sum(o.merged and o.pair.merge for o in rows),
        false_merges=sum(o.merged and not o.pair.merge for o in rows),
        missed_merges=sum(not o.merged and o.pair.merge for o in rows),
    )


@dataclass(frozen=True)
class NearHints:
    """What the answers' ``near_slot`` says of the pairs the matcher kept apart."""

    missed: int
    """Pairs labelled one slot that were kept apart."""
    missed_named: int
    """Of those, the ones whose answer named the other slot as close: the writer can merge."""
    apart: int
    """Pairs labelled two slots that were kept apart."""
    apart_named: int
    """Of those, the ones whose answer named the other slot anyway: a hint to ignore."""


def near_hints(outcomes: Iterable[DriftOutcome]) -> NearHints:
    """Count the hints on missed merges and on pairs rightly kept apart."""
    kept = [o for o in outcomes if not o.merged]
    return NearHints(
        missed=sum(o.pair.merge for o in kept),
        missed_named=sum(o.pair.merge and o.near for o in kept),
        apart=sum(not o.pair.merge for o in kept),
        apart_named=sum(not o.pair.merge and o.near for o in kept),
    )


def by_group(
    outcomes: Sequence[DriftOutcome], key: Callable[[DriftPair], str]
) -> dict[str, Scores]:
    """Scores per group of pairs (split, family), groups sorted by name."""
    groups: dict[str, list[DriftOutcome]] = defaultdict(list)
    for o in outcomes:
        groups[key(o.pair)].append(o)
    return {name: scores(groups[name]) for name in sorted(groups)}


def match_directly(matcher: SlotMatcher, pairs: Sequence[DriftPair]) -> list[DriftOutcome]:
    """The fast path for iterating: the matcher alone, as the service would call it."""
    return [DriftOutcome(pair, _decided(matcher, pair).name == pair.a) for pair in pairs]


def in_grey_zone(matcher: SlotMatcher, pairs: Sequence[DriftPair]) -> list[DriftPair]:
    """The pairs the matcher leaves to a slot judge: ``a`` is ``b``'s grey-zone slot."""
    return [pair for pair in pairs if _decided(matcher, pair).grey == pair.a]


def _decided(matcher: SlotMatcher, pair: DriftPair) -> SlotMatch:
    # As the service asks: b arriving where a holds value_a, for the pair's subject (a role
    # or qualifier named by the subject's own words is the subject's own).
    return matcher.decide(pair.b, [pair.a], pair.value_b, {pair.a: [pair.value_a]}, pair.subject)


def with_a_right_judge(
    outcomes: Sequence[DriftOutcome], grey: Iterable[DriftPair]
) -> list[DriftOutcome]:
    """The outcomes a judge that is always right would give: grey pairs as labelled.

    An upper bound on what any model in the grey zone can add, measured without one.
    """
    asked = set(grey)
    return [DriftOutcome(o.pair, o.pair.merge) if o.pair in asked else o for o in outcomes]


def writing_service(
    store: Store, matcher: SlotMatcher, slot_judge: SlotJudge | None = None
) -> MemoryService:
    """The service the drift benches write through: a clock one second on per write."""
    ticks = itertools.count()
    start = datetime(2026, 1, 1, tzinfo=UTC)
    return MemoryService(
        store,
        lambda: start + timedelta(seconds=next(ticks)),
        lambda: uuid.uuid4().hex,
        embedder=matcher.embedder,
        slot_matcher=matcher,
        slot_judge=slot_judge,
    )


async def through_service(
    store: Store,
    matcher: SlotMatcher,
    pairs: Sequence[DriftPair],
    account: str | None = None,
    slot_judge: SlotJudge | None = None,
) -> list[DriftOutcome]:
    """The reported path: both writes through ``MemoryService.remember`` on a real store."""
    account = account or f"drift{uuid.uuid4().hex[:12]}"
    service = writing_service(store, matcher, slot_judge)
    caller = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)
    out = []
    for i, pair in enumerate(pairs):
        subject = f"{pair.subject}-{i}"
        first = RememberRequest(
            subject=subject, predicate=pair.a, object=pair.value_a, tier=Tier.ASSERTED
        )
        await service.remember(caller, first)
        second = RememberRequest(
            subject=subject, predicate=pair.b, object=pair.value_b, tier=Tier.ASSERTED
        )
        written = await service.remember(caller, second)
        near = written.near_slot is not None and written.near_slot.predicate == pair.a
        out.append(DriftOutcome(pair, written.predicate == pair.a, near))
    return out
