"""The MCP server: six tools over one Backend, in-process at /mcp or over stdio.

Each tool is a thin edge: it builds the same request the HTTP API takes and hands
it to a Backend, which either calls the service functions in this process
(``InProcessBackend``, mounted in the FastAPI app) or forwards to a running server
(``HttpBackend``, for ``twoclocks mcp`` over stdio). No tool takes a space,
workspace or account: the account comes from the API key and the workspace from
the session's directory, never from anything a model could be argued into.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, tzinfo
from typing import TYPE_CHECKING, Annotated, Any, Literal

from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp_types import ToolAnnotations
from pydantic import Field, ValidationError

from twoclocks.domain.errors import InvalidInput, TwoclocksError
from twoclocks.domain.model import require_aware
from twoclocks.domain.scope import Scope as RecallScope
from twoclocks.domain.temporal import DATE_ONLY, midnight_of
from twoclocks.mcp_server.backends import (
    Backend,
    EpisodeSearch,
)
from twoclocks.mcp_server.rendering import recall_text, timeline_text
from twoclocks.mcp_server.tool_docs import (
    RECALL_DOC,
    REMEMBER_DOC,
    RETRACT_DOC,
    REVISE_DOC,
    SEARCH_EPISODES_DOC,
    SERVER_INSTRUCTIONS,
    TIMELINE_DOC,
)
from twoclocks.service.accounts import zone_of
from twoclocks.service.invalid_input import field_message
from twoclocks.service.recall_requests import RecallRequest
from twoclocks.service.requests import (
    RememberRequest,
    RememberResult,
    RetractResult,
    ReviseRequest,
    ReviseResult,
    TimelineRequest,
)

if TYPE_CHECKING:
    pass

log = logging.getLogger("twoclocks.mcp")


TIMELINE_LIMIT = 500

# -- translating errors at this edge -----------------------------------------------------


@contextmanager
def _tool_errors() -> Iterator[None]:
    """Our errors leave as MCP tool errors named `TypeName: what to do`."""
    try:
        yield
    except TwoclocksError as exc:
        raise ToolError(f"{exc.name}: {exc.message}") from None
    except ValidationError as exc:
        raise ToolError(_describe_invalid(exc)) from None


def _describe_invalid(exc: ValidationError) -> str:
    # A domain error raised inside a validator (NaiveDatetime, ...) keeps its own name.
    for err in exc.errors():
        cause = (err.get("ctx") or {}).get("error")
        if isinstance(cause, TwoclocksError):
            return f"{cause.name}: {cause.message}"
    parts = []
    for err in exc.errors()[:5]:
        where = ".".join(str(p) for p in err.get("loc", ()))
        parts.append(f"{where or 'input'}: {field_message(err)}")
    return "InvalidInput: " + "; ".join(parts)


def _time(value: str | None, name: str) -> datetime | None:
    """An RFC 3339 time with an offset; a naive or unreadable one is refused by name."""
    if value is None or not value.strip():
        return None
    try:
        parsed = datetime.fromisoformat(value.strip())
    except ValueError:
        raise InvalidInput(
            f"{name}: {value!r} is not an RFC 3339 time; write e.g. 2026-03-01T09:00:00+00:00,"
            " or a date alone"
        ) from None
    return require_aware(parsed, name)


async def _when(backend: Backend, ctx: Context, value: str | None, name: str) -> datetime | None:
    """``_time``, or a date alone as midnight in the account's zone (as the CLI reads it):
    "since last Friday" passed on as 2026-11-27 must not be refused and then left out."""
    if value is not None and DATE_ONLY.match(value.strip()):
        try:
            return midnight_of(value, zone_of(await backend.zone(ctx)))
        except ValueError:
            raise InvalidInput(f"{name}: {value!r} is not a date of the calendar") from None
    return _time(value, name)


async def _lines_zone(backend: Backend, ctx: Context) -> tzinfo:
    """The account's zone, which a recall's and a timeline's lines are written in, as the
    block's are; UTC when the settings cannot be read (each time carries its offset)."""
    try:
        return zone_of(await backend.zone(ctx))
    except TwoclocksError:
        return UTC


def _drop_none(values: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in values.items() if v is not None}


# -- the server ------------------------------------------------------------------------

When = Annotated[
    str | None,
    Field(
        description="RFC 3339 with an offset, e.g. 2026-03-01T09:00:00+00:00, or a date alone "
        "(2026-03-01: midnight in the account's zone)"
    ),
]


def package_version() -> str:
    """twoclocks's installed version, which MCP's serverInfo reports."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("twoclocks")
    except PackageNotFoundError:
        return "0+unknown"


class _TwoclocksServer(MCPServer):
    """MCPServer whose tool errors read `TypeName: what to do`, whoever raised them."""

    async def call_tool(
        self, name: str, arguments: dict[str, Any], context: Context | None = None
    ) -> Any:
        """The SDK's call, with its `Error executing tool ...` wrapper taken off."""
        try:
            return await super().call_tool(name, arguments, context)
        except UnexpectedToolError:
            raise
        except ToolError as exc:
            cause = exc.__cause__
            # Arguments the schema refuses never reach the tool body: the SDK's pydantic
            # text becomes the same InvalidInput the body would have raised.
            if isinstance(cause, ValidationError):
                raise ToolError(_describe_invalid(cause)) from cause
            if isinstance(cause, ToolError):
                raise ToolError(str(cause)) from cause
            raise


def build_server(backend: Backend) -> MCPServer:
    """The MCP server with the six tools, each a thin call into ``backend``."""
    server: MCPServer = _TwoclocksServer(
        "twoclocks",
        version=package_version(),
        instructions=SERVER_INSTRUCTIONS,
        log_level="WARNING",
        warn_on_duplicate_tools=True,
    )
    writes = ToolAnnotations(
        read_only_hint=False, destructive_hint=False, idempotent_hint=True, open_world_hint=False
    )
    reads = ToolAnnotations(read_only_hint=True, open_world_hint=False)

    @server.tool(title="Remember a fact", description=REMEMBER_DOC, annotations=writes)
    async def remember(
        subject: Annotated[str, Field(description="What the fact is about, e.g. 'production'")],
        predicate: Annotated[str, Field(description="The slot name, e.g. 'deploy_target'")],
        object: Annotated[str, Field(description="The value, e.g. 'Render, Oregon region'")],
        ctx: Context,
        valid_at: When = None,
        invalid_at: Annotated[
            str | None,
            Field(
                description="when it stops being true, if that is known now (a freeze until "
                "January 4): RFC 3339 or a date, as valid_at; a fact only"
            ),
        ] = None,
        kind: Annotated[
            Literal["fact", "event"],
            Field(description="fact: holds until changed; event: happened once"),
        ] = "fact",
        cardinality: Annotated[
            Literal["one", "many"] | None,
            Field(description="one current value (default) or many (e.g. team members)"),
        ] = None,
        tier: Annotated[
            Literal["asserted", "observed", "inferred"] | None,
            Field(description="who could witness it; default inferred (your guess)"),
        ] = None,
        fact_class: Annotated[
            Literal["user", "rule", "project", "environment", "decision", "task"] | None,
            Field(description="what it is about; sets where it applies (user/rule: everywhere)"),
        ] = None,
        category: Annotated[
            str | None, Field(description="optional: env, git, build, test, ...", max_length=40)
        ] = None,
        evidence: Annotated[
            str | None,
            Field(description="the person's own message, verbatim, when tier is asserted"),
        ] = None,
    ) -> RememberResult:
        with _tool_errors():
            req = RememberRequest.model_validate(
                _drop_none(
                    {
                        "subject": subject,
                        "predicate": predicate,
                        "object": object,
                        "valid_at": await _when(backend, ctx, valid_at, "valid_at"),
                        "invalid_at": await _when(backend, ctx, invalid_at, "invalid_at"),
                        "kind": kind,
                        "cardinality": cardinality,
                        "tier": tier,
                        "class": fact_class,
                        "category": category,
                        "evidence": evidence,
                        "cwd": backend.cwd(ctx),
                    }
                )
            )
            return await backend.remember(ctx, req)

    # Text only, no structured content: Claude Code hands its model the structured content
    # when there is one, and the lines cost a seventh of the rows (mcp_server/rendering.py).
    @server.tool(
        title="Recall facts", description=RECALL_DOC, annotations=reads, structured_output=False
    )
    async def recall(
        query: Annotated[str, Field(description="What to look for, in words", max_length=2000)],
        ctx: Context,
        k: Annotated[int, Field(ge=1, le=200, description="How many facts (1-200)")] = 10,
        as_of: When = None,
        as_believed: When = None,
        include_history: Annotated[
            bool, Field(description="also ended, corrected and retracted versions")
        ] = False,
        scope: Annotated[
            RecallScope,
            Field(description="here: this workspace; wide: every project of this space"),
        ] = RecallScope.HERE,
    ) -> str:
        with _tool_errors():
            req = RecallRequest.model_validate(
                _drop_none(
                    {
                        "query": query,
                        "k": k,
                        "as_of": await _when(backend, ctx, as_of, "as_of"),
                        "as_believed": await _when(backend, ctx, as_believed, "as_believed"),
                        "include_history": include_history,
                        "cwd": backend.cwd(ctx),
                        "scope": scope,
                    }
                )
            )
            # The zone is read beside the recall, not after it: over HTTP each is a request.
            answer, zone = await asyncio.gather(backend.recall(ctx, req), _lines_zone(backend, ctx))
            return recall_text(answer, zone)

    @server.tool(
        title="Revise a fact (ended or corrected)",
        description=REVISE_DOC,
        annotations=ToolAnnotations(
            read_only_hint=False,
            destructive_hint=True,
            idempotent_hint=False,
            open_world_hint=False,
        ),
    )
    async def revise(
        fact_id: Annotated[str, Field(description="The fact_id from recall or timeline")],
        reason: Annotated[
            Literal["ended", "corrected"],
            Field(description="ended: was true, the world changed; corrected: was never true"),
        ],
        ctx: Context,
        at: Annotated[
            str | None,
            Field(
                description="for ended: when it stopped being true (RFC 3339 or a date alone; "
                "default now)"
            ),
        ] = None,
        replacement: Annotated[
            str | None, Field(description="the new value, if there is one", max_length=500)
        ] = None,
        tier: Annotated[
            Literal["asserted", "observed", "inferred"] | None,
            Field(description="tier of the replacement; default inferred (your guess)"),
        ] = None,
        evidence: Annotated[
            str | None,
            Field(description="the person's own message, verbatim, when tier is asserted"),
        ] = None,
    ) -> ReviseResult:
        with _tool_errors():
            body: dict[str, Any] = {"reason": reason, "at": await _when(backend, ctx, at, "at")}
            if replacement is not None:
                body["replacement"] = _drop_none(
                    {"object": replacement, "tier": tier, "evidence": evidence}
                )
            req = ReviseRequest.model_validate(_drop_none(body))
            return await backend.revise(ctx, fact_id, req)

    @server.tool(
        title="Forget a fact",
        description=RETRACT_DOC,
        annotations=ToolAnnotations(
            read_only_hint=False, destructive_hint=True, idempotent_hint=True, open_world_hint=False
        ),
    )
    async def retract(
        fact_id: Annotated[str, Field(description="The fact_id from recall or timeline")],
        ctx: Context,
    ) -> RetractResult:
        with _tool_errors():
            return await backend.retract(ctx, fact_id)

    @server.tool(
        title="Timeline of facts",
        description=TIMELINE_DOC,
        annotations=reads,
        structured_output=False,
    )
    async def timeline(
        ctx: Context,
        clock: Annotated[
            Literal["world", "system"],
            Field(description="world: by valid_at; system: by created_at"),
        ] = "world",
        since: When = None,
        until: When = None,
        subject: Annotated[
            str | None, Field(description="only facts about this subject", max_length=500)
        ] = None,
        predicate: Annotated[
            str | None,
            Field(description="only this slot name, e.g. 'deploy_target'", max_length=500),
        ] = None,
        limit: Annotated[
            int, Field(ge=1, le=TIMELINE_LIMIT, description="most rows to return")
        ] = 100,
    ) -> str:
        with _tool_errors():
            # The session's workspace, as every read: another project's history stays there.
            req = TimelineRequest.model_validate(
                _drop_none(
                    {
                        "clock": clock,
                        "since": await _when(backend, ctx, since, "since"),
                        "until": await _when(backend, ctx, until, "until"),
                        "subject": subject,
                        "predicate": predicate,
                        "cwd": backend.cwd(ctx),
                    }
                )
            )
            rows, zone = await asyncio.gather(backend.timeline(ctx, req), _lines_zone(backend, ctx))
            return timeline_text(rows[:limit], max(0, len(rows) - limit), clock, zone)

    @server.tool(title="Search episodes", description=SEARCH_EPISODES_DOC, annotations=reads)
    async def search_episodes(
        query: Annotated[
            str, Field(description="What to look for, in words", min_length=1, max_length=2000)
        ],
        ctx: Context,
        k: Annotated[int, Field(ge=1, le=50, description="How many episodes (1-50)")] = 5,
    ) -> EpisodeSearch:
        with _tool_errors():
            return await backend.search_episodes(ctx, query, k)

    return server
