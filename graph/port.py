"""The Store port: what the service needs from a graph engine, and nothing more.

Stores apply plans made by the pure planners and answer queries; they make no
decisions about the rules. Every call carries the account: nothing crosses it.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Collection, Mapping, Sequence
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol

from pydantic import BaseModel, ConfigDict, Field, model_validator

from twoclocks.domain.model import FactClass, FactVersion, Place, Plan, Tier
from twoclocks.domain.temporal import world_instant
from twoclocks.domain.trust import KeyRole


class Clock(StrEnum):
    """Which clock a timeline orders and filters by."""

    WORLD = "world"
    SYSTEM = "system"


class SlotState(BaseModel):
    """The believed versions of one slot and the slot's optimistic-concurrency counter."""

    model_config = ConfigDict(frozen=True)

    predicate: str
    """The slot's name, as it was read."""
    versions: tuple[FactVersion, ...]
    counter: int
    merged_into: str | None = None
    """The slot this name is now an alias of (a merge by hand, or drift), if any: a write
    that still reaches the name belongs there (``service.slot_writer``)."""


class FactQuery(BaseModel):
    """A read: filters on the slot and on both clocks (see domain.temporal.is_visible).

    ``workspaces``: when given, only versions whose workspace is one of these or
    has no workspace at all (unplaced) are returned. ``tiered_only``: only versions with
    a trust tier (``domain.trust.shown_to_model``), for reads whose rows go to a model.
    ``text``, ``tier``, ``place``, ``writer`` and ``fact_class`` narrow the rows a person
    lists (``query`` and ``count``; the recall legs ignore them): ``text`` is a
    case-insensitive part of the subject, slot name or value, the others equal a field.
    """

    model_config = ConfigDict(frozen=True)

    now: datetime
    subject: str | None = None
    predicate: str | None = None
    as_of: datetime | None = None
    as_believed: datetime | None = None
    include_history: bool = False
    include_later: bool = False
    """With neither clock given: the current facts and the ones believed now that start
    later (recall names what is scheduled). Ignored with ``as_of`` or ``as_believed``."""
    workspaces: tuple[str, ...] | None = None
    tiered_only: bool = False
    text: str | None = None
    tier: Tier | None = None
    place: Place | None = None
    writer: str | None = None
    fact_class: FactClass | None = None
    limit: int | None = None
    offset: int = 0

    @model_validator(mode="before")
    @classmethod
    def _about_then(cls, data: Any) -> Any:
        # "What did we believe on D" means about D: ``as_believed`` alone sets ``as_of``
        # (``domain.temporal.world_instant``), so every store applies both axes.
        if isinstance(data, dict) and data.get("as_believed") is not None:
            as_of = world_instant(
                data.get("as_of"), data["as_believed"], bool(data.get("include_history"))
            )
            data = {**data, "as_of": as_of}
        return data


class TimelineQuery(BaseModel):
    """A timeline read: every version on one clock within the half-open range [since, until).

    ``subject`` and ``predicate`` keep one subject and one slot name; ``workspaces`` as in
    ``FactQuery`` (those workspaces' rows and the unplaced ones; None: every workspace).
    ``ends_too``: on the world clock, a version whose end (``invalid_at``) falls within the
    range is read too, so "what changed this week?" hears of a value that ended then.
    ``latest``: only that many, the latest on the clock (by the end, for one read through
    ``ends_too``), still returned in the clock's order.
    """

    model_config = ConfigDict(frozen=True)

    clock: Clock
    since: datetime | None = None
    until: datetime | None = None
    subject: str | None = None
    predicate: str | None = None
    workspaces: tuple[str, ...] | None = None
    ends_too: bool = False
    latest: int | None = Field(None, ge=1)


class Episode(BaseModel):
    """The raw text or tool event a fact came from, kept dated."""

    model_config = ConfigDict(frozen=True)

    episode_id: str
    source: str
    content: str
    created_at: datetime
    valid_at: datetime
    workspace: str | None = Field(
        None,
        description="the workspace it was said or done in (a read from another one does not "
        "find it); None: no place (one kept before episodes had a place and cited by no fact of "
        "one workspace stays so)",
    )


class QueuedTurn(BaseModel):
    """A turn waiting in the store for the extractor."""

    model_config = ConfigDict(frozen=True)

    account: str
    turn_id: str
    payload: str


class SlotAlias(BaseModel):
    """A recorded slot-drift alias: ``alias`` names the slot ``canonical`` of ``subject``."""

    model_config = ConfigDict(frozen=True)

    subject: str
    alias: str
    canonical: str
    decided_by: str | None = None
    """Who merged the two names, when not the matcher's rules and similarity: the grey
    zone's judge (``model <name>``), or a merge by hand (``merge by person``)."""


class SlotsApart(BaseModel):
    """Two slot names of ``subject`` that someone said are two slots, never one.

    Recorded by a split (the merge was wrong) or by keeping a close pair apart; the
    names are stored in sorted order, so a pair is one record whichever came first.
    """

    model_config = ConfigDict(frozen=True)

    subject: str
    first: str
    second: str
    decided_by: str
    """Who said so: ``kept apart by person`` or ``kept apart by agent``."""


class ApiKey(BaseModel):
    """One API key as the store shows it: its name, role and dates, never its secret or hash."""

    model_config = ConfigDict(frozen=True)

    name: str
    role: KeyRole
    account: str
    created_at: datetime
    last_used_at: datetime | None = None
    revoked_at: datetime | None = None


class Store(Protocol):
    """A bi-temporal fact store over one graph engine."""

    async def start(self) -> None:
        """Connect and create the schema (indexes, constraints); idempotent."""

    async def close(self) -> None:
        """Release connections (and, for the embedded engine, stop its process)."""

    def health(self) -> str | None:
        """A line saying what is wrong with the engine right now, or None if nothing known."""

    def notices(self) -> list[str]:
        """What the engine found on start that the store runs without, for a person to read:
        writes a damaged file lost. Empty when nothing was found."""

    async def schema_version(self) -> int | None:
        """The layout version the store records; None for a store from before versions."""

    async def record_schema_version(self, version: int) -> None:
        """Record the layout version the store now has (after a migration, or when new)."""

    async def holds_nothing(self) -> bool:
        """True for a store never written to: no account, no fact, no version recorded."""

    async def read_slot(self, account: str, subject: str, predicate: str) -> SlotState:
        """Every believed version of the slot (any workspace), its counter, and the slot an
        alias of its name points to."""

    async def versions_of(self, account: str, fact_id: str) -> list[FactVersion]:
        """Every version of one logical fact, believed or not; empty if unknown."""

    async def fact_ids_starting(self, account: str, prefix: str, limit: int) -> list[str]:
        """Distinct fact ids that start with ``prefix``, in id order, at most ``limit``."""

    async def apply(
        self,
        account: str,
        plan: Plan,
        subject: str,
        predicate: str,
        expected_counter: int,
        embeddings: Mapping[str, Sequence[float]] | None = None,
    ) -> bool:
        """Apply the plan atomically iff the slot counter still equals ``expected_counter``.

        ``embeddings`` maps an inserted version's id to its fact embedding.

        Returns False (and changes nothing) when another writer got there first;
        the caller re-reads, re-plans and retries.
        """

    async def query(self, account: str, query: FactQuery) -> list[FactVersion]:
        """Versions matching the query, newest valid_at first."""

    async def count(self, account: str, query: FactQuery) -> int:
        """How many versions match the query, ignoring its limit and offset (a page's total)."""

    async def timeline(self, account: str, query: TimelineQuery) -> list[FactVersion]:
        """Every version in time order on the query's clock (valid_at or created_at)."""

    async def timeline_count(self, account: str, query: TimelineQuery) -> int:
        """How many versions ``timeline`` returns for the same query, without reading them."""

    async def corrected_since(
        self,
        account: str,
        since: datetime,
        until: datetime,
        workspaces: Sequence[str] | None,
        limit: int,
    ) -> list[FactVersion]:
        """Facts whose last word is a correction in [since, until) of record time, or a
        retirement as ``outdated`` (a value told with no start that a later word dated a
        change before): the last version of each (tiered only), newest first; ``workspaces``
        as in ``FactQuery``. A value a correction believed again is not one (the block's
        "corrected" and "changed …, told …" lines)."""

    def export(self, account: str) -> AsyncIterator[FactVersion]:
        """Every version of the account, both clocks, oldest record first."""

    async def export_episodes(self, account: str) -> list[Episode]:
        """Every episode of the account, oldest record first (a backup's episodes)."""

    async def episodes(self, account: str, episode_ids: Sequence[str]) -> list[Episode]:
        """The episodes with these ids (unknown ids are skipped), oldest record first."""

    async def export_aliases(self, account: str, decided_by: str | None = None) -> list[SlotAlias]:
        """Every recorded slot alias of the account (a backup's aliases), or only those
        ``decided_by`` one decider ("merge by person")."""

    async def save_episode(self, account: str, episode: Episode) -> bool:
        """Keep the raw text or event a fact came from; False when its id was stored already."""

    async def delete_fact(self, account: str, fact_id: str) -> int:
        """Physically remove every version of a fact; operator use only. Returns rows removed."""

    async def search_text(
        self, account: str, text: str, query: FactQuery, k: int
    ) -> list[FactVersion]:
        """Keyword leg: fulltext over fact text and split slot names, best first."""

    async def search_vector(
        self, account: str, vector: Sequence[float], query: FactQuery, k: int
    ) -> list[FactVersion]:
        """Vector leg: nearest fact embeddings through the engine's vector index."""

    async def search_vector_scored(
        self, account: str, vector: Sequence[float], query: FactQuery, k: int
    ) -> list[tuple[FactVersion, float]]:
        """The vector leg, each version with its cosine similarity to ``vector`` (-1 to 1)."""

    async def cosines(
        self, account: str, vector: Sequence[float], version_ids: Sequence[str]
    ) -> dict[str, float]:
        """The exact cosine to ``vector`` (-1 to 1) of each listed version with an embedding.

        For the rows other recall legs found: the vector index is approximate, so a row it
        did not return may still be close to the question.
        """

    async def entities_named(self, account: str, text: str, limit: int) -> list[str]:
        """Names of the entities a text mentions (fulltext over entity names), best first."""

    async def traverse(
        self, account: str, entities: Sequence[str], query: FactQuery, depth: int, k: int
    ) -> list[FactVersion]:
        """Graph leg: facts reachable from the entities over passing facts, nearest first.

        Every leg applies the query's clock and workspace filters (on every hop here).
        """

    async def slot_names(self, account: str, subject: str) -> dict[str, str]:
        """Every slot name the subject has, and every recorded alias, mapped to its slot name."""

    async def record_alias(self, account: str, alias: SlotAlias) -> None:
        """Remember that ``alias.alias`` names the slot ``alias.canonical`` of its subject.

        Moves the counter of the slot named ``alias.alias`` in the same statement, so a
        write to that name that read it before the alias fails its apply and reads again.
        """

    async def delete_alias(self, account: str, subject: str, alias: str) -> None:
        """Forget that ``alias`` names another slot of this subject (a split); idempotent."""

    async def record_apart(self, account: str, pair: SlotsApart) -> None:
        """Remember that two slot names of a subject are two slots (idempotent per pair)."""

    async def export_apart(self, account: str) -> list[SlotsApart]:
        """Every pair of slot names kept apart in the account (a backup's too)."""

    async def delete_apart(self, account: str, subject: str, first: str, second: str) -> None:
        """Forget that two slot names of a subject were kept apart (a merge); idempotent."""

    async def save_account(self, account: str, key_hash: str, created_at: datetime) -> bool:
        """Register an account with its hashed person key; False if the name is taken."""

    async def account_for_key(self, key_hash: str) -> str | None:
        """The account a live (not revoked) hashed key names, or None."""

    async def save_key(
        self, account: str, name: str, role: KeyRole, key_hash: str, created_at: datetime
    ) -> bool:
        """Add a key to an account; False when a live key of the account has that name."""

    async def key_by_hash(self, key_hash: str) -> ApiKey | None:
        """The key (live or revoked) with this hash, or None."""

    async def keys_of(self, account: str) -> list[ApiKey]:
        """Every key of the account, revoked ones too, oldest first."""

    async def rotate_key(
        self, account: str, name: str, key_hash: str, at: datetime
    ) -> ApiKey | None:
        """Give a live key a new secret (the old one stops working); None when no such key."""

    async def revoke_key(self, account: str, name: str, at: datetime) -> ApiKey | None:
        """Revoke a live key for good (kept, listed as revoked); None when no such key."""

    async def touch_key(self, key_hash: str, at: datetime) -> None:
        """Record that the key was used at ``at``."""

    async def adopt_account_keys(self) -> int:
        """Schema 1 -> 2: each account's single key becomes its person key; how many."""

    async def place_unplaced_episodes(self, account: str | None = None) -> int:
        """Episodes kept with no place take their facts' one workspace; how many.

        Schema 2 -> 3 for every account (None), and one account's restored old backup."""

    async def outdate_told_late(self, account: str | None = None) -> int:
        """Values told with no start that a dated word overruled, kept as ``corrected``
        before schema 5, are retired as ``outdated``; how many.

        Schema 4 -> 5 for every account (None), and one account's restored old backup."""

    async def account_settings(self, account: str) -> str | None:
        """The account's settings as JSON text, or None when never saved."""

    async def save_account_settings(self, account: str, settings: str) -> bool:
        """Replace the account's settings (JSON text); False if there is no such account."""

    async def search_episodes(
        self, account: str, text: str, k: int, workspaces: Collection[str] | None = None
    ) -> list[Episode]:
        """Episodes whose content matches the text (fulltext), newest first among matches.

        ``workspaces`` as in ``FactQuery``: those workspaces' episodes and the unplaced ones.
        """

    async def queue_turn(self, account: str, turn_id: str, payload: str, at: datetime) -> bool:
        """Queue a turn (JSON text) for the extractor; False when this id was queued before."""

    async def queued_turns(self, account: str | None, limit: int) -> list[QueuedTurn]:
        """The oldest queued turns of one account (or of every account when None)."""

    async def finish_turn(self, account: str, turn_id: str, state: str, at: datetime) -> bool:
        """Mark a queued turn done (its text is dropped); False when it was not queued."""

    async def turn_counts(self, account: str) -> dict[str, int]:
        """The account's queued turns by state (queued, extracted, failed, ...)."""

    async def top_predicates(self, account: str, limit: int) -> list[str]:
        """The account's most used predicates, most versions first."""

    async def note_workspace(self, account: str, key: str, space: str) -> None:
        """Register that facts are written under workspace ``key`` from ``space`` (idempotent)."""

    async def workspace_spaces(self, account: str) -> list[tuple[str, str]]:
        """Every registered (workspace key, space) pair of the account."""


EPISODE_SOURCES: Sequence[str] = ("remember", "tool", "turn")
