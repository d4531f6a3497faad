"""The HTTP API v1 (DESIGN.md §8). Each route is a thin call into one service function."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, BackgroundTasks, Depends, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from twoclocks.api.state import runtime_of
from twoclocks.client import CHANNEL_HEADER
from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.trust import channel_named, writer_of
from twoclocks.graph.port import Episode, SlotAlias, SlotsApart
from twoclocks.service import explore
from twoclocks.service.alias_requests import (
    AliasesRequest,
    KeepApartRequest,
    MergeSlotRequest,
    MergeSlotResult,
    SplitAliasRequest,
    SplitAliasResult,
)
from twoclocks.service.backup import (
    MAX_LINE_BYTES,
    Backup,
    ImportReport,
    export_backup,
    restore_backup,
)
from twoclocks.service.capture import (
    Accepted,
    CaptureService,
    CaptureStats,
    EventBatch,
    EventBatchResult,
    EventRequest,
    EventResult,
)
from twoclocks.service.close_slots import CloseSlotList, CloseSlotsRequest, close_slots
from twoclocks.service.recall_requests import BlockRequest, BlockResult, RecallRequest, RecallResult
from twoclocks.service.requests import (
    Caller,
    Fact,
    FactsRequest,
    RememberRequest,
    RememberResult,
    RetractResult,
    ReviseRequest,
    ReviseResult,
    TimelineRequest,
)
from twoclocks.service.turns import TurnStats


class ErrorBody(BaseModel):
    """Every error: the error's type name, and what to do about it."""

    error: str = Field(description="e.g. FactNotFound, NaiveDatetime, SecretRefused")
    message: str = Field(description="what went wrong and what to do")


_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorBody, "description": "Unauthorized: no key, or a key naming no account"},
    413: {"model": ErrorBody, "description": "BodyTooLarge: the body is over 64 KB"},
    422: {"model": ErrorBody, "description": "InvalidInput, NaiveDatetime, SecretRefused, ..."},
}

router = APIRouter(prefix="/v1", responses=_ERRORS)
log = logging.getLogger(__name__)


async def caller(request: Request) -> Caller:
    """Who calls: the account and role of the Bearer key; every /v1 call needs one.

    The writer comes from the key's role (DESIGN.md §4). The channel header only says
    which surface a call came through, and can only lower the writer, never raise it.
    """
    header = request.headers.get("authorization", "")
    scheme, _, key = header.partition(" ")
    holder = await runtime_of(request).accounts.authenticate(
        key.strip() if scheme.lower() == "bearer" else None
    )
    channel = channel_named(request.headers.get(CHANNEL_HEADER))
    return Caller(account=holder.account, writer=writer_of(holder.role, channel), channel=channel)


CallerDep = Annotated[Caller, Depends(caller)]


class FactList(BaseModel):
    """A list of fact versions."""

    facts: list[Fact]
    elsewhere: int | None = Field(
        None,
        description="when a read of one workspace found nothing: how many rows the same read "
        "finds in the account's other workspaces (all_workspaces shows them)",
    )
    total: int | None = Field(
        None,
        description="with a limit: how many rows the read matches in all (page with offset)",
    )
    told_later: list[Fact] = Field(
        default_factory=list,
        description="with as_of: values believed now whose start nobody stated (start_stated "
        "false), told after as_of, of slots with no row then: they may have held then, and "
        "memory does not know",
    )


class FactStatusReply(BaseModel):
    """The fact a reopen acted on."""

    fact_id: str
    status: str


@router.post("/facts", status_code=201, response_model=RememberResult)
async def remember(body: RememberRequest, request: Request, who: CallerDep) -> RememberResult:
    """Store a fact; a new value for a one-value slot closes the old one."""
    return await runtime_of(request).service.remember(who, body)


_BY_ID: dict[int | str, dict[str, Any]] = {
    404: {"model": ErrorBody, "description": "FactNotFound"},
    409: {
        "model": ErrorBody,
        "description": "AmbiguousFactId: the shortened id starts several facts (named); "
        "FactAlreadyRetired / FactNotRetracted: re-read current state",
    },
}
"""The answers of a call on one fact, named by its id or any unique start of it (as git)."""


@router.post("/facts/{fact_id}/revise", response_model=ReviseResult, responses=_BY_ID)
async def revise(
    fact_id: str, body: ReviseRequest, request: Request, who: CallerDep
) -> ReviseResult:
    """End (the world changed) or correct (it was never true) a fact."""
    return await runtime_of(request).service.revise(who, fact_id, body)


@router.post("/facts/{fact_id}/retract", response_model=RetractResult, responses=_BY_ID)
async def retract(fact_id: str, request: Request, who: CallerDep) -> RetractResult:
    """Forget a fact: closed on the record clock, kept as history."""
    return await runtime_of(request).service.retract(who, fact_id)


@router.post("/facts/{fact_id}/reopen", response_model=FactStatusReply, responses=_BY_ID)
async def reopen(fact_id: str, request: Request, who: CallerDep) -> FactStatusReply:
    """Undo a retract."""
    full_id = await runtime_of(request).service.reopen(who, fact_id)
    return FactStatusReply(fact_id=full_id, status="live")


class AliasList(BaseModel):
    """The account's slot-drift merges, and the pairs of names kept apart."""

    aliases: list[SlotAlias]
    apart: list[SlotsApart] = Field(
        default_factory=list,
        description="pairs of one subject's slot names kept apart (a split or by hand)",
    )


@router.get("/aliases", response_model=AliasList)
async def aliases(
    query: Annotated[AliasesRequest, Query()], request: Request, who: CallerDep
) -> AliasList:
    """Every slot-drift merge (the alias, the slot it was written under, who decided it),
    and every pair of names kept apart; one subject's with `subject`."""
    service = runtime_of(request).service
    return AliasList(
        aliases=await service.aliases(who, query.subject),
        apart=await service.kept_apart(who, query.subject),
    )


@router.get(
    "/aliases/close",
    response_model=CloseSlotList,
    responses={403: {"model": ErrorBody, "description": "ReadNotAllowed: all_workspaces"}},
)
async def aliases_close(
    query: Annotated[CloseSlotsRequest, Query()], request: Request, who: CallerDep
) -> CloseSlotList:
    """Pairs of one subject's current slots that slot drift left as two but may name one
    thing (close names, both values current), the closest first; a pair stays listed until
    `POST /v1/aliases/merge` joins it or `POST /v1/aliases/apart` keeps it apart."""
    return await close_slots(runtime_of(request).service, who, query)


@router.post(
    "/aliases/apart",
    response_model=SlotsApart,
    responses={404: {"model": ErrorBody, "description": "SlotNotFound"}},
)
async def keep_apart(body: KeepApartRequest, request: Request, who: CallerDep) -> SlotsApart:
    """Keep two slot names of a subject apart: slot drift never merges them and the close
    list drops the pair. Kept apart by the person, the pair stays apart for every other
    subject too. A split (`POST /v1/aliases/split`) keeps its pair apart the same way;
    `POST /v1/aliases/merge` of the pair undoes it."""
    return await runtime_of(request).service.keep_apart(who, body)


@router.post(
    "/aliases/split",
    response_model=SplitAliasResult,
    responses={404: {"model": ErrorBody, "description": "AliasNotFound"}},
)
async def split_alias(
    body: SplitAliasRequest, request: Request, who: CallerDep
) -> SplitAliasResult:
    """Undo a slot-drift merge: the alias's facts go back to their own slot, both current."""
    return await runtime_of(request).service.split_alias(who, body)


@router.post(
    "/aliases/merge",
    response_model=MergeSlotResult,
    responses={404: {"model": ErrorBody, "description": "SlotNotFound"}},
)
async def merge_slot(body: MergeSlotRequest, request: Request, who: CallerDep) -> MergeSlotResult:
    """Merge what slot drift missed: `alias` becomes another name of slot `canonical`.

    Its facts move into that slot (written_as `alias`), the later value replaces the
    earlier as a write would, and later writes of `alias` land in `canonical`. A merge by
    the person also joins the two names for every other subject from then on (a new name
    arriving beside the other). `POST /v1/aliases/split` undoes it.
    """
    return await runtime_of(request).service.merge_slot(who, body)


@router.get(
    "/facts",
    response_model=FactList,
    responses={403: {"model": ErrorBody, "description": "ReadNotAllowed: all_workspaces"}},
)
async def facts(
    query: Annotated[FactsRequest, Query()], request: Request, who: CallerDep
) -> FactList:
    """Facts now, as of a valid time, as believed at a record time, or both."""
    service = runtime_of(request).service
    if query.limit is None or not query.count:
        rows, total = await service.facts(who, query), None
    else:
        # A page and its total are two reads of the same matches: asked together.
        rows, total = await asyncio.gather(
            service.facts(who, query), service.count_facts(who, query)
        )
    told_later = await service.told_after(who, query, rows)
    if rows or query.all_workspaces or query.offset:
        return FactList(facts=rows, total=total, told_later=told_later)
    elsewhere = await service.count_in_other_workspaces(who, query)
    return FactList(facts=rows, total=total, elsewhere=elsewhere, told_later=told_later)


@router.get("/facts/{fact_id}/episodes", response_model=explore.FactEpisodes, responses=_BY_ID)
async def fact_episodes(fact_id: str, request: Request, who: CallerDep) -> explore.FactEpisodes:
    """The episodes (the person's words, tool events) that carried each version of a fact."""
    return await explore.fact_episodes(runtime_of(request).service, who, fact_id)


class EntityList(BaseModel):
    """Entity names, best first."""

    entities: list[str]


@router.get("/graph/entities", response_model=EntityList)
async def graph_entities(
    request: Request,
    who: CallerDep,
    text: Annotated[str, Query(min_length=1, max_length=500, description="words of the name")],
    limit: Annotated[int, Query(ge=1, le=50, description="at most this many names")] = 10,
) -> EntityList:
    """Entities whose names the text mentions (the graph explorer's search)."""
    names = await explore.entities_named(runtime_of(request).service, who, text, limit)
    return EntityList(entities=names)


@router.get(
    "/graph/neighbourhood",
    response_model=explore.Neighbourhood,
    responses={403: {"model": ErrorBody, "description": "ReadNotAllowed: all_workspaces"}},
)
async def graph_neighbourhood(
    query: Annotated[explore.NeighbourhoodRequest, Query()], request: Request, who: CallerDep
) -> explore.Neighbourhood:
    """The facts naming one entity (subject or object), as of a valid and a record time."""
    return await explore.neighbourhood(runtime_of(request).service, who, query)


@router.post("/recall", response_model=RecallResult)
async def recall(body: RecallRequest, request: Request, who: CallerDep) -> RecallResult:
    """Hybrid recall: keyword, vector and graph legs (from the entities the query names and
    from the workspace's repo or project), plus the current value of a slot whose former
    value the query names ("still on Jekyll?"), ordered by how close each fact is to the
    question (its cosine, its slot name's and value kind's cosines, the legs' fused rank);
    `empty` when nothing is."""
    return await runtime_of(request).recall.recall(who, body)


@router.post("/block", response_model=BlockResult)
async def block(body: BlockRequest, request: Request, who: CallerDep) -> BlockResult:
    """The size-capped first-turn block, rendered on the server."""
    return await runtime_of(request).recall.block(who, body)


@router.get(
    "/timeline",
    response_model=FactList,
    responses={403: {"model": ErrorBody, "description": "ReadNotAllowed: all_workspaces"}},
)
async def timeline(
    q: Annotated[TimelineRequest, Query()], request: Request, who: CallerDep
) -> FactList:
    """Every version in time order on one clock, in cwd's workspace (and unplaced rows)."""
    service = runtime_of(request).service
    rows = await service.timeline(who, q)
    if rows or q.all_workspaces:
        return FactList(facts=rows)
    return FactList(facts=rows, elsewhere=await service.timeline_elsewhere(who, q))


@router.get(
    "/export",
    response_class=StreamingResponse,
    responses={200: {"content": {"application/x-ndjson": {}}}},
)
async def export(request: Request, who: CallerDep) -> StreamingResponse:
    """The account's complete backup: one JSON object a line (settings, aliases, episodes,
    and every version with both clocks); `POST /v1/import` restores it."""
    backup = export_backup(runtime_of(request).store, who)
    # The first line is read before the 200 is sent, so a store that is down is a 503
    # with the error body, not a 200 cut short.
    first = await anext(backup, None)

    async def lines() -> AsyncIterator[bytes]:
        if first is None:
            return
        yield (first + "\n").encode()
        async for line in backup:
            yield (line + "\n").encode()

    return StreamingResponse(lines(), media_type="application/x-ndjson")


@router.post(
    "/import",
    response_model=ImportReport,
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
        }
    },
    responses={
        403: {"model": ErrorBody, "description": "WriteNotAllowed: only the person restores"},
        409: {"model": ErrorBody, "description": "AccountNotEmpty: restore into a new account"},
    },
)
async def import_backup(
    request: Request,
    who: CallerDep,
    dry_run: Annotated[bool, Query(description="check the file and count; write nothing")] = False,
) -> ImportReport:
    """Restore a backup (the NDJSON `GET /v1/export` gives) into this empty account, every
    recorded clock kept; the import itself is logged as an episode."""
    runtime = runtime_of(request)
    backup = Backup()
    rest = b""
    async for chunk in request.stream():
        rest += chunk
        *whole, rest = rest.split(b"\n")
        for line in whole:
            backup.add(line)
        if len(rest) > MAX_LINE_BYTES:
            backup.add(rest)  # refused as too long, naming the line
    backup.add(rest)
    return await restore_backup(runtime.service, runtime.accounts, who, backup, dry_run)


class SettingsView(AccountSettings):
    """The account's settings, and the zone its times are shown in (read-only)."""

    timezone_in_use: str = Field(
        description="the account's timezone, else the server's default; not part of a PUT"
    )


@router.get("/settings", response_model=SettingsView)
async def get_settings(request: Request, who: CallerDep) -> SettingsView:
    """This account's time zone and per-class place defaults."""
    accounts = runtime_of(request).accounts
    own = await accounts.settings(who.account)
    return SettingsView(**own.model_dump(), timezone_in_use=await accounts.zone_in_use(who.account))


@router.put("/settings", response_model=AccountSettings)
async def put_settings(body: AccountSettings, request: Request, who: CallerDep) -> AccountSettings:
    """Replace this account's settings, e.g. move decisions to the project."""
    return await runtime_of(request).accounts.update_settings(who.account, body)


class EpisodeList(BaseModel):
    """Episodes matching a query: rows, or empty (a measured 'no record')."""

    status: str = Field(description="rows or empty")
    episodes: list[Episode]


@router.get("/episodes", response_model=EpisodeList)
async def episodes(
    request: Request,
    who: CallerDep,
    query: Annotated[str, Query(min_length=1, max_length=2000, description="words to find")],
    k: Annotated[int, Query(ge=1, le=200, description="how many episodes (1-200)")] = 10,
    cwd: Annotated[
        str | None,
        Query(
            max_length=4096,
            description="the session's working directory: its project's episodes and the "
            "unplaced ones (none: the unplaced ones only)",
        ),
    ] = None,
) -> EpisodeList:
    """Search the raw episodes (the person's own words, tool events) facts came from."""
    found = await runtime_of(request).service.search_episodes(who, query, k, cwd)
    return EpisodeList(status="rows" if found else "empty", episodes=found)


@router.post("/events", status_code=202, response_model=EventResult)
async def capture_event(
    body: EventRequest, request: Request, who: CallerDep, background: BackgroundTasks
) -> EventResult:
    """Capture one tool event (a hook's stdin JSON): kept once, facts written after the answer."""
    capture = runtime_of(request).capture
    accepted = await capture.accept(who, body)
    if accepted.facts:
        background.add_task(_apply_quietly, capture, who, accepted)
    return accepted.result


@router.post("/events/batch", response_model=EventBatchResult)
async def capture_events(body: EventBatch, request: Request, who: CallerDep) -> EventBatchResult:
    """Capture spooled events in order, each written before the answer; replays are duplicates."""
    capture = runtime_of(request).capture
    return EventBatchResult(results=[await capture.ingest(who, event) for event in body.events])


@router.get("/events/stats", response_model=CaptureStats)
async def capture_stats(request: Request, who: CallerDep) -> CaptureStats:
    """Capture for doctor: the switch, events per client and when the last came, refusals."""
    return await runtime_of(request).capture.stats(who)


@router.get("/turns/stats", response_model=TurnStats)
async def turn_stats(request: Request, who: CallerDep) -> TurnStats:
    """The turn queue (queued, extracted, failed) and what the extractor kept or dropped."""
    return await runtime_of(request).turns.stats(who)


async def _apply_quietly(capture: CaptureService, who: Caller, accepted: Accepted) -> None:
    # After the answer there is nobody to tell: a store that went away loses these facts
    # (the event itself is kept), and the log says so.
    try:
        await capture.apply(who, accepted)
    except Exception:
        log.exception("capture: facts of %s not written", accepted.result.event_id)
