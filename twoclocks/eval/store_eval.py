"""The store eval: what closing old values buys, against appending and overwriting.

Three arms run the scenario of ``scenario.py`` through the same ``MemoryService``:

* ``bi-temporal``: as shipped (a new value closes the old one; nothing is deleted);
* ``append-only``: every write declares its predicate many-valued, so nothing closes;
* ``overwrite``: as shipped, then every closed fact is physically deleted through the
  store's own ``delete_fact`` (what a key-value memory keeps).

Each arm gets a fresh account; the questions are graded by exact string match, no model:
the first-turn block (its first 6 fact rows, as in the gateway seed, and the whole block
at the default budget), recall (hit@1 and MRR on 24 "now" questions, all three current
values in the top 10 on 6 three-fact questions), and one "what was true the day before
this change" per change, answered from ``facts(as_of=...)`` by the block's own rule:
among the slot's rows, the newest valid_at wins. The drift variant writes each fact's
second value under its other name, as a drifting writer would.
"""

from __future__ import annotations

import itertools
import re
import uuid
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, timedelta
from typing import Any

from twoclocks.domain.block import DEFAULT_BUDGET
from twoclocks.domain.model import Cardinality, Tier
from twoclocks.domain.temporal import is_current
from twoclocks.domain.trust import Channel, Writer
from twoclocks.embeddings.port import Embedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.eval import scenario
from twoclocks.eval.scenario import FACTS, MULTI, ScenarioFact
from twoclocks.eval.text_table import aligned
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService, no_workspace
from twoclocks.service.recall import RecallService
from twoclocks.service.recall_requests import BlockRequest, RecallRequest
from twoclocks.service.requests import Caller, FactsRequest, RememberRequest

ARMS = ("bi-temporal", "append-only", "overwrite")
FIRST_TURN_ROWS = 6
"""The gateway seed's first-turn read returned at most 6 rows."""
K_SINGLE = 5
K_MULTI = 10

_FACT_LINE = re.compile(r"^- .*? · .*?: (.*) \(since ")


@dataclass
class ArmResult:
    """One arm's figures on one variant of the scenario, and the misses behind them."""

    arm: str
    variant: str
    facts: int
    writes: int
    closed_facts: int
    """Facts with no current version left (one per change when nothing drifted)."""
    old_values_current: int
    block6_stale: int
    block6_current: int
    block_stale: int
    block_current: int
    block_cut: int
    now_questions: int
    hit1: float
    mrr: float
    stale_first: int
    multi_questions: int
    multi_all: int
    multi_stale: int
    date_questions: int
    date_right: int
    misses: list[str] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """A JSON-ready dict."""
        return asdict(self)


def block_values(text: str, rows: int | None = None) -> list[str]:
    """The values of the block's "Facts:" lines, in order (the first ``rows`` when given)."""
    values: list[str] = []
    section = ""
    for line in text.splitlines():
        if line.endswith(":") and not line.startswith("- "):
            section = line
            continue
        found = _FACT_LINE.match(line)
        if section == "Facts:" and found:
            values.append(found.group(1))
    return values if rows is None else values[:rows]


def _old(fact: ScenarioFact) -> set[str]:
    return set(fact.values[:-1])


def _grade_block(
    shown: Sequence[str], facts: Sequence[ScenarioFact], label: str, misses: list[str]
) -> tuple[int, int]:
    """Stale values shown as current, and current values shown, in one read."""
    stale = [v for v in shown if any(v in _old(f) for f in facts)]
    misses += [f"{label}: stale value shown: {v!r}" for v in stale]
    current = sum(f.values[-1] in shown for f in facts)
    return len(stale), current


async def run_arm(
    store: Store,
    embedder: Embedder | None,
    arm: str,
    *,
    drift: bool = False,
    facts: Sequence[ScenarioFact] = FACTS,
    budget: int = DEFAULT_BUDGET,
    account: str | None = None,
) -> ArmResult:
    """Load the scenario into a fresh account as ``arm`` does, ask every question, grade."""
    if arm not in ARMS:
        raise ValueError(f"unknown arm {arm!r}: the arms are {ARMS}")
    facts = tuple(facts)
    account = account or f"storeeval{uuid.uuid4().hex[:12]}"
    ticks = itertools.count()
    matcher = SlotMatcher(embedder) if embedder is not None else None
    service = MemoryService(
        store,
        lambda: scenario.RECORDED_AT + timedelta(seconds=next(ticks)),
        lambda: uuid.uuid4().hex,
        embedder=embedder,
        slot_matcher=matcher,
    )
    caller = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)
    writes = scenario.writes(facts, drift=drift)
    many = Cardinality.MANY if arm == "append-only" else None
    try:
        for w in writes:
            await service.remember(
                caller,
                RememberRequest(
                    subject=facts[w.fact].subject,
                    predicate=w.predicate,
                    object=w.value,
                    valid_at=w.valid_at,
                    cardinality=many,
                    tier=Tier.ASSERTED,
                ),
            )
        now = scenario.RECORDED_AT + timedelta(seconds=next(ticks))
        rows = [v async for v in store.export(account)]
        kept = {v.fact_id for v in rows if is_current(v, now)}
        closed = {v.fact_id for v in rows} - kept
        if arm == "overwrite":
            for fact_id in closed:
                await store.delete_fact(account, fact_id)
        result = ArmResult(
            arm=arm,
            variant="drift" if drift else "plain",
            facts=len(facts),
            writes=len(writes),
            closed_facts=len(closed),
            old_values_current=0,
            block6_stale=0,
            block6_current=0,
            block_stale=0,
            block_current=0,
            block_cut=0,
            now_questions=len(facts),
            hit1=0.0,
            mrr=0.0,
            stale_first=0,
            multi_questions=0,
            multi_all=0,
            multi_stale=0,
            date_questions=0,
            date_right=0,
        )
        current = {v.object for v in rows if is_current(v, now)}
        for f in facts:
            left = sorted(_old(f) & current)
            result.old_values_current += len(left)
            result.misses += [f"old value still current: {f.subject} {v!r}" for v in left]
        await _ask(store, embedder, matcher, service, caller, facts, result, now, budget)
        return result
    finally:
        await delete_account_facts(store, account)


async def delete_account_facts(store: Store, account: str) -> None:
    """Delete every fact row of an eval's account: a --store bolt:// run shares the
    person's database, so an eval leaves nothing behind."""
    for fact_id in {v.fact_id async for v in store.export(account)}:
        await store.delete_fact(account, fact_id)


async def _ask(
    store: Store,
    embedder: Embedder | None,
    matcher: SlotMatcher | None,
    service: MemoryService,
    caller: Caller,
    facts: tuple[ScenarioFact, ...],
    result: ArmResult,
    now: Any,
    budget: int,
) -> None:
    """Every question of the scenario against the loaded account, graded into ``result``."""
    recall = RecallService(store, lambda: now, embedder, no_workspace, UTC, slot_matcher=matcher)
    block = await recall.block(caller, BlockRequest(budget=budget))
    first = block_values(block.text, FIRST_TURN_ROWS)
    result.block6_stale, result.block6_current = _grade_block(
        first, facts, f"block {FIRST_TURN_ROWS} rows", result.misses
    )
    result.block_stale, result.block_current = _grade_block(
        block_values(block.text), facts, "block", result.misses
    )
    result.block_cut = block.more

    ranks: list[int | None] = []
    for f in facts:
        got = await recall.recall(caller, RecallRequest(query=f.question, k=K_SINGLE))
        objects = [g.object for g in got.facts]
        rank = objects.index(f.values[-1]) + 1 if f.values[-1] in objects else None
        ranks.append(rank)
        if objects and objects[0] in _old(f):
            result.stale_first += 1
            result.misses.append(f"recall {f.question!r}: stale first {objects[0]!r}")
        elif rank != 1:
            result.misses.append(f"recall {f.question!r}: got {objects[:3]} for {f.values[-1]!r}")
    result.hit1 = sum(r == 1 for r in ranks) / len(ranks) if ranks else 0.0
    result.mrr = sum(1 / r for r in ranks if r) / len(ranks) if ranks else 0.0

    for m in MULTI:
        if max(m.facts) >= len(facts):
            continue
        result.multi_questions += 1
        got = await recall.recall(caller, RecallRequest(query=m.question, k=K_MULTI))
        found = {g.object for g in got.facts}
        wanted = {facts[i].values[-1] for i in m.facts}
        stale = found & set().union(*(_old(facts[i]) for i in m.facts))
        result.multi_all += wanted <= found
        result.multi_stale += len(stale)
        if not wanted <= found:
            result.misses.append(f"recall {m.question!r}: missing {sorted(wanted - found)}")

    for q in scenario.date_questions(facts):
        f = facts[q.fact]
        result.date_questions += 1
        rows = await service.facts(
            caller, FactsRequest(subject=f.subject, as_of=q.as_of, all_workspaces=True)
        )
        slot = [r for r in rows if r.object in f.values]
        answer = max(slot, key=lambda r: r.valid_at).object if slot else None
        if answer == q.expect:
            result.date_right += 1
        else:
            day = q.as_of.date().isoformat()
            result.misses.append(f"as of {day} {f.subject}: {answer!r}, not {q.expect!r}")


async def run(
    store: Store,
    embedder: Embedder | None,
    *,
    arms: Sequence[str] = ARMS,
    variants: Sequence[bool] = (False, True),
    facts: Sequence[ScenarioFact] = FACTS,
) -> list[ArmResult]:
    """Every arm on every variant (plain, drift), one fresh account each."""
    return [
        await run_arm(store, embedder, arm, drift=drift, facts=facts)
        for drift in variants
        for arm in arms
    ]


COLUMNS: tuple[tuple[str, str], ...] = (
    ("closed", "closed_facts"),
    ("old current", "old_values_current"),
    ("6-row stale", "block6_stale"),
    ("6-row current", "block6_current"),
    ("block stale", "block_stale"),
    ("block current", "block_current"),
    ("hit@1", "hit1"),
    ("MRR", "mrr"),
    ("stale 1st", "stale_first"),
    ("3-fact all", "multi_all"),
    ("3-fact stale", "multi_stale"),
    ("as-of right", "date_right"),
)


def _cell(result: ArmResult, attr: str) -> str:
    value = getattr(result, attr)
    if attr == "block6_current":
        return f"{value}/{min(FIRST_TURN_ROWS, result.facts)}"
    if attr == "block_current":
        return f"{value}/{result.facts}"
    if attr == "multi_all":
        return f"{value}/{result.multi_questions}"
    if attr == "date_right":
        return f"{value}/{result.date_questions}"
    if isinstance(value, float):
        return f"{value:.3f}"
    return str(value)


def table(results: Sequence[ArmResult]) -> str:
    """One row per arm and variant, one column per figure."""
    head = ["arm", "variant", *(title for title, _ in COLUMNS)]
    body = [[r.arm, r.variant, *(_cell(r, attr) for _, attr in COLUMNS)] for r in results]
    return aligned([head, *body])
