"""The reads every entry point shares: facts, counts, the timeline, episodes, the export.

Every read is in the caller's workspace (and the unplaced rows) unless the person asks for
every workspace; a slot named in a read takes its aliases too. ``MemoryService`` holds these
beside the writes, over the same store and clock.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Sequence

from twoclocks.domain.errors import InvalidInput, ReadNotAllowed
from twoclocks.domain.model import require_printable
from twoclocks.domain.temporal import told_after
from twoclocks.domain.trust import Writer
from twoclocks.graph.port import Episode, FactQuery, Store, TimelineQuery
from twoclocks.service.collaborators import RecordClock, WorkspaceResolver
from twoclocks.service.requests import Caller, Fact, FactsRequest, TimelineRequest

TOLD_AFTER_READ = 200
"""Current values ``told_after`` reads, newest first: what was told since a past time."""


class FactReads:
    """The read half of the memory service: what a workspace sees, on either clock."""

    store: Store
    clock: RecordClock
    resolve_workspace: WorkspaceResolver

    async def facts(self, caller: Caller, req: FactsRequest) -> list[Fact]:
        """This workspace's rows plus unplaced rows, on either clock or both.

        ``all_workspaces`` reads every workspace of the account; only the person may
        (their own memory, across projects): an agent stays in its session's workspace.
        """
        query = await self.fact_query(caller, req)
        return [Fact.of(v) for v in await self.store.query(caller.account, query)]

    async def count_facts(self, caller: Caller, req: FactsRequest) -> int:
        """How many rows the read matches in all, whatever its limit and offset (a page's total)."""
        query = await self.fact_query(caller, req)
        return await self.store.count(caller.account, query)

    def read_workspaces(
        self, caller: Caller, cwd: str | None, all_workspaces: bool
    ) -> tuple[str, ...] | None:
        """The workspaces a read sees: cwd's (and the unplaced rows), or every one (None).

        Every workspace is the person's own read; an agent's stays in its session's.
        """
        if all_workspaces and caller.writer is not Writer.PERSON:
            raise ReadNotAllowed(
                "all_workspaces is for the person's own reads (the CLI, the web screen): an "
                "agent reads the facts of its session's workspace; drop all_workspaces"
            )
        return None if all_workspaces else tuple(self.resolve_workspace(cwd).keys)

    async def slot_name(
        self, caller: Caller, subject: str | None, predicate: str | None
    ) -> str | None:
        """The slot a read names: reads merge aliased slots (ci_platform finds ci_provider)."""
        if not (subject and predicate):
            return predicate
        return (await self.store.slot_names(caller.account, subject)).get(predicate, predicate)

    async def fact_query(self, caller: Caller, req: FactsRequest) -> FactQuery:
        """The store query of a read: its workspace, its slot (aliases merged), its filters."""
        workspaces = self.read_workspaces(caller, req.cwd, req.all_workspaces)
        return FactQuery(
            now=self.clock(),
            subject=req.subject,
            predicate=await self.slot_name(caller, req.subject, req.predicate),
            as_of=req.as_of,
            as_believed=req.as_believed,
            include_history=req.include_history,
            include_later=req.include_later,
            workspaces=workspaces,
            text=req.text,
            tier=req.tier,
            place=req.place,
            writer=req.writer,
            fact_class=req.fact_class,
            limit=req.limit,
            offset=req.offset,
        )

    async def told_after(
        self, caller: Caller, req: FactsRequest, held: Sequence[Fact]
    ) -> list[Fact]:
        """With ``as_of``: the values believed now whose start nobody stated, told after
        ``as_of``, of the slots that hold nothing then (``held``: the read's rows).

        "Deploy target Heroku", told today with no start, is not true as of last week on
        the record, yet it may well have held then; an answer with nothing for last week
        would read as "there was none". These are named apart so the reader knows memory
        does not know. Read from the newest TOLD_AFTER_READ current values.
        """
        if req.as_of is None or req.as_believed is not None or req.include_history:
            return []
        if req.offset:
            return []  # named with the first page only, not again on every page
        now = {"as_of": None, "limit": TOLD_AFTER_READ, "offset": 0, "include_later": False}
        current = await self.facts(caller, req.model_copy(update=now))
        if req.limit is not None:
            # A page names some of the slots that held then; the whole read names them all.
            held = await self.facts(caller, req.model_copy(update={"limit": None}))
        slots = {(f.subject, f.predicate) for f in held}
        asked = req.as_of
        return [
            f
            for f in current
            if told_after(f.start_stated, f.valid_at, asked)
            and (f.subject, f.predicate) not in slots
        ]

    async def count_in_other_workspaces(self, caller: Caller, req: FactsRequest) -> int:
        """How many rows the same read finds in workspaces other than the caller's.

        Asked when a scoped read came back empty, so a person learns that their facts
        live elsewhere (and `--all-workspaces` shows them) instead of seeing nothing.
        """
        whole = {"limit": None, "offset": 0}
        everywhere = req.model_copy(update={**whole, "all_workspaces": True})
        here = req.model_copy(update={**whole, "all_workspaces": False})
        # The read everywhere is the person's own; the count is all an agent learns. Two
        # counts, not two reads: an empty checkout in a 100k account read every row.
        person = caller.model_copy(update={"writer": Writer.PERSON})
        every, inside = await asyncio.gather(
            self.count_facts(person, everywhere), self.count_facts(caller, here)
        )
        return every - inside

    async def timeline(self, caller: Caller, req: TimelineRequest) -> list[Fact]:
        """Every version in time order on one clock: world (valid_at) or system (created_at).

        In the caller's workspace, as every read: a session in one project does not read
        another project's history (the person may, with ``all_workspaces``).
        """
        workspaces = self.read_workspaces(caller, req.cwd, req.all_workspaces)
        query = await self._timeline_query(caller, req, workspaces)
        return [Fact.of(v) for v in await self.store.timeline(caller.account, query)]

    async def timeline_elsewhere(self, caller: Caller, req: TimelineRequest) -> int:
        """How many versions the same timeline read finds in the other workspaces (two counts).

        Asked when the caller's workspace had none, so the person learns that the history
        lives elsewhere; the count is all an agent learns.
        """
        query = await self._timeline_query(caller, req, workspaces=None)
        here = self.read_workspaces(caller, req.cwd, all_workspaces=False)
        every, inside = await asyncio.gather(
            self.store.timeline_count(caller.account, query),
            self.store.timeline_count(
                caller.account, query.model_copy(update={"workspaces": here})
            ),
        )
        return every - inside

    async def _timeline_query(
        self, caller: Caller, req: TimelineRequest, workspaces: tuple[str, ...] | None
    ) -> TimelineQuery:
        return TimelineQuery(
            clock=req.clock,
            since=req.since,
            until=req.until,
            subject=req.subject,
            predicate=await self.slot_name(caller, req.subject, req.predicate),
            workspaces=workspaces,
        )

    async def search_episodes(
        self, caller: Caller, query: str, k: int = 10, cwd: str | None = None
    ) -> list[Episode]:
        """The raw episodes (the person's words, tool events) matching a query, newest first.

        In cwd's workspace, as every read (and the episodes kept with no place).
        """
        text = require_printable(query, "query").strip()
        if not text:
            raise InvalidInput("query is blank: ask in words, e.g. 'router cache'")
        if not 1 <= k <= 200:
            raise InvalidInput(f"k must be between 1 and 200, not {k}")
        where = require_printable(cwd, "cwd") if cwd else None
        workspaces = self.read_workspaces(caller, where, all_workspaces=False)
        return await self.store.search_episodes(caller.account, text, k, workspaces)

    async def export(self, caller: Caller) -> AsyncIterator[Fact]:
        """Every version with both clocks, for NDJSON export."""
        async for version in self.store.export(caller.account):
            yield Fact.of(version)
