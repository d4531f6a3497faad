"""What recall tells a question asking what changed: the facts that began or ended in the
time it names (``domain.change_questions``), read on the world clock."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from twoclocks.domain.change_questions import (
    ANY_TIME_LABEL,
    any_time,
    changed_in,
    narrowed_words,
)
from twoclocks.domain.model import FactVersion
from twoclocks.domain.named_times import NamedTime
from twoclocks.graph.port import Clock, Store, TimelineQuery
from twoclocks.service.former_values import names_slot
from twoclocks.service.named_entities import is_about
from twoclocks.service.relevance import content_words

MAX_CHANGES_READ = 500
"""Versions one read takes at most, the latest changes: "what changed this year?" in a busy
account would otherwise read every version of the year to name ten."""

MAX_NAMED_READS = 3
"""Things a question names whose own changes are read apart (one read each, from the thing):
in a busy account, ledger's changes may be older than the latest ``MAX_CHANGES_READ``."""


async def changed_facts(
    store: Store,
    account: str,
    question: str,
    span: NamedTime,
    now: datetime,
    workspaces: tuple[str, ...] | None,
    names: Sequence[str],
) -> tuple[NamedTime, list[FactVersion]]:
    """The believed facts that began or ended during ``span`` in ``workspaces``, and the
    time they are of: ``span``, or every time for a question that names none.

    About a thing the question names (``names``: its entities, the person's own left out),
    when it names any: "what changed in ledger this week?" is not told of the storefront's.
    Of the slots that changed, the ones the question names by name, when it names any:
    "what changed in the database this week?" is not told of the package manager.

    With no time named, a question about a thing or a slot asks for its latest changes,
    whenever they were: "what changed in the database?" is answered by PostgreSQL replacing
    MySQL in March, not by "nothing in the past 7 days". A question that narrows to
    nothing ("anything new?") keeps the past 7 days.
    """
    said = content_words(question)
    whenever = not span.said and bool(names or narrowed_words(said))
    # A span up to now takes now too (the read's end is exclusive).
    until = span.end if span.end < now else now + timedelta(microseconds=1)
    query = TimelineQuery(
        clock=Clock.WORLD, since=None if whenever else span.start, until=until,
        workspaces=workspaces, ends_too=True, latest=MAX_CHANGES_READ,
    )  # fmt: skip
    named = list(names)[:MAX_NAMED_READS]
    reads = [query, *(query.model_copy(update={"subject": name}) for name in named)]
    found = await asyncio.gather(*(store.timeline(account, q) for q in reads))
    rows = list({v.version_id: v for read in found for v in read}.values())
    if named:
        folded = frozenset(name.casefold() for name in named)
        rows = [v for v in rows if is_about(v.subject, v.object, folded)]
    slots_named = [v for v in rows if names_slot(said, v.predicate)]
    if whenever and (named or slots_named):
        ever = NamedTime(said="", label=ANY_TIME_LABEL, start=_EVER, end=now)
        changes = changed_in(slots_named or rows, ever, now, firsts=False)
        return any_time(changes, now), changes
    return span, changed_in(slots_named or rows, span, now)


_EVER = datetime(1, 1, 1, tzinfo=UTC)
"""Before any fact: the start ``changed_in`` reads every change from."""
