"""Recall measured on labelled questions: hit@1 and MRR, multi-fact coverage, empties.

The facts are loaded through ``MemoryService.remember`` as a person would write them
(each older value first, with its own valid_at, then the current one), with slot drift
on as ``bootstrap`` wires it; every question is asked through ``RecallService.recall``
(k 5, no working directory).
"""

from __future__ import annotations

import itertools
import uuid
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from twoclocks.domain.model import Tier
from twoclocks.domain.places import Workspace
from twoclocks.domain.trust import Channel, Writer
from twoclocks.embeddings.port import Embedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.eval.data import RecallFact, RecallQuestion
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.recall import RecallService
from twoclocks.service.recall_fusion import LEGS
from twoclocks.service.recall_requests import RecallRequest
from twoclocks.service.requests import Caller, RememberRequest

K = 5


@dataclass
class Loaded:
    """The account the facts went into, and what the load did to them."""

    account: str
    now: datetime
    ids: dict[str, str] = field(default_factory=dict)
    """Our fact id -> the set's fact id, for every current fact."""
    lost: list[str] = field(default_factory=list)
    """Set ids whose fact another fact's write closed (a wrong drift merge at load)."""


@dataclass(frozen=True)
class Answer:
    """One question and the set ids recall returned for it, best first."""

    question: RecallQuestion
    status: str
    ranked: tuple[str, ...]

    @property
    def rank(self) -> int | None:
        """1-based rank of the first expected fact, None when none came back."""
        for i, got in enumerate(self.ranked, start=1):
            if got in self.question.expect:
                return i
        return None


@dataclass(frozen=True)
class RecallScores:
    """The figures of one group of answers."""

    single: int
    hit1: float
    mrr: float
    multi: int
    multi_all: float
    none: int
    none_empty: float
    answered_empty: int
    """Single or multi questions that came back empty: real answers a floor cost."""


def _ratio(n: float, d: int) -> float:
    return n / d if d else float("nan")


def score(answers: Iterable[Answer]) -> RecallScores:
    """hit@1 and MRR on single questions, all-in-top-k on multi, empty rate on none."""
    rows = list(answers)
    single = [a for a in rows if a.question.kind == "single"]
    multi = [a for a in rows if a.question.kind == "multi"]
    none = [a for a in rows if a.question.kind == "none"]
    return RecallScores(
        single=len(single),
        hit1=_ratio(sum(a.rank == 1 for a in single), len(single)),
        mrr=_ratio(sum(1 / a.rank for a in single if a.rank), len(single)),
        multi=len(multi),
        multi_all=_ratio(sum(set(a.question.expect) <= set(a.ranked) for a in multi), len(multi)),
        none=len(none),
        none_empty=_ratio(sum(a.status == "empty" for a in none), len(none)),
        answered_empty=sum(a.status == "empty" for a in single + multi),
    )


async def load(
    store: Store, embedder: Embedder, matcher: SlotMatcher | None, facts: Sequence[RecallFact]
) -> Loaded:
    """Write every fact (history first) through the service into a fresh account."""
    dated = [t for f in facts for t in (f.valid_at, *(h.valid_at for h in f.history)) if t]
    base = max([datetime(2026, 1, 1, tzinfo=UTC), *dated]) + timedelta(days=1)
    ticks = itertools.count()
    loaded = Loaded(account=f"recall{uuid.uuid4().hex[:12]}", now=base)
    service = MemoryService(
        store,
        lambda: base + timedelta(seconds=next(ticks)),
        lambda: uuid.uuid4().hex,
        embedder=embedder,
        slot_matcher=matcher,
    )
    caller = Caller(account=loaded.account, writer=Writer.PERSON, channel=Channel.CLI)
    owner: dict[str, str] = {}  # our fact id (any version) -> set id
    for fact in facts:
        ours: set[str] = set()
        for value, at in [*((h.object, h.valid_at) for h in fact.history),
                          (fact.object, fact.valid_at)]:  # fmt: skip
            done = await service.remember(
                caller,
                RememberRequest(
                    subject=fact.subject,
                    predicate=fact.predicate,
                    object=value,
                    valid_at=at or base - timedelta(days=1),
                    tier=Tier.ASSERTED,
                ),
            )
            ours.add(done.fact_id)
            owner[done.fact_id] = fact.id
            for closed in done.closed:
                if closed not in ours and closed in owner:
                    loaded.lost.append(owner[closed])
        loaded.ids[done.fact_id] = fact.id
    loaded.now = base + timedelta(seconds=next(ticks))
    return loaded


def recall_service(
    store: Store, embedder: Embedder | None, loaded: Loaded, weights: Mapping[str, float] | None
) -> RecallService:
    """A RecallService on the loaded account's clock, no workspace, with these leg weights."""
    return RecallService(
        store, lambda: loaded.now, embedder, lambda _cwd: Workspace(), UTC, leg_weights=weights
    )


async def ask(
    service: RecallService, loaded: Loaded, questions: Sequence[RecallQuestion], k: int = K
) -> list[Answer]:
    """Every question through ``RecallService.recall``; results mapped to set ids."""
    caller = Caller(account=loaded.account)
    out = []
    for q in questions:
        got = await service.recall(caller, RecallRequest(query=q.question, k=k))
        ranked = tuple(loaded.ids.get(f.fact_id, f"?{f.fact_id}") for f in got.facts)
        out.append(Answer(q, got.status, ranked))
    return out


def leg_variants() -> dict[str, dict[str, float]]:
    """Weight overrides that keep one leg alone, or drop one leg, for the contribution table."""
    out: dict[str, dict[str, float]] = {}
    for leg in LEGS[:-1]:  # the slot leg only reorders what the others found
        out[f"only {leg}"] = {name: (1.0 if name == leg else 0.0) for name in LEGS}
    for leg in LEGS:
        out[f"without {leg}"] = {leg: 0.0}
    return out
