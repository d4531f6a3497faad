"""What recall names beside its rows: DESIGN §6 keeps the rows to what holds now, and a
question that asks of another time or of a change gets that apart, under its own head.

Each list is read only for the question that asks for it: a past time named ("what did
we use in March?": ``held_then``), the time before a value ("before Discord?"), an ended
slot or value named ("do we still use Heroku?"), a change ("what changed this week?"),
values told after a past ``as_of``, and the count of facts other workspaces hold when
``here`` found nothing about the thing asked. ``RecallService._answer`` wires them.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence, Set
from datetime import datetime, timedelta
from itertools import zip_longest

from twoclocks.domain.after_questions import rows_of_slots_first
from twoclocks.domain.before_questions import held_before, outdated_before
from twoclocks.domain.belief_questions import asks_what_was_believed, believed_between
from twoclocks.domain.errors import StoreUnavailable
from twoclocks.domain.model import FactVersion
from twoclocks.domain.named_things import names_value
from twoclocks.domain.named_times import NamedTime, held_then, still_held
from twoclocks.domain.places import Workspace
from twoclocks.domain.scope import Scope, readable_spaces
from twoclocks.domain.temporal import told_after
from twoclocks.graph.port import Clock, FactQuery, Store, TimelineQuery
from twoclocks.service.changes import Changes, changed_facts
from twoclocks.service.former_values import ended_of_named_slots, ended_values_named
from twoclocks.service.named_entities import Named, is_about, named_and_missed, subjects_named
from twoclocks.service.recall_requests import RecallRequest, ScoredFact
from twoclocks.service.relevance import content_words, lexical_overlap, shares_a_word
from twoclocks.service.session_block import KeysOf, RankedOf

Ranked = list[tuple[FactVersion, float]]
"""Facts with their scores, best first."""

MAX_TOLD_LATER = 3
"""A past ``as_of`` read's values told after it with no start, named apart at most."""


def _by_words(text: str, versions: Sequence[FactVersion]) -> Ranked:
    """Each version scored by the share of the question's words its slot name and value hold."""
    said = content_words(text)
    return [(v, lexical_overlap(said, v.predicate, v.object)) for v in versions]


async def ended(
    store: Store,
    account: str,
    text: str,
    query: FactQuery,
    closed: list[FactVersion],
    ranked: Sequence[tuple[FactVersion, float]],
    named_task: asyncio.Task[Named],
) -> tuple[Ranked, Ranked]:
    """The last value of each slot the question names that holds nothing now, and the
    ended values it names of slots that hold others."""
    subjects = subjects_named(await named_task)
    answered = {v.predicate for v, _ in ranked}
    slots = await ended_of_named_slots(store, account, text, closed, query, subjects, answered)
    values = await ended_values_named(store, account, text, closed, query, subjects)
    return _by_words(text, slots), _by_words(text, values)


async def told_later(
    store: Store,
    ranked_of: RankedOf,
    account: str,
    req: RecallRequest,
    query: FactQuery,
    ranked: Sequence[tuple[FactVersion, float]],
    workspace: Workspace,
) -> Ranked:
    """With a past ``as_of``: the question's best values believed now whose start nobody
    stated, told after ``as_of``, of slots the answer has nothing for. On the record
    they were not true then, yet they may have held: named apart, not left out."""
    asked_of = req.as_of
    if asked_of is None or req.as_believed is not None or req.include_history:
        return []
    if asked_of >= query.now:
        return []
    now = query.model_copy(update={"as_of": None})
    current = await ranked_of(account, req.query, now, req.k, workspace)
    slots = {(v.subject, v.predicate) for v, _ in ranked}
    # Only what answers the question at least as well as what held then: the branch
    # is no news beside the test runner asked about.
    floor = max((score for _, score in ranked[: req.k]), default=0.0)
    told = [
        (v, score)
        for v, score in current
        if told_after(v.start_stated, v.valid_at, asked_of)
        and (v.subject, v.predicate) not in slots
        and score >= floor
    ]
    # A slot that held a value then, even one the question did not rank, is no unknown.
    held = await asyncio.gather(
        *(
            store.query(
                account,
                query.model_copy(update={"subject": v.subject, "predicate": v.predicate}),
            )
            for v, _ in told
        )
    )
    return [pair for pair, then in zip(told, held, strict=True) if not then][:MAX_TOLD_LATER]


async def changes(
    store: Store,
    account: str,
    text: str,
    span: NamedTime,
    query: FactQuery,
    named_task: asyncio.Task[Named],
    ranked: Ranked,
    closed: Sequence[FactVersion] = (),
) -> tuple[Changes, Ranked, Ranked]:
    """What a question asking what changed gets (``changed_facts``'): the time and how it
    was read, the facts that began or ended then (or were told then), and the facts found
    wrong then, each followed by what holds instead, each scored by the question's words.
    The ranking's ``closed`` rows name slots too ("have we moved off flake8?")."""
    named = await named_task
    names = [] if named.by_self else named.names
    rows = [*(v for v, _ in ranked), *closed]
    found = await changed_facts(
        store, account, text, span, query.now, query.workspaces, names, rows
    )
    return found, _by_words(text, found.facts), _by_words(text, found.corrected)


async def of_the_past_time(
    store: Store,
    ranked_of: RankedOf,
    account: str,
    req: RecallRequest,
    query: FactQuery,
    workspace: Workspace,
    past: NamedTime | None,
) -> tuple[Ranked, Ranked, bool, Ranked]:
    """What a question naming a past time gets beside its rows: what held then and has
    ended since, what held then and still holds, and what may have held then (a value told
    with no start that a later word outdated: ``outdated_before``); or, when it asks what
    memory believed then ("what did you think our host was on Tuesday?"), that belief, and
    True."""
    if past is None:
        return [], [], False, []
    if asks_what_was_believed(req.query):
        believed = await believed_then(store, ranked_of, account, req, query, workspace, past)
        return believed, [], True, []
    then, still, maybe = await held_then_and_still(
        store, ranked_of, account, req, query, workspace, past
    )
    return then, still, False, maybe


MOMENT = timedelta(minutes=1)
"""A named time this short is a moment ("two hours ago"): memory's belief is read once."""

MAX_BELIEVED_THEN = 3
"""Facts at most named as believed in a past time: the best matches then."""


async def believed_then(
    store: Store,
    ranked_of: RankedOf,
    account: str,
    req: RecallRequest,
    query: FactQuery,
    workspace: Workspace,
    named: NamedTime,
) -> Ranked:
    """What memory believed at the start and at the end of ``named``, each about that
    instant, best first (the two reads' rows in turn, each once), for a question asking
    what it believed then (``domain.belief_questions``); at a moment named, at it alone.

    Both clocks at one instant, as DESIGN §3's ``as_believed`` alone: a value believed then
    and corrected since (never true) is named, which no world-time read can do. Read at its
    end alone, a time still running ("this morning", asked at 10:30) was read now. Of the
    best row's slot, the values believed only inside the time (``believed_between``: told
    at 09:00, corrected at 09:30) come too, read from the record clock; that slot's values
    come first, the first believed first.
    """
    end = min(named.end, query.now)
    instants = [named.start, end] if end - named.start > MOMENT else [end]

    async def believed_at(at: datetime) -> Ranked:
        then = query.model_copy(
            update={
                "as_of": at, "as_believed": at, "include_history": False, "include_later": False
            }
        )  # fmt: skip
        return await ranked_of(account, req.query, then, MAX_BELIEVED_THEN, workspace)

    reads = await asyncio.gather(*(believed_at(at) for at in instants))
    in_turn = [row for rows in zip_longest(*reads) for row in rows if row is not None]
    if in_turn and len(instants) > 1:
        top, score = in_turn[0]
        told_then = TimelineQuery(
            clock=Clock.SYSTEM, since=named.start, until=end, subject=top.subject,
            predicate=top.predicate, workspaces=query.workspaces,
        )  # fmt: skip
        between = believed_between(await store.timeline(account, told_then), named.start, end)
        slot = [row for row in in_turn if row[0].slot == top.slot]
        rows = [*slot, *((v, score) for v in between)]
        rows.sort(key=lambda row: row[0].created_at)
        in_turn = [*rows, *(row for row in in_turn if row[0].slot != top.slot)]
    once: dict[str, tuple[FactVersion, float]] = {}
    for v, score in in_turn:
        once.setdefault(v.version_id, (v, score))
    return list(once.values())[:MAX_BELIEVED_THEN]


async def held_then_and_still(
    store: Store,
    ranked_of: RankedOf,
    account: str,
    req: RecallRequest,
    query: FactQuery,
    workspace: Workspace,
    named: NamedTime,
) -> tuple[Ranked, Ranked, Ranked]:
    """The asked slot's facts that held during ``named`` and have ended since, beside
    those the ones that held then and still hold, and the values a later word outdated
    that may have held then (``outdated_before``).

    Run only for a question naming a past time: the answer's rows stay what holds now
    (DESIGN §6), and these are named beside them. A read with history ranks the slot
    the question asks about first; that slot's versions are then read whole, since a
    slot changed often (node 20, 22, 24) ranks its own old versions past any k.
    """
    history = query.model_copy(update={"include_history": True, "include_later": False})
    ranked = await ranked_of(account, req.query, history, 1, workspace)
    if not ranked:
        return [], [], []
    top, score = ranked[0]
    # Tiered rows only, as every leg reads: an imported row with no tier never reaches a model.
    slot = history.model_copy(
        update={"subject": top.subject, "predicate": top.predicate, "tiered_only": True}
    )
    versions = await store.query(account, slot)
    gone = held_then(versions, named, query.now)
    held = still_held(versions, named, query.now)
    # Only when nothing on the record held then: an outdated value is a guess at the
    # time before the word that outdated it, never beside what is known to have held.
    maybe = [] if gone or held else outdated_before(versions, named)
    return [(v, score) for v in gone], [(v, score) for v in held], [(v, score) for v in maybe]


async def before(
    store: Store,
    account: str,
    after: str | None,
    query: FactQuery,
    ranked: Sequence[tuple[FactVersion, float]],
) -> tuple[NamedTime, Ranked] | None:
    """The time before a value the question names right after "before", and what held
    in it (``domain.before_questions.held_before``): "what chat did we use before Discord?".

    Answered with Discord alone, the question got the one value it did not ask for.
    Only a value among ``ranked`` is looked for, and its slot read whole once; with
    ``after`` None ("what was the port before?"), the first of them that holds now.
    """
    for version, score in ranked:
        if version.valid_at > query.now:
            continue
        if after is not None and not names_value(after, version.object):
            continue
        slot = query.model_copy(
            update={
                "subject": version.subject,
                "predicate": version.predicate,
                "include_history": True,
                "include_later": False,
                "tiered_only": True,
            }
        )
        named, held = held_before(version, await store.query(account, slot), query.now)
        return named, [(v, score) for v in held]
    return None


MAX_REPLACED_SLOTS = 2
"""Slots a question asking what replaced a value reads, when none of their rows ranked."""


async def slots_first(
    store: Store,
    account: str,
    query: FactQuery,
    ranked: Sequence[tuple[FactVersion, float]],
    slots: Set[tuple[str, str]],
) -> Ranked:
    """``ranked`` with the rows of ``slots`` first (``domain.after_questions``): "what
    replaced Expo?" asks of the slots Expo held. A slot none of whose rows ranked is read,
    its values now put first (``rows_of_slots_first`` scores them as the best row): ranked
    by the question's words, the Expo account's name came first and React Native CLI not at
    all."""
    found = {v.slot for v, _ in ranked}
    missing = sorted(slot for slot in slots if slot not in found)[:MAX_REPLACED_SLOTS]
    tiered = {"tiered_only": True}  # as every leg reads: no untiered row reaches a model
    reads = await asyncio.gather(
        *(
            store.query(account, query.model_copy(update={"subject": s, "predicate": p, **tiered}))
            for s, p in missing
        )
    )
    read = [(v, 0.0) for versions in reads for v in versions]
    return rows_of_slots_first([*read, *ranked], slots)


async def elsewhere_count(
    keys_of: KeysOf,
    ranked_of: RankedOf,
    account: str,
    req: RecallRequest,
    query: FactQuery,
    workspace: Workspace,
    keys: tuple[str, ...],
    named_task: asyncio.Task[Named],
    facts: Sequence[ScoredFact],
    answered: bool,
) -> int | None:
    """How many facts the space's other workspaces hold for a ``here`` recall that lacks
    them (``_found_wide``), or None: asked when it ``answered`` nothing, when its rows are
    about another thing than the one the question names, or when none of them holds a word
    of the question ("what database?" in a second worktree, answered with the editor)."""
    if req.scope is not Scope.HERE:
        return None
    wide = (keys_of, ranked_of, account, req, query, workspace, keys)
    if not answered:
        return await _found_wide(*wide)
    if missed := await named_and_missed(named_task, list(facts)):
        return await _found_wide(*wide, about=missed)
    said = req.query
    if facts and not any(
        shares_a_word(said, f.subject, f.predicate, f.written_as, f.object) for f in facts
    ):
        return await _found_wide(*wide, above_here=True)
    return None


async def _found_wide(
    keys_of: KeysOf,
    ranked_of: RankedOf,
    account: str,
    req: RecallRequest,
    query: FactQuery,
    workspace: Workspace,
    keys: tuple[str, ...],
    about: frozenset[str] | None = None,
    above_here: bool = False,
) -> int | None:
    """How many facts the question finds in the space's other workspaces, or None.

    Asked when ``here`` found nothing: a session in a new checkout asking about a
    service another project holds learns that ``wide`` would answer, instead of a bare
    "empty" it would take for "never recorded". The same relevance floor applies.
    Asked too when ``here`` has rows but none about the thing the question names
    (``about``, folded): then only the rows about it count. And when none of them holds a
    word of the question (``above_here``): then only the rows that hold one and rank above
    every row here count ("what database?" asked in a second worktree, answered with the
    editor, while the first worktree holds the database).
    """
    try:
        wide = await keys_of(account, workspace, readable_spaces(workspace, Scope.WIDE))
        if set(wide) <= set(keys):
            return None
        # What holds (or held, as the clocks ask): what starts later is no answer here.
        wide_query = query.model_copy(update={"workspaces": wide, "include_later": False})
        found = await ranked_of(account, req.query, wide_query, req.k, workspace)
    except StoreUnavailable:
        return None

    # The wide read holds this workspace's keys too: count only the others' rows.
    def here(v: FactVersion) -> bool:
        return v.workspace in (None, *keys)

    read = found[: req.k]
    if above_here:
        first_here = next((i for i, (v, _) in enumerate(read) if here(v)), len(read))
        read = [
            (v, s)
            for v, s in read[:first_here]
            if shares_a_word(req.query, v.subject, v.predicate, v.written_as, v.object)
        ]
    return (
        sum(
            1
            for v, _ in read
            if not here(v) and (about is None or is_about(v.subject, v.object, about))
        )
        or None
    )
