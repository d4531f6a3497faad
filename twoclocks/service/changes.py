"""What recall tells a question asking what changed: the facts that began or ended in the
time it names (``domain.change_questions``), read on the world clock; or, asked what memory
was told then, the facts recorded in it, read on the record clock; and beside either, or
alone when asked ("what did we correct today?"), the facts memory found wrong then
(``domain.corrections_made``), read on the record clock."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from twoclocks.domain.before_questions import BEFORE_ANY_FACT
from twoclocks.domain.change_questions import (
    ANY_TIME_LABEL,
    Listed,
    any_time,
    asks_what_was_told,
    changes_listed,
    holds_words,
    named_of_nothing,
    narrowed_words,
    told_in,
)
from twoclocks.domain.corrections_made import (
    MAX_CORRECTIONS,
    asks_what_was_corrected,
    corrections_told,
)
from twoclocks.domain.model import FactVersion, RetiredReason
from twoclocks.domain.named_subjects import named_by_slot_words, question_words
from twoclocks.domain.named_times import NamedTime
from twoclocks.domain.recent_changes import correction_successor
from twoclocks.graph.port import Clock, FactQuery, Store, TimelineQuery
from twoclocks.service.former_values import names_slot
from twoclocks.service.named_entities import is_about
from twoclocks.service.relevance import content_words

MAX_CHANGES_READ = 500
"""Versions one read takes at most, the latest changes: "what changed this year?" in a busy
account would otherwise read every version of the year to name ten."""

MAX_NAMED_READS = 3
"""Things a question names whose own changes are read apart (one read each, from the thing):
in a busy account, ledger's changes may be older than the latest ``MAX_CHANGES_READ``."""


@dataclass(frozen=True)
class Changes:
    """What recall tells a question asking what changed: the time, its facts, and whether
    they are what memory was ``told`` then (record time) rather than what changed then;
    the facts memory found wrong then, each followed by what holds instead (``corrected``),
    and whether the question asked for those alone (``corrections``); the things or slots
    the question asked of (``about``, "ledger · ci"), when it named any; and how many more
    changes (or facts told) there were than ``facts`` names (``more``)."""

    span: NamedTime
    facts: list[FactVersion]
    told: bool = False
    corrected: list[FactVersion] = field(default_factory=list)
    corrections: bool = False
    about: tuple[str, ...] = ()
    more: int = 0


async def changed_facts(
    store: Store,
    account: str,
    question: str,
    span: NamedTime,
    now: datetime,
    workspaces: tuple[str, ...] | None,
    names: Sequence[str],
    rows: Sequence[FactVersion] = (),
) -> Changes:
    """The believed facts that began or ended during ``span`` in ``workspaces``, and the
    time they are of. A question asking what memory was told ("what did you learn
    today?") gets the facts told then.

    About a thing the question names (``names``: its entities, the person's own left out),
    when it names any: "what changed in ledger this week?" is not told of the storefront's.
    Of the slots that changed, the ones the question names by name, when it names any:
    "what changed in the database this week?" is not told of the package manager. A slot
    of the answer's rows (``slots``) it names that did not change then is no license to
    tell every other change: "what changed in the ci this week?" is told that nothing of
    ci did.

    With no time named, a question about a thing or a slot asks for its latest changes,
    whenever they were: "what changed in the database?" is answered by PostgreSQL replacing
    MySQL in March, not by "nothing in the past 7 days". The slot is one of ``slots`` (the
    answer's rows) the question names by name; each such slot or thing is read whole from
    its subject, never the account. A question that narrows to nothing ("anything new?")
    keeps the past 7 days.

    A value of the answer's rows (``rows``) the question names, and no subject, asks of
    that value's slot: "when did we switch to uv?" is told poetry ended and uv began, not
    that nothing about uv (no subject) ever changed.
    """
    said = content_words(question)
    slots = [v.slot for v in rows]
    asked = [s for s in dict.fromkeys(slots) if names_slot(said, s[1])]
    if asked:  # "When did the deploy target change?" names the slot, not "no deploys".
        words = question_words(question)
        names = [n for n in names if not named_by_slot_words(n, words, [p for _, p in asked])]
    valued = _slots_of_values(rows, names)
    if valued:
        values = {v.object.casefold() for v in rows if v.slot in valued}
        names = [n for n in names if n.casefold() not in values]
        asked = list(dict.fromkeys([*asked, *valued]))
    if names:  # "what changed in ledger's database?" asks of ledger's, not the storefront's
        folded = {n.casefold() for n in names}
        asked = [s for s in asked if s[0].casefold() in folded]
    found = await _corrected(store, account, span, now, workspaces, names)

    def of_asked(v: FactVersion) -> bool:
        return names_slot(said, v.predicate) or v.slot in asked

    async def instead(narrowed: bool = False) -> list[FactVersion]:
        return await _told_instead(store, now, account, workspaces, of_asked, found, narrowed)

    if asks_what_was_corrected(question):
        return Changes(span, [], corrected=await instead(), corrections=True)
    if asks_what_was_told(question):
        told, more = await _told(store, account, span, now, workspaces, names)
        mistaken = await instead()
        # A value told instead of a wrong one is said once, after it.
        after = {v.version_id for v in mistaken}
        told = [v for v in told if v.version_id not in after]
        return Changes(span, told, told=True, corrected=mistaken, more=more)
    query = TimelineQuery(
        clock=Clock.WORLD, since=span.start, until=_until(span, now), workspaces=workspaces,
        ends_too=True, latest=MAX_CHANGES_READ,
    )  # fmt: skip
    named = list(names)[:MAX_NAMED_READS]
    if not span.said and (named or narrowed_words(said)):
        ever = query.model_copy(update={"since": None})
        reads = [ever.model_copy(update={"subject": name}) for name in named] or [
            ever.model_copy(update={"subject": subject, "predicate": predicate})
            for subject, predicate in asked[:MAX_NAMED_READS]
        ]
        if reads:
            found_rows = await _read(store, account, reads, named)
            slots_named = [v for v in found_rows if of_asked(v)]
            every = NamedTime(said="", label=ANY_TIME_LABEL, start=BEFORE_ANY_FACT, end=now)
            changes, more = changes_listed(slots_named or found_rows, every, now, firsts=False)
            mistaken = await instead(bool(slots_named))
            about = _asked_of(asked, named)
            span = any_time(changes, now)
            return Changes(span, changes, corrected=mistaken, about=about, more=more)
    reads = [query, *(query.model_copy(update={"subject": name}) for name in named)]
    found_rows = await _read(store, account, reads, named)
    slots_named = [v for v in found_rows if of_asked(v)]
    mistaken = await instead(bool(slots_named or asked))
    changes, more = changes_listed(slots_named if slots_named or asked else found_rows, span, now)
    about = _asked_of(asked, named)
    if not about and not slots_named:
        # "What changed with kubernetes today?", and no fact of it: the day's changes are
        # counted, not told as its answer.
        words = narrowed_words(said) - content_words(span.said)
        texts = [_text_of(v) for v in [*found_rows, *mistaken]]
        if unnamed := named_of_nothing(words, texts):
            return Changes(span, [], about=unnamed, more=len(changes) + more)
        # "What changed in dbt?" was told every change of the week, dbt's among them: the
        # changes of facts holding its words are its answer, the others only counted.
        held = [v for v in found_rows if holds_words(words, _text_of(v))]
        narrowed, narrowed_more = changes_listed(held, span, now)
        if narrowed and len(narrowed) + narrowed_more < len(changes) + more:
            of_words = {v.slot for v in mistaken if holds_words(words, _text_of(v))}
            wrong = [v for v in mistaken if v.slot in of_words]  # each with what holds instead
            return Changes(
                span, narrowed, corrected=wrong, more=len(changes) + more - len(narrowed)
            )
    return Changes(span, changes, corrected=mistaken, about=about, more=more)


def _text_of(version: FactVersion) -> str:
    return " ".join([version.subject, version.predicate, version.written_as or "", version.object])


def _slots_of_values(rows: Sequence[FactVersion], names: Sequence[str]) -> list[tuple[str, str]]:
    """The slots of ``rows`` whose whole value is one of ``names`` that is no row's subject:
    "uv" in "when did we switch to uv?" names payments' package manager."""
    folded = {n.casefold() for n in names}
    subjects = {v.subject.casefold() for v in rows}
    return list(dict.fromkeys(v.slot for v in rows if v.object.casefold() in folded - subjects))


def _asked_of(slots: Sequence[tuple[str, str]], names: Sequence[str]) -> tuple[str, ...]:
    """What a change question narrowed to, as its lines name it: the slots it names
    ("ledger · ci"), else the things."""
    return tuple(f"{subject} · {predicate}" for subject, predicate in slots) or tuple(names)


async def _read(
    store: Store, account: str, reads: Sequence[TimelineQuery], named: Sequence[str]
) -> list[FactVersion]:
    """The versions ``reads`` find, each once, about a thing in ``named`` when it has any."""
    found = await asyncio.gather(*(store.timeline(account, q) for q in reads))
    return _about(list({v.version_id: v for read in found for v in read}.values()), named)


def _about(rows: list[FactVersion], names: Sequence[str]) -> list[FactVersion]:
    """The rows about a thing in ``names`` (its subject or whole value), or all with none."""
    if not names:
        return rows
    folded = frozenset(name.casefold() for name in names)
    return [v for v in rows if is_about(v.subject, v.object, folded)]


async def _told(
    store: Store,
    account: str,
    span: NamedTime,
    now: datetime,
    workspaces: tuple[str, ...] | None,
    names: Sequence[str],
) -> Listed:
    """The believed facts memory was told during ``span`` (record time), about a thing the
    question names when it names any ("what did you learn about ledger today?")."""
    query = TimelineQuery(
        clock=Clock.SYSTEM, since=span.start, until=_until(span, now), workspaces=workspaces,
        latest=MAX_CHANGES_READ,
    )  # fmt: skip
    return told_in(await _read(store, account, [query], names), span, now)


async def _corrected(
    store: Store,
    account: str,
    span: NamedTime,
    now: datetime,
    workspaces: tuple[str, ...] | None,
    names: Sequence[str],
) -> list[FactVersion]:
    """The facts memory found wrong during ``span`` (record time), about a thing the
    question names when it names any.

    Not a value retired ``outdated`` (told with no start, dated earlier by a later word):
    it was no mistake, only told after it had changed, and the change itself is what
    changed then (Fly.io from 00:00, told at 11:00 over Heroku told at 09:20).
    """
    found = await store.corrected_since(
        account, span.start, _until(span, now), workspaces, limit=4 * MAX_CORRECTIONS
    )
    wrong = [v for v in found if v.retired_reason is RetiredReason.CORRECTED]
    return _about(wrong, names)


async def _told_instead(
    store: Store,
    now: datetime,
    account: str,
    workspaces: tuple[str, ...] | None,
    asked: Callable[[FactVersion], bool],
    corrected: list[FactVersion],
    narrowed: bool = False,
) -> list[FactVersion]:
    """``corrected`` of the slots the question ``asked`` of, when it asked of any
    (``narrowed``: its changes did; "what changed in the database?" is not told that CI was
    corrected), each followed by what holds instead (``corrections_told``)."""
    named = [v for v in corrected if asked(v)]
    if named or narrowed:
        corrected = named
    slots = {(v.subject, v.predicate) for v in corrected}
    # Each slot read whole, history too: what replaced a value may have ended since.
    reads = [
        FactQuery(
            now=now,
            subject=subject,
            predicate=predicate,
            include_history=True,
            workspaces=workspaces,
        )
        for subject, predicate in slots
    ]
    found = await asyncio.gather(*(store.query(account, read) for read in reads))
    rows = [v for read in found for v in read]
    return corrections_told(corrected, lambda wrong: correction_successor(wrong, rows))


def _until(span: NamedTime, now: datetime) -> datetime:
    """The end of a read of ``span``: a span up to now takes now too (the end is exclusive),
    so the branch HEAD's check writes as the question is asked is in it."""
    return span.end if span.end < now else now + timedelta(microseconds=1)
