"""The first-turn block's read (DESIGN.md §6): the rows a session's block is rendered from.

``domain.block`` orders, labels and fits the rows; this module reads them for a session:
what its workspace (and the spaces it reads from) believes now, plus what recall ranks
for the first prompt, and which recent endings a value outside the read replaced.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from datetime import datetime, tzinfo

from twoclocks.domain.block import render_block
from twoclocks.domain.errors import StoreUnavailable
from twoclocks.domain.model import Cardinality, FactVersion
from twoclocks.domain.places import Workspace
from twoclocks.domain.recent_changes import MAX_RECENT_CHANGES, RECENT_WINDOW, unreplaced_endings
from twoclocks.domain.scope import block_spaces
from twoclocks.graph.port import FactQuery, Store
from twoclocks.service.recall_requests import BlockRequest, BlockResult, Status

log = logging.getLogger("twoclocks.recall")

BLOCK_CANDIDATES = 400
"""Newest rows the block considers (plus what recall ranks for the first prompt); 8,000
characters hold far fewer."""

MAX_ENDING_CHECKS = 2 * MAX_RECENT_CHANGES
"""Slots the block looks up outside its workspace before saying a value ended: the block
shows three changes, so a few more lookups cover the ones it would show."""

KeysOf = Callable[[str, Workspace, frozenset[str]], Awaitable[tuple[str, ...]]]
"""The workspace keys a read may see: (account, workspace, spaces) -> keys."""

RankedOf = Callable[
    [str, str, FactQuery, int, Workspace], Awaitable[list[tuple[FactVersion, float]]]
]
"""Recall's ranking: (account, question, query, k, workspace) -> (version, score), best first."""


async def read_block(
    store: Store,
    account: str,
    req: BlockRequest,
    workspace: Workspace,
    now: datetime,
    *,
    keys_of: KeysOf,
    ranked: RankedOf,
    tz: tzinfo,
    account_zone: Callable[[str], Awaitable[tzinfo | None]],
) -> BlockResult:
    """The [[CM-MEM]] block: this workspace first, then unplaced, newest first, capped.

    Times are shown in the account's zone when it has one (``account_zone``), else ``tz``.
    """
    status: Status = "rows"
    rows: list[FactVersion] = []
    rank: dict[str, int] | None = None
    replaced: set[str] = set()
    corrections: list[FactVersion] = []
    try:
        # The block reads the spaces this one reads from, never wider by itself.
        keys = await keys_of(account, workspace, block_spaces(workspace))
        # Believed now, whatever the world window: current facts plus the closed ones the
        # block shows as recent changes or session-state history, and the ones that start
        # later (the block says what is coming up).
        believed = await store.query(
            account,
            FactQuery(
                now=now, as_believed=now, include_history=True, workspaces=keys,
                limit=BLOCK_CANDIDATES,
            ),
        )  # fmt: skip
        rows = list(believed)
        if req.query and req.query.strip():
            found = await ranked(
                account, req.query.strip(), FactQuery(now=now, workspaces=keys), 50, workspace
            )
            rank = {v.version_id: i for i, (v, _) in enumerate(found)}
            # The newest BLOCK_CANDIDATES rows need not hold what the prompt asks about: an
            # older fact recall ranks is added, so the block can lead with it.
            held = {v.version_id for v in rows}
            rows += [v for v, _ in found if v.version_id not in held and v.valid_at <= now]
        replaced = await replaced_elsewhere(store, account, rows, now)
        corrections = await recent_corrections(store, account, keys, now)
    except StoreUnavailable as exc:
        log.warning("block unavailable: %s", exc)
        status = "unavailable"
    if status != "unavailable":
        tz = await account_zone(account) or tz
    rendered = render_block(
        rows,
        now=now,
        tz=tz,
        workspace_keys=workspace.keys,
        status=status,
        budget=req.budget,
        query_rank=rank,
        replaced_elsewhere=replaced,
        corrections=corrections,
    )
    return BlockResult(
        status=rendered.status, text=rendered.text, rows=rendered.rows, more=rendered.more
    )


async def replaced_elsewhere(
    store: Store, account: str, rows: list[FactVersion], now: datetime
) -> set[str]:
    """Recent endings the block would call "ended" that a value outside this read replaced.

    A value placed in another worktree can close an unplaced or repo-level one; this read
    does not see it, and "nothing replaced it" would then be false.
    """
    out: set[str] = set()
    for old in unreplaced_endings(rows, now)[:MAX_ENDING_CHECKS]:
        assert old.invalid_at is not None
        if old.cardinality is not Cardinality.ONE:
            continue  # a many-value slot is never closed by another value
        query = FactQuery(now=now, subject=old.subject, predicate=old.predicate,
                          as_of=old.invalid_at)  # fmt: skip
        there = await store.query(account, query)
        if any(v.valid_at == old.invalid_at and v.fact_id != old.fact_id for v in there):
            out.add(old.version_id)
    return out


async def recent_corrections(
    store: Store, account: str, keys: tuple[str, ...], now: datetime
) -> list[FactVersion]:
    """Facts found wrong (or outdated when told) in the last 48 h that the read's workspaces
    see, newest first: the last version of each, what the block says was never true (or
    changed before it was told)."""
    found = await store.corrected_since(
        account, now - RECENT_WINDOW, now, keys, limit=2 * MAX_RECENT_CHANGES
    )
    # One fact's versions can be retired by one correction together.
    out = {v.fact_id: v for v in reversed(found)}
    return sorted(out.values(), key=lambda v: (-(v.expired_at or now).timestamp(), v.fact_id))
