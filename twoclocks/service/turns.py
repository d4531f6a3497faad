"""Turns: a finished turn kept as a dated episode, queued in the store, and read by the
extractor model in the background; its facts go through the one write path (remember).

``accept`` is fast (the hook never waits on a model): it checks the turn, keeps it and
queues it. ``drain`` takes queued turns oldest first, asks the extractor, writes what
survives the checks and marks the turn done in the store, so a restart loses no queued
turn and a finished turn is never read again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import Counter, OrderedDict
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, date, datetime, tzinfo
from typing import Any, Literal, Protocol

from pydantic import BaseModel, Field, ValidationError

from twoclocks.capture.turns import (
    TOP_PREDICATES,
    ExtractedFact,
    Turn,
    nothing_from,
    parse_extraction,
    prompt_messages,
    turn_from,
)
from twoclocks.domain.errors import (
    ExtractorUnavailable,
    InvalidInput,
    StoreUnavailable,
    TwoclocksError,
)
from twoclocks.domain.model import Tier
from twoclocks.domain.temporal import midnight_of
from twoclocks.domain.trust import Channel, Writer, value_in_evidence
from twoclocks.graph.port import Episode, QueuedTurn, Store
from twoclocks.secret_scan import secret_in
from twoclocks.service.accounts import zone_of
from twoclocks.service.held import HeldFacts, turn_source
from twoclocks.service.memory import MemoryService, place_of_words
from twoclocks.service.requests import Caller, RememberRequest
from twoclocks.service.slot_judge import SlotJudgeState

log = logging.getLogger(__name__)

TurnStatus = Literal["queued", "kept", "skipped", "duplicate", "capture_off"]
MAX_SESSIONS = 1000
"""Sessions whose last prompt is remembered (to pair with the turn's answer), newest kept."""
DRAIN_BATCH = 20
IDLE_WAKE_S = 30.0
"""The worker looks at the queue at least this often, besides being woken by a new turn."""
WITHHELD = "[withheld: looks like a credential]"


class TurnResult(BaseModel):
    """What became of a turn: queued for the extractor, kept only, or why nothing."""

    turn_id: str
    status: TurnStatus
    reason: str | None = Field(None, description="why nothing is extracted, when skipped")


class TurnStats(BaseModel):
    """The turn queue and the extractor's work, for doctor and the person."""

    extractor: str | None = Field(description="the endpoint's URL, or null when off")
    queue: dict[str, int] = Field(
        description="turns in the store by state: queued, extracted, failed (kept across restarts)"
    )
    skipped: dict[str, int] = Field(description="turns nothing was taken from, by reason")
    facts_written: int = Field(description="facts the extractor's answers wrote")
    facts_dropped: dict[str, int] = Field(
        description="facts dropped before writing (invalid, too_long, not_in_turn, "
        "over_limit), and days dropped from facts kept (since_unsupported)"
    )
    facts_refused: dict[str, int] = Field(description="facts the write path refused, by error")
    since: datetime = Field(description="skipped / facts counts are kept from this server's start")
    slot_judge: SlotJudgeState | None = Field(
        None, description="the extractor model as judge of slot drift's grey zone; null when off"
    )


class Completer(Protocol):
    """What the service needs of the extractor (twoclocks.service.extractor.Extractor)."""

    url: str

    async def complete(self, messages: Sequence[dict[str, str]]) -> str:
        """The model's answer text, or ExtractorUnavailable."""


def withhold_secrets(text: str) -> str:
    """The text with every line that looks like a credential replaced by a marker."""
    return "\n".join(WITHHELD if secret_in(line) else line for line in text.splitlines())


def turn_episode(turn: Turn) -> str:
    """The turn as kept: the person's text and the answer."""
    return f"Person:\n{turn.person}\n\nAnswer:\n{turn.answer}"


class TurnService:
    """Turns in, queued durably, facts out through the extractor (when one is set)."""

    def __init__(
        self,
        memory: MemoryService,
        store: Store,
        clock: Callable[[], datetime],
        extractor: Completer | None = None,
        zone_of: Callable[[str], Awaitable[str]] | None = None,
    ) -> None:
        self.memory = memory
        self.store = store
        self.clock = clock
        self.extractor = extractor
        self.zone_of = zone_of
        """The account's time zone by name (``Accounts.zone_in_use``); UTC without it."""
        self.held = HeldFacts(memory, store, clock)
        self._prompts: OrderedDict[tuple[str, str], str] = OrderedDict()
        self._since = clock()
        self._skipped: dict[str, Counter[str]] = {}
        self._written: Counter[str] = Counter()
        self._dropped: dict[str, Counter[str]] = {}
        self._refused: dict[str, Counter[str]] = {}
        self._wake = asyncio.Event()
        self._worker: asyncio.Task[None] | None = None
        self._stopping = False
        self._draining = asyncio.Lock()

    def note_prompt(self, caller: Caller, session_id: str | None, prompt: str) -> None:
        """Remember a session's last prompt (UserPromptSubmit), for the turn that answers it."""
        if not session_id or not prompt.strip():
            return
        key = (caller.account, session_id)
        self._prompts.pop(key, None)
        self._prompts[key] = prompt
        while len(self._prompts) > MAX_SESSIONS:
            self._prompts.popitem(last=False)

    async def accept(
        self, caller: Caller, raw: Mapping[str, Any], client: str | None, capture_on: bool = True
    ) -> TurnResult:
        """Keep the turn as an episode and queue it for the extractor; never calls a model."""
        session = raw.get("session_id") or raw.get("conversation_id")
        last = self._prompts.get((caller.account, str(session))) if session else None
        turn = turn_from(raw, client, last)
        # Before anything is kept, queued or shown to a model: no credential goes further.
        turn = turn.model_copy(
            update={
                "person": withhold_secrets(turn.person),
                "answer": withhold_secrets(turn.answer),
            }
        )
        if not capture_on:
            return TurnResult(turn_id=turn.turn_id, status="capture_off")
        if turn.dry_run:  # a dry run leaves no trace at all, not even the episode
            return self._skip(caller, turn, "dry_run")
        now = self.clock()
        reason = nothing_from(turn)
        created = await self.store.save_episode(
            caller.account,
            Episode(
                episode_id=turn.turn_id,
                # How it ended is kept with it: the refusal watch counts refused turns.
                source=turn_source(turn.client, reason),
                content=turn_episode(turn),
                created_at=now,
                valid_at=now,
                workspace=place_of_words(self.memory.resolve_workspace, turn.cwd),
            ),
        )
        if not created:
            return TurnResult(turn_id=turn.turn_id, status="duplicate")
        if reason == "refused":
            await self.held.after_refused(caller.account, turn)
        if reason is not None:
            return self._skip(caller, turn, reason)
        if self.extractor is None:
            return TurnResult(turn_id=turn.turn_id, status="kept")
        # The day the person spoke, where they are: "since Monday" counts back from it.
        turn = turn.model_copy(
            update={"said_on": now.astimezone(await self._zone(caller.account)).date()}
        )
        await self.store.queue_turn(caller.account, turn.turn_id, turn.model_dump_json(), now)
        self._wake.set()
        return TurnResult(turn_id=turn.turn_id, status="queued")

    def _skip(self, caller: Caller, turn: Turn, reason: str) -> TurnResult:
        self._skipped.setdefault(caller.account, Counter())[reason] += 1
        return TurnResult(turn_id=turn.turn_id, status="skipped", reason=reason)

    async def stats(self, caller: Caller) -> TurnStats:
        """This account's queue (from the store) and extraction counts since start."""
        account = caller.account
        return TurnStats(
            extractor=self.extractor.url if self.extractor else None,
            queue=await self.store.turn_counts(account),
            skipped=dict(self._skipped.get(account, Counter())),
            facts_written=self._written[account],
            facts_dropped=dict(self._dropped.get(account, Counter())),
            facts_refused=dict(self._refused.get(account, Counter())),
            since=self._since,
            slot_judge=self.memory.slot_judge.state() if self.memory.slot_judge else None,
        )

    # -- the worker ----------------------------------------------------------------------

    async def drain(self, account: str | None = None) -> int:
        """Extract every queued turn (of one account, or all); returns how many were done."""
        if self.extractor is None:
            return 0
        done = 0
        async with self._draining:
            while True:
                jobs = await self.store.queued_turns(account, DRAIN_BATCH)
                if not jobs:
                    return done
                for job in jobs:
                    await self._extract(job)
                    done += 1

    async def _extract(self, job: QueuedTurn) -> None:
        assert self.extractor is not None
        try:
            turn = Turn.model_validate_json(job.payload)
        except ValidationError:
            await self.store.finish_turn(job.account, job.turn_id, "failed", self.clock())
            return
        predicates = await self.store.top_predicates(job.account, TOP_PREDICATES)
        try:
            answer = await self.extractor.complete(prompt_messages(turn, predicates))
        except ExtractorUnavailable as exc:
            log.warning("turn %s: %s", job.turn_id, exc.message)
            await self.store.finish_turn(job.account, job.turn_id, "failed", self.clock())
            return
        extraction = parse_extraction(answer, turn)
        self._dropped.setdefault(job.account, Counter()).update(extraction.dropped)
        for fact in extraction.facts:
            await self._write(job.account, turn, fact)
        await self.store.finish_turn(job.account, job.turn_id, "extracted", self.clock())

    async def _write(self, account: str, turn: Turn, fact: ExtractedFact) -> None:
        extractor = Caller(account=account, writer=Writer.EXTRACTOR, channel=Channel.TURN)
        # The person's own words make it asserted (decide_tier checks the span again).
        asserted = value_in_evidence(fact.object, turn.person)
        request = RememberRequest.model_validate(
            {
                "subject": fact.subject,
                "predicate": fact.predicate,
                "object": fact.object,
                "kind": fact.kind,
                "tier": Tier.ASSERTED if asserted else Tier.INFERRED,
                "class": fact.fact_class,
                "category": fact.category,
                "cwd": turn.cwd,
                "evidence": turn.person,
                # The day the person said it began, as midnight where they are.
                "valid_at": await self._midnight(account, fact.since) if fact.since else None,
            }
        )
        try:
            await self.memory.remember(extractor, request)
            self._written[account] += 1
        except StoreUnavailable:
            raise
        except TwoclocksError as exc:
            log.warning("turn %s: fact refused: %s", turn.turn_id, exc.name)
            self._refused.setdefault(account, Counter())[exc.name] += 1

    async def _zone(self, account: str) -> tzinfo:
        """The account's zone; UTC when none is known or its name is not one."""
        if self.zone_of is None:
            return UTC
        try:
            return zone_of(await self.zone_of(account))
        except InvalidInput:
            return UTC

    async def _midnight(self, account: str, day: date) -> datetime | None:
        return midnight_of(day.isoformat(), await self._zone(account))

    def start(self) -> None:
        """Run the worker in the background (needs a running event loop)."""
        if self.extractor is not None and self._worker is None:
            self._stopping = False
            self._worker = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop the worker; a turn it was reading stays queued for the next start."""
        worker, self._worker = self._worker, None
        if worker is not None:
            # The flag as well as the cancel: a call inside the loop that drops the cancel
            # (asyncio.wait_for on Python 3.11 did) would keep the worker going.
            self._stopping = True
            self._wake.set()
            worker.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker

    async def _run(self) -> None:
        judge = self.memory.slot_judge
        if judge is not None:
            # The same model judges slot drift: its control pairs now, not at a write.
            try:
                await judge.check()
            except Exception:
                log.exception("slot judge: control pairs")
        while not self._stopping:
            self._wake.clear()
            try:
                await self.drain()
            except asyncio.CancelledError:
                raise
            except Exception:  # the worker must outlive a store hiccup; it retries later
                log.exception("turn extraction")
            # asyncio.timeout, not wait_for: on 3.11 wait_for drops a cancel that lands
            # as the wake is set.
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(IDLE_WAKE_S):
                    await self._wake.wait()
