"""The Store port on Neo4j 5: one database, ``group_id`` = account on every node and edge.

``apply`` runs one write transaction: bump the slot counter first (``SET s.counter =
s.counter + 1`` takes the node's write lock, so concurrent writers of one slot queue
there), compare with the expected value, and roll back on a mismatch.
"""

from __future__ import annotations

import contextlib
import re
import uuid
from collections.abc import AsyncIterator, Collection, Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING, Any

from twoclocks.domain.errors import StoreUnavailable
from twoclocks.domain.model import FactVersion, Plan
from twoclocks.graph import cypher, export_cypher, paging, search_cypher
from twoclocks.graph.key_store import KeyStore
from twoclocks.graph.lost_connection import run_once_more_if_lost
from twoclocks.graph.neo4j import search
from twoclocks.graph.port import (
    Episode,
    FactQuery,
    SlotAlias,
    SlotsApart,
    SlotState,
    TimelineQuery,
)
from twoclocks.graph.schema import (
    check_account,
    episode_params,
    native_utc,
    plan_params,
    slot_key,
    to_us,
    version_from_row,
)
from twoclocks.graph.turn_queue import TurnQueueStore

if TYPE_CHECKING:
    from neo4j import AsyncDriver, AsyncManagedTransaction, AsyncSession

# Bump first, then compare: `SET s.counter = s.counter + 1` takes the Slot's write lock,
# so racing writers of one slot queue here and each sees the previous one's bump (a
# `WITH s.counter AS c SET s.counter = c + 1` would not). MERGE needs the uniqueness
# constraint on (group_id, key), or two first writers could each create a Slot. On a
# mismatch the plan parts run for zero rows and the caller rolls the bump back. One
# statement, because round trips and the driver's (pure Python) parameter packing cost
# more than the work itself for a plan of a few rows.
APPLY = (
    """
MERGE (s:Slot {group_id: $g, key: $key})
  ON CREATE SET s.counter = 0, s.subject = $subject, s.predicate = $predicate
SET s.counter = s.counter + 1
WITH s WHERE s.counter = $expected + 1
"""
    + cypher.plan_body("x.embedding")
    + "RETURN s.counter AS counter"
)

OWN_SCHEMA = (
    # Uniqueness makes concurrent MERGEs of one entity, slot or episode safe.
    "CREATE CONSTRAINT twoclocks_entity_key IF NOT EXISTS "
    "FOR (n:Entity) REQUIRE (n.group_id, n.name) IS UNIQUE",
    "CREATE CONSTRAINT twoclocks_slot_key IF NOT EXISTS "
    "FOR (s:Slot) REQUIRE (s.group_id, s.key) IS UNIQUE",
    "CREATE CONSTRAINT twoclocks_episode_key IF NOT EXISTS "
    "FOR (n:Episodic) REQUIRE (n.group_id, n.uuid) IS UNIQUE",
    "CREATE CONSTRAINT twoclocks_alias_key IF NOT EXISTS "
    "FOR (a:SlotAlias) REQUIRE (a.group_id, a.subject, a.alias) IS UNIQUE",
    "CREATE CONSTRAINT twoclocks_apart_key IF NOT EXISTS "
    "FOR (p:SlotApart) REQUIRE (p.group_id, p.subject, p.first, p.second) IS UNIQUE",
    "CREATE CONSTRAINT twoclocks_workspace_space IF NOT EXISTS "
    "FOR (w:WorkspaceSpace) REQUIRE (w.group_id, w.key, w.space) IS UNIQUE",
    "CREATE CONSTRAINT twoclocks_account_name IF NOT EXISTS "
    "FOR (a:Account) REQUIRE a.name IS UNIQUE",
    "CREATE INDEX twoclocks_account_key IF NOT EXISTS FOR (a:Account) ON (a.key_hash)",
    "CREATE CONSTRAINT twoclocks_api_key_hash IF NOT EXISTS "
    "FOR (k:ApiKey) REQUIRE k.hash IS UNIQUE",
    "CREATE INDEX twoclocks_api_key_account IF NOT EXISTS FOR (k:ApiKey) ON (k.account)",
    "CREATE CONSTRAINT twoclocks_turn_key IF NOT EXISTS "
    "FOR (t:TurnJob) REQUIRE (t.account, t.uuid) IS UNIQUE",
    "CREATE INDEX twoclocks_turn_state IF NOT EXISTS FOR (t:TurnJob) ON (t.state)",
    *(
        f"CREATE INDEX twoclocks_edge_{p} IF NOT EXISTS FOR ()-[e:RELATES_TO]-() ON (e.{p})"
        for p in (
            "fact_id",
            "predicate",
            "valid_at_us",
            "invalid_at_us",
            "created_at_us",
            "expired_at_us",
        )
    ),
    *search.SCHEMA,  # recall: fulltext (search_text, Entity.name, Episodic.content), vector
)


_SCHEMA_NAME = re.compile(r"CREATE (?:FULLTEXT |VECTOR )?(?:INDEX|CONSTRAINT) (\w+)")


class _CounterMoved(Exception):
    """Raised inside the transaction to roll it back when another writer got there first."""


def _graphiti_schema() -> list[str]:
    """graphiti-core's own Neo4j range and fulltext indexes (all IF NOT EXISTS)."""
    from graphiti_core.driver.driver import GraphProvider
    from graphiti_core.graph_queries import get_fulltext_indices, get_range_indices

    provider = GraphProvider.NEO4J
    return [*get_range_indices(provider), *get_fulltext_indices(provider)]


class Neo4jStore(KeyStore, TurnQueueStore):
    """A bi-temporal fact store on Neo4j 5.26+ (community is enough)."""

    def __init__(
        self,
        uri: str,
        user: str | None = None,
        password: str | None = None,
        database: str = "neo4j",
    ) -> None:
        self._uri = uri
        self._auth = (user, password or "") if user else None
        self._database = database
        self._driver: AsyncDriver | None = None

    async def start(self) -> None:
        """Connect and create graphiti's and our indexes and constraints; idempotent."""
        if self._driver is not None:
            return
        from neo4j import AsyncGraphDatabase

        # Properties we never set on a row (tier, category...) would make the server send
        # an "unknown property key" warning with every read, and the driver log each one.
        driver = AsyncGraphDatabase.driver(
            self._uri, auth=self._auth, notifications_min_severity="OFF"
        )
        try:
            await driver.verify_connectivity()
        except Exception as e:
            await driver.close()
            raise StoreUnavailable(f"cannot reach Neo4j at {self._uri}: {e}") from e
        self._driver = driver
        try:
            await self._create_schema()
        except BaseException:
            await self.close()  # so a later start() tries again from scratch
            raise

    async def _create_schema(self) -> None:
        from neo4j.exceptions import ClientError

        # Schema statements are slow even when they change nothing: skip what exists.
        existing = {r["name"] for r in await self._run("SHOW INDEXES YIELD name")}
        existing |= {r["name"] for r in await self._run("SHOW CONSTRAINTS YIELD name")}
        for statement in (*_graphiti_schema(), *OWN_SCHEMA):
            named = _SCHEMA_NAME.search(statement)
            if named and named.group(1) in existing:
                continue
            try:
                await self._run(statement)
            except ClientError as e:
                # IF NOT EXISTS can still lose a race with another process creating it.
                if "EquivalentSchemaRuleAlreadyExists" not in str(e.code):
                    raise
        await self._run("CALL db.awaitIndexes(300)")

    async def close(self) -> None:
        """Close the driver's connection pool."""
        driver, self._driver = self._driver, None
        if driver is not None:
            await driver.close()

    def health(self) -> str | None:
        """Nothing to report: the driver reconnects itself, and a lost Neo4j is a 503 per call."""
        return None

    def notices(self) -> list[str]:
        """None to give: Neo4j reports its own recovery in its log."""
        return []

    def _require(self) -> AsyncDriver:
        if self._driver is None:
            raise StoreUnavailable("Neo4jStore is not started: call start() first")
        return self._driver

    @contextlib.asynccontextmanager
    async def _session(self) -> AsyncIterator[AsyncSession]:
        """A session whose lost connection is StoreUnavailable (recall's "unavailable", a 503)."""
        from neo4j.exceptions import ServiceUnavailable, SessionExpired

        try:
            async with self._require().session(database=self._database) as session:
                yield session
        except (ServiceUnavailable, SessionExpired) as e:
            raise StoreUnavailable(f"lost the connection to Neo4j at {self._uri}: {e}") from e

    async def _run(
        self, statement: str, params: dict[str, Any] | None = None, *, repeatable: bool = True
    ) -> list[Any]:
        """One auto-commit statement's records. A ``repeatable`` one (a read, or a write that
        gives the same answer when run twice) is run once more when its connection is lost:
        after a server restart, or an idle connection closed under the pool, the first use
        of a pooled connection fails; the driver then drops every idle one, and the second
        run opens a fresh connection."""

        # Auto-commit: one round trip fewer than a managed transaction, and every read or
        # single-statement write here is atomic on its own.
        async def run() -> list[Any]:
            async with self._session() as session:
                result = await session.run(statement, params or {})
                return [record async for record in result]

        return await run_once_more_if_lost(run, repeatable, (StoreUnavailable,))

    async def _read(self, statement: str, params: dict[str, Any]) -> list[FactVersion]:
        return [version_from_row(record) for record in await self._run(statement, params)]

    async def schema_version(self) -> int | None:
        """The layout version the database records; None before versions."""
        rows = await self._run(cypher.SCHEMA_VERSION)
        return int(rows[0]["version"]) if rows and rows[0]["version"] is not None else None

    async def record_schema_version(self, version: int) -> None:
        """Record the layout version in the database."""
        await self._run(cypher.RECORD_SCHEMA_VERSION, {"version": version})

    async def holds_nothing(self) -> bool:
        """True when the database holds no node at all (indexes alone are no data)."""
        return not await self._run(cypher.ANY_NODE)

    async def read_slot(self, account: str, subject: str, predicate: str) -> SlotState:
        """Every believed version of the slot (any workspace), its counter, and its alias."""
        params = {"g": check_account(account), "key": slot_key(subject, predicate),
                  "subject": subject, "predicate": predicate}  # fmt: skip
        head = (await self._run(cypher.READ_SLOT_COUNTER, params))[0]
        versions = await self._read(cypher.READ_SLOT_VERSIONS, params)
        return SlotState(predicate=predicate, versions=tuple(versions), counter=head["counter"],
                         merged_into=head["merged_into"])  # fmt: skip

    async def versions_of(self, account: str, fact_id: str) -> list[FactVersion]:
        """Every version of one logical fact, believed or not; empty if unknown."""
        return await self._read(
            cypher.VERSIONS_OF, {"g": check_account(account), "fact_id": fact_id}
        )

    async def fact_ids_starting(self, account: str, prefix: str, limit: int) -> list[str]:
        """Distinct fact ids that start with ``prefix``, in id order, at most ``limit``."""
        params = {"g": check_account(account), "prefix": prefix, "limit": limit}
        return [str(r["fact_id"]) for r in await self._run(cypher.FACT_IDS_STARTING, params)]

    async def apply(
        self,
        account: str,
        plan: Plan,
        subject: str,
        predicate: str,
        expected_counter: int,
        embeddings: Mapping[str, Sequence[float]] | None = None,
    ) -> bool:
        """Apply the plan in one transaction iff the slot counter still equals the expected."""
        params = plan_params(check_account(account), plan, native_utc, embeddings)
        search_cypher.prepare_inserts(params)  # search_text; refuses wrong-length vectors
        params.update(key=slot_key(subject, predicate), subject=subject, predicate=predicate,
                      expected=expected_counter)  # fmt: skip

        async def work(tx: AsyncManagedTransaction) -> None:
            if await (await tx.run(APPLY, params)).single() is None:
                raise _CounterMoved  # rolls back the bump

        # A managed transaction: the driver retries transient errors (deadlocks between
        # writers of different slots that share entities); our own exception rolls back.
        async with self._session() as session:
            try:
                await session.execute_write(work)
            except _CounterMoved:
                return False
        return True

    async def query(self, account: str, query: FactQuery) -> list[FactVersion]:
        """Versions matching the query, newest valid_at first."""
        if paging.windowed(query):
            return await paging.page(self._rows, check_account(account), query)
        return await self._read(*cypher.fact_query(check_account(account), query))

    async def count(self, account: str, query: FactQuery) -> int:
        """How many versions match the query, without its page."""
        rows = await self._run(*cypher.fact_count(check_account(account), query))
        return int(rows[0]["n"]) if rows else 0

    async def timeline(self, account: str, query: TimelineQuery) -> list[FactVersion]:
        """Every version in time order on one clock, half-open [since, until)."""
        return await self._read(*cypher.timeline_query(check_account(account), query))

    async def timeline_count(self, account: str, query: TimelineQuery) -> int:
        """How many versions ``timeline`` returns for the same query."""
        rows = await self._run(*cypher.timeline_query(check_account(account), query, count=True))
        return int(rows[0]["n"]) if rows else 0

    async def corrected_since(
        self,
        account: str,
        since: datetime,
        until: datetime,
        workspaces: Sequence[str] | None,
        limit: int,
    ) -> list[FactVersion]:
        """Facts whose last word is a correction in [since, until), newest first."""
        statement = cypher.corrections_query(
            check_account(account), since, until, workspaces, limit
        )
        return await self._read(*statement)

    async def export(self, account: str) -> AsyncIterator[FactVersion]:
        """Every version of the account, oldest record first, a page at a time."""
        async for version in export_cypher.export_pages(check_account(account), self._run):
            yield version

    async def export_episodes(self, account: str) -> list[Episode]:
        """Every episode of the account, oldest record first."""
        rows = await self._rows(cypher.EXPORT_EPISODES, {"g": check_account(account)})
        return [search_cypher.episode_from_row(row) for row in rows]

    async def episodes(self, account: str, episode_ids: Sequence[str]) -> list[Episode]:
        """The episodes with these ids (unknown ids are skipped), oldest record first."""
        params = {"g": check_account(account), "ids": list(episode_ids)}
        rows = await self._rows(cypher.EPISODES_BY_ID, params)
        return [search_cypher.episode_from_row(row) for row in rows]

    async def export_aliases(self, account: str, decided_by: str | None = None) -> list[SlotAlias]:
        """Every recorded slot alias of the account, or those one decider recorded."""
        params = {"g": check_account(account), "d": decided_by}
        rows = await self._run(cypher.EXPORT_ALIASES, params)
        return [SlotAlias(subject=r["subject"], alias=r["alias"], canonical=r["canonical"],
                          decided_by=r["decided_by"]) for r in rows]  # fmt: skip

    async def save_episode(self, account: str, episode: Episode) -> bool:
        """Keep the raw text or event a fact came from (idempotent on episode_id)."""
        params = episode_params(check_account(account), episode, native_utc)
        rows = await self._run(cypher.SAVE_EPISODE, {**params, "token": uuid.uuid4().hex})
        return bool(rows and rows[0]["created"])

    async def delete_fact(self, account: str, fact_id: str) -> int:
        """Physically remove every version of a fact; operator use only."""
        params = {"g": check_account(account), "fact_id": fact_id}
        rows = await self._run(cypher.DELETE_FACT, params, repeatable=False)  # counts removals
        return int(rows[0]["removed"]) if rows else 0

    async def slot_names(self, account: str, subject: str) -> dict[str, str]:
        """Every slot name the subject has, and every recorded alias, mapped to its slot."""
        rows = await self._run(cypher.SLOT_NAMES, {"g": check_account(account), "subject": subject})
        return cypher.slot_map((r["alias"], r["canonical"]) for r in rows)

    async def record_alias(self, account: str, alias: SlotAlias) -> None:
        """Remember that ``alias.alias`` names the slot ``alias.canonical`` of its subject."""
        params = {"g": check_account(account), "key": slot_key(alias.subject, alias.alias)}
        await self._run(cypher.RECORD_ALIAS, {**params, **alias.model_dump()})

    async def place_unplaced_episodes(self, account: str | None = None) -> int:
        """Episodes kept with no place take their facts' one workspace (None: every account)."""
        params = {"g": None if account is None else check_account(account)}
        rows = await self._run(cypher.PLACE_EPISODES, params, repeatable=True)
        return int(rows[0]["placed"]) if rows else 0

    async def outdate_told_late(self, account: str | None = None) -> int:
        """Told values a dated word overruled, kept as corrected, become outdated (schema 5)."""
        params = {"g": None if account is None else check_account(account)}
        rows = await self._run(cypher.OUTDATE_TOLD_LATE, params, repeatable=True)
        return int(rows[0]["outdated"]) if rows else 0

    async def delete_alias(self, account: str, subject: str, alias: str) -> None:
        """Forget that ``alias`` names another slot of this subject (a split); idempotent."""
        params = {"g": check_account(account), "subject": subject, "alias": alias}
        await self._run(cypher.DELETE_ALIAS, params)

    async def record_apart(self, account: str, pair: SlotsApart) -> None:
        """Remember that two slot names of a subject are two slots (idempotent per pair)."""
        await self._run(cypher.RECORD_APART, {"g": check_account(account), **pair.model_dump()})

    async def export_apart(self, account: str) -> list[SlotsApart]:
        """Every pair of slot names kept apart in the account."""
        rows = await self._run(cypher.EXPORT_APART, {"g": check_account(account)})
        return [SlotsApart(subject=r["subject"], first=r["first"], second=r["second"],
                           decided_by=r["decided_by"]) for r in rows]  # fmt: skip

    async def delete_apart(self, account: str, subject: str, first: str, second: str) -> None:
        """Forget that two slot names of a subject were kept apart (a merge); idempotent."""
        params = {"subject": subject, "first": first, "second": second}
        await self._run(cypher.DELETE_APART, {"g": check_account(account), **params})

    async def save_account(self, account: str, key_hash: str, created_at: datetime) -> bool:
        """Register an account with its hashed key; False if the name is taken."""
        from neo4j.exceptions import ConstraintError

        params = {"name": check_account(account), "key_hash": key_hash,
                  "created_at_us": to_us(created_at)}  # fmt: skip
        try:
            # Not repeatable: a second run of a create that landed reads "name taken".
            return bool(await self._run(cypher.SAVE_ACCOUNT, params, repeatable=False))
        except ConstraintError:  # a racing create of the same name won
            return False

    async def _registry_rows(
        self, statement: str, params: dict[str, Any], *, write: bool, repeatable: bool = False
    ) -> list[dict[str, Any]]:
        """Run one statement (accounts, API keys and the turn queue share the database);
        rows as dicts."""
        # A key write is run once: a second run of a create or a rotation that landed
        # would answer differently (name taken, old key already gone).
        rows = await self._run(statement, params, repeatable=repeatable or not write)
        return [record.data() for record in rows]

    async def account_settings(self, account: str) -> str | None:
        """The account's settings as JSON text, or None when never saved."""
        rows = await self._run(cypher.ACCOUNT_SETTINGS, {"name": check_account(account)})
        return str(rows[0]["settings"]) if rows and rows[0]["settings"] else None

    async def save_account_settings(self, account: str, settings: str) -> bool:
        """Replace the account's settings (JSON text); False if there is no such account."""
        params = {"name": check_account(account), "settings": settings}
        return bool(await self._run(cypher.SAVE_ACCOUNT_SETTINGS, params))

    async def queue_turn(self, account: str, turn_id: str, payload: str, at: datetime) -> bool:
        """Queue a turn (JSON text) for the extractor; False when this id was queued before."""
        from neo4j.exceptions import ConstraintError

        try:
            return await super().queue_turn(account, turn_id, payload, at)
        except ConstraintError:  # a racing queue of the same turn won
            return False

    async def top_predicates(self, account: str, limit: int) -> list[str]:
        """The account's most used predicates, most versions first."""
        rows = await self._run(cypher.TOP_PREDICATES, {"g": check_account(account), "limit": limit})
        return [str(r["predicate"]) for r in rows]

    async def note_workspace(self, account: str, key: str, space: str) -> None:
        """Register that facts are written under workspace ``key`` from ``space``."""
        params = {"g": check_account(account), "key": key, "space": space}
        await self._run(cypher.NOTE_WORKSPACE, params)

    async def workspace_spaces(self, account: str) -> list[tuple[str, str]]:
        """Every registered (workspace key, space) pair of the account."""
        rows = await self._run(cypher.WORKSPACE_SPACES, {"g": check_account(account)})
        return [(str(r["key"]), str(r["space"])) for r in rows]

    # --- recall legs: Cypher and logic in twoclocks.graph.search_cypher / neo4j.search ---

    async def _rows(self, statement: str, params: dict[str, Any]) -> list[list[Any]]:
        return [list(record) for record in await self._run(statement, params)]

    async def search_text(
        self, account: str, text: str, query: FactQuery, k: int
    ) -> list[FactVersion]:
        """Keyword leg: fulltext over search_text, best first, filtered like ``query``."""
        return await search_cypher.search_text_leg(
            self._rows, search.DIALECT, check_account(account), text, query, k
        )

    async def search_vector(
        self, account: str, vector: Sequence[float], query: FactQuery, k: int
    ) -> list[FactVersion]:
        """Vector leg through the relationship vector index, nearest first, filtered."""
        return [v for v, _ in await self.search_vector_scored(account, vector, query, k)]

    async def search_vector_scored(
        self, account: str, vector: Sequence[float], query: FactQuery, k: int
    ) -> list[tuple[FactVersion, float]]:
        """The vector leg with each version's cosine similarity to ``vector``."""
        return await search_cypher.search_vector_leg(
            self._rows, search.DIALECT, check_account(account), vector, query, k
        )

    async def cosines(
        self, account: str, vector: Sequence[float], version_ids: Sequence[str]
    ) -> dict[str, float]:
        """The exact cosine to ``vector`` of each listed version with an embedding."""
        return await search_cypher.cosines_of(
            self._rows, search.DIALECT, check_account(account), vector, version_ids
        )

    async def entities_named(self, account: str, text: str, limit: int) -> list[str]:
        """Names of the entities a text mentions, best first."""
        return await search_cypher.entities_named_leg(
            self._rows, search.DIALECT, check_account(account), text, limit
        )

    async def traverse(
        self, account: str, entities: Sequence[str], query: FactQuery, depth: int, k: int
    ) -> list[FactVersion]:
        """Graph leg: facts reachable over facts that pass ``query``, nearest first."""
        return await search_cypher.traverse_leg(
            self._rows, check_account(account), entities, query, depth, k
        )

    async def search_episodes(
        self, account: str, text: str, k: int, workspaces: Collection[str] | None = None
    ) -> list[Episode]:
        """Episodes whose content matches the text, newest first among matches."""
        return await search_cypher.search_episodes_leg(
            self._rows, search.DIALECT, check_account(account), text, k, workspaces
        )
