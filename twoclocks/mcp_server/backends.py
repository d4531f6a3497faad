"""The MCP tools' backends: the service in-process (mounted at /mcp), or a server over HTTP (stdio).

Both speak the same small protocol, so every tool has one body whatever the transport.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal, Protocol
from urllib.parse import quote, urlencode

from mcp.server.mcpserver import Context
from pydantic import BaseModel

from twoclocks.domain.errors import StoreUnavailable
from twoclocks.domain.trust import Channel, writer_of
from twoclocks.service.recall_requests import RecallRequest, RecallResult
from twoclocks.service.requests import (
    Caller,
    Fact,
    RememberRequest,
    RememberResult,
    RetractResult,
    ReviseRequest,
    ReviseResult,
    TimelineRequest,
)

if TYPE_CHECKING:
    from twoclocks.bootstrap import Runtime
    from twoclocks.client import Client

log = logging.getLogger("twoclocks.mcp")


CWD_HEADER = "x-twoclocks-cwd"
"""Over HTTP, the session's working directory comes in this header (no tool takes a space)."""


# -- what the tools return -------------------------------------------------------------


class EpisodeHit(BaseModel):
    """One raw episode a fact came from."""

    episode_id: str
    source: str
    content: str
    valid_at: datetime
    created_at: datetime


class EpisodeSearch(BaseModel):
    """Episodes matching a query: rows, or empty."""

    status: Literal["rows", "empty"]
    episodes: list[EpisodeHit]
    note: str | None = None


# -- the backend port ------------------------------------------------------------------


class Backend(Protocol):
    """Where the tools send their requests: the service in-process, or a server over HTTP."""

    def cwd(self, ctx: Context) -> str | None:
        """The session's working directory, which decides the workspace."""
        ...

    async def remember(self, ctx: Context, req: RememberRequest) -> RememberResult:
        """POST /v1/facts."""
        ...

    async def recall(self, ctx: Context, req: RecallRequest) -> RecallResult:
        """POST /v1/recall."""
        ...

    async def revise(self, ctx: Context, fact_id: str, req: ReviseRequest) -> ReviseResult:
        """POST /v1/facts/{fact_id}/revise."""
        ...

    async def retract(self, ctx: Context, fact_id: str) -> RetractResult:
        """POST /v1/facts/{fact_id}/retract."""
        ...

    async def timeline(self, ctx: Context, req: TimelineRequest) -> list[Fact]:
        """GET /v1/timeline."""
        ...

    async def search_episodes(self, ctx: Context, query: str, k: int) -> EpisodeSearch:
        """Episode search (no service function or route exists for it yet)."""
        ...

    async def zone(self, ctx: Context) -> str:
        """The zone the account's dates mean (GET /v1/settings' ``timezone_in_use``)."""
        ...


class InProcessBackend:
    """Calls the service functions of this process's Runtime, as the /v1 routes do."""

    def __init__(self, runtime_of: Callable[[], Runtime | None]) -> None:
        self._runtime_of = runtime_of

    def _runtime(self) -> Runtime:
        runtime = self._runtime_of()
        if runtime is None:
            raise StoreUnavailable("the service is still starting: retry in a few seconds")
        return runtime

    async def _caller(self, ctx: Context) -> Caller:
        # Same rule as the /v1 routes: the Bearer key names the account, nothing else does.
        headers = ctx.headers or {}
        scheme, _, key = (headers.get("authorization") or "").partition(" ")
        holder = await self._runtime().accounts.authenticate(
            key.strip() if scheme.lower() == "bearer" else None
        )
        # Through MCP the model is talking: even a person key writes as the agent here.
        return Caller(
            account=holder.account, writer=writer_of(holder.role, Channel.MCP), channel=Channel.MCP
        )

    def cwd(self, ctx: Context) -> str | None:
        """The directory the client's config sends in X-Twoclocks-Cwd, else none."""
        value = (ctx.headers or {}).get(CWD_HEADER)
        return value.strip() if value and value.strip() else None

    async def zone(self, ctx: Context) -> str:
        """The account's zone, as GET /v1/settings answers it."""
        caller = await self._caller(ctx)
        return await self._runtime().accounts.zone_in_use(caller.account)

    async def remember(self, ctx: Context, req: RememberRequest) -> RememberResult:
        """Store a fact through MemoryService.remember."""
        return await self._runtime().service.remember(await self._caller(ctx), req)

    async def recall(self, ctx: Context, req: RecallRequest) -> RecallResult:
        """Hybrid recall through RecallService.recall."""
        result: RecallResult = await self._runtime().recall.recall(await self._caller(ctx), req)
        return result

    async def revise(self, ctx: Context, fact_id: str, req: ReviseRequest) -> ReviseResult:
        """End or correct through MemoryService.revise."""
        return await self._runtime().service.revise(await self._caller(ctx), fact_id, req)

    async def retract(self, ctx: Context, fact_id: str) -> RetractResult:
        """Forget through MemoryService.retract."""
        return await self._runtime().service.retract(await self._caller(ctx), fact_id)

    async def timeline(self, ctx: Context, req: TimelineRequest) -> list[Fact]:
        """Versions in time order through MemoryService.timeline."""
        return await self._runtime().service.timeline(await self._caller(ctx), req)

    async def search_episodes(self, ctx: Context, query: str, k: int) -> EpisodeSearch:
        """Episodes through MemoryService.search_episodes."""
        caller = await self._caller(ctx)
        found = await self._runtime().service.search_episodes(caller, query, k, self.cwd(ctx))
        hits = [EpisodeHit.model_validate(e.model_dump()) for e in found]
        return EpisodeSearch(status="rows" if hits else "empty", episodes=hits)


ZONE_FRESH_S = 60.0
"""How long the stdio server reuses the account's zone before it asks again: every recall
and timeline writes its lines in it, and a request costs as much as a quarter of a recall
(26 ms of 53 at the median, measured 2026-12-07 on 2 cores); a zone the person changes is
used within a minute."""


class HttpBackend:
    """Forwards every tool call to a running twoclocks server over the v1 API."""

    def __init__(self, client: Client, cwd: str | None) -> None:
        self.client = client
        self._cwd = cwd
        self._zone: tuple[float, str] | None = None  # when read (monotonic), and the zone

    def cwd(self, ctx: Context) -> str | None:
        """The directory this stdio server was started in (or was told with --cwd)."""
        return self._cwd

    async def _call(self, method: str, path: str, body: Any = None) -> Any:
        # The client is synchronous; keep the stdio event loop free while it waits.
        return await asyncio.to_thread(self.client.call, method, path, body)

    async def zone(self, ctx: Context) -> str:
        """GET /v1/settings' ``timezone_in_use``, read again after ``ZONE_FRESH_S``."""
        now = time.monotonic()
        if self._zone is not None and now - self._zone[0] < ZONE_FRESH_S:
            return self._zone[1]
        settings = await self._call("GET", "/v1/settings")
        zone = str(settings.get("timezone_in_use") or "UTC")
        self._zone = (now, zone)
        return zone

    async def remember(self, ctx: Context, req: RememberRequest) -> RememberResult:
        """POST /v1/facts."""
        body = req.model_dump(mode="json", by_alias=True, exclude_none=True)
        return RememberResult.model_validate(await self._call("POST", "/v1/facts", body))

    async def recall(self, ctx: Context, req: RecallRequest) -> RecallResult:
        """POST /v1/recall."""
        body = req.model_dump(mode="json", exclude_none=True)
        return RecallResult.model_validate(await self._call("POST", "/v1/recall", body))

    async def revise(self, ctx: Context, fact_id: str, req: ReviseRequest) -> ReviseResult:
        """POST /v1/facts/{fact_id}/revise."""
        body = req.model_dump(mode="json", exclude_none=True)
        answer = await self._call("POST", f"/v1/facts/{_segment(fact_id)}/revise", body)
        return ReviseResult.model_validate(answer)

    async def retract(self, ctx: Context, fact_id: str) -> RetractResult:
        """POST /v1/facts/{fact_id}/retract."""
        answer = await self._call("POST", f"/v1/facts/{_segment(fact_id)}/retract", {})
        return RetractResult.model_validate(answer)

    async def timeline(self, ctx: Context, req: TimelineRequest) -> list[Fact]:
        """GET /v1/timeline."""
        query = req.model_dump(mode="json", exclude_none=True, exclude_defaults=True)
        path = "/v1/timeline?" + urlencode(query)
        answer = await self._call("GET", path)
        return [Fact.model_validate(f) for f in answer["facts"]]

    async def search_episodes(self, ctx: Context, query: str, k: int) -> EpisodeSearch:
        """GET /v1/episodes."""
        asked = {"query": query, "k": k} | ({"cwd": self._cwd} if self._cwd else {})
        answer = await self._call("GET", "/v1/episodes?" + urlencode(asked))
        return EpisodeSearch.model_validate(answer)


def _segment(fact_id: str) -> str:
    """A fact id as one URL path segment: a model-supplied '../x' must not change the route."""
    return quote(fact_id, safe="")
