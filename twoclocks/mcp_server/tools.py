"""The MCP server: six tools over one Backend, in-process at /mcp or over stdio.

Each tool is a thin edge: it builds the same request the HTTP API takes and hands
it to a Backend, which either calls the service functions in this process
(``InProcessBackend``, mounted in the FastAPI app) or forwards to a running server
(``HttpBackend``, for ``twoclocks mcp`` over stdio). No tool takes a space,
workspace or account: the account comes from the API key and the workspace from
the session's directory, never from anything a model could be argued into.
"""

from __future__ import annotations

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

SERVER_INSTRUCTIONS = """\
twoclocks is the person's long-term memory, shared by every coding agent they use.
It holds short facts (subject -predicate-> object) with two clocks: when each fact
was true in the world (valid_at / invalid_at) and when memory believed it
(created_at / expired_at). The first-turn block you may already have is the
current state for this directory; recall searches further.

- remember durable facts the person states or that you observe in tool results
  (decisions, environment, conventions, preferences), one short fact per call.
- When a value simply changes, remember the new value: the old one closes itself.
- revise needs a reason. Ask: "if someone asked what was true last month, should
  this fact be in the answer?" yes -> ended; no -> corrected. If you cannot tell, ask.
- The server decides the workspace from the session's directory; no tool takes one.
- Times are RFC 3339 with an offset, e.g. 2026-03-01T09:00:00+03:00, or a date alone
  (2026-03-01), which is midnight in the account's zone."""

REMEMBER_DOC = """\
Store one short fact about the person's work so later sessions, in any agent, know it.
A fact is subject -predicate-> object, e.g. subject "production", predicate
"deploy_target", object "Render, Oregon region". Keep it under about 10 words; one
fact per call.

- A new value for a one-value slot (same subject and predicate) closes the old value
  at the new valid_at. When something simply changed, remember the new value; no
  revise needed. Restating a stored fact only adds evidence.
- valid_at is when it became true. When the person says ("since Monday", "we moved
  last week"), pass it; a date alone is fine. Omitted, it is the time you told it, read
  as "known since" then, and a later write that dates the change earlier replaces it.
- invalid_at is when it stops being true, when the person says so now ("a deploy freeze
  until January 4", "Ravi covers on call until Friday"): the value it interrupts holds
  again from then. Omitted, it holds until changed.
- tier: "asserted" only for the person's own words (pass their message as evidence),
  "observed" for what you read in a tool result (commit, test run, file), "inferred"
  for your own guess. Omitted, it is "inferred" (your guess); an "asserted" whose
  value is not in the evidence is stored as "inferred", and the answer says so.
- The workspace is decided by the server from the session's directory.
- Anything that looks like a credential is refused (SecretRefused).
Returns fact_id, the outcome (inserted / restated / stored_closed: closed at once,
because a later value of the slot was already known or invalid_at was given; invalid_at
says when it stops being true, and until then it is no history; held_after names that
later value: one told with no start at a tier above yours was kept over your write, and
if the person told you of the change, remember it again with tier "asserted" and their
message as evidence), the slot name
used (it may be an existing synonym; then written_as is the name you gave), the facts it
closed (closed: their ids; replaced: their ids, values and how each left, ended or, for a
value this write's date overruled, outdated or corrected, so you can tell the person
what changed), the tier stored and, if it is lower than asked, why (tier_lowered), and
where it applies (workspace: the repo, project or worktree it is kept in, null for
everywhere; a preference of the person's needs fact_class "user" to follow them). Saying
a stored fact again with a higher tier or a wider class raises it (raised says what).
near_slot, when present, is an existing slot of the subject whose name is close to yours
and holds the same kind of thing, but was not merged with it, with its current values:
both are current now. If the two
name one thing (vendor / provider of one service), tell the person: `twoclocks merge
<predicate> --into <near_slot.predicate> --subject <subject>` makes them one slot, keeps
the name you used as an alias for later writes (for every subject: the person's merges
teach the store their words), and can be undone with `twoclocks split`."""

RECALL_DOC = """\
Search memory for facts relevant to a question, by keyword, meaning and graph links
(from the things the question names and from this workspace's repo or project, so
"which CI do we use?" asked in a checkout finds that repo's CI). Returns current facts
unless as_of (what was true at that world time), as_believed (what memory believed at
that time about that time; with as_of, about as_of) or include_history is given.
status "empty" means memory has no matching fact; "unavailable" means the store could
not answer, which is not the same as "no". Asked of the present, facts memory holds that
start later (a freeze from the 20th) follow the answer under "start later (not true
yet)", or come first when one matches the question best ("matches the question best",
the rows after it being weaker matches): mention them as plans, never as what holds now.
A question naming a time to come ("next week", "tomorrow", "on December 15") gets the
plans that hold then first, under "holds <that time>, the time the question names (not
true yet)", or a line saying none does: answer that time from them, as plans. One asking
of nothing but what is to come ("what's coming up?", "anything planned next week?") gets
every fact that holds then, soonest first, under "holds from now on (no time named)"
when it names no time; a last line counts those beyond k.
A question naming a past time in words ("in March", "last year", "two weeks ago", "this
morning"), or asking what came before a value ("before Discord", "which test failed
earlier?"), is still answered with what holds now, but the asked slot's facts that held
then and have ended since come first, under "held in <that time>", with the ones that held
then and still hold after them ("held in <that time> too, and still holds now"), or the
events that happened then under "happened in <that time>": answer the past from them, or
pass as_of to read that time whole.
Asked what memory believed then ("what did you think our host was on Tuesday?", "at
15:29?", "today?"), what it
believed at the start and the end of that time, and any value of the asked slot it
believed only in between, comes first, under "memory believed <that time>, read at its
start, its end, and the slot asked in between", marked [corrected] or [ended] where that
changed since.
When the question names a slot (by name, or by a value it held) that holds no value now,
its last value comes first under "no value now in the slot the question names; its last
one ended": say it ended, and do not take a row of another slot for it. A value it names
that ended while others hold ("is Bo still a maintainer?", "do we still use Heroku?"
when Render began months later, "did we ever use SQLite?") comes first under "ended, not
true now": say it ended, and when; one found wrong, under "found wrong, never true": say
it never held. A question asking what changed ("what changed this
week?", "anything new since Monday?"; the past 7 days when it names no time) gets the
facts that began or ended then first, under "changed <that time>", or a line saying none
did (of the slot it names, when it names one: "no fact memory holds of ledger · ci began or
ended ..."); one naming a thing or slot and no time ("what changed in the database?", or a
value it moved to or from: "when did we switch to uv?") gets its latest changes, under "the
latest changes (no time named)"; a list cut to the latest ten ends with a line counting the
rest ("… 2 more changes this week ..."): say there were more; one asking what memory
learned ("what did you learn today?") gets the facts told then, under "told to memory
<that time>". Each also gets the facts memory found wrong then, under "corrected <that
time>", each marked [corrected] and followed by what holds instead: memory's belief
changed, not the world; one asking what was corrected ("what did we correct today?",
"any corrections this week?") gets those alone, or a line saying none were. The rows
that share a word with it follow. With a past
as_of, values memory was told later with no start follow under "told later, with no
start stated": they may have held then, and memory does not know; say so. Each fact
reads as one line, `- subject · predicate: value (since <valid_at> | <valid_at> until
<invalid_at> | at <valid_at>, tier, why it is history, from <workspace>) id <start of
fact_id>` ("at": an event, which happened once; "known since" when nobody said when it
began: the time it was told); revise
and retract take that id, and timeline shows when memory believed each version. Tier "inferred" is a
guess, not the person's word.

scope "here" (default) reads this workspace. Use scope "wide" when the person asks
about another of their projects or repos ("how did we set up Kafka in the ingest
repo?") or about "anywhere" / "any of our services": it reads every project of this
space (and the spaces it reads from), never beyond. A fact from elsewhere says
`from <workspace>`: the project, repo or worktree it is from. An "empty here" answer says
when other projects or worktrees of this space hold matching facts, and rows none of which is about
the thing the question names (or none of which holds a word of it) say when they hold
facts about it: then the rows are no answer about it; ask again with scope "wide"."""

REVISE_DOC = """\
Retire a fact that is no longer the truth, optionally naming its replacement.
The reason decides which clock closes, and it changes every later answer:

- ended: it WAS true and the world changed (we moved off CircleCI; the freeze is
  over). Answers about the past still include it, up to `at` (default now).
- corrected: it was NEVER true (a typo, a misheard name, a wrong guess). It leaves
  every past answer too, and the replacement takes over its whole time window.
  Without a replacement, the value it had replaced is believed again (restored).

The test: if someone asked what was true last month, should this fact be in the
answer? yes -> ended; no -> corrected. When you cannot tell, ask the person; do
not guess.

Not idempotent: revising a fact again fails with FactAlreadyRetired (recall again
for the current fact_id); the one exception is correcting a fact that had ended,
when it turns out it was never true. To record a plain change of value going
forward, remember the new value instead."""

RETRACT_DOC = """\
Forget a fact: use it when the person asks you to forget something, or for a fact
that should never have been stored (not about their work, stored by mistake).
It stops being recalled and is kept only as history, which an operator can reopen.
If the fact was wrong, revise it as corrected; if it stopped being true, revise it
as ended: retract records neither, so prefer revise in those cases. A retract gives
nothing back: when the slot is left with no value, left_ended names the values the fact
had replaced, which stay ended; tell the person."""

TIMELINE_DOC = """\
List fact versions in time order on one clock: "world" orders by when things were
true (valid_at), "system" by when memory learned them (created_at). Use it for
every change of one slot ("when did we switch X"), more changes than recall's latest
10, or to find an old version's fact_id; subject
and predicate narrow it to one slot. It reads this session's workspace (and facts that
apply everywhere), as recall does. since is inclusive and until exclusive, both RFC
3339 with an offset or a date alone; limit caps the rows (the rest are counted in
`more`). Each version reads as a recall line, with `(recorded <created_at> until
<expired_at>)`: when memory believed it (a belief a later record replaced says its end
once, as `[believed until <expired_at>]`)."""

SEARCH_EPISODES_DOC = """\
Search the raw episodes facts came from (the person's own messages, tool events)
for quotes and context that short facts leave out, in this session's project (and what
was kept with no place). status "empty" means no episode matched: that is a measured
"no record", not an error."""


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
            return recall_text(await backend.recall(ctx, req), await _lines_zone(backend, ctx))

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
            rows = await backend.timeline(ctx, req)
            zone = await _lines_zone(backend, ctx)
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
