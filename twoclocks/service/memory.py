"""The service functions every entry point calls: remember, revise, retract, reopen, read.

Data flows one way: entry point -> one function here -> pure planner -> Store port.
The record clock and id factory are injected, so tests drive time by hand.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime
from typing import Any

from pydantic import ValidationError

from twoclocks.domain.correction import overruled_by
from twoclocks.domain.errors import (
    FactNotFound,
    InvalidInput,
    TwoclocksError,
)
from twoclocks.domain.model import (
    FactClass,
    FactVersion,
    Incoming,
    Outcome,
    Place,
    Plan,
    RetiredReason,
)
from twoclocks.domain.places import Workspace, resolve_place
from twoclocks.domain.revise_plan import (
    left_ended,
    plan_link,
    plan_reopen,
    plan_retract,
    plan_revise,
)
from twoclocks.domain.trust import decide_tier
from twoclocks.domain.write_plan import IdFactory, check_end, plan_write, raised_between
from twoclocks.embeddings.port import Embedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import (
    Episode,
    FactQuery,
    SlotAlias,
    SlotsApart,
    SlotState,
    Store,
)
from twoclocks.secret_scan import refuse_secrets
from twoclocks.service.alias_requests import (
    KeepApartRequest,
    MergeSlotRequest,
    MergeSlotResult,
    SplitAliasRequest,
    SplitAliasResult,
)
from twoclocks.service.collaborators import RecordClock, SettingsLookup, WorkspaceResolver
from twoclocks.service.fact_ids import FACT_ID, resolve_fact_id
from twoclocks.service.fact_reads import FactReads
from twoclocks.service.requests import (
    Caller,
    HeldAfter,
    RememberRequest,
    RememberResult,
    ReplacedValue,
    RetractResult,
    ReviseRequest,
    ReviseResult,
)
from twoclocks.service.slot_aliases import SlotAliases
from twoclocks.service.slot_judge import SlotJudge
from twoclocks.service.slot_naming import SlotNaming, near_slot
from twoclocks.service.slot_writer import SlotWriter


def held_after(
    outcome: Outcome,
    ends: datetime | None,
    given_end: datetime | None,
    seen: Iterable[FactVersion],
) -> HeldAfter | None:
    """The believed value a write stored as history ends at, when a later value's start
    ended it (not the end the writer gave): named, so "stored as history" says why."""
    if outcome is not Outcome.STORED_CLOSED or ends in (None, given_end):
        return None
    later = [v for v in seen if v.expired_at is None and v.valid_at == ends]
    if not later:
        return None
    v = later[0]
    return HeldAfter(
        fact_id=v.fact_id, object=v.object, valid_at=v.valid_at,
        start_stated=v.start_stated, tier=v.tier,
    )  # fmt: skip


def place_of_words(resolve: WorkspaceResolver, cwd: str | None) -> str | None:
    """The workspace key a session's words and tool events are kept under: its project's.

    A session in one project does not search another project's words (DESIGN §4); the
    worktrees of one project share theirs, as they share its facts. None when the directory
    names no place (or cannot be read: the words are kept, unplaced, rather than lost).
    """
    if not cwd:
        return None
    try:
        return resolve(cwd).key_for(Place.PROJECT)
    except TwoclocksError:
        return None


def incoming(**fields: Any) -> Incoming:
    """Build an Incoming; a rule it breaks comes out as that rule's typed error."""
    try:
        return Incoming(**fields)
    except ValidationError as exc:
        for err in exc.errors():
            cause = (err.get("ctx") or {}).get("error")
            if isinstance(cause, TwoclocksError):
                raise cause from None
        raise InvalidInput(str(exc)) from None


def no_workspace(_cwd: str | None) -> Workspace:
    """A resolver for callers that have no spaces configured: every row is unplaced."""
    return Workspace()


class MemoryService(FactReads):
    """The write and read rules of DESIGN.md §2-§4 over one Store (reads: ``FactReads``)."""

    def __init__(
        self,
        store: Store,
        clock: RecordClock,
        new_id: IdFactory,
        embedder: Embedder | None = None,
        resolve_workspace: WorkspaceResolver = no_workspace,
        slot_matcher: SlotMatcher | None = None,
        settings_of: SettingsLookup | None = None,
        slot_judge: SlotJudge | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.new_id = new_id
        self.embedder = embedder
        self.resolve_workspace = resolve_workspace
        self.slot_matcher = slot_matcher
        self.settings_of = settings_of
        self.slot_judge = slot_judge
        self._noted: set[tuple[str, str, str]] = set()
        self._writer = SlotWriter(store, clock, embedder)
        self._aliases = SlotAliases(store, self._writer, new_id)
        self._naming = SlotNaming(store, clock, slot_matcher, slot_judge)

    # -- writing -----------------------------------------------------------------

    async def remember(self, caller: Caller, req: RememberRequest) -> RememberResult:
        """Store one fact (or confirm it, or file it as history) and close what it replaces."""
        refuse_secrets(
            [
                ("subject", req.subject),
                ("predicate", req.predicate),
                ("object", req.object),
                ("evidence", req.evidence),
            ]
        )
        workspace = self.resolve_workspace(req.cwd)
        overrides = (await self.settings_of(caller.account)).places if self.settings_of else None
        place, key = workspace.placed(resolve_place(req.fact_class, req.category, overrides))
        now = self.clock()
        starts = req.valid_at or now
        check_end(req.invalid_at, starts, req.kind)
        episode_id = self.new_id() if req.evidence else None
        subject = req.subject.strip()
        asked = req.predicate.strip()
        slot = await self._naming.name_for(caller.account, subject, asked, req.object)
        predicate = slot.name
        written_as = asked if predicate != asked else None
        tier = decide_tier(req.tier, caller.writer, caller.channel, req.object, req.evidence)
        new = incoming(
            subject=subject,
            predicate=predicate,
            object=req.object,
            valid_at=starts,
            start_stated=req.valid_at is not None,
            invalid_at=req.invalid_at,
            kind=req.kind,
            cardinality=req.cardinality,
            tier=tier.tier,
            fact_class=req.fact_class,
            category=req.category,
            place=place,
            workspace=key,
            writer=caller.writer.value,
            episode_id=episode_id,
            written_as=written_as,
        )
        sees_everything = req.fact_class is FactClass.USER
        # The new fact's vector is encoded before the slot is read, not between the read
        # and the apply (where it would widen the window racers have to move the slot),
        # and before anything is stored, so a failing model leaves no trace.
        vectors = await self._writer.embedding_of(new.subject, new.predicate, new.object)
        if req.evidence and episode_id:
            # The person's own words are kept as a dated episode the fact points to;
            # saved only once the write has passed every check above.
            await self.store.save_episode(
                caller.account,
                Episode(
                    episode_id=episode_id,
                    source="remember",
                    content=req.evidence,
                    created_at=now,
                    valid_at=new.valid_at,
                    workspace=new.workspace,  # where the fact it carries applies
                ),
            )

        seen_values: dict[str, str] = {}  # fact id -> value, from the attempt that applied
        seen_versions: dict[str, FactVersion] = {}  # version id -> version, from the last attempt
        slot_now = predicate  # the slot planned for last: another, if a merge moved the name

        def visible_to(v: FactVersion) -> bool:
            return sees_everything or v.workspace is None or v.workspace in workspace.keys

        async def plan(state: SlotState, now: datetime) -> Plan:
            nonlocal slot_now
            visible = [v for v in state.versions if visible_to(v)]
            seen_values.update((v.fact_id, v.object) for v in visible if v.invalid_at is None)
            seen_versions.update((v.version_id, v) for v in visible)
            slot_now = state.predicate
            moved = {
                "predicate": state.predicate,
                "written_as": asked if asked != state.predicate else None,
            }
            fact = new if state.predicate == new.predicate else new.model_copy(update=moved)
            return plan_write(fact, visible, now, self.new_id)

        await self._note_workspace(caller.account, new.workspace, workspace.space)
        done = await self._writer.apply(caller.account, new.subject, new.predicate, plan, vectors)
        if slot.new_alias:
            # Recorded only once the fact is in: a write that failed leaves no alias behind.
            merge = SlotAlias(
                subject=subject, alias=asked, canonical=slot_now, decided_by=slot.decided_by
            )
            await self.store.record_alias(caller.account, merge)
        closed = list(done.closed)
        # A restatement keeps the fact already there, with its own place and tier unless
        # this write vouched more (domain.write_plan.vouches_more).
        written = (v for v in done.insert if v.version_id == done.version_id)
        written_again = next(written, None)
        kept = written_again or seen_versions.get(done.version_id) or new
        rewrote = [e.version_id for e in done.expire if e.reason is RetiredReason.REWRITTEN]
        raised = None
        if rewrote and written_again is not None:
            raised = raised_between(seen_versions[rewrote[0]], written_again)
        why = {
            seen_versions[e.version_id].fact_id: e.reason
            for e in done.expire
            if e.version_id in seen_versions and e.reason is not RetiredReason.REWRITTEN
        }
        for gone in (f for f in closed if f not in seen_values):  # replaced at its own start
            seen_values[gone] = (await self._versions(caller.account, gone))[0].object
        return RememberResult(
            fact_id=done.fact_id,
            version_id=done.version_id,
            outcome=done.outcome,
            predicate=slot_now,
            closed=closed,
            replaced=[
                ReplacedValue(fact_id=f, object=seen_values[f], retired_reason=why.get(f))
                for f in closed
            ],
            written_as=asked if slot_now != asked else None,
            tier=kept.tier or tier.tier,
            invalid_at=kept.invalid_at,
            tier_lowered=tier.lowered,
            place=kept.place,
            workspace=kept.workspace,
            raised=raised,
            held_after=held_after(
                done.outcome, kept.invalid_at, req.invalid_at, seen_versions.values()
            ),
            near_slot=near_slot(slot, slot_now, new, visible_to),
        )

    async def _note_workspace(self, account: str, key: str | None, space: str | None) -> None:
        """Register the key's space before the fact lands, so a wide read can attribute it.

        Keys do not spell their space (domain.scope); a registered key with no fact yet
        is harmless, a fact under an unregistered key would be invisible to ``wide``.
        """
        if key is None or space is None or (account, key, space) in self._noted:
            return
        await self.store.note_workspace(account, key, space)
        self._noted.add((account, key, space))

    async def revise(self, caller: Caller, fact_id: str, req: ReviseRequest) -> ReviseResult:
        """End or correct a fact, optionally naming its successor, all in one transaction."""
        fact_id = await resolve_fact_id(self.store, caller.account, fact_id)
        replacement = None
        current = await self._versions(caller.account, fact_id)
        subject, predicate = current[0].subject, current[0].predicate
        tier = None
        if req.replacement is not None:
            r = req.replacement
            # Checked with the slot it lands in: an object under an inherited `db_password`
            # is a secret even though the replacement names no slot itself.
            refuse_secrets(
                [
                    ("replacement.subject", subject),
                    ("replacement.predicate", r.predicate or predicate),
                    ("replacement.object", r.object),
                    ("replacement.evidence", r.evidence),
                ]
            )
            tier = decide_tier(r.tier, caller.writer, caller.channel, r.object, r.evidence)
            replacement = incoming(
                subject=subject,
                predicate=r.predicate or predicate,
                object=r.object,
                valid_at=current[0].valid_at,
                kind=current[0].kind,
                tier=tier.tier,
                fact_class=current[0].fact_class,
                category=current[0].category,
                place=current[0].place,
                workspace=current[0].workspace,
                writer=caller.writer.value,
            )

        async def plan(state: SlotState, now: datetime) -> Plan:
            versions = await self.store.versions_of(caller.account, fact_id)
            history: list[FactVersion] = []
            if req.reason is RetiredReason.CORRECTED:
                # A correction gives back what the mistaken write closed: it needs the
                # slot's closed and expired versions too, not only the believed ones.
                history = await self.store.query(
                    caller.account,
                    FactQuery(
                        now=now, subject=subject, predicate=state.predicate, include_history=True
                    ),
                )
            successor = replacement
            if successor is not None and successor.predicate == predicate != state.predicate:
                successor = successor.model_copy(update={"predicate": state.predicate})  # merged
            return plan_revise(
                fact_id, versions, req.reason, now, self.new_id, req.at, successor, history
            )

        done = await self._writer.apply(caller.account, subject, predicate, plan)
        restored = {
            v.fact_id: v.object
            for v in done.insert
            if v.fact_id not in (fact_id, done.successor_id)
        }
        return ReviseResult(
            fact_id=fact_id,
            successor_id=done.successor_id,
            successor_tier=tier.tier if tier and done.successor_id else None,
            tier_lowered=tier.lowered if tier and done.successor_id else None,
            restored=list(restored),
            values=restored,
        )

    async def retract(
        self, caller: Caller, fact_id: str, reason: RetiredReason = RetiredReason.RETRACTED
    ) -> RetractResult:
        """Forget a fact (or hold it back): closed on the record clock, kept, reopenable.

        Answers with the fact's full id (``fact_id`` may be a unique start of it) and,
        when its slot is left with no value, the values it had replaced (``left_ended``).
        """
        fact_id = await resolve_fact_id(self.store, caller.account, fact_id)
        current = await self._versions(caller.account, fact_id)
        subject, predicate = current[0].subject, current[0].predicate
        believed = [v for v in current if v.expired_at is None]

        async def plan(_state: SlotState, now: datetime) -> Plan:
            versions = await self.store.versions_of(caller.account, fact_id)
            return plan_retract(fact_id, versions, now, reason)

        await self._writer.apply(caller.account, subject, predicate, plan)
        now = self.clock()
        # One read of the slot's whole history: what is believed now is part of it.
        history = await self.store.query(
            caller.account,
            FactQuery(now=now, subject=subject, predicate=predicate, include_history=True),
        )
        slot = [v for v in history if v.expired_at is None]
        ended = left_ended(believed, slot, now, overruled_by(fact_id, history))
        return RetractResult(
            fact_id=fact_id,
            status=reason.value,
            left_ended=[
                ReplacedValue(fact_id=v.fact_id, object=v.object, retired_reason=v.retired_reason)
                for v in ended
            ],
        )

    async def link_episode(self, caller: Caller, fact_id: str, episode: Episode) -> str:
        """Keep an episode (e.g. the person's review) and add it to the fact's provenance."""
        fact_id = await resolve_fact_id(self.store, caller.account, fact_id)
        current = await self._versions(caller.account, fact_id)
        plan_link(fact_id, current, self.clock(), episode.episode_id)  # refuses a retired fact
        if episode.workspace is None:  # kept where the fact applies, as the person's words are
            episode = episode.model_copy(update={"workspace": current[0].workspace})
        await self.store.save_episode(caller.account, episode)

        async def plan(_state: SlotState, now: datetime) -> Plan:
            versions = await self.store.versions_of(caller.account, fact_id)
            return plan_link(fact_id, versions, now, episode.episode_id)

        await self._writer.apply(caller.account, current[0].subject, current[0].predicate, plan)
        return fact_id

    async def reopen(self, caller: Caller, fact_id: str) -> str:
        """Undo a mistaken retract; returns the fact's full id."""
        fact_id = await resolve_fact_id(self.store, caller.account, fact_id)
        current = await self._versions(caller.account, fact_id)
        subject, predicate = current[0].subject, current[0].predicate

        async def plan(state: SlotState, now: datetime) -> Plan:
            versions = await self.store.versions_of(caller.account, fact_id)
            return plan_reopen(
                fact_id, versions, state.versions, now, self.new_id, slot=state.predicate
            )

        await self._writer.apply(caller.account, subject, predicate, plan)
        return fact_id

    async def aliases(self, caller: Caller, subject: str | None = None) -> list[SlotAlias]:
        """Every slot-drift merge of the account (subject, alias, canonical, who decided),
        or of one subject's slots."""
        merges = await self.store.export_aliases(caller.account)
        return [a for a in merges if subject is None or a.subject == subject]

    async def split_alias(self, caller: Caller, req: SplitAliasRequest) -> SplitAliasResult:
        """Undo a slot-drift merge (``domain.alias_split``): both slots current again."""
        return await self._aliases.split(caller, req)

    async def merge_slot(self, caller: Caller, req: MergeSlotRequest) -> MergeSlotResult:
        """Merge what slot drift missed (``domain.slot_merge``): one slot, one current value."""
        return await self._aliases.merge(caller, req)

    async def keep_apart(self, caller: Caller, req: KeepApartRequest) -> SlotsApart:
        """Two slot names of a subject are two slots: never merged, never listed as close."""
        return await self._aliases.keep_apart(caller, req)

    async def kept_apart(self, caller: Caller, subject: str | None = None) -> list[SlotsApart]:
        """Every pair of slot names kept apart in the account (by a split or by hand), or of
        one subject's slots."""
        pairs = await self.store.export_apart(caller.account)
        return [p for p in pairs if subject is None or p.subject == subject]

    # -- the optimistic write loop -------------------------------------------------

    async def _versions(self, account: str, fact_id: str) -> list[FactVersion]:
        # An id that no writer could have issued is unknown without asking the engine.
        versions = await self.store.versions_of(account, fact_id) if FACT_ID.match(fact_id) else []
        if not versions:
            raise FactNotFound(f"no fact {fact_id} in this account: list facts to find its id")
        return versions
