"""Backup and restore: the whole account as NDJSON, and that file restored exactly.

Each line is one JSON object with a ``record`` field: ``settings`` (the account's own
settings), ``alias`` (a slot-drift alias), ``apart`` (two slot names kept apart),
``episode`` (the raw text a fact came from, with its clocks) or ``version`` (one version
with every field and both clocks). Keys are sorted and the text is compact, so two exports
of the same account are byte-identical once their lines are sorted, whichever engine
wrote them.

A restore keeps every recorded clock: the rows are history, not new writes. Only the
import's own episode (``source: import``) is stamped with the store's clock, so the
account says when it was restored and from what.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Iterable
from typing import Any

from pydantic import BaseModel, Field, ValidationError

from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.errors import (
    AccountNotEmpty,
    InvalidInput,
    ReadNotAllowed,
    WriteConflict,
    WriteNotAllowed,
)
from twoclocks.domain.model import FactVersion, Plan, require_one_line, require_text
from twoclocks.domain.slot_names import fact_text
from twoclocks.domain.trust import Writer
from twoclocks.graph.port import Episode, SlotAlias, SlotsApart, Store
from twoclocks.service.accounts import Accounts
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import Caller

IMPORT_SOURCE = "import"
"""The source of the episode that logs a restore."""

ENCODE_BATCH = 256
"""Fact texts encoded per model call during a restore."""

MAX_LINE_BYTES = 1024 * 1024
"""Longest line a backup may hold (an episode's content is the longest record)."""


def backup_line(record: str, fields: dict[str, Any]) -> str:
    """One record as its backup line: sorted keys, compact, UTF-8 kept as is."""
    body = {"record": record, **fields}
    return json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))


async def export_backup(store: Store, caller: Caller) -> AsyncIterator[str]:
    """Every line of the account's backup: settings, aliases, pairs apart, episodes, versions.

    Every workspace's facts and the person's words: the person's own read, like restoring.
    """
    if caller.writer is not Writer.PERSON:
        raise ReadNotAllowed(
            "a backup holds every workspace's facts and the person's own words: export with "
            "the person's key (`twoclocks export`, outside an agent's shell), not an agent's"
        )
    account = caller.account
    raw = await store.account_settings(account)
    if raw:
        yield backup_line("settings", {"settings": json.loads(raw)})
    for alias in await store.export_aliases(account):
        yield backup_line("alias", alias.model_dump(mode="json"))
    for apart in await store.export_apart(account):
        yield backup_line("apart", apart.model_dump(mode="json"))
    for episode in await store.export_episodes(account):
        yield backup_line("episode", episode.model_dump(mode="json"))
    async for version in store.export(account):
        yield backup_line("version", version.model_dump(mode="json"))


class ImportReport(BaseModel):
    """What a restore wrote (or, for a dry run, would write)."""

    dry_run: bool = Field(description="true: the file was checked and nothing was written")
    versions: int = Field(description="versions restored, with their recorded clocks")
    facts: int = Field(description="distinct fact ids among them")
    episodes: int
    aliases: int
    apart: int = Field(0, description="pairs of slot names kept apart")
    settings: bool = Field(description="whether the file carried the account's settings")
    import_episode: str | None = Field(
        None, description="id of the episode that logs this import (none for a dry run)"
    )


class Backup:
    """A backup file read and checked line by line; nothing is written while reading."""

    def __init__(self) -> None:
        self.settings: AccountSettings | None = None
        self.aliases: list[SlotAlias] = []
        self.apart: list[SlotsApart] = []
        self.episodes: list[Episode] = []
        # An episode line with no ``workspace`` field was written before episodes had a
        # place (schema 2): once restored, the episodes take their facts' workspace.
        self.episodes_before_places = False
        self.versions: list[FactVersion] = []
        self._version_ids: set[str] = set()
        self._episode_ids: set[str] = set()
        self._lines = 0

    def add(self, line: str | bytes) -> None:
        """Check one line and keep its record; InvalidInput naming the line when it is wrong."""
        self._lines += 1
        where = f"line {self._lines}"
        if len(line) > MAX_LINE_BYTES:
            raise InvalidInput(f"{where} is over {MAX_LINE_BYTES // 1024} KB: not a backup line")
        if not line.strip():
            return
        try:
            body = json.loads(line)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            raise InvalidInput(f"{where} is not JSON ({e}): is this a twoclocks export?") from None
        if not isinstance(body, dict):
            raise InvalidInput(f"{where} is not a JSON object: is this a twoclocks export?")
        record = body.pop("record", None)
        try:
            self._keep(record, body, where)
        except ValidationError as e:
            first = e.errors()[0]
            field = ".".join(str(p) for p in first["loc"]) or "record"
            raise InvalidInput(f"{where}: {record} field {field}: {first['msg']}") from None

    def _keep(self, record: Any, body: dict[str, Any], where: str) -> None:
        if record == "version":
            _known_fields(body, FactVersion, where)
            version = FactVersion.model_validate(body)
            for name in ("subject", "predicate", "object"):
                if require_text(getattr(version, name), f"{where}: {name}") != body[name]:
                    raise InvalidInput(f"{where}: {name} has surrounding whitespace")
            if version.category is not None:
                require_one_line(version.category, f"{where}: category")
            _once(version.version_id, self._version_ids, f"{where}: version_id")
            self.versions.append(version)
        elif record == "episode":
            _known_fields(body, Episode, where)
            episode = Episode.model_validate(body)
            _once(episode.episode_id, self._episode_ids, f"{where}: episode_id")
            self.episodes_before_places |= "workspace" not in body
            self.episodes.append(episode)
        elif record == "alias":
            _known_fields(body, SlotAlias, where)
            self.aliases.append(SlotAlias.model_validate(body))
        elif record == "apart":
            _known_fields(body, SlotsApart, where)
            self.apart.append(SlotsApart.model_validate(body))
        elif record == "settings":
            if self.settings is not None:
                raise InvalidInput(f"{where}: a second settings record; a backup has one")
            self.settings = AccountSettings.model_validate(body.get("settings") or {})
        else:
            raise InvalidInput(
                f"{where}: unknown record {record!r}; expected version, episode, alias, "
                "apart or settings"
            )

    def report(self, dry_run: bool, import_episode: str | None = None) -> ImportReport:
        """The counts of what this backup holds."""
        return ImportReport(
            dry_run=dry_run,
            versions=len(self.versions),
            facts=len({v.fact_id for v in self.versions}),
            episodes=len(self.episodes),
            aliases=len(self.aliases),
            apart=len(self.apart),
            settings=self.settings is not None,
            import_episode=import_episode,
        )


def _known_fields(body: dict[str, Any], model: type[BaseModel], where: str) -> None:
    # An unknown field would be dropped silently: the restore would not be exact.
    unknown = sorted(set(body) - set(model.model_fields))
    if unknown:
        raise InvalidInput(f"{where}: unknown field(s) {', '.join(unknown)}")


def _once(value: str, seen: set[str], what: str) -> None:
    if value in seen:
        raise InvalidInput(f"{what} {value} appears twice: a backup holds each row once")
    seen.add(value)


def read_backup(lines: Iterable[str | bytes]) -> Backup:
    """A whole backup from its lines (the CLI's dry run and the tests)."""
    backup = Backup()
    for line in lines:
        backup.add(line)
    return backup


async def account_is_empty(store: Store, account: str) -> bool:
    """True when the account holds no version, episode, alias or pair kept apart."""
    async for _ in store.export(account):
        return False
    return (
        not await store.export_episodes(account)
        and not await store.export_aliases(account)
        and not await store.export_apart(account)
    )


async def restore_backup(
    service: MemoryService, accounts: Accounts, caller: Caller, backup: Backup, dry_run: bool
) -> ImportReport:
    """Restore a checked backup into the caller's empty account, keeping every clock."""
    if caller.writer is not Writer.PERSON:
        raise WriteNotAllowed(
            "only the person may restore a backup (it writes asserted facts): run "
            "`twoclocks import FILE` from the CLI"
        )
    store, account = service.store, caller.account
    if not await account_is_empty(store, account):
        raise AccountNotEmpty(
            f"account {account!r} already holds facts, episodes or slot names, and a restore is "
            "exact only into an empty account: import into a new account "
            "(`twoclocks accounts create NAME`)"
        )
    if dry_run:
        return backup.report(dry_run=True)
    if backup.settings is not None:
        await accounts.update_settings(account, backup.settings)
    for episode in backup.episodes:
        await store.save_episode(account, episode)
    for alias in backup.aliases:
        await store.record_alias(account, alias)
    for apart in backup.apart:
        await store.record_apart(account, apart)
    await _restore_versions(service, account, backup.versions)
    if backup.episodes_before_places:
        # From before episodes had a place: each takes its facts' workspace, as a store's
        # own did when it moved to schema 3. A newer backup is restored exactly as written.
        await store.place_unplaced_episodes(account)
    # From before schema 5, a value told late was kept as corrected; only such rows match.
    await store.outdate_told_late(account)
    now = service.clock()
    logged = Episode(
        episode_id=service.new_id(),
        source=IMPORT_SOURCE,
        content=_import_summary(backup),
        created_at=now,
        valid_at=now,
    )
    await store.save_episode(account, logged)
    return backup.report(dry_run=False, import_episode=logged.episode_id)


def _import_summary(backup: Backup) -> str:
    r = backup.report(dry_run=False)
    return (
        f"restored a backup: {r.versions} versions of {r.facts} facts, {r.episodes} episodes, "
        f"{r.aliases} aliases, {r.apart} pairs kept apart, "
        f"settings {'restored' if r.settings else 'not in the file'}"
    )


async def _restore_versions(
    service: MemoryService, account: str, versions: list[FactVersion]
) -> None:
    """Insert every version as recorded, one plan per slot, encoded in batches."""
    slots: dict[tuple[str, str], list[FactVersion]] = {}
    for version in versions:
        slots.setdefault(version.slot, []).append(version)
    pending: list[tuple[tuple[str, str], list[FactVersion]]] = []
    size = 0
    for slot, rows in slots.items():
        pending.append((slot, rows))
        size += len(rows)
        if size >= ENCODE_BATCH:
            await _apply_slots(service, account, pending)
            pending, size = [], 0
    await _apply_slots(service, account, pending)


async def _apply_slots(
    service: MemoryService, account: str, slots: list[tuple[tuple[str, str], list[FactVersion]]]
) -> None:
    rows = [v for _, slot_rows in slots for v in slot_rows]
    vectors: dict[str, list[float]] = {}
    if service.embedder is not None and rows:
        texts = list(dict.fromkeys(fact_text(v.subject, v.predicate, v.object) for v in rows))
        encoded = await asyncio.to_thread(service.embedder.embed_documents, texts)
        vectors = dict(zip(texts, encoded, strict=True))
    for (subject, predicate), slot_rows in slots:
        state = await service.store.read_slot(account, subject, predicate)
        plan = Plan(now=service.clock(), insert=tuple(slot_rows))
        embeddings = (
            {v.version_id: vectors[fact_text(v.subject, v.predicate, v.object)] for v in slot_rows}
            if vectors
            else None
        )
        if not await service.store.apply(
            account, plan, subject, predicate, state.counter, embeddings
        ):
            raise WriteConflict(
                f"slot ({subject}, {predicate}) was written during the restore: "
                "nothing may write to an account while it is restored; import again into a new one"
            )
