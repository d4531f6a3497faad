"""Recall's keyword search, and what its closed rows tell: what replaced a value named,
and the last value of a slot named that holds nothing now.

"Is the docs site still on Jekyll?": Jekyll was closed and Docusaurus replaced it. The
one keyword search (with history) that ranks the keyword leg also finds the closed
Jekyll row; the ``former`` leg then reads what holds now in that slot. "What was our
release cadence?" after it ended: the same search finds the ended row, named apart, as it
finds Bo's ended row when "is Bo still a maintainer?" names a value of a many-value slot,
or Heroku's when Render began months after it ended.
"""

from __future__ import annotations

from collections.abc import Set
from datetime import datetime

from twoclocks.domain.before_questions import asks_whether_it_held
from twoclocks.domain.model import Cardinality, FactVersion, Kind, RetiredReason
from twoclocks.domain.named_things import names_value
from twoclocks.domain.slot_names import canonical_tokens, predicate_tokens
from twoclocks.domain.temporal import is_visible
from twoclocks.domain.text_fold import fold_value
from twoclocks.domain.trust import shown_to_model
from twoclocks.graph.port import FactQuery, Store
from twoclocks.service.named_entities import is_about
from twoclocks.service.relevance import content_words

MAX_FORMER_SLOTS = 3
"""Slots whose former value a question names that the ``former`` leg reads (one store
query each): a question names one or two products."""


async def text_search(
    store: Store, account: str, text: str, query: FactQuery, pool: int
) -> tuple[list[FactVersion], list[FactVersion]]:
    """The keyword leg's rows, and the closed versions the same search found.

    One search with history serves both: the rows the read would show rank as the
    keyword leg; the others are former values the ``former`` leg may follow.
    """
    if query.include_history:  # every version is shown: none is "former"
        return await store.search_text(account, text, query, pool), []
    # The same limit: closed rows take a few places from the keyword leg, which
    # counts little in the fusion, instead of making the slowest leg read twice as many.
    rows = await store.search_text(
        account, text, query.model_copy(update={"include_history": True}), pool
    )
    shown = [
        v
        for v in rows
        if is_visible(
            v, query.now, query.as_of, query.as_believed, include_later=query.include_later
        )
    ]
    held = {v.version_id for v in shown}
    return shown, [v for v in rows if v.version_id not in held]


async def current_of_former(
    store: Store, account: str, text: str, closed: list[FactVersion], query: FactQuery
) -> list[FactVersion]:
    """What holds now in the slots whose earlier value the question names."""
    slots = list(dict.fromkeys(v.slot for v in closed if names_value(text, v.object)))
    out: list[FactVersion] = []
    for subject, predicate in slots[:MAX_FORMER_SLOTS]:
        out += await store.query(
            account, query.model_copy(update={"subject": subject, "predicate": predicate})
        )
    return out


MAX_ENDED_SLOTS = 2
"""Slots the question names that hold no value now, read whole to name their last value:
one store query each, and only when no row of the answer has the slot's name."""


def names_slot(question: frozenset[str], predicate: str) -> bool:
    """Whether the question's content words hold every canonical word of a slot's name.

    >>> names_slot(content_words("what was our release cadence?"), "release_cadence")
    True
    >>> names_slot(content_words("how often do we release?"), "release_cadence")
    False
    >>> names_slot(content_words("what do we use for crash reporting?"), "crash_reporting")
    True

    The name is read whole (a phrase the lexicon knows: "crash reporting" is an error
    tracker) and word by word, as ``content_words`` reads the question: read whole alone,
    "crash reporting" asked of the slot ``crash_reporting`` missed it.
    """
    whole = set(canonical_tokens(predicate))
    each = {t for word in predicate_tokens(predicate) for t in canonical_tokens(word)}
    return any(wanted and wanted <= question for wanted in (whole, each))


async def ended_of_named_slots(
    store: Store,
    account: str,
    text: str,
    closed: list[FactVersion],
    query: FactQuery,
    subjects: frozenset[str] | None,
    answered: Set[str],
) -> list[FactVersion]:
    """The last value of each slot the question names, by its name or by a value it held,
    that holds nothing now.

    "What was our release cadence?" (or "do we release weekly?") after the cadence ended
    with nothing after it: the answer's rows are other slots (the sprint length, "two
    weeks"), and a model would take one of them for the cadence. The keyword search found
    the ended version; its slot is read whole, so a value that holds now or starts later
    (not among the k rows) keeps it out. ``subjects``: the things the question names
    (folded), when it names any, of which the fact's subject or its whole value must be
    one; ``answered``: the slot names the answer's rows already have.
    """
    said = content_words(text)
    slots = [
        v.slot
        for v in closed
        if _believed_about(v, subjects)
        and v.predicate not in answered
        and (names_slot(said, v.predicate) or names_value(text, v.object))
    ]
    out: list[FactVersion] = []
    whole = query.model_copy(update={"include_history": True, "include_later": True})
    for subject, predicate in list(dict.fromkeys(slots))[:MAX_ENDED_SLOTS]:
        versions = await store.query(
            account, whole.model_copy(update={"subject": subject, "predicate": predicate})
        )
        believed = [v for v in versions if v.expired_at is None and shown_to_model(v.tier)]
        if believed and all(
            v.invalid_at is not None and v.invalid_at <= query.now for v in believed
        ):
            out.append(max(believed, key=lambda v: (v.invalid_at or v.valid_at, v.version_id)))
    return out


async def ended_values_named(
    store: Store,
    account: str,
    text: str,
    closed: list[FactVersion],
    query: FactQuery,
    subjects: frozenset[str] | None,
) -> list[FactVersion]:
    """Values the question names that ended while their slot holds others, when nothing
    else in the answer says when they ended.

    "Is Bo still a maintainer of ledger?" after Bo's value ended: the answer's rows are the
    maintainers now, and none of them says Bo left, or when. In a one-value slot the value
    that replaced the one named says both, its start being the other's end, but only then:
    "do we still use Heroku?", Heroku ended 1 March and Render began 1 June, would read
    as Heroku until June. The keyword search found the ended version; its slot's values
    now are read (one query, at most ``MAX_ENDED_SLOTS`` slots), and a value held again
    now, or starting later, keeps it out, as does, in a one-value slot, a value now whose
    stated start is its end ("is the docs site still on Jekyll?", Docusaurus from the day
    Jekyll ended). Not when the question asks whether the value held at all ("did we ever
    use SQLite?": Postgres's line alone reads as "no"), nor when the value now was told
    with no start (its "known from" is when it was told, which says nothing of the other's
    end). A value found wrong (``corrected``) is named the same way: "is the ci still
    GitHub Actions?" after GitHub Actions was corrected to Buildkite got Buildkite alone,
    which does not say that GitHub Actions never held. A slot holding nothing now is
    ``ended_of_named_slots``'. ``subjects`` as there. The last end of each value, at most
    one a value.
    """
    # A value found wrong never held: nothing in the value now says so.
    kept = asks_whether_it_held(text)
    named = sorted(
        (
            v
            for v in closed
            if v.kind is Kind.FACT
            and (_ended_by(v, query.now, subjects) or _corrected_by(v, query.now, subjects))
            and names_value(text, v.object)
        ),
        key=lambda v: (_gone_at(v), v.version_id),
    )
    out: list[FactVersion] = []
    for slot in list(dict.fromkeys(v.slot for v in named))[:MAX_ENDED_SLOTS]:
        subject, predicate = slot
        held = await store.query(
            account, query.model_copy(update={"subject": subject, "predicate": predicate})
        )
        held = [v for v in held if v.expired_at is None]
        values_now = {fold_value(v.object) for v in held}
        if values_now:
            # Oldest end first, so each value keeps its last end.
            last = {fold_value(v.object): v for v in named if v.slot == slot}
            out += [
                v
                for value, v in last.items()
                if value not in values_now
                and (kept or v.expired_at is not None or not _replaced_at_its_end(v, held))
            ]
    return out


def _ended_by(v: FactVersion, now: datetime, subjects: frozenset[str] | None) -> bool:
    """A believed value that ended by ``now``, about a thing the question names."""
    return _believed_about(v, subjects) and v.invalid_at is not None and v.invalid_at <= now


def _corrected_by(v: FactVersion, now: datetime, subjects: frozenset[str] | None) -> bool:
    """A value found wrong by ``now`` (never true), about a thing the question names."""
    return (
        v.retired_reason is RetiredReason.CORRECTED
        and v.expired_at is not None
        and v.expired_at <= now
        and _shown_about(v, subjects)
    )


def _gone_at(v: FactVersion) -> datetime:
    """When a value stopped holding: its end, or when it was found wrong."""
    gone = v.invalid_at if v.expired_at is None else v.expired_at
    assert gone is not None  # ``_ended_by`` or ``_corrected_by`` kept it
    return gone


def _replaced_at_its_end(ended: FactVersion, held: list[FactVersion]) -> bool:
    """Whether a one-value slot's value now began, by its stated start, when ``ended``
    ended: its line says both."""
    return ended.cardinality is Cardinality.ONE and any(
        v.valid_at == ended.invalid_at and v.start_stated for v in held
    )


def _believed_about(version: FactVersion, subjects: frozenset[str] | None) -> bool:
    """Believed, shown to a model, and about a thing the question names (when it names any)."""
    return version.expired_at is None and _shown_about(version, subjects)


def _shown_about(version: FactVersion, subjects: frozenset[str] | None) -> bool:
    """Shown to a model, and about a thing the question names (when it names any)."""
    return shown_to_model(version.tier) and (
        subjects is None or is_about(version.subject, version.object, subjects)
    )
