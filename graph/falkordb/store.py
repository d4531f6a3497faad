"""The Store port on FalkorDB: one graph per account, each plan applied as ONE query.

FalkorDB has no multi-statement transactions, but a single GRAPH.QUERY is atomic (a
runtime error anywhere in it undoes every write it made; verified by the contract test
``test_failed_apply_leaves_no_partial_write``) and writes to one graph are serialized.
So ``apply`` checks and bumps the slot counter and applies the whole plan in one query.
"""

from __future__ import annotations

import asyncio
import functools
import os
import uuid
from collections.abc import AsyncIterator, Callable, Collection, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from twoclocks.domain.errors import InvalidInput, StoreUnavailable
from twoclocks.domain.model import FactVersion, Plan
from twoclocks.graph import cypher, export_cypher, paging, search_cypher
from twoclocks.graph.falkordb import search
from twoclocks.graph.falkordb.guarded import GuardedGraph
from twoclocks.graph.falkordb.watchdog import Watchdog
from twoclocks.graph.key_store import KeyStore
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
    iso_utc,
    plan_params,
    slot_key,
    to_us,
    versions_from_rows,
)
from twoclocks.graph.turn_queue import TurnQueueStore

if TYPE_CHECKING:
    from falkordb.asyncio import FalkorDB

    from twoclocks.graph.falkordb.server import EmbeddedFalkorDB

ClientFactory = Callable[[], "FalkorDB"]

# Guarded by the counter: on a mismatch the row is filtered out and the rest of the query
# runs for zero rows, so nothing at all is written (not even a Slot). The counter is
# projected before the WHERE on purpose: FalkorDB 4.16 pushes `WITH old WHERE <pred on
# old>` down into the OPTIONAL MATCH, which then yields a null row instead of none.
APPLY = (
    """
OPTIONAL MATCH (old:Slot {group_id: $g, key: $key})
WITH coalesce(old.counter, 0) AS seen
WHERE seen = $expected
MERGE (s:Slot {group_id: $g, key: $key})
  ON CREATE SET s.counter = 0, s.subject = $subject, s.predicate = $predicate
SET s.counter = s.counter + 1
WITH s
"""
    + cypher.plan_body("CASE WHEN x.embedding IS NULL THEN NULL ELSE vecf32(x.embedding) END")
    + "RETURN s.counter AS counter"
)

OWN_INDEXES = (
    # Integers only: a range index on a string property answers < and <= wrongly.
    "CREATE INDEX FOR ()-[e:RELATES_TO]-() ON (e.fact_id, e.predicate, e.valid_at_us, "
    "e.invalid_at_us, e.created_at_us, e.expired_at_us)",
    "CREATE INDEX FOR (s:Slot) ON (s.key)",
    "CREATE INDEX FOR (a:SlotAlias) ON (a.subject)",
    "CREATE INDEX FOR (w:WorkspaceSpace) ON (w.key)",
    *search.INDEXES,  # recall: search_text fulltext and the fact_embedding vector index
)

ACCOUNTS_GRAPH = "twoclocks:accounts"
"""The registry of accounts; the ':' keeps it apart from every valid account name."""
ACCOUNT_INDEXES = (
    "CREATE INDEX FOR (a:Account) ON (a.name, a.key_hash)",
    "CREATE INDEX FOR (t:TurnJob) ON (t.account, t.uuid, t.state)",
    "CREATE INDEX FOR (k:ApiKey) ON (k.hash, k.account)",
)


@functools.cache
def _graphiti_indexes() -> tuple[str, ...]:
    """graphiti-core's own FalkorDB index statements (range first, as its driver does)."""
    from graphiti_core.driver.driver import GraphProvider
    from graphiti_core.graph_queries import get_fulltext_indices, get_range_indices

    provider = GraphProvider.FALKORDB
    return (*get_range_indices(provider), *get_fulltext_indices(provider))


class FalkorDBStore(KeyStore, TurnQueueStore):
    """A bi-temporal fact store on FalkorDB; ``close()`` also stops a server it owns."""

    def __init__(
        self,
        target: str | os.PathLike[str] | ClientFactory,
        *,
        server: EmbeddedFalkorDB | None = None,
    ) -> None:
        if callable(target):
            self._factory: ClientFactory = target
        else:
            socket = str(target)
            self._factory = functools.partial(_unix_client, socket)
        self._server = server
        # Only a server we own can be restarted; an attached one belongs to another process.
        self._watchdog = Watchdog(server) if server is not None else None
        self._client: FalkorDB | None = None
        self._ready: set[str] = set()
        self._locks: dict[str, asyncio.Lock] = {}

    @classmethod
    def embedded(
        cls, data_dir: str | os.PathLike[str], appendfsync: Literal["always", "everysec"] = "always"
    ) -> FalkorDBStore:
        """A store that owns an EmbeddedFalkorDB in ``data_dir`` (started by ``start()``)."""
        from twoclocks.graph.falkordb.server import EmbeddedFalkorDB

        server = EmbeddedFalkorDB(Path(data_dir), appendfsync=appendfsync)
        return cls(lambda: server.async_client(), server=server)

    async def start(self) -> None:
        """Start the owned server (if any), connect, and load the index statements."""
        if self._client is not None:
            return
        if self._server is not None:
            # Not in a worker thread: the server's parent-death signal is tied to this thread.
            self._server.start()
        try:
            self._client = self._factory()
            await self._client.connection.ping()
        except Exception as e:
            await self.close()
            raise StoreUnavailable(f"cannot reach FalkorDB: {e}") from e
        _graphiti_indexes()
        if self._watchdog is not None:
            self._watchdog.start()

    def health(self) -> str | None:
        """What the watchdog found wrong with the owned server now, or None."""
        return self._watchdog.current_problem() if self._watchdog is not None else None

    def notices(self) -> list[str]:
        """What the owned server's loads reported losing (a damaged append-only file)."""
        return list(self._server.notices) if self._server is not None else []

    async def close(self) -> None:
        """Close the connection pool and stop an owned server."""
        if self._watchdog is not None:
            await self._watchdog.stop()  # first: it must not restart what we stop
        client, self._client = self._client, None
        self._ready.clear()
        if client is not None:
            await client.aclose()
        if self._server is not None:
            self._server.stop()

    async def _graph(self, account: str) -> GuardedGraph:
        return await self._select(check_account(account), (*_graphiti_indexes(), *OWN_INDEXES))

    async def _select(self, name: str, indexes: Sequence[str]) -> GuardedGraph:
        if self._client is None:
            raise StoreUnavailable("FalkorDBStore is not started: call start() first")
        graph = GuardedGraph(self._client.select_graph(name))
        if name not in self._ready:
            async with self._locks.setdefault(name, asyncio.Lock()):
                if name not in self._ready:
                    await self._create_indexes(graph, indexes)
                    self._ready.add(name)
        return graph

    async def _create_indexes(self, graph: GuardedGraph, indexes: Sequence[str]) -> None:
        for statement in indexes:
            try:
                await graph.query(statement)
            except Exception as e:
                # A graph reopened after a restart already has them; FalkorDB has no IF NOT EXISTS.
                if "already indexed" not in str(e) and "already set" not in str(e):
                    raise

    async def schema_version(self) -> int | None:
        """The layout version recorded in the registry graph; None before versions."""
        graph = await self._select(ACCOUNTS_GRAPH, ACCOUNT_INDEXES)
        rows = (await graph.ro_query(cypher.SCHEMA_VERSION, {})).result_set
        return int(rows[0][0]) if rows and rows[0][0] is not None else None

    async def record_schema_version(self, version: int) -> None:
        """Record the layout version in the registry graph."""
        graph = await self._select(ACCOUNTS_GRAPH, ACCOUNT_INDEXES)
        await graph.query(cypher.RECORD_SCHEMA_VERSION, {"version": version})

    async def holds_nothing(self) -> bool:
        """True when no graph but an empty registry exists (every account has a graph)."""
        graph = await self._select(ACCOUNTS_GRAPH, ACCOUNT_INDEXES)
        assert self._client is not None  # _select refuses an unstarted store
        if set(await self._client.list_graphs()) - {ACCOUNTS_GRAPH}:
            return False
        return not (await graph.ro_query(cypher.ANY_NODE, {})).result_set

    async def read_slot(self, account: str, subject: str, predicate: str) -> SlotState:
        """Every believed version of the slot (any workspace), its counter, and its alias."""
        graph = await self._graph(account)
        params = {"g": account, "key": slot_key(subject, predicate), "subject": subject,
                  "predicate": predicate}  # fmt: skip
        head = (await graph.ro_query(cypher.READ_SLOT_COUNTER, params)).result_set[0]
        rows = (await graph.ro_query(cypher.READ_SLOT_VERSIONS, params)).result_set
        return SlotState(predicate=predicate, versions=tuple(versions_from_rows(rows)),
                         counter=head[0], merged_into=head[1])  # fmt: skip

    async def versions_of(self, account: str, fact_id: str) -> list[FactVersion]:
        """Every version of one logical fact, believed or not; empty if unknown."""
        graph = await self._graph(account)
        result = await graph.ro_query(cypher.VERSIONS_OF, {"g": account, "fact_id": fact_id})
        return versions_from_rows(result.result_set)

    async def fact_ids_starting(self, account: str, prefix: str, limit: int) -> list[str]:
        """Distinct fact ids that start with ``prefix``, in id order, at most ``limit``."""
        graph = await self._graph(account)
        params = {"g": account, "prefix": prefix, "limit": limit}
        result = await graph.ro_query(cypher.FACT_IDS_STARTING, params)
        return [str(row[0]) for row in result.result_set]

    async def apply(
        self,
        account: str,
        plan: Plan,
        subject: str,
        predicate: str,
        expected_counter: int,
        embeddings: Mapping[str, Sequence[float]] | None = None,
    ) -> bool:
        """Apply the plan in one query iff the slot counter still equals ``expected_counter``."""
        graph = await self._graph(account)
        params: dict[str, Any] = plan_params(account, plan, iso_utc, embeddings)
        search_cypher.prepare_inserts(params)  # search_text; refuses wrong-length vectors
        params.update(key=slot_key(subject, predicate), subject=subject, predicate=predicate,
                      expected=expected_counter)  # fmt: skip
        result = await graph.query(APPLY, params)
        return bool(result.result_set)

    async def query(self, account: str, query: FactQuery) -> list[FactVersion]:
        """Versions matching the query, newest valid_at first."""
        graph = await self._graph(account)
        if paging.windowed(query):

            async def rows(statement: str, params: dict[str, Any]) -> list[list[Any]]:
                result: list[list[Any]] = (await graph.ro_query(statement, params)).result_set
                return result

            return await paging.page(rows, account, query)
        statement, params = cypher.fact_query(account, query)
        result = await graph.ro_query(statement, params)
        return versions_from_rows(result.result_set)

    async def count(self, account: str, query: FactQuery) -> int:
        """How many versions match the query, without its page."""
        graph = await self._graph(account)
        result = await graph.ro_query(*cypher.fact_count(account, query))
        return int(result.result_set[0][0]) if result.result_set else 0

    async def timeline(self, account: str, query: TimelineQuery) -> list[FactVersion]:
        """Every version in time order on one clock, half-open [since, until)."""
        graph = await self._graph(account)
        result = await graph.ro_query(*cypher.timeline_query(account, query))
        return versions_from_rows(result.result_set)

    async def timeline_count(self, account: str, query: TimelineQuery) -> int:
        """How many versions ``timeline`` returns for the same query."""
        graph = await self._graph(account)
        result = await graph.ro_query(*cypher.timeline_query(account, query, count=True))
        return int(result.result_set[0][0]) if result.result_set else 0

    async def corrected_since(
        self,
        account: str,
        since: datetime,
        until: datetime,
        workspaces: Sequence[str] | None,
        limit: int,
    ) -> list[FactVersion]:
        """Facts whose last word is a correction in [since, until), newest first."""
        graph = await self._graph(account)
        statement = cypher.corrections_query(account, since, until, workspaces, limit)
        result = await graph.ro_query(*statement)
        return versions_from_rows(result.result_set)

    async def export(self, account: str) -> AsyncIterator[FactVersion]:
        """Every version of the account, oldest record first, a page at a time."""
        graph = await self._graph(account)

        async def rows(statement: str, params: dict[str, Any]) -> list[list[Any]]:
            result: list[list[Any]] = (await graph.ro_query(statement, params)).result_set
            return result

        async for version in export_cypher.export_pages(account, rows):
            yield version

    async def export_episodes(self, account: str) -> list[Episode]:
        """Every episode of the account, oldest record first."""
        graph = await self._graph(account)
        result = await graph.ro_query(cypher.EXPORT_EPISODES, {"g": account})
        return [search_cypher.episode_from_row(row) for row in result.result_set]

    async def episodes(self, account: str, episode_ids: Sequence[str]) -> list[Episode]:
        """The episodes with these ids (unknown ids are skipped), oldest record first."""
        graph = await self._graph(account)
        params = {"g": account, "ids": list(episode_ids)}
        result = await graph.ro_query(cypher.EPISODES_BY_ID, params)
        return [search_cypher.episode_from_row(row) for row in result.result_set]

    async def export_aliases(self, account: str, decided_by: str | None = None) -> list[SlotAlias]:
        """Every recorded slot alias of the account, or those one decider recorded."""
        graph = await self._graph(account)
        result = await graph.ro_query(cypher.EXPORT_ALIASES, {"g": account, "d": decided_by})
        return [
            SlotAlias(subject=s, alias=a, canonical=c, decided_by=d)
            for s, a, c, d in result.result_set
        ]

    async def save_episode(self, account: str, episode: Episode) -> bool:
        """Keep the raw text or event a fact came from (idempotent on episode_id)."""
        graph = await self._graph(account)
        params = episode_params(account, episode, iso_utc)
        result = await graph.query(cypher.SAVE_EPISODE, {**params, "token": uuid.uuid4().hex})
        return bool(result.result_set and result.result_set[0][0])

    async def delete_fact(self, account: str, fact_id: str) -> int:
        """Physically remove every version of a fact; operator use only."""
        graph = await self._graph(account)
        params = {"g": account, "fact_id": fact_id}
        result = await graph.query(cypher.DELETE_FACT, params, repeatable=False)  # counts
        return int(result.result_set[0][0]) if result.result_set else 0

    async def slot_names(self, account: str, subject: str) -> dict[str, str]:
        """Every slot name the subject has, and every recorded alias, mapped to its slot."""
        graph = await self._graph(account)
        result = await graph.ro_query(cypher.SLOT_NAMES, {"g": account, "subject": subject})
        return cypher.slot_map((row[0], row[1]) for row in result.result_set)

    async def record_alias(self, account: str, alias: SlotAlias) -> None:
        """Remember that ``alias.alias`` names the slot ``alias.canonical`` of its subject."""
        graph = await self._graph(account)
        key = slot_key(alias.subject, alias.alias)
        await graph.query(cypher.RECORD_ALIAS, {"g": account, "key": key, **alias.model_dump()})

    async def place_unplaced_episodes(self, account: str | None = None) -> int:
        """Episodes kept with no place take their facts' one workspace (None: every account)."""
        return await self._count_in_each(cypher.PLACE_EPISODES, account)

    async def outdate_told_late(self, account: str | None = None) -> int:
        """Told values a dated word overruled, kept as corrected, become outdated (schema 5)."""
        return await self._count_in_each(cypher.OUTDATE_TOLD_LATE, account)

    async def _count_in_each(self, statement: str, account: str | None) -> int:
        """Run a migration step that returns one count in each account's graph; their sum."""
        total = 0
        for name in await self._account_graphs(account):
            graph = await self._graph(name)
            rows = (await graph.query(statement, {"g": name})).result_set
            total += int(rows[0][0]) if rows else 0
        return total

    async def _account_graphs(self, account: str | None) -> list[str]:
        """One account's graph, or every account's (None), skipping graphs not ours."""
        if account is not None:
            return [check_account(account)]
        assert self._client is not None
        names = []
        for name in sorted(set(await self._client.list_graphs()) - {ACCOUNTS_GRAPH}):
            try:
                check_account(name)
            except InvalidInput:  # not an account's graph
                continue
            names.append(name)
        return names

    async def delete_alias(self, account: str, subject: str, alias: str) -> None:
        """Forget that ``alias`` names another slot of this subject (a split); idempotent."""
        graph = await self._graph(account)
        await graph.query(cypher.DELETE_ALIAS, {"g": account, "subject": subject, "alias": alias})

    async def record_apart(self, account: str, pair: SlotsApart) -> None:
        """Remember that two slot names of a subject are two slots (idempotent per pair)."""
        graph = await self._graph(account)
        await graph.query(cypher.RECORD_APART, {"g": account, **pair.model_dump()})

    async def export_apart(self, account: str) -> list[SlotsApart]:
        """Every pair of slot names kept apart in the account."""
        graph = await self._graph(account)
        result = await graph.ro_query(cypher.EXPORT_APART, {"g": account})
        return [
            SlotsApart(subject=s, first=f, second=n, decided_by=d)
            for s, f, n, d in result.result_set
        ]

    async def delete_apart(self, account: str, subject: str, first: str, second: str) -> None:
        """Forget that two slot names of a subject were kept apart (a merge); idempotent."""
        graph = await self._graph(account)
        params = {"g": account, "subject": subject, "first": first, "second": second}
        await graph.query(cypher.DELETE_APART, params)

    async def save_account(self, account: str, key_hash: str, created_at: datetime) -> bool:
        """Register an account with its hashed key; False if the name is taken."""
        check_account(account)
        graph = await self._select(ACCOUNTS_GRAPH, ACCOUNT_INDEXES)
        params = {"name": account, "key_hash": key_hash, "created_at_us": to_us(created_at)}
        # Not repeatable: a second run of a create that landed reads "name taken".
        result = await graph.query(cypher.SAVE_ACCOUNT, params, repeatable=False)
        return bool(result.result_set)

    async def _registry_rows(
        self, statement: str, params: dict[str, Any], *, write: bool, repeatable: bool = False
    ) -> list[dict[str, Any]]:
        """Run one statement on the accounts graph (API keys and the turn queue live there);
        rows as dicts."""
        graph = await self._select(ACCOUNTS_GRAPH, ACCOUNT_INDEXES)
        # A key write is run once: a second run of a create or a rotation that landed
        # would answer differently (name taken, old key already gone).
        if write:
            result = await graph.query(statement, params, repeatable=repeatable)
        else:
            result = await graph.ro_query(statement, params)
        names = [column[1] if isinstance(column, list | tuple) else column
                 for column in result.header]  # fmt: skip
        return [dict(zip(names, row, strict=True)) for row in result.result_set]

    async def account_settings(self, account: str) -> str | None:
        """The account's settings as JSON text, or None when never saved."""
        graph = await self._select(ACCOUNTS_GRAPH, ACCOUNT_INDEXES)
        result = await graph.ro_query(cypher.ACCOUNT_SETTINGS, {"name": check_account(account)})
        rows = result.result_set
        return str(rows[0][0]) if rows and rows[0][0] else None

    async def save_account_settings(self, account: str, settings: str) -> bool:
        """Replace the account's settings (JSON text); False if there is no such account."""
        graph = await self._select(ACCOUNTS_GRAPH, ACCOUNT_INDEXES)
        result = await graph.query(
            cypher.SAVE_ACCOUNT_SETTINGS, {"name": check_account(account), "settings": settings}
        )
        return bool(result.result_set)

    async def top_predicates(self, account: str, limit: int) -> list[str]:
        """The account's most used predicates, most versions first."""
        graph = await self._graph(account)
        result = await graph.ro_query(cypher.TOP_PREDICATES, {"g": account, "limit": limit})
        return [str(row[0]) for row in result.result_set]

    async def note_workspace(self, account: str, key: str, space: str) -> None:
        """Register that facts are written under workspace ``key`` from ``space``."""
        graph = await self._graph(account)
        await graph.query(cypher.NOTE_WORKSPACE, {"g": account, "key": key, "space": space})

    async def workspace_spaces(self, account: str) -> list[tuple[str, str]]:
        """Every registered (workspace key, space) pair of the account."""
        graph = await self._graph(account)
        result = await graph.ro_query(cypher.WORKSPACE_SPACES, {"g": account})
        return [(str(row[0]), str(row[1])) for row in result.result_set]

    # --- recall legs: Cypher and logic in twoclocks.graph.search_cypher / falkordb.search ---

    @classmethod
    def attach_or_embedded(
        cls, data_dir: str | os.PathLike[str], appendfsync: Literal["always", "everysec"] = "always"
    ) -> FalkorDBStore:
        """A client of the live server on ``data_dir`` if one runs (``close()`` leaves it
        running), else ``embedded(data_dir, appendfsync)``."""
        from twoclocks.graph.falkordb.attach import live_socket

        socket = live_socket(data_dir)
        return cls(socket) if socket is not None else cls.embedded(data_dir, appendfsync)

    async def search_text(
        self, account: str, text: str, query: FactQuery, k: int
    ) -> list[FactVersion]:
        """Keyword leg: fulltext over search_text, best first, filtered like ``query``."""
        rows = search.reader(await self._graph(account))
        return await search_cypher.search_text_leg(rows, search.DIALECT, account, text, query, k)

    async def search_vector(
        self, account: str, vector: Sequence[float], query: FactQuery, k: int
    ) -> list[FactVersion]:
        """Vector leg through the HNSW index, nearest first, filtered like ``query``."""
        return [v for v, _ in await self.search_vector_scored(account, vector, query, k)]

    async def search_vector_scored(
        self, account: str, vector: Sequence[float], query: FactQuery, k: int
    ) -> list[tuple[FactVersion, float]]:
        """The vector leg with each version's cosine similarity to ``vector``."""
        rows = search.reader(await self._graph(account))
        return await search_cypher.search_vector_leg(
            rows, search.DIALECT, account, vector, query, k
        )

    async def cosines(
        self, account: str, vector: Sequence[float], version_ids: Sequence[str]
    ) -> dict[str, float]:
        """The exact cosine to ``vector`` of each listed version with an embedding."""
        rows = search.reader(await self._graph(account))
        return await search_cypher.cosines_of(rows, search.DIALECT, account, vector, version_ids)

    async def entities_named(self, account: str, text: str, limit: int) -> list[str]:
        """Names of the entities a text mentions, best first."""
        rows = search.reader(await self._graph(account))
        return await search_cypher.entities_named_leg(rows, search.DIALECT, account, text, limit)

    async def traverse(
        self, account: str, entities: Sequence[str], query: FactQuery, depth: int, k: int
    ) -> list[FactVersion]:
        """Graph leg: facts reachable over facts that pass ``query``, nearest first."""
        rows = search.reader(await self._graph(account))
        return await search_cypher.traverse_leg(rows, account, entities, query, depth, k)

    async def search_episodes(
        self, account: str, text: str, k: int, workspaces: Collection[str] | None = None
    ) -> list[Episode]:
        """Episodes whose content matches the text, newest first among matches."""
        rows = search.reader(await self._graph(account))
        return await search_cypher.search_episodes_leg(
            rows, search.DIALECT, account, text, k, workspaces
        )


def _unix_client(socket_path: str) -> FalkorDB:
    from falkordb.asyncio import FalkorDB

    return FalkorDB(unix_socket_path=socket_path)
