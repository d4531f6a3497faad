"""The store's layout version: a server migrates an older store or refuses a newer one.

Each release that changes what the stores hold (a property, a label, an index a query
relies on) bumps CURRENT_SCHEMA and adds the step from the previous version to
MIGRATIONS. A server never reads a layout it does not know: an older store is migrated
step by step at start, before any request; a newer one stops the start with SchemaTooNew.
A brand-new store (nothing written yet) is stamped with CURRENT_SCHEMA, without migrating.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

from twoclocks.domain.errors import SchemaTooNew
from twoclocks.graph.port import Store

log = logging.getLogger(__name__)

CURRENT_SCHEMA = 5
"""The layout this release writes and reads."""

Migration = Callable[[Store], Awaitable[None]]


async def _from_unversioned(store: Store) -> None:
    # Stores written before versions were recorded have layout 1 already (the clocks as
    # *_us integers, Graphiti's names, the Slot counters): there is nothing to rewrite.
    return None


async def _keys_carry_a_role(store: Store) -> None:
    # Layout 2: each API key is its own (:ApiKey) node with a role. The one key an
    # account had (on the Account node) was the person's: it becomes the person key,
    # so every existing CLI and web sign-in keeps working as the person.
    adopted = await store.adopt_account_keys()
    log.warning("schema 2: %d account key(s) kept as person keys", adopted)


async def _episodes_take_their_facts_place(store: Store) -> None:
    # Layout 3: an episode carries the workspace it was said in, and a read from another
    # workspace does not find it. Episodes kept before had none, so every workspace could
    # quote them; each takes the one workspace of the facts that cite it. One cited by
    # none (a tool event or turn that yielded nothing), or by facts of several places, has
    # no place to take: it stays readable from everywhere, as it was.
    placed = await store.place_unplaced_episodes()
    log.warning("schema 3: %d episode(s) placed in their facts' workspace", placed)


async def _starts_say_whether_they_were_stated(store: Store) -> None:
    # Layout 4: a version carries start_stated, false where the writer gave no valid_at
    # (domain.write_plan, "a start nobody stated"). Versions kept before have none, and
    # a missing one reads as stated: what they were told is not known, and reading them
    # as stated keeps every answer as it was. Nothing is rewritten; the version is
    # recorded so an older twoclocks, which would write starts without saying, refuses.
    return None


async def _told_values_overruled_are_outdated(store: Store) -> None:
    # Layout 5: a value told with no start that a word dating the change before overruled
    # leaves belief as "outdated" (RetiredReason.OUTDATED), not "corrected": it did not hold
    # from when it was told, but it was no mistake. Schema 4 stores kept it as corrected,
    # and an older twoclocks would not read the new reason, so the version is recorded.
    outdated = await store.outdate_told_late()
    log.warning("schema 5: %d value(s) told late retired as outdated, not corrected", outdated)


MIGRATIONS: dict[int, Migration] = {
    0: _from_unversioned,
    1: _keys_carry_a_role,
    2: _episodes_take_their_facts_place,
    3: _starts_say_whether_they_were_stated,
    4: _told_values_overruled_are_outdated,
}
"""Version N -> the step that turns a layout-N store into layout N + 1."""


async def ensure_schema(store: Store) -> int:
    """Bring a started store to CURRENT_SCHEMA (or refuse it); the version it was found at."""
    found = await store.schema_version()
    version = 0 if found is None else found
    if version > CURRENT_SCHEMA:
        raise SchemaTooNew(
            f"the store records schema version {version}, and this twoclocks reads up to "
            f"{CURRENT_SCHEMA}: it was written by a newer twoclocks; upgrade twoclocks "
            "(pip install -U twoclocks), or point it at another store"
        )
    if found is None and await store.holds_nothing():
        # A brand-new store has nothing to migrate: it starts at the current layout.
        await store.record_schema_version(CURRENT_SCHEMA)
        return 0
    while version < CURRENT_SCHEMA:
        log.warning("migrating the store from schema version %d to %d", version, version + 1)
        await MIGRATIONS[version](store)
        version += 1
        await store.record_schema_version(version)
    return 0 if found is None else found
