"""HTTP v1 routes for what the person checks of the model's work (issue 13 points 4 and 7):
facts the refusal watch held back, and extracted facts to review. Each route is a thin call
into the service function the CLI calls too; only the person may act on them."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request

from twoclocks.api.routes import CallerDep, ErrorBody
from twoclocks.api.state import runtime_of
from twoclocks.service.held import HeldList, Restored
from twoclocks.service.requests import Replacement
from twoclocks.service.review import Reviewed, ReviewList, ReviewService

_ACTS: dict[int | str, dict[str, Any]] = {
    403: {"model": ErrorBody, "description": "WriteNotAllowed: only the person (the CLI key)"},
    404: {"model": ErrorBody, "description": "FactNotFound"},
    409: {"model": ErrorBody, "description": "FactAlreadyRetired / FactNotRetracted"},
}

router = APIRouter(prefix="/v1", tags=["review"])


@router.get(
    "/held",
    response_model=HeldList,
    responses={403: {"model": ErrorBody, "description": "ReadNotAllowed: not the person"}},
)
async def held(request: Request, who: CallerDep) -> HeldList:
    """Facts a model wrote that rode refused turns and were held back, newest first."""
    return await runtime_of(request).turns.held.held(who)


@router.post("/held/{fact_id}/restore", response_model=Restored, responses=_ACTS)
async def restore_held(fact_id: str, request: Request, who: CallerDep) -> Restored:
    """The person restores a held-back fact: current again, never held back again."""
    return await runtime_of(request).turns.held.restore(who, fact_id)


@router.get("/review", response_model=ReviewList)
async def to_review(
    request: Request,
    who: CallerDep,
    cwd: Annotated[
        str | None,
        Query(
            max_length=4096,
            description="an agent's session directory: its workspace's facts and the unplaced "
            "ones (the person's key lists every workspace's)",
        ),
    ] = None,
) -> ReviewList:
    """Facts the turn extractor wrote that the person has not reviewed, newest first."""
    return await ReviewService(runtime_of(request).service).to_review(who, cwd)


@router.post("/review/{fact_id}/accept", response_model=Reviewed, responses=_ACTS)
async def accept(fact_id: str, request: Request, who: CallerDep) -> Reviewed:
    """Keep an extracted fact as it is (its tier stays inferred); it leaves the list."""
    return await ReviewService(runtime_of(request).service).accept(who, fact_id)


@router.post("/review/{fact_id}/fix", response_model=Reviewed, responses=_ACTS)
async def fix(fact_id: str, body: Replacement, request: Request, who: CallerDep) -> Reviewed:
    """Correct an extracted fact: it never held; the person's value replaces it."""
    return await ReviewService(runtime_of(request).service).fix(who, fact_id, body)


@router.post("/review/{fact_id}/reject", response_model=Reviewed, responses=_ACTS)
async def reject(fact_id: str, request: Request, who: CallerDep) -> Reviewed:
    """Retract an extracted fact (kept as history; reopen undoes it)."""
    return await ReviewService(runtime_of(request).service).reject(who, fact_id)
