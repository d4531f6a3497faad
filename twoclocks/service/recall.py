"""Hybrid recall (DESIGN.md §6); the first-turn block's read is service.session_block.

Five legs, each filtered by the same clocks and workspace as a plain read:
keyword (fulltext), vector (local embeddings through the engine's vector index),
two graph walks (from the entities the query names, and from the workspace's own
entity, up to three relations deep) and the current value of any slot whose former
value the question names. They run concurrently; their rankings are fused by
reciprocal rank, and the final order adds that fused rank to each fact's cosine to
the question and its relevance signals (``recall_order.by_score``).
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
from twoclocks.domain.errors import ModelUnavailable, StoreUnavailable
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
from twoclocks.domain.trust import shown_to_model
from twoclocks.embeddings.port import Embedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import FactQuery, Store
from twoclocks.service import recall_beside as beside
from twoclocks.service.accounts import zone_of
from twoclocks.service.former_values import (
    current_of_former,
    text_search,
)
from twoclocks.service.named_entities import (
    Named,
    entities_named,
    names_of,
    workspace_entities,
)
from twoclocks.service.recall_beside import Ranked
from twoclocks.service.recall_fusion import LEGS, fuse_legs
from twoclocks.service.recall_later import plan_first, plans_in, split_later, with_plans
from twoclocks.service.recall_requests import (
    BlockRequest,
    BlockResult,
    NamedSpan,
    RecallRequest,
    RecallResult,
    ScoredFact,
)
from twoclocks.service.relevance import (
    relevance_signals,
    shares_a_word,
    warm_slot_matcher,
)
from twoclocks.service.requests import Caller, Fact
from twoclocks.service.session_block import read_block

log = logging.getLogger("twoclocks.recall")

TRAVERSAL_DEPTH = 3
"""Chained questions ("the citizenship of the spouse of the author of X") need three hops."""

RELEVANCE_FLOOR = 0.24
"""Below this, no candidate's best relevance signal (``Relevance.best``) is evidence
enough that memory holds an answer, and recall says ``empty`` (issue 10: "zebra quantum
banana" came back as rows). Measured with MiniLM on the tune questions: nonsense scores
0.20-0.23, the weakest real question 0.21 and the next 0.29; questions about slots stored
for another subject score like real ones (0.28-0.46), so no floor tells those apart.
Valid for this model only."""

WARM_SLOT_NAMES = 500
"""Slot names of an account whose embeddings ``RecallService.warm`` encodes at start: the
most used ones; an account rarely has more, and a name not warmed is encoded once later."""

MAX_STARTING_LATER = 3
"""Facts that start later a recall names beside its answer, best first (those ranked
among the k best): a question asks about one plan, rarely more."""

DEFAULT_LEG_WEIGHTS: Mapping[str, float] = {
    "keyword": 0.5,
    "vector": 3.0,
    "entity_walk": 0.5,
    "workspace_walk": 1.5,
    "former": 0.5,
    "slot": 0.5,
}
"""How much each leg's ranking counts in the fusion; a leg weighted 0 is not run.

Fitted on the tune part of tests/data/recall_questions.jsonl (bench/quality.py): the
vector leg alone answers most paraphrased questions (hit@1 0.70 alone, against 0.48 for
keyword and 0.36 for the question-ranked entity walk), so it carries most of the weight;
at equal weights the fusion fell to 0.59. The set asks without a working directory, so
the workspace walk is unmeasured there: its weight keeps the session's own workspace
ahead of equally good rows elsewhere (test_recall_walks_from_the_workspace_entity).
Re-measure before changing them. ``former`` finds a row only when a question names a
value that was replaced, so its weight is set by the rule, not fitted."""


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
        unknown = set(leg_weights or {}) - set(LEGS)
        if unknown:
            raise ValueError(f"unknown recall legs {sorted(unknown)}: the legs are {LEGS}")
        self.leg_weights = {**DEFAULT_LEG_WEIGHTS, **(leg_weights or {})}
        self.relevance_floor = RELEVANCE_FLOOR
        self.store = store
        self.clock = clock
        self.embedder = embedder
        self.resolve_workspace = resolve_workspace
        self.tz = tz
        self.settings_of = settings_of
        # Slot names are few and repeat across questions: their vectors come from the
        # matcher's cache, so the slot leg costs a dot product per candidate.
        self.slot_matcher = slot_matcher or (SlotMatcher(embedder) if embedder else None)
        self.observe_checkout = observe_checkout

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
            vector_task = asyncio.create_task(self._query_vector(req.query))
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
                return await self._ranked(of, text, read, k, place, 0, *asked)

            closed: list[FactVersion] = []
            ranked = await self._ranked(
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

    async def _ranked(
        self,
        account: str,
        text: str,
        query: FactQuery,
        k: int,
        workspace: Workspace,
        extra: int = 0,
        vector_task: asyncio.Task[list[float] | None] | None = None,
        named_task: asyncio.Task[Named] | None = None,
        *,
        closed_found: list[FactVersion] | None = None,
    ) -> Ranked:
        """The legs run at once (the query embedding in a worker thread meanwhile), then RRF.

        ``extra`` rows past ``k`` come back too (the legs still read for ``k``): room for
        facts that start later, so they never take a current fact's place. ``vector_task``:
        the question's embedding when a second read of one question shares it;
        ``named_task`` likewise, the entities it names. ``closed_found`` gets the closed
        versions the keyword search found (``ended_of_named_slots`` reads them).

        Every leg asks the store for tiered rows only, so k untiered rows can never crowd
        out the answer. Legs: keyword, vector, a walk from the entities the question
        names, a walk from the workspace's own entity (``Workspace.names``), and the
        slots whose former value the question names (from the keyword search).
        """
        pool = max(k * 3, 30)
        query = query.model_copy(update={"tiered_only": True})
        weights = self.leg_weights
        said = question_words(text)
        if vector_task is None:
            vector_task = asyncio.create_task(self._query_vector(text))
        if named_task is None:
            named_task = asyncio.create_task(entities_named(self.store, account, text, said))
        # One search serves the keyword leg and the former leg; neither weighted, none runs.
        text_task = (
            asyncio.create_task(text_search(self.store, account, text, query, pool))
            if weights["keyword"] > 0 or weights["former"] > 0
            else None
        )
        cosine: dict[str, float] = {}

        async def keyword_leg() -> list[FactVersion]:
            assert text_task is not None  # created whenever this leg is weighted
            shown, _closed = await text_task
            return shown

        async def former_leg() -> list[FactVersion]:
            assert text_task is not None
            _shown, closed = await text_task
            return await current_of_former(self.store, account, text, closed, query)

        async def vector_leg() -> list[FactVersion]:
            vector = await vector_task
            if vector is None:
                return []
            scored = await self.store.search_vector_scored(account, vector, query, pool)
            cosine.update((v.version_id, c) for v, c in scored)
            return [v for v, _ in scored]

        runs: dict[str, Callable[[], Awaitable[list[FactVersion]]]] = {
            "keyword": keyword_leg,
            "vector": vector_leg,
            "entity_walk": lambda: self._walk(account, names_of(named_task), query, pool),
            # One hop only: the workspace's own facts. Further out, a walk from the
            # workspace reaches every service that shares a value with it (the CI product,
            # the cloud) and would vote for them as loudly as for the workspace's own.
            "workspace_walk": lambda: self._walk(
                account, workspace_entities(self.store, account, workspace), query, pool, depth=1
            ),
            "former": former_leg,
        }
        active = [leg for leg in runs if weights[leg] > 0]
        try:
            found = await asyncio.gather(*(runs[leg]() for leg in active))
        finally:
            vector = await vector_task
            # Never left running: with its leg unweighted (or recall returning early), a
            # search still reading after recall returned would go on using the store,
            # which may be closing by then, and its error would reach no one.
            started = [task for task in (text_task, named_task) if task is not None]
            await asyncio.gather(*started, return_exceptions=True)
        if closed_found is not None and text_task is not None:
            closed_found.extend(text_task.result()[1])
        found_by = dict(zip(active, found, strict=True))
        # The stores already filter on the tier; the rule is checked again here because a
        # row with no tier reaching a model is the one mistake recall must never make.
        by_id = {
            v.version_id: v for leg in found_by.values() for v in leg if shown_to_model(v.tier)
        }
        if vector is not None and cosine:
            # Every candidate by its exact cosine: the index missed some (HNSW), and Neo4j's
            # quantizes its scores, so a row found by another leg would rank on a guess.
            cosine.update(await self.store.cosines(account, vector, list(by_id)))
        former_slots = {v.slot for v in found_by.get("former", [])}
        relevance = await relevance_signals(
            text, said, vector, by_id, cosine, self.slot_matcher, former_slots
        )
        if relevance and max(r.best for r in relevance.values()) < self.relevance_floor:
            return []
        fused = fuse_legs(text, found_by, by_id, relevance, cosine, weights, await named_task, pool)
        return [(by_id[vid], score) for vid, score in fused[: k + extra]]

    async def _query_vector(self, text: str) -> list[float] | None:
        """The question's embedding; None when no embedder can encode it.

        A broken embedder costs recall its vector and slot legs, not the answer: keyword
        and graph still run.
        """
        if self.embedder is None:
            return None
        try:
            return await asyncio.to_thread(self.embedder.embed_query, text)
        except ModelUnavailable as exc:  # the adapter's one error for a failing model
            log.warning("recall without the vector leg, the query embedding failed: %s", exc)
            return None

    async def _walk(
        self,
        account: str,
        entities: Awaitable[list[str]],
        query: FactQuery,
        k: int,
        depth: int = TRAVERSAL_DEPTH,
    ) -> list[FactVersion]:
        """The graph leg from the entities found, up to ``depth`` relations out."""
        found = await entities
        if not found:
            return []
        return await self.store.traverse(account, found, query, depth, k)

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
            ranked=self._ranked,
            tz=self.tz,
            account_zone=self._account_zone,
        )

    async def _account_zone(self, account: str) -> tzinfo | None:
        """The timezone the account set for the times it reads, if any."""
        if self.settings_of is None:
            return None
        zone = (await self.settings_of(account)).timezone
        return zone_of(zone) if zone else None
