"""The graph explorer's reads: entities by name, the facts around one entity, and the
episodes that carried a fact's versions (the history diagram's hover).

The first two reuse the store's recall legs (``entities_named``, ``traverse``), so the
explorer shows what recall walks, under the same clock and workspace filters as GET /v1/facts.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, field_validator

from twoclocks.domain.errors import FactNotFound
from twoclocks.domain.model import MAX_TEXT, require_aware
from twoclocks.graph.port import Episode, FactQuery
from twoclocks.service.fact_ids import resolve_fact_id
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import Caller, Fact, Line, Text

MAX_NEIGHBOURHOOD = 500
"""The most facts one neighbourhood answers: a few hundred nodes stay readable."""


class NeighbourhoodRequest(BaseModel):
    """The facts around one entity, on either clock or both."""

    model_config = ConfigDict(extra="forbid")

    entity: Line = Field(..., min_length=1, max_length=MAX_TEXT, description="the entity's name")
    as_of: datetime | None = Field(None, description="what was true at this valid time")
    as_believed: datetime | None = Field(
        None, description="what the store believed at this record time"
    )
    limit: int = Field(
        300, ge=1, le=MAX_NEIGHBOURHOOD, description="at most this many facts, nearest first"
    )
    cwd: Text | None = Field(None, max_length=4096, description="the session's working directory")
    all_workspaces: bool = Field(
        False,
        description="every workspace of the account, not only cwd's (the person's reads: the "
        "web screen; an agent's read stays in its workspace: 403)",
    )

    @field_validator("as_of", "as_believed")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return require_aware(value)


class Neighbourhood(BaseModel):
    """One entity and the facts that name it as subject or object, on the clocks asked."""

    entity: str
    facts: list[Fact]


async def entities_named(
    service: MemoryService, caller: Caller, text: str, limit: int
) -> list[str]:
    """Entity names the text mentions, best first (the explorer's search box)."""
    return await service.store.entities_named(caller.account, text, limit)


async def neighbourhood(
    service: MemoryService, caller: Caller, req: NeighbourhoodRequest
) -> Neighbourhood:
    """The facts one hop around an entity that pass both clocks and the workspace."""
    query = FactQuery(
        now=service.clock(),
        as_of=req.as_of,
        as_believed=req.as_believed,
        workspaces=service.read_workspaces(caller, req.cwd, req.all_workspaces),
    )
    rows = await service.store.traverse(caller.account, [req.entity], query, 1, req.limit)
    return Neighbourhood(entity=req.entity, facts=[Fact.of(v) for v in rows])


class VersionEpisodes(BaseModel):
    """One version of a fact and the episodes (raw text or tool events) that carried it."""

    version_id: str
    created_at: datetime = Field(description="when the store recorded this version")
    episodes: list[Episode] = Field(description="oldest first; empty for a write with none")


class FactEpisodes(BaseModel):
    """Every version of one fact, each with the episodes that carried it."""

    fact_id: str
    versions: list[VersionEpisodes]


async def fact_episodes(service: MemoryService, caller: Caller, fact_id: str) -> FactEpisodes:
    """The episodes behind each version of a fact (``fact_id`` may be a unique start of it)."""
    fact_id = await resolve_fact_id(service.store, caller.account, fact_id)
    versions = await service.store.versions_of(caller.account, fact_id)
    if not versions:
        raise FactNotFound(f"no fact {fact_id} in this account: list facts to find its id")
    wanted = sorted({i for v in versions for i in v.episodes})
    found = {e.episode_id: e for e in await service.store.episodes(caller.account, wanted)}
    return FactEpisodes(
        fact_id=fact_id,
        versions=[
            VersionEpisodes(
                version_id=v.version_id,
                created_at=v.created_at,
                episodes=[found[i] for i in v.episodes if i in found],
            )
            for v in versions
        ],
    )
