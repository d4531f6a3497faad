"""Facts that start later, named beside recall's answer: which ones, in what order, and
when one comes before the rows that hold now (DESIGN §6: current facts only, so a plan is
never a row).

Worked example (now Monday 2026-12-07): Dana on call until 2026-12-14, Ravi from then.
"Who is on call?" is answered by Dana, Ravi named after the rows as starting later. "Who
is on call next week?" names a time to come in which Ravi holds, so Ravi comes first,
under that time, and Dana's row after him; "who is on call tomorrow?" names a day Ravi
does not hold in, so Dana's row leads.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from twoclocks.domain.coming_up import starting_after
from twoclocks.domain.model import FactVersion
from twoclocks.domain.named_times import NamedTime, speaks_of_what_comes
from twoclocks.domain.times_to_come import asks_only_what_comes, holds_during
from twoclocks.graph.port import Clock, FactQuery, Store, TimelineQuery
from twoclocks.service.recall_beside import Ranked
from twoclocks.service.recall_requests import ScoredFact


def split_later(
    ranked: Ranked, now: datetime, k: int, to_come: NamedTime | None
) -> tuple[Ranked, Ranked]:
    """The k best facts that hold now, and those of the k best that start later.

    A fact that starts later is named beside the answer when it ranks among the k best,
    never in place of a current one: it is not true yet. Those holding at the time to come
    the question names (``to_come``) are named first.
    """
    later = [p for i, p in enumerate(ranked) if p[0].valid_at > now and i < k]
    if to_come is not None:
        # A stable sort: each part keeps its rank order.
        later.sort(key=lambda p: not holds_during(to_come, p[0].valid_at, p[0].invalid_at))
    return [p for p in ranked if p[0].valid_at <= now][:k], later


async def plans_in(
    store: Store, account: str, span: NamedTime, query: FactQuery
) -> list[FactVersion]:
    """The believed, tiered facts that start after ``query.now`` and hold in ``span``,
    soonest first.

    What a question asking of nothing but what is to come ("what's coming up?", "anything
    planned next week?") is told, whatever their words: ranked by the question's words, the
    deploy freeze from the 20th was never found, and the answer was the branch checked out.
    """
    # From now, not from the span's start: "anything planned next week?" is told of the
    # release manager from Saturday too, who holds next week; soonest first.
    read = TimelineQuery(
        clock=Clock.WORLD, since=query.now, until=span.end, workspaces=query.workspaces
    )
    plans = starting_after(await store.timeline(account, read), query.now, span.end)
    return [v for v in plans if holds_during(span, v.valid_at, v.invalid_at)]


def with_plans(later: Ranked, plans: Sequence[FactVersion]) -> Ranked:
    """``plans`` first, soonest first, then the other facts starting later, each once.
    A plan is not scored by the question's words: its score is 0."""
    seen = {v.version_id for v in plans}
    return [*((v, 0.0) for v in plans), *(p for p in later if p[0].version_id not in seen)]


def plan_first(
    question: str,
    starting: Sequence[ScoredFact],
    facts: Sequence[ScoredFact],
    to_come: NamedTime | None,
) -> bool:
    """Whether the first fact that starts later is read before the rows (``later_first``).

    Asked of no particular time, a plan comes first when it matches the question better
    than every row ("is there a deploy freeze?", one from the 10th) and no row holds its
    slot now, unless the question asks what is to come ("what will we use in February?").
    Asked of a time to come, it comes first when it holds then and it is the first row's
    slot, or it matches better than every row: "who is on call next week?"; asked of
    nothing but what is to come ("what's coming up?"), whenever it holds then.
    """
    if not starting:
        return False
    plan = starting[0]
    holds_then = to_come is not None and holds_during(to_come, plan.valid_at, plan.invalid_at)
    if holds_then and to_come is not None and asks_only_what_comes(question, to_come.said):
        return True  # the plans are the answer, whatever the rows
    if not facts:
        return False
    outscores = plan.score > max(f.score for f in facts)
    if to_come is not None:
        if not holds_then:
            return False
        return (plan.subject, plan.predicate) == (facts[0].subject, facts[0].predicate) or (
            outscores
        )
    slot_held = (plan.subject, plan.predicate) in {(f.subject, f.predicate) for f in facts}
    return outscores and (not slot_held or speaks_of_what_comes(question))
