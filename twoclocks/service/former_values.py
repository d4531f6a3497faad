"""Recall's keyword search, and the ``former`` leg it feeds: what replaced a value named.

"Is the docs site still on Jekyll?": Jekyll was closed and Docusaurus replaced it. The
one keyword search (with history) that ranks the keyword leg also finds the closed
Jekyll row; the ``former`` leg then reads what holds now in that slot.
"""

from __future__ import annotations

from twoclocks.domain.model import FactVersion
from twoclocks.domain.named_things import names_value
from twoclocks.domain.temporal import is_visible
from twoclocks.graph.port import FactQuery, Store

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
