"""Capture: tool events in, observed facts out, through the one write path (remember).

``ingest`` = ``accept`` (fast: normalize, capture switch, dedup, keep the event as an
episode) then ``apply`` (the rules' facts through ``MemoryService.remember``, which
runs the secret check and the write planner). The HTTP route answers after
``accept`` and applies in the background, so a hook is never held up by embeddings;
an event with facts is journaled as pending before the answer (``PendingEvents``) and
``recover`` writes, at start, the facts of any the server died before writing.
"""

from __future__ import annotations

import logging
import os
import re
from collections import Counter, OrderedDict
from collections.abc import Callable, Mapping, Sequence
from contextlib import suppress
from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from twoclocks.capture.episode_text import episode_text
from twoclocks.capture.events import ToolEvent, happened_at, normalize
from twoclocks.capture.head import commit_line, names_commit
from twoclocks.capture.rules import (
    CURRENT_BRANCH,
    LAST_COMMIT,
    CapturedFact,
    RuleContext,
    clean,
    facts_from,
    failure_key,
    strip_credentials,
)
from twoclocks.capture.turns import is_turn
from twoclocks.domain.errors import (
    FactAlreadyRetired,
    InvalidInput,
    StoreUnavailable,
    TwoclocksError,
)
from twoclocks.domain.model import FactClass, Place, Tier
from twoclocks.domain.places import Workspace, resolve_place
from twoclocks.domain.trust import Channel, Writer
from twoclocks.graph.port import Episode, FactQuery, Store
from twoclocks.service.capture_pending import PendingEvents
from twoclocks.service.collaborators import SettingsLookup, WorkspaceResolver
from twoclocks.service.memory import MemoryService, place_of_words
from twoclocks.service.requests import Caller, RememberRequest, ReviseRequest
from twoclocks.service.turns import TurnService
from twoclocks.workspaces import HeadCommit

log = logging.getLogger(__name__)

MAX_SESSIONS = 1000
"""Sessions whose failing commands are remembered (for the repeated-error rule), newest kept."""

EventStatus = Literal["stored", "duplicate", "capture_off", "ignored"]


class EventRequest(BaseModel):
    """One tool event as the client's hook received it, and which client sent it."""

    model_config = ConfigDict(extra="forbid")

    client: Literal["claude-code", "codex", "cursor"] | None = Field(
        None, description="claude-code, codex or cursor; guessed from the event's ids if absent"
    )
    event: dict[str, Any] = Field(description="the hook's stdin JSON, unchanged")


class EventResult(BaseModel):
    """What capture did with an event: stored (with how many facts), or why not."""

    event_id: str | None = Field(description="the id derived from the client's own ids")
    status: EventStatus = Field(
        description="stored; duplicate (seen before); capture_off; ignored (nothing to keep)"
    )
    facts: int = Field(0, description="facts the rules found (written after the answer)")
    turn: str | None = Field(
        None,
        description="for the event that ends a turn (Stop, afterAgentResponse): queued (for "
        "the extractor), kept (no extractor set), or skipped: and why (refused, cut_short, ...)",
    )


class EventBatch(BaseModel):
    """Spooled events, sent together when the server is back."""

    model_config = ConfigDict(extra="forbid")

    events: list[EventRequest] = Field(max_length=500)


class EventBatchResult(BaseModel):
    """One result per event, in order."""

    results: list[EventResult]


class Accepted(BaseModel):
    """An event that passed ``accept``: its facts are still to be written."""

    model_config = ConfigDict(frozen=True)

    result: EventResult
    event: ToolEvent | None = None
    facts: tuple[CapturedFact, ...] = ()
    evidence: str | None = None
    journaled: bool = False
    """Pending in the journal until ``apply`` has written its facts."""
    at: datetime | None = None
    """When the event happened: the hook's stamp, else when the server accepted it; what
    the event made true starts then."""


class ClientCapture(BaseModel):
    """What one client's hooks sent this server since it started."""

    client: str = Field(description="claude-code, codex or cursor")
    last_event_at: datetime | None = Field(description="when its last event arrived")
    events: dict[str, int] = Field(description="events by status: stored, duplicate, ...")


class CaptureStats(BaseModel):
    """Capture as doctor shows it: the switch, each client's events, facts refused and why."""

    capture: bool = Field(description="the account's capture switch")
    since: datetime = Field(description="counts are kept in memory from this server's start")
    clients: list[ClientCapture]
    refused_facts: dict[str, int] = Field(description="facts the write path refused, by error")


class CaptureService:
    """Tool events to observed facts, once per event, unless the account turned capture off."""

    def __init__(
        self,
        memory: MemoryService,
        store: Store,
        clock: Callable[[], datetime],
        resolve_workspace: WorkspaceResolver,
        settings_of: SettingsLookup | None = None,
        pending: PendingEvents | None = None,
        turns: TurnService | None = None,
        branch_of: Callable[[str | None], str | None] | None = None,
        commit_of: Callable[[str | None], HeadCommit | None] | None = None,
    ) -> None:
        self.turns = turns
        self.branch_of = branch_of
        self.commit_of = commit_of
        self.memory = memory
        self.pending = pending
        self.store = store
        self.clock = clock
        self.resolve_workspace = resolve_workspace
        self.settings_of = settings_of
        self._failures: OrderedDict[tuple[str, str], Counter[str]] = OrderedDict()
        self._since = clock()
        self._seen: dict[tuple[str, str], tuple[datetime, Counter[str]]] = {}
        self._refused: dict[str, Counter[str]] = {}

    async def ingest(self, caller: Caller, req: EventRequest) -> EventResult:
        """Accept an event and write its facts before answering (CLI, tests, batch drains)."""
        # No journal: the caller is answered only after the facts are written, so a
        # crash in between leaves the event unanswered, and the hook sends it again.
        accepted = await self.accept(caller, req, journal=False)
        await self.apply(caller, accepted)
        return accepted.result

    async def accept(self, caller: Caller, req: EventRequest, journal: bool = True) -> Accepted:
        """Normalize, check the switch, dedup and keep the event; the facts are not written yet."""
        event = normalize(req.event, req.client)
        accepted = await self._accept(caller, req, event, journal and self.pending is not None)
        key = (caller.account, event.client)
        counts = self._seen[key][1] if key in self._seen else Counter()
        counts[accepted.result.status] += 1
        self._seen[key] = (self.clock(), counts)
        return accepted

    async def stats(self, caller: Caller) -> CaptureStats:
        """This account's capture since the server started, per client."""
        on = True if self.settings_of is None else (await self.settings_of(caller.account)).capture
        clients = [
            ClientCapture(client=client, last_event_at=when, events=dict(counts))
            for (account, client), (when, counts) in sorted(self._seen.items())
            if account == caller.account
        ]
        refused = dict(self._refused.get(caller.account, Counter()))
        return CaptureStats(capture=on, since=self._since, clients=clients, refused_facts=refused)

    async def _accept(
        self, caller: Caller, req: EventRequest, event: ToolEvent, journal: bool
    ) -> Accepted:
        if self.settings_of is not None and not (await self.settings_of(caller.account)).capture:
            return Accepted(result=EventResult(event_id=event.event_id, status="capture_off"))
        if self.turns is not None:
            if is_turn(req.event):
                return await self._accept_turn(caller, req)
            if event.kind == "prompt":
                self.turns.note_prompt(caller, event.session_id, event.output)
        key = failure_key(event)
        session = (caller.account, event.session_id or "")
        before = self._failures.get(session, Counter())[key] if key else 0
        facts = facts_from(event, self._context(event.cwd, before))
        if not facts and key is None and event.kind != "prompt":
            return Accepted(result=EventResult(event_id=event.event_id, status="ignored"))
        at = happened_at(event, self.clock())
        if journal and self.pending is not None and facts:
            # Journaled before the episode: whichever step a crash interrupts, the facts
            # are written at the next start (``recover``), dated when the event happened.
            entry = {"client": req.client, "event": req.event, "at": at.isoformat()}
            self.pending.add(caller.account, event.event_id, {**entry, "failures_before": before})
        created = await self._keep(caller.account, req.event, event, at)
        if not created:
            if journal and self.pending is not None and facts:
                self.pending.done(caller.account, event.event_id)
            return Accepted(result=EventResult(event_id=event.event_id, status="duplicate"))
        if key is not None:
            self._count_failure(session, key)
        return self._accepted(event, facts, journaled=journal and bool(facts), at=at)

    async def _keep(
        self, account: str, raw: dict[str, Any], event: ToolEvent, at: datetime
    ) -> bool:
        """Keep the event as an episode; False when it was kept before."""
        return await self.store.save_episode(
            account,
            Episode(
                episode_id=event.event_id,
                source=f"capture:{event.client}",
                content=episode_text(raw, event),
                created_at=self.clock(),  # when the store kept it; ``at``: when it happened
                valid_at=at,
                workspace=place_of_words(self.resolve_workspace, event.cwd),
            ),
        )

    @staticmethod
    def _accepted(
        event: ToolEvent, facts: list[CapturedFact], journaled: bool, at: datetime
    ) -> Accepted:
        summary = clean(strip_credentials(event.command or " ".join(event.files) or ""), 300)
        evidence = (
            f"captured from tool event {event.event_id} "
            f"({event.client} {event.hook} {event.tool_name or event.kind}: {summary})"
        )
        return Accepted(
            result=EventResult(event_id=event.event_id, status="stored", facts=len(facts)),
            event=event,
            facts=tuple(facts),
            evidence=evidence,
            journaled=journaled,
            at=at,
        )

    async def _accept_turn(self, caller: Caller, req: EventRequest) -> Accepted:
        """A turn's end: kept and queued by the turn service, no rule reads it."""
        assert self.turns is not None
        done = await self.turns.accept(caller, req.event, req.client)
        status: EventStatus = {"duplicate": "duplicate", "skipped": "ignored"}.get(
            done.status, "stored"
        )  # type: ignore[assignment]
        note = f"skipped: {done.reason}" if done.reason else done.status
        return Accepted(result=EventResult(event_id=done.turn_id, status=status, turn=note))

    async def recover(self) -> int:
        """Write the facts of events accepted before the server stopped; returns how many.

        An entry the store cannot take now stays pending for the next start; one that
        no longer parses is dropped (and logged).
        """
        if self.pending is None:
            return 0
        recovered = 0
        for entry in self.pending.pending():
            account, event_id = str(entry["account"]), str(entry["event_id"])
            try:
                req = EventRequest(client=entry.get("client"), event=entry["event"])
                event = normalize(req.event, req.client)
                at = datetime.fromisoformat(str(entry["at"]))
                context = self._context(event.cwd, int(entry["failures_before"]))
                facts = facts_from(event, context)
                await self._keep(account, req.event, event, at)
                await self.apply(
                    Caller(account=account),
                    self._accepted(event, facts, journaled=True, at=at),
                )
            except StoreUnavailable:
                log.warning("capture: pending event %s kept for the next start", event_id)
                continue
            except (TwoclocksError, ValueError, KeyError, TypeError):
                log.exception("capture: pending event %s could not be replayed", event_id)
                self.pending.done(account, event_id)
                continue
            recovered += 1
        return recovered

    async def apply(self, caller: Caller, accepted: Accepted) -> int:
        """Write an accepted event's facts as a tool rule (observed); returns how many went in.

        A fact the write path refuses (a secret, bad text) is logged and skipped; the
        event's other facts still go in.
        """
        if accepted.event is None:
            return 0
        written = await self._write(caller, accepted)
        if self.pending is not None and accepted.journaled and accepted.result.event_id:
            self.pending.done(caller.account, accepted.result.event_id)
        return written

    async def observe_checkout(self, caller: Caller, cwd: str | None) -> bool:
        """Correct the worktree's ``current_branch`` and ``last_commit`` from its HEAD; True
        when either changed.

        A branch switched or a commit made outside the agent (in the person's own terminal)
        is an event no hook sees, so the facts a rule wrote earlier would go on naming the
        old branch and the old commit in every block. The reads that tell them (the block,
        a recall whose answer holds one) call this first: when a fact stored for this
        worktree names another branch than its HEAD, or a commit its HEAD is not at, what
        HEAD says is written, as the rules would have. Nothing is written for a fact no rule
        captured here, for the branch on a detached HEAD, or with capture off.
        """
        branch = self.branch_of(cwd) if self.branch_of is not None and cwd else None
        commit = self.commit_of(cwd) if self.commit_of is not None and cwd else None
        if branch is None and commit is None:
            return False
        settings = await self.settings_of(caller.account) if self.settings_of else None
        if settings is not None and not settings.capture:
            return False
        workspace = self._workspace_of(cwd) or Workspace()
        subject = self._repo_name(cwd, workspace)
        read: list[tuple[CapturedFact, Callable[[str], bool]]] = []
        if branch is not None:
            head = CapturedFact(
                rule="checkout_head",
                subject=subject,
                predicate=CURRENT_BRANCH,
                object=clean(branch, 200),
                category="branch",
                read_off=True,
            )
            read.append((head, lambda stored: stored == head.object))
        if commit is not None:
            at = CapturedFact(
                rule="commit_head",
                subject=subject,
                predicate=LAST_COMMIT,
                object=clean(commit_line(commit), 200),
                category="git",
                read_off=True,
            )
            read.append((at, lambda stored: names_commit(stored, commit.sha)))
        overrides = settings.places if settings is not None else None
        stale = [fact for fact, holds in read if await self._told_otherwise(
            caller.account, fact, workspace, overrides, holds)]  # fmt: skip
        if not stale:
            return False
        evidence = f"read from the HEAD of {clean(cwd or '', 300)} when memory was read"
        return await self._write_facts(caller, tuple(stale), cwd, evidence) > 0

    async def _told_otherwise(
        self,
        account: str,
        fact: CapturedFact,
        workspace: Workspace,
        overrides: Mapping[FactClass, Place] | None,
        holds: Callable[[str], bool],
    ) -> bool:
        """True when this worktree holds ``fact``'s slot and no value there says what it does."""
        # Where the git rules put it: the worktree, unless the account moved its tasks.
        key = workspace.key_for(resolve_place(fact.fact_class, fact.category, overrides))
        stored = await self.store.query(
            account,
            FactQuery(now=self.clock(), subject=fact.subject, predicate=fact.predicate,
                      workspaces=(key,) if key else None),
        )  # fmt: skip
        here = [v for v in stored if v.workspace == key]
        return bool(here) and not any(holds(v.object) for v in here)

    async def _write(self, caller: Caller, accepted: Accepted) -> int:
        assert accepted.event is not None
        return await self._write_facts(
            caller, accepted.facts, accepted.event.cwd, accepted.evidence, accepted.at
        )

    async def _write_facts(
        self,
        caller: Caller,
        facts: Sequence[CapturedFact],
        cwd: str | None,
        evidence: str | None,
        at: datetime | None = None,
    ) -> int:
        rule_writer = Caller(account=caller.account, writer=Writer.TOOL_RULE, channel=Channel.HOOK)
        written = 0
        for fact in facts:
            request = RememberRequest.model_validate(
                {
                    "subject": fact.subject,
                    "predicate": fact.predicate,
                    "object": fact.object,
                    "kind": fact.kind,
                    "cardinality": fact.cardinality,
                    "tier": Tier.OBSERVED,
                    "class": fact.fact_class,
                    "category": fact.category,
                    "cwd": cwd,
                    "evidence": evidence,
                    # What the event made true starts when it happened; a state it only
                    # read held before, so its start is not stated.
                    "valid_at": None if fact.read_off else at or self.clock(),
                }
            )
            try:
                await self.memory.remember(rule_writer, request)
                written += 1
                await self._end_old_news(rule_writer, fact, cwd, at)
            except StoreUnavailable:
                raise
            except TwoclocksError as exc:
                log.warning("capture rule %s: fact refused: %s", fact.rule, exc.name)
                self._refused.setdefault(caller.account, Counter())[exc.name] += 1
        return written

    async def _end_old_news(
        self, caller: Caller, fact: CapturedFact, cwd: str | None, at: datetime | None = None
    ) -> None:
        """End the current values of the slots ``fact`` makes old news, in its workspace."""
        if not fact.ends:
            return
        workspace = self._workspace_of(cwd) or Workspace()
        for slot in fact.ends:
            query = FactQuery(now=self.clock(), subject=fact.subject, predicate=slot,
                              workspaces=workspace.keys)  # fmt: skip
            for old in await self.store.query(caller.account, query):
                # Another event may have ended it first: it is ended either way.
                ended = ReviseRequest(reason="ended", at=max(at, old.valid_at) if at else None)
                with suppress(FactAlreadyRetired):
                    await self.memory.revise(caller, old.fact_id, ended)

    def _context(self, cwd: str | None, failures_before: int) -> RuleContext:
        """What the rules read beside the event: the repo's name, and where the worktree's top
        and the event's directory are (for a test run in a folder of it)."""
        workspace = self._workspace_of(cwd) or Workspace()
        top = workspace.worktree_folder if cwd else None
        return RuleContext(
            repo=self._repo_name(cwd, workspace),
            failures_before=failures_before,
            top=top,
            cwd=os.path.realpath(os.path.expanduser(cwd)) if top and cwd else None,
        )

    def _workspace_of(self, cwd: str | None) -> Workspace | None:
        try:
            return self.resolve_workspace(cwd) if cwd else None
        except (InvalidInput, TwoclocksError):
            return None

    @staticmethod
    def _repo_name(cwd: str | None, workspace: Workspace) -> str:
        """The subject of session facts: the repo's name, else the folder's, else 'workspace'."""
        names = workspace.names
        if names:
            return names[0]
        folder = os.path.basename((cwd or "").rstrip("/\\"))
        return re.sub(r"\s+", " ", folder) or "workspace"

    def _count_failure(self, session: tuple[str, str], key: str) -> None:
        counts = self._failures.pop(session, Counter())
        counts[key] += 1
        if len(counts) > 100:
            counts = Counter(dict(counts.most_common(50)))
        self._failures[session] = counts
        while len(self._failures) > MAX_SESSIONS:
            self._failures.popitem(last=False)
