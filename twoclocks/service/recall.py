"""Hybrid recall and the first-turn block (DESIGN.md §6).

Four legs, each filtered by the same clocks and workspace as a plain read:
keyword (fulltext), vector (local embeddings through the engine's vector index)
and two graph walks (from the entities the query names, and from the workspace's
own entity, up to three relations deep). They run concurrently; their rankings
are fused by reciprocal rank.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, tzinfo
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.block import (
    DEFAULT_BUDGET,
    MAX_RECENT_CHANGES,
    MIN_BUDGET,
    render_block,
    unreplaced_endings,
)
from twoclocks.domain.errors import InvalidInput, ModelUnavailable, StoreUnavailable
from twoclocks.domain.fusion import reciprocal_rank_fusion
from twoclocks.domain.model import Cardinality, FactVersion, require_aware
from twoclocks.domain.places import Workspace
from twoclocks.domain.scope import Scope, block_spaces, here_first, keys_in_scope, readable_spaces
from twoclocks.domain.trust import shown_to_model
from twoclocks.embeddings.port import Embedder
from twoclocks.graph.port import FactQuery, Store
from twoclocks.service.accounts import zone_of
from twoclocks.service.requests import Caller, Fact, Text

log = logging.getLogger("twoclocks.recall")

TRAVERSAL_DEPTH = 3
"""Chained questions ("the citizenship of the spouse of the author of X") need three hops."""

BLOCK_CANDIDATES = 400
"""Newest rows the block considers (plus what recall ranks for the first prompt); 8,000
characters hold far fewer."""

MAX_ENDING_CHECKS = 2 * MAX_RECENT_CHANGES
"""Slots the block looks up outside its workspace before saying a value ended: the block
shows three changes, so a few more lookups cover the ones it would show."""

Status = Literal["rows", "empty", "unavailable"]


class RecallRequest(BaseModel):
    """A recall: a question in words, plus the usual clock filters."""

    model_config = ConfigDict(extra="forbid")

    query: Text = Field(min_length=1, max_length=2000, description="what to look for, in words")
    k: int = Field(10, ge=1, le=200, description="how many facts to return (1-200)")
    as_of: datetime | None = Field(None, description="what was true at this valid time")
    as_believed: datetime | None = Field(
        None,
        description="what the store believed at this record time, about that same time "
        "unless as_of is given (with include_history: every version it held then)",
    )
    include_history: bool = Field(False, description="closed versions too")
    cwd: Text | None = Field(None, max_length=4096, description="the session's working directory")
    scope: Scope = Field(
        Scope.HERE,
        description="here: this workspace (and unplaced facts); wide: every project, repo and "
        "worktree of the session's space and of the spaces it reads_from, never another space",
    )

    @field_validator("query")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise InvalidInput("query is blank: ask in words, e.g. 'which CI do we use'")
        return value.strip()

    @field_validator("as_of", "as_believed")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return require_aware(value)


class ScoredFact(Fact):
    """A fact with its fused recall score (higher is better)."""

    score: float
    elsewhere: bool = Field(
        False, description="from another project, repo or worktree (``workspace`` names it)"
    )


class RecallResult(BaseModel):
    """rows, empty (a measured 'no record'), or unavailable (the store could not answer)."""

    status: Status
    facts: list[ScoredFact]


class BlockRequest(BaseModel):
    """The first-turn block for a session's working directory."""

    model_config = ConfigDict(extra="forbid")

    cwd: Text | None = Field(None, max_length=4096, description="the session's working directory")
    query: Text | None = Field(None, max_length=2000, description="the first prompt, if known")
    budget: int = Field(DEFAULT_BUDGET, ge=MIN_BUDGET, le=10_000, description="characters")


class BlockResult(BaseModel):
    """The rendered block: its status, text, how many fact lines, and how many were cut."""

    status: Status
    text: str
    rows: int
    more: int


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
    ) -> None:
        self.store = store
        self.clock = clock
        self.embedder = embedder
        self.resolve_workspace = resolve_workspace
        self.tz = tz
        self.settings_of = settings_of

    async def recall(self, caller: Caller, req: RecallRequest) -> RecallResult:
        """Fuse the keyword, vector and graph legs; only tiered rows, since a model reads them."""
        workspace = self.resolve_workspace(req.cwd)
        try:
            keys = await self._keys(
                caller.account, workspace, readable_spaces(workspace, req.scope)
            )
            query = FactQuery(
                now=self.clock(),
                as_of=req.as_of,
                as_believed=req.as_believed,
                include_history=req.include_history,
                workspaces=keys,
            )
            ranked = await self._ranked(caller.account, req.query, query, req.k, workspace)
        except StoreUnavailable as exc:
            log.warning("recall unavailable: %s", exc)
            return RecallResult(status="unavailable", facts=[])
        here = {
            i: v.workspace is None or v.workspace in workspace.keys
            for i, (v, _) in enumerate(ranked)
        }
        facts = [
            ScoredFact(**Fact.of(v).model_dump(), score=score, elsewhere=elsewhere)
            for v, score, elsewhere in here_first(ranked, here)
        ]
        return RecallResult(status="rows" if facts else "empty", facts=facts)

    async def _keys(
        self, account: str, workspace: Workspace, spaces: frozenset[str]
    ) -> tuple[str, ...]:
        """This workspace's keys plus every key registered to ``spaces`` (domain.scope)."""
        if not spaces:
            return workspace.keys
        return keys_in_scope(workspace, await self.store.workspace_spaces(account), spaces)

    async def _ranked(
        self, account: str, text: str, query: FactQuery, k: int, workspace: Workspace
    ) -> list[tuple[FactVersion, float]]:
        """The legs run at once (the query embedding in a worker thread meanwhile), then RRF.

        Every leg asks the store for tiered rows only, so k untiered rows can never crowd
        out the answer. Legs: keyword, vector, a walk from the entities the question
        names, and a walk from the workspace's own entity (``Workspace.names``).
        """
        pool = max(k * 3, 30)
        query = query.model_copy(update={"tiered_only": True})
        legs = await asyncio.gather(
            self.store.search_text(account, text, query, pool),
            self._vector_leg(account, text, query, pool),
            self._walk(account, self.store.entities_named(account, text, 10), query, pool),
            self._walk(account, self._workspace_entities(account, workspace), query, pool),
        )
        by_id = {v.version_id: v for leg in legs for v in leg}
        # The stores already filter on the tier; the rule is checked again here because a
        # row with no tier reaching a model is the one mistake recall must never make.
        fused = reciprocal_rank_fusion(
            [[v.version_id for v in leg if shown_to_model(v.tier)] for leg in legs]
        )
        return [(by_id[vid], score) for vid, score in fused[:k]]

    async def _vector_leg(
        self, account: str, text: str, query: FactQuery, k: int
    ) -> list[FactVersion]:
        """Nearest facts to the question; no leg at all when no embedder can encode it.

        A broken embedder costs recall one leg, not the answer: keyword and graph still run.
        """
        if self.embedder is None:
            return []
        try:
            vector = await asyncio.to_thread(self.embedder.embed_query, text)
        except ModelUnavailable as exc:  # the adapter's one error for a failing model
            log.warning("recall without the vector leg, the query embedding failed: %s", exc)
            return []
        return await self.store.search_vector(account, vector, query, k)

    async def _walk(
        self, account: str, entities: Awaitable[list[str]], query: FactQuery, k: int
    ) -> list[FactVersion]:
        """The graph leg from the entities found, up to TRAVERSAL_DEPTH relations out."""
        found = await entities
        if not found:
            return []
        return await self.store.traverse(account, found, query, TRAVERSAL_DEPTH, k)

    async def _workspace_entities(self, account: str, workspace: Workspace) -> list[str]:
        """Entities named exactly (ignoring case) like the workspace's repo or project."""
        out: list[str] = []
        for name in workspace.names:
            candidates = await self.store.entities_named(account, name, 5)
            out += [c for c in candidates if c.lower() == name.lower() and c not in out]
        return out

    async def _replaced_elsewhere(
        self, account: str, rows: list[FactVersion], now: datetime
    ) -> set[str]:
        """Recent endings the block would call "ended" that a value outside this read replaced.

        A value placed in another worktree can close an unplaced or repo-level one; this
        read does not see it, and "nothing replaced it" would then be false.
        """
        out: set[str] = set()
        for old in unreplaced_endings(rows, now)[:MAX_ENDING_CHECKS]:
            assert old.invalid_at is not None
            if old.cardinality is not Cardinality.ONE:
                continue  # a many-value slot is never closed by another value
            there = await self.store.query(
                account,
                FactQuery(
                    now=now, subject=old.subject, predicate=old.predicate, as_of=old.invalid_at
                ),
            )
            if any(v.valid_at == old.invalid_at and v.fact_id != old.fact_id for v in there):
                out.add(old.version_id)
        return out

    async def block(self, caller: Caller, req: BlockRequest) -> BlockResult:
        """The [[CM-MEM]] block: this workspace first, then unplaced, newest first, capped."""
        workspace = self.resolve_workspace(req.cwd)
        now = self.clock()
        status: Status = "rows"
        rows: list[FactVersion] = []
        rank: dict[str, int] | None = None
        replaced: set[str] = set()
        try:
            # The block reads the spaces this one reads from, never wider by itself.
            keys = await self._keys(caller.account, workspace, block_spaces(workspace))
            # Believed now, whatever the world window: current facts plus the closed
            # ones the block shows as recent changes or session-state history.
            believed = await self.store.query(
                caller.account,
                FactQuery(
                    now=now,
                    as_believed=now,
                    include_history=True,
                    workspaces=keys,
                    limit=BLOCK_CANDIDATES,
                ),
            )
            rows = [v for v in believed if v.valid_at <= now]
            if req.query and req.query.strip():
                ranked = await self._ranked(
                    caller.account,
                    req.query.strip(),
                    FactQuery(now=now, workspaces=keys),
                    50,
                    workspace,
                )
                rank = {v.version_id: i for i, (v, _) in enumerate(ranked)}
                # The newest BLOCK_CANDIDATES rows need not hold what the prompt asks about:
                # an older fact recall ranks is added, so the block can lead with it.
                held = {v.version_id for v in rows}
                rows += [v for v, _ in ranked if v.version_id not in held and v.valid_at <= now]
            replaced = await self._replaced_elsewhere(caller.account, rows, now)
        except StoreUnavailable as exc:
            log.warning("block unavailable: %s", exc)
            status = "unavailable"
        tz = self.tz
        if self.settings_of is not None and status != "unavailable":
            zone = (await self.settings_of(caller.account)).timezone
            tz = zone_of(zone) if zone else tz
        rendered = render_block(
            rows,
            now=now,
            tz=tz,
            workspace_keys=workspace.keys,
            status=status,
            budget=req.budget,
            query_rank=rank,
            replaced_elsewhere=replaced,
        )
        return BlockResult(
            status=rendered.status, text=rendered.text, rows=rendered.rows, more=rendered.more
        )
