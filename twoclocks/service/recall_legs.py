"""Recall's legs for one question, fused and ordered (DESIGN.md §6, issue 11).

Five legs, each filtered by the same clocks and workspace as a plain read: keyword
(fulltext), vector (local embeddings through the engine's vector index), two graph walks
(from the entities the query names, and from the workspace's own entity) and the current
value of any slot whose former value the question names. They run concurrently; their
rankings are fused by reciprocal rank, and the final order adds that fused rank to each
candidate's cosine to the question (read exactly, ``exact_cosines``) and its relevance
signals (``recall_order.by_score``). ``service.recall`` reads what is said
beside the rows.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping

from twoclocks.domain.errors import ModelUnavailable
from twoclocks.domain.model import FactVersion
from twoclocks.domain.named_subjects import question_words
from twoclocks.domain.places import Workspace
from twoclocks.domain.trust import shown_to_model
from twoclocks.embeddings.port import Embedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import FactQuery, Store
from twoclocks.service.former_values import current_of_former, text_search
from twoclocks.service.named_entities import (
    Named,
    entities_named,
    names_of,
    workspace_entities,
)
from twoclocks.service.recall_beside import Ranked
from twoclocks.service.recall_fusion import LEGS, fuse_legs
from twoclocks.service.relevance import relevance_signals

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


def exact_cosines(reached: Mapping[str, float], exact: Mapping[str, float]) -> dict[str, float]:
    """Each candidate's cosine to the question for the final order, from the ``exact`` ones.

    The vector index is approximate: HNSW on both engines, quantized on Neo4j, so among
    many near-identical facts it can miss a row another leg found, and its scores are near
    the cosine, not equal to it. A row it ``reached`` ranks by its exact cosine; a row it
    did not, by the closer of its exact cosine and the farthest row the index returned,
    as before exact cosines were read: a walk's or the keyword search's find keeps that
    floor (the 100k workload lost an asked slot from the top 10 without it).

    >>> exact_cosines({"a": 0.70, "b": 0.50}, {"a": 0.71, "b": 0.52, "c": 0.30, "d": 0.60})
    {'a': 0.71, 'b': 0.52, 'c': 0.5, 'd': 0.6}
    """
    floor = min(reached.values(), default=-1.0)
    return {vid: c if vid in reached else max(c, floor) for vid, c in exact.items()}


class RecallLegs:
    """The legs of recall over one store and embedder, and how much each one counts."""

    def __init__(
        self,
        store: Store,
        embedder: Embedder | None,
        slot_matcher: SlotMatcher | None,
        leg_weights: Mapping[str, float] | None = None,
    ) -> None:
        unknown = set(leg_weights or {}) - set(LEGS)
        if unknown:
            raise ValueError(f"unknown recall legs {sorted(unknown)}: the legs are {LEGS}")
        self.weights = {**DEFAULT_LEG_WEIGHTS, **(leg_weights or {})}
        self.relevance_floor = RELEVANCE_FLOOR
        self.store = store
        self.embedder = embedder
        self.slot_matcher = slot_matcher

    async def ranked(
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
        weights = self.weights
        said = question_words(text)
        if vector_task is None:
            vector_task = asyncio.create_task(self.query_vector(text))
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
            cosine.update(
                exact_cosines(cosine, await self.store.cosines(account, vector, list(by_id)))
            )
        former_slots = {v.slot for v in found_by.get("former", [])}
        relevance = await relevance_signals(
            text, said, vector, by_id, cosine, self.slot_matcher, former_slots
        )
        if relevance and max(r.best for r in relevance.values()) < self.relevance_floor:
            return []
        fused = fuse_legs(text, found_by, by_id, relevance, cosine, weights, await named_task, pool)
        return [(by_id[vid], score) for vid, score in fused[: k + extra]]

    async def query_vector(self, text: str) -> list[float] | None:
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
