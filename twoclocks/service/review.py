"""Review (issue 13 point 7): what a model extracted from turns, for the person to check.

"To review" lists the current facts the turn extractor wrote that the person has not
reviewed yet. The person, and only the person, then:

- accepts one: it stays as it is (tier ``inferred``: accepting raises nothing; restating
  it in their own words does), and leaves the list (a review episode is added to it);
- fixes one: a correction (it was never true) whose successor is the person's value;
- rejects one: it is retracted (kept as history, reopenable).

The CLI (``twoclocks review``) and HTTP (GET /v1/review, POST /v1/review/{id}/...) call
these functions.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from twoclocks.domain.errors import WriteNotAllowed
from twoclocks.domain.model import RetiredReason
from twoclocks.domain.trust import Writer
from twoclocks.graph.port import Episode, FactQuery, Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import Caller, Fact, Replacement, ReviseRequest

REVIEW_EPISODE = "review-"
"""Episode ids of a person's review start so: a version holding one was reviewed."""

ReviewAction = Literal["accepted", "fixed", "rejected"]


class ReviewList(BaseModel):
    """Facts a model extracted that the person has not reviewed, newest first."""

    to_review: list[Fact]


class Reviewed(BaseModel):
    """What a review action did."""

    fact_id: str
    action: ReviewAction
    successor_id: str | None = Field(None, description="for fixed: the person's corrected fact")


class ReviewService:
    """The person's review of extracted facts, over the one write path."""

    def __init__(self, memory: MemoryService) -> None:
        self.memory = memory
        self.store: Store = memory.store
        self.clock = memory.clock
        self.new_id = memory.new_id

    async def to_review(self, caller: Caller, cwd: str | None = None) -> ReviewList:
        """Current facts the turn extractor wrote, not yet reviewed: every workspace's for
        the person; for anyone else, as every read, cwd's workspace and the unplaced ones."""
        everywhere = caller.writer is Writer.PERSON
        workspaces = self.memory.read_workspaces(caller, cwd, all_workspaces=everywhere)
        query = FactQuery(now=self.clock(), workspaces=workspaces)
        rows = await self.store.query(caller.account, query)
        waiting = [
            Fact.of(v)
            for v in rows
            if v.writer == Writer.EXTRACTOR.value
            and not any(e.startswith(REVIEW_EPISODE) for e in v.episodes)
        ]
        return ReviewList(to_review=sorted(waiting, key=lambda f: f.created_at, reverse=True))

    async def accept(self, caller: Caller, fact_id: str) -> Reviewed:
        """Keep an extracted fact as it is (still inferred) and take it off the list."""
        _person_only(caller)
        now = self.clock()
        episode = Episode(
            episode_id=f"{REVIEW_EPISODE}{self.new_id()}",
            source="review:accepted",
            content=f"the person accepted fact {fact_id} as extracted",
            created_at=now,
            valid_at=now,
        )
        full_id = await self.memory.link_episode(caller, fact_id, episode)
        return Reviewed(fact_id=full_id, action="accepted")

    async def fix(self, caller: Caller, fact_id: str, value: Replacement) -> Reviewed:
        """Correct an extracted fact: it never held; the person's value replaces it."""
        _person_only(caller)
        done = await self.memory.revise(
            caller, fact_id, ReviseRequest(reason=RetiredReason.CORRECTED, replacement=value)
        )
        return Reviewed(fact_id=done.fact_id, action="fixed", successor_id=done.successor_id)

    async def reject(self, caller: Caller, fact_id: str) -> Reviewed:
        """Retract an extracted fact (kept as history; `reopen` undoes it)."""
        _person_only(caller)
        retracted = await self.memory.retract(caller, fact_id)
        return Reviewed(fact_id=retracted.fact_id, action="rejected")


def _person_only(caller: Caller) -> None:
    if caller.writer is not Writer.PERSON:
        raise WriteNotAllowed(
            "only the person reviews extracted facts: use `twoclocks review` or the web screen"
        )
