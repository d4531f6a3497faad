"""The entities a question names, and the workspace's own: where recall's graph walks start.

Also whether an answer is about what the question names: "who owns checkout-api?" asked
in the storefront's checkout gets the storefront's owner as a row, which a model would
read as checkout-api's unless the answer says no row is about it.
"""

from __future__ import annotations

from collections.abc import Awaitable
from typing import NamedTuple

from twoclocks.domain.errors import StoreUnavailable
from twoclocks.domain.named_subjects import self_names, subject_mentions
from twoclocks.domain.places import Workspace
from twoclocks.graph.port import Store
from twoclocks.service.recall_requests import ScoredFact


class Named(NamedTuple):
    """The entities a question names, and whether they were found through "I" or "we"."""

    names: list[str]
    by_self: bool = False
    """Found as the person's or the team's own entity: a walk from there reaches all their
    facts, candidates for the signals to judge, not votes."""


async def entities_named(store: Store, account: str, text: str, said: frozenset[str]) -> Named:
    """Entities the question names by a word of their own, not by a word all share.

    The store matches half a name: "the ingestion service" finds ``auth-service``
    through "service", and a walk from there would vote for auth-service's facts.
    """
    found = await store.entities_named(account, text, 10)
    mentions = subject_mentions(said, found)
    named = [name for name in found if mentions[name] >= 0.5]
    if not named and (selves := self_names(said)):
        # "What am I working on?" names nothing but the person: "I" and "we" are no
        # words of a name, so their entities are found by the names memory gives them.
        # Beside a named thing ("who do I ping about billing?") the thing leads.
        found = await store.entities_named(account, " ".join(sorted(selves)), 10)
        return Named([name for name in found if name.lower() in selves], by_self=True)
    return Named(named)


def subjects_named(named: Named) -> frozenset[str] | None:
    """The things a question names (folded) that a fact beside the answer must be about,
    or None: it names none, or only the person ("I", "we"), whom every fact is about."""
    if not named.names or named.by_self:
        return None
    return frozenset(n.casefold() for n in named.names)


async def names_of(found: Awaitable[Named]) -> list[str]:
    """The names alone, for a walk that starts from them."""
    return (await found).names


async def workspace_entities(store: Store, account: str, workspace: Workspace) -> list[str]:
    """Entities named exactly (ignoring case) like the workspace's repo or project."""
    out: list[str] = []
    for name in workspace.names:
        candidates = await store.entities_named(account, name, 5)
        out += [c for c in candidates if c.lower() == name.lower() and c not in out]
    return out


async def named_and_missed(
    named: Awaitable[Named], facts: list[ScoredFact]
) -> frozenset[str] | None:
    """The things the question names (folded) when no row is about them, else None.

    "I" and "we" name the person, whom every workspace's rows are about: never missed.
    """
    try:
        found = await named
    except StoreUnavailable:
        return None
    names = frozenset(n.casefold() for n in found.names)
    if found.by_self or not names:
        return None
    return None if any(is_about(f.subject, f.object, names) for f in facts) else names


def is_about(subject: str, value: str, names: frozenset[str]) -> bool:
    """Whether a fact has one of ``names`` (folded) as its subject or its whole value."""
    return subject.casefold() in names or value.casefold() in names
