"""The graph explorer's reads: entities by name, and the facts around one entity.

Both reuse the store's recall legs (``entities_named``, ``traverse``), so the explorer
shows what recall walks, under the same clock and workspace filters as GET /v1/facts.
"""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field, field_validator

from twoclocks.domain.model import MAX_TEXT, require_aware
from twoclocks.graph.port import FactQuery
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
        workspaces=service.resolve_workspace(req.cwd).keys,
    )
    rows = await service.store.traverse(caller.account, [req.entity], query, 1, req.limit)
    return Neighbourhood(entity=req.entity, facts=[Fact.of(v) for v in rows])
