"""An account's graph whose lost connection is a StoreUnavailable, not an internal error.

The store wraps connection errors at ``start()``; this covers a server that dies or
stops answering afterwards, so every caller (recall's "unavailable", the HTTP 503)
sees the one typed error instead of a redis exception.
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from twoclocks.domain.errors import StoreUnavailable
from twoclocks.graph.lost_connection import run_once_more_if_lost

if TYPE_CHECKING:
    from falkordb.asyncio.graph import AsyncGraph
    from falkordb.query_result import QueryResult


class GuardedGraph:
    """``query`` and ``ro_query`` of an AsyncGraph, connection failures made typed."""

    def __init__(self, graph: AsyncGraph) -> None:
        self._graph = graph

    async def query(
        self, statement: str, params: dict[str, Any] | None = None, *, repeatable: bool = True
    ) -> QueryResult:
        """Run a read-write query; a ``repeatable`` one (it answers the same when run twice)
        is run once more when its connection was lost under it."""
        return await _guarded(lambda: self._graph.query(statement, params), repeatable)

    async def ro_query(self, statement: str, params: dict[str, Any] | None = None) -> QueryResult:
        """Run a read-only query, once more when its connection was lost under it."""
        return await _guarded(lambda: self._graph.ro_query(statement, params), repeatable=True)


async def _guarded(call: Callable[[], Awaitable[QueryResult]], repeatable: bool) -> QueryResult:
    # After the watchdog restarts the server, every pooled connection is dead.
    try:
        return await run_once_more_if_lost(call, repeatable, _dead_connection_errors())
    except _lost_errors() as e:
        raise StoreUnavailable(f"lost the connection to FalkorDB: {e}") from e


@functools.cache
def _lost_errors() -> tuple[type[BaseException], ...]:
    # Looked up only when a query fails, so importing the store does not import redis.
    from redis.exceptions import ConnectionError as RedisConnectionError
    from redis.exceptions import TimeoutError as RedisTimeoutError

    return (RedisConnectionError, RedisTimeoutError, ConnectionError)


@functools.cache
def _dead_connection_errors() -> tuple[type[BaseException], ...]:
    # Not a timeout: a server that stops answering is not cured by asking it again.
    from redis.exceptions import ConnectionError as RedisConnectionError

    return (RedisConnectionError, ConnectionError)
