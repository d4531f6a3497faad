"""Hybrid recall (DESIGN.md §6); the first-turn block's read is service.session_block.

The legs that find and order a question's rows are ``service.recall_legs``; this module
reads what an answer says beside them (a past time, what changed, what ended, what is to
come, what other workspaces hold) and puts the answer together.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import datetime, tzinfo

from twoclocks.capture.rules import CURRENT_BRANCH, LAST_COMMIT
from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.after_questions import replaced_slots
from twoclocks.domain.before_questions import asks_what_came_before, what_came_before
from twoclocks.domain.belief_questions import past_time_asked
from twoclocks.domain.change_questions import (
    change_span,
)
from twoclocks.domain.errors import StoreUnavailable
from twoclocks.domain.model import FactVersion
from twoclocks.domain.named_subjects import question_words
from twoclocks.domain.named_times import NamedTime
from twoclocks.domain.places import Workspace
from twoclocks.domain.scope import (
    here_first,
    keys_in_scope,
    readable_spaces,
)
from twoclocks.domain.times_to_come import asks_only_what_comes, time_to_come
from twoclocks.embeddings.port import Embedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import FactQuery, Store
from twoclocks.service import recall_beside as beside
from twoclocks.service.accounts import zone_of
from twoclocks.service.named_entities import (
    entities_named,
)
from twoclocks.service.recall_beside import Ranked
from twoclocks.service.recall_later import plan_first, plans_in, split_later, with_plans
from twoclocks.service.recall_legs import RecallLegs
from twoclocks.service.recall_requests import (
    BlockRequest,
    BlockResult,
    NamedSpan,
    RecallRequest,
    RecallResult,
    ScoredFact,
)
from twoclocks.service.relevance import (
    shares_a_word,
    warm_slot_matcher,
)
from twoclocks.service.requests import Caller, Fact
from twoclocks.service.session_block import read_block

log = logging.getLogger("twoclocks.recall")

WARM_SLOT_NAMES = 500
"""Slot names of an account whose embeddings ``RecallService.warm`` encodes at start: the
most used ones; an account rarely has more, and a name not warmed is encoded once later."""

MAX_STARTING_LATER = 3
"""Facts that start later a recall names beside its answer, best first (those ranked
among the k best): a question asks about one plan, rarely more."""


class RecallService:
    """Recall and block over one Store and one Embedder."""

    def __init__(
        self,
        store: Store,
        clock: Callable[[], datetime],
        embedder: Embedder | None,
        resolve_workspace: Callable[[str | None], Workspace],
        tz: tzinfo,
        settings_of: Callable[[str], Awaitable[AccountSettings]] | None = None,
        leg_weights: Mapping[str, float] | None = None,
        slot_matcher: SlotMatcher | None = None,
        observe_checkout: Callable[[Caller, str | None], Awaitable[bool]] | None = None,
    ) -> None:
        self.store = store
        self.clock = clock
        self.resolve_workspace = resolve_workspace
        self.tz = tz
        self.settings_of = settings_of
        # Slot names are few and repeat across questions: their vectors come from the
        # matcher's cache, so the slot leg costs a dot product per candidate.
        matcher = slot_matcher or (SlotMatcher(embedder) if embedder else None)
        self.legs = RecallLegs(store, embedder, matcher, leg_weights)
        self.observe_checkout = observe_checkout

    @property
    def slot_matcher(self) -> SlotMatcher | None:
        """The legs' slot matcher (one cache of name vectors), which ``warm`` fills."""
        return self.legs.slot_matcher

    async def recall(self, caller: Caller, req: RecallRequest) -> RecallResult:
        """Fuse the keyword, vector and graph legs; only tiered rows, since a model reads them.

        An answer that tells the worktree's branch or last commit is then checked against
        its HEAD: when the branch was switched or a commit made outside the agent, the fact
        is corrected and the question asked again, so what is told is what HEAD says.
        """
        answer = await self._answer(caller, req)
        told = [*answer.facts, *answer.changed, *answer.corrected]
        tells_head = any(f.predicate in (CURRENT_BRANCH, LAST_COMMIT) for f in told)
        observe = self.observe_checkout
        if tells_head and observe is not None and await observe(caller, req.cwd):
            return await self._answer(caller, req)
        return answer

    async def _answer(self, caller: Caller, req: RecallRequest) -> RecallResult:
        workspace = self.resolve_workspace(req.cwd)
        try:
            keys = await self._keys(
                caller.account, workspace, readable_spaces(workspace, req.scope)
            )
            # Asked of the present, recall also reads what is believed to start later, so
            # "is there a deploy freeze?" on the 4th hears of the one from the 20th.
            later_too = req.as_of is None and req.as_believed is None and not req.include_history
            query = FactQuery(
                now=self.clock(),
                as_of=req.as_of,
                as_believed=req.as_believed,
                include_history=req.include_history,
                include_later=later_too,
                workspaces=keys,
            )
            extra = MAX_STARTING_LATER if later_too else 0
            vector_task = asyncio.create_task(self.legs.query_vector(req.query))
            said = question_words(req.query)
            named_task = asyncio.create_task(
                entities_named(self.store, caller.account, req.query, said)
            )
            # One embedding and one entity lookup serve every read of this question.
            asked = (vector_task, named_task)
            account = caller.account

            async def ranked_of(
                of: str, text: str, read: FactQuery, k: int, place: Workspace
            ) -> Ranked:
                # The beside-lists' own reads reuse this question's embedding and entities.
                return await self.legs.ranked(of, text, read, k, place, 0, *asked)

            closed: list[FactVersion] = []
            ranked = await self.legs.ranked(
                caller.account, req.query, query, req.k, workspace, extra, *asked,
                closed_found=closed,
            )  # fmt: skip
            if later_too and (held := replaced_slots(req.query, closed)):
                ranked = await beside.slots_first(self.store, account, query, ranked, held)
            # "What changed this week?" asks of the changes in a time, not of what held
            # in it: the facts that began or ended then are named, and nothing as held then.
            text, now = req.query, query.now
            span = (
                await self._in_zone(account, lambda tz: change_span(text, now, tz))
                if later_too
                else None
            )
            past = (
                await self._in_zone(account, lambda tz: past_time_asked(text, now, tz))
                if later_too and span is None
                else None
            )
            to_come = (
                await self._in_zone(account, lambda tz: time_to_come(text, now, tz))
                if later_too and past is None and span is None
                else None
            )
            then, still, believes, maybe = await beside.of_the_past_time(
                self.store, ranked_of, account, req, query, workspace, past
            )
            asks_before = later_too and past is None
            after = what_came_before(req.query) if asks_before else None
            # "What was the port before?" names no value: the first row's is the one.
            if after is not None or (asks_before and asks_what_came_before(req.query)):
                # A value replaced since is named too ("before Railway", now on Render).
                top = max((score for _, score in ranked), default=0.0)
                former = [(v, top) for v in closed if v.expired_at is None]
                before = await beside.before(self.store, account, after, query, [*ranked, *former])
                if before is not None:
                    past, then = before
            ended, ended_values = (
                await beside.ended(
                    self.store, account, req.query, query, closed, ranked, named_task
                )
                if later_too and past is None and span is None
                else ([], [])
            )
            found, changed, corrected = (
                await beside.changes(
                    self.store, account, req.query, span, query, named_task, ranked, closed
                )
                if span is not None
                else (None, [], [])
            )
            told = maybe + await beside.told_later(
                self.store, ranked_of, account, req, query, ranked, workspace
            )
            plans = (
                await plans_in(self.store, account, to_come, query)
                if to_come is not None and asks_only_what_comes(text, to_come.said)
                else []
            )
        except StoreUnavailable as exc:
            log.warning("recall unavailable: %s", exc)
            return RecallResult(status="unavailable", facts=[])
        later: Ranked = []
        if later_too:
            ranked, later = split_later(ranked, now, req.k, to_come)
            later = with_plans(later, plans)

        def here_of(v: FactVersion) -> bool:
            return v.workspace is None or v.workspace in workspace.keys

        def scored(pairs: Sequence[tuple[FactVersion, float]]) -> list[ScoredFact]:
            return [
                ScoredFact(**Fact.of(v).model_dump(), score=score, elsewhere=not here_of(v))
                for v, score in pairs
            ]

        here = {i: here_of(v) for i, (v, _) in enumerate(ranked)}
        slots = {i: (v.subject, v.predicate) for i, (v, _) in enumerate(ranked)}
        facts = [
            ScoredFact(**Fact.of(v).model_dump(), score=score, elsewhere=elsewhere)
            for v, score, elsewhere in here_first(ranked, here, slots)
            # Beside what changed, a question's rows are said to match its words: "when did
            # we switch to uv?" is not told the editor, however close its meaning scored.
            if found is None
            or shares_a_word(req.query, v.subject, v.predicate, v.written_as, v.object)
        ]
        # Asked only what is to come, the plans are the answer: up to k, as rows are.
        shown = req.k if plans else MAX_STARTING_LATER
        starting = scored(later[:shown])
        if (
            not then
            and still
            and (not facts or (facts[0].subject, facts[0].predicate) != still[0][0].slot)
        ):
            # Nothing of the asked slot ended: what held then and holds still is said apart
            # only as the answer's own first row's slot, never put above that row.
            still = []
        answered = bool(facts or starting or changed or corrected)
        elsewhere = await beside.elsewhere_count(
            self._keys, ranked_of, account, req, query, workspace, keys, named_task, facts,
            answered,
        )  # fmt: skip
        return RecallResult(
            # What changed is an answer too: "empty" would read as "nothing changed".
            status="rows" if facts or changed or corrected else "empty",
            facts=facts,
            starting_later=starting,
            starting_later_more=max(0, len(plans) - shown),
            # A question naming a past time asks about then, one naming an ended slot about
            # that slot: a plan of another is never its best match (``plan_first`` says
            # when one is, otherwise).
            later_first=past is None
            and found is None  # a plan is no change made in the time asked about
            and not ended
            and not ended_values
            and plan_first(req.query, starting, facts, to_come),
            elsewhere=elsewhere,
            named_time=None if past is None else NamedSpan.of(past),
            time_to_come=None if to_come is None else NamedSpan.of(to_come),
            held_then=scored(then),
            then_believed=believes,
            still_held=scored(still),
            told_later=scored(told),
            ended=scored(ended),
            ended_values=scored(ended_values),
            changes_in=None if found is None else NamedSpan.of(found.span),
            changes_about=[] if found is None else list(found.about),
            changes_more=0 if found is None else found.more,
            changes_told=found is not None and found.told,
            changed=scored(changed),
            changes_corrected=found is not None and found.corrections,
            corrected=scored(corrected),
        )

    async def _in_zone(
        self, account: str, read: Callable[[tzinfo], NamedTime | None]
    ) -> NamedTime | None:
        """A time the question names, read in the account's own zone; the zone is read from
        the settings only when the service's own finds a time (most questions name none)."""
        if read(self.tz) is None:
            return None
        return read(await self._account_zone(account) or self.tz)

    async def warm(self, account: str) -> int:
        """Encode the account's slot names and every gloss recall scores, before any question.

        Recall scores each candidate's slot name and its value's category against the
        question from cached embeddings; a name not cached yet is encoded during that
        question (about 10 ms on 2 cores), so the first question about each slot after a
        start was the slowest. Returns how many texts were encoded.
        """
        if self.slot_matcher is None:
            return 0
        names = await self.store.top_predicates(account, WARM_SLOT_NAMES)
        return await asyncio.to_thread(warm_slot_matcher, self.slot_matcher, names)

    async def _keys(
        self, account: str, workspace: Workspace, spaces: frozenset[str]
    ) -> tuple[str, ...]:
        """This workspace's keys plus every key registered to ``spaces`` (domain.scope)."""
        if not spaces:
            return workspace.keys
        return keys_in_scope(workspace, await self.store.workspace_spaces(account), spaces)

    async def block(self, caller: Caller, req: BlockRequest) -> BlockResult:
        """The [[CM-MEM]] block: this workspace first, then unplaced, newest first, capped.

        The worktree's checked-out branch is looked at first (``observe_checkout``), so a
        branch switched outside the agent is never told as the current one.
        """
        if self.observe_checkout is not None:
            await self.observe_checkout(caller, req.cwd)
        return await read_block(
            self.store,
            caller.account,
            req,
            self.resolve_workspace(req.cwd),
            self.clock(),
            keys_of=self._keys,
            ranked=self.legs.ranked,
            tz=self.tz,
            account_zone=self._account_zone,
        )

    async def _account_zone(self, account: str) -> tzinfo | None:
        """The timezone the account set for the times it reads, if any."""
        if self.settings_of is None:
            return None
        zone = (await self.settings_of(account)).timezone
        return zone_of(zone) if zone else None
