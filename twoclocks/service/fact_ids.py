"""Shortened fact ids, as git takes shortened commit ids: any unique start of an id will do."""

from __future__ import annotations

import re

from twoclocks.domain.errors import AmbiguousFactId, FactNotFound
from twoclocks.graph.port import Store

FACT_ID = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
"""What a writer can issue; anything else is unknown without asking the engine."""

MIN_PREFIX = 4
"""As git: shorter starts name too many facts to be a safe target for retract or revise."""

SHOWN_MATCHES = 5
"""How many of an ambiguous prefix's matches the error names."""


async def resolve_fact_id(store: Store, account: str, given: str) -> str:
    """The full id ``given`` names: itself when a fact has it, else the one fact it starts.

    FactNotFound when nothing matches (or the start is under MIN_PREFIX characters),
    AmbiguousFactId naming the matches when more than one fact starts with it.
    """
    given = given.strip()
    if not FACT_ID.match(given):
        raise FactNotFound(f"no fact {given!r} in this account: list facts to find its id")
    if await store.versions_of(account, given):
        return given
    if len(given) < MIN_PREFIX:
        raise FactNotFound(
            f"no fact {given} in this account: give at least {MIN_PREFIX} characters of its id"
        )
    matches = await store.fact_ids_starting(account, given, SHOWN_MATCHES + 1)
    if not matches:
        raise FactNotFound(f"no fact {given} in this account: list facts to find its id")
    if len(matches) > 1:
        shown = ", ".join(matches[:SHOWN_MATCHES])
        more = " and more" if len(matches) > SHOWN_MATCHES else ""
        raise AmbiguousFactId(
            f"{given} starts more than one fact ({shown}{more}): give more characters of the id"
        )
    return matches[0]
