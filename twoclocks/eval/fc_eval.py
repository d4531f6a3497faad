"""MemoryAgentBench FactConsolidation through the service: ingest in order, ask through recall.

Each size's numbered facts go, in serial order, through ``MemoryService.remember`` (the
path of ``twoclocks remember``, slot drift on as ``bootstrap`` wires it) into a fresh
account: the triple from ``fc_data.parse``, ``valid_at`` one minute per serial (a higher
serial is later, as the benchmark rules), every slot declared single-valued (the
benchmark's rule: a later fact replaces an earlier one; "speaks" is many-valued in our
registry, so the declaration matters). Then every question goes through
``RecallService.recall`` (k 10, no workspace):

* single-hop: hit@1 (the first fact's object is the answer: the current value), and
  "stale first" (the first fact's object is a value the question's slot held before its
  answer); where the dataset's answer is itself the value a later fact replaced (it
  happens), "gold older" counts it and "later first" says recall followed the rule;
* multi-hop: the answer is the object of one of the 10 facts returned (the graph walk
  is what should bring the second hop).

No model reads the results: this is a retrieval-level score, not the benchmark's
end-to-end answer accuracy, which ``PUBLISHED`` gives beside ours for context only.
"""

from __future__ import annotations

import itertools
import time
import uuid
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from twoclocks.domain.model import Cardinality, Tier
from twoclocks.domain.text_fold import fold_case_and_spacing as _norm
from twoclocks.domain.trust import Channel, Writer
from twoclocks.embeddings.port import Embedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.eval.fc_data import FcSet, Question, Triple, triples, unparsed
from twoclocks.eval.store_eval import delete_account_facts
from twoclocks.eval.text_table import aligned
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService, no_workspace
from twoclocks.service.recall import RecallService
from twoclocks.service.recall_requests import RecallRequest, ScoredFact
from twoclocks.service.requests import Caller, RememberRequest

K = 10
FIRST_VALID = datetime(2020, 1, 1, tzinfo=UTC)
"""valid_at of fact 0; fact n is n minutes later."""
RECORDED = datetime(2026, 6, 1, tzinfo=UTC)
"""The record clock starts here and ticks a second per call, after every valid_at."""

PUBLISHED: tuple[tuple[str, str], ...] = (
    ("HippoRAG-v2", "54%"),
    ("BM25", "48%"),
    ("Mem0", "18%"),
    ("Zep/Graphiti", "7%"),
    ("multi-hop, best of 22 systems", "<= 7%"),
)
"""MemoryAgentBench FactConsolidation, end-to-end answer accuracy (a model answers)."""

Progress = Callable[[int, int, float], None]
"""Called during ingest with (facts written, facts in all, seconds so far)."""


@dataclass
class FcResult:
    """One size on one store: ingest figures, scores, and the misses behind them."""

    size: str
    store: str
    facts: int
    unparsed: int
    slots: int
    slots_changed: int
    """Slots of the data given a second, different value (the conflicts)."""
    closed: int
    """Writes that closed an earlier version."""
    wrong_closes: int
    """Closes of a version of another slot of the data (a wrong drift merge)."""
    renamed: int
    """Writes stored under another predicate than the parser's (drift merged them)."""
    ingest_s: float
    facts_per_s: float
    single_hop: int
    hit1: float
    hit10: float
    stale_first: int
    multi_hop: int
    multi_top10: float
    ask_s: float
    misses: list[str] = field(default_factory=list)
    gold_older: int = 0
    """Single-hop questions whose dataset answer is the value a later fact replaced."""
    later_first: int = 0
    """Of those, the ones where recall put the later value first (the benchmark's rule)."""

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


@dataclass
class SlotHistory:
    """The data's own history per (subject, predicate): what the answers are graded by."""

    values: dict[tuple[str, str], list[str]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, facts: Sequence[Triple]) -> SlotHistory:
        """The history of every slot of ``facts`` (in serial order)."""
        out = cls()
        for t in facts:
            out.add(t)
        return out

    def add(self, t: Triple) -> None:
        """Append ``t``'s value to its slot's history (a repeat of the last value is none)."""
        history = self.values[(t.subject, t.predicate)]
        if history[-1:] != [t.object]:  # a repeated sentence is no new value
            history.append(t.object)

    def about(self, question: str, answers: Sequence[str]) -> list[list[str]]:
        """The histories of the slots a question asks about: its subject is named in the
        question and an answer is among its values (normalized)."""
        text, wanted = _norm(question), {_norm(a) for a in answers}
        return [
            [_norm(v) for v in history]
            for (subject, _), history in self.values.items()
            if _norm(subject) in text and wanted & {_norm(v) for v in history}
        ]


def grade_single(question: Question, objects: Sequence[str], slots: SlotHistory) -> str:
    """What the first of ``objects`` (normalized) is for a single-hop question.

    ``hit``; ``stale first`` (a value the question's slot held before its answer);
    ``gold older, later first`` (the dataset's answer is the value a later fact of the
    same slot replaced, and the first object is that later value: the benchmark's own
    rule answered); else ``in top 10`` or ``not in top 10``.
    """
    wanted = {_norm(a) for a in question.answers}
    first = objects[0] if objects else None
    if first in wanted:
        return "hit"
    histories = slots.about(question.text, question.answers)
    if any(first in h[:-1] and h[-1] in wanted for h in histories):
        return "stale first"
    if any(first == h[-1] and h[-1] not in wanted for h in histories):
        return "gold older, later first"
    return "in top 10" if wanted & set(objects) else "not in top 10"


def gold_is_older(question: Question, slots: SlotHistory) -> bool:
    """The dataset's answer is a value that a later fact of the question's slot replaced."""
    wanted = {_norm(a) for a in question.answers}
    histories = slots.about(question.text, question.answers)
    return bool(histories) and all(h[-1] not in wanted for h in histories)


async def run(
    store: Store,
    embedder: Embedder | None,
    data: FcSet,
    *,
    store_label: str = "embedded",
    limit: int | None = None,
    progress: Progress | None = None,
    account: str | None = None,
) -> FcResult:
    """Ingest one size into a fresh account, ask its questions (``limit`` per hop), grade."""
    account = account or f"fceval{uuid.uuid4().hex[:12]}"
    facts = triples(data.sentences)
    ticks = itertools.count()
    matcher = SlotMatcher(embedder) if embedder is not None else None
    service = MemoryService(
        store,
        lambda: RECORDED + timedelta(seconds=next(ticks)),
        lambda: uuid.uuid4().hex,
        embedder=embedder,
        slot_matcher=matcher,
    )
    caller = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)
    slots = SlotHistory.of(facts)
    result = FcResult(
        size=data.size,
        store=store_label,
        facts=len(facts),
        unparsed=len(unparsed(data.sentences)),
        slots=len(slots.values),
        slots_changed=sum(len(v) > 1 for v in slots.values.values()),
        closed=0,
        wrong_closes=0,
        renamed=0,
        ingest_s=0.0,
        facts_per_s=0.0,
        single_hop=0,
        hit1=0.0,
        hit10=0.0,
        stale_first=0,
        multi_hop=0,
        multi_top10=0.0,
        ask_s=0.0,
    )
    try:
        await _ingest(service, caller, facts, result, progress)
        now = RECORDED + timedelta(seconds=next(ticks))
        recall = RecallService(
            store, lambda: now, embedder, no_workspace, UTC, slot_matcher=matcher
        )
        started = time.monotonic()
        await _ask(recall, Caller(account=account), data, slots, result, limit)
        result.ask_s = round(time.monotonic() - started, 1)
        return result
    finally:
        await delete_account_facts(store, account)


async def _ingest(
    service: MemoryService,
    caller: Caller,
    facts: Sequence[Triple],
    result: FcResult,
    progress: Progress | None,
) -> None:
    """Every triple in serial order; counts closes, wrong closes and drift renames."""
    owner: dict[str, tuple[str, str]] = {}  # our fact id -> the data's slot
    started = time.monotonic()
    for n, t in enumerate(facts, start=1):
        done = await service.remember(
            caller,
            RememberRequest(
                subject=t.subject,
                predicate=t.predicate,
                object=t.object,
                valid_at=FIRST_VALID + timedelta(minutes=t.serial),
                cardinality=Cardinality.ONE,
                tier=Tier.ASSERTED,
            ),
        )
        slot = (t.subject, t.predicate)
        owner.setdefault(done.fact_id, slot)
        result.closed += bool(done.closed)
        wrong = [c for c in done.closed if owner.get(c, slot) != slot]
        result.wrong_closes += len(wrong)
        result.misses += [f"write {t.sentence!r} closed {owner[c]}" for c in wrong]
        if done.predicate != t.predicate:
            result.renamed += 1
        if progress is not None and (n % 250 == 0 or n == len(facts)):
            progress(n, len(facts), time.monotonic() - started)
    result.ingest_s = round(time.monotonic() - started, 1)
    result.facts_per_s = round(len(facts) / max(result.ingest_s, 1e-9), 1)


async def _ask(
    recall: RecallService,
    caller: Caller,
    data: FcSet,
    slots: SlotHistory,
    result: FcResult,
    limit: int | None,
) -> None:
    """Every question through recall, graded against the answers and the slots' history."""
    single = data.single_hop[:limit]
    hit1 = hit10 = 0
    for q in single:
        got = await _recall(recall, caller, q)
        objects = [_norm(f.object) for f in got]
        kind = grade_single(q, objects, slots)
        hit1 += kind == "hit"
        hit10 += bool({_norm(a) for a in q.answers} & set(objects))
        result.gold_older += gold_is_older(q, slots)
        result.stale_first += kind == "stale first"
        result.later_first += kind == "gold older, later first"
        if kind != "hit":
            result.misses.append(f"single-hop {kind}: {q.text!r} -> {_shown(got)}, not {q.answers}")
    result.single_hop = len(single)
    result.hit1 = round(hit1 / max(len(single), 1), 3)
    result.hit10 = round(hit10 / max(len(single), 1), 3)

    multi = data.multi_hop[:limit]
    found = 0
    for q in multi:
        got = await _recall(recall, caller, q)
        if {_norm(a) for a in q.answers} & {_norm(f.object) for f in got}:
            found += 1
        else:
            result.misses.append(f"multi-hop: {q.text!r} -> {_shown(got)}, not {q.answers}")
    result.multi_hop = len(multi)
    result.multi_top10 = round(found / max(len(multi), 1), 3)


async def _recall(recall: RecallService, caller: Caller, q: Question) -> list[ScoredFact]:
    return (await recall.recall(caller, RecallRequest(query=q.text, k=K))).facts


def _shown(facts: Sequence[ScoredFact], n: int = 3) -> list[str]:
    """The first facts as a miss line shows them: whose value, of which slot."""
    return [f"{f.subject} · {f.predicate} = {f.object}" for f in facts[:n]]


def summary(result: FcResult) -> str:
    """One line: the figures of one size, for progress output."""
    return (
        f"{result.facts} facts in {result.ingest_s} s ({result.facts_per_s}/s), "
        f"SH hit@1 {result.hit1}, stale first {result.stale_first}, "
        f"MH in top 10 {result.multi_top10}"
    )


COLUMNS: tuple[tuple[str, str], ...] = (
    ("facts", "facts"),
    ("unparsed", "unparsed"),
    ("conflicts", "slots_changed"),
    ("closed", "closed"),
    ("wrong closes", "wrong_closes"),
    ("ingest s", "ingest_s"),
    ("facts/s", "facts_per_s"),
    ("SH hit@1", "hit1"),
    ("SH stale 1st", "stale_first"),
    ("SH gold older", "gold_older"),
    ("later 1st", "later_first"),
    ("SH in top 10", "hit10"),
    ("MH in top 10", "multi_top10"),
)


def table(results: Sequence[FcResult]) -> str:
    """One row per size and store, then the published end-to-end figures for context."""
    head = ["store", "size", *(title for title, _ in COLUMNS)]
    body = [[r.store, r.size, *(str(getattr(r, attr)) for _, attr in COLUMNS)] for r in results]
    published = ", ".join(f"{name} {score}" for name, score in PUBLISHED)
    return "\n".join(
        [
            aligned([head, *body]),
            "",
            "Ours is a retrieval-level score: the answer string is the object of the first",
            "(SH hit@1) or of any of the first 10 (MH) facts recall returns; no model answers.",
            f"Published end-to-end FactConsolidation single-hop accuracy: {published}.",
        ]
    )
