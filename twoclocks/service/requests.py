"""The shapes every entry point (HTTP, MCP, CLI, hooks) hands to the service, and gets back."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationInfo,
    field_validator,
    model_validator,
)

from twoclocks.domain.model import (
    MAX_TEXT,
    Cardinality,
    FactClass,
    FactVersion,
    Kind,
    Outcome,
    Place,
    RetiredReason,
    Tier,
    require_aware,
    require_one_line,
    require_printable,
)
from twoclocks.domain.places import seen_from
from twoclocks.domain.trust import Channel, Writer
from twoclocks.graph.port import Clock

STRICT = ConfigDict(extra="forbid", populate_by_name=True)
"""Requests refuse fields they do not know: a typo is an error, never ignored."""


def _printable(value: str, info: ValidationInfo) -> str:
    return require_printable(value, info.field_name or "text")


def _one_line(value: str, info: ValidationInfo) -> str:
    return require_one_line(value, info.field_name or "text")


Text = Annotated[str, AfterValidator(_printable)]
"""A string with no control characters other than newline and tab (evidence, a query, a path)."""

Line = Annotated[str, AfterValidator(_one_line)]
"""A short field shown on one line (subject, predicate, object, category): stripped, and
refused if it holds a newline, tab, any other control or a bidi control."""


class Caller(BaseModel):
    """Who is asking: the account (from the API key), the writer and the channel."""

    model_config = ConfigDict(frozen=True)

    account: str
    writer: Writer = Writer.AGENT
    channel: Channel = Channel.HTTP


class RememberRequest(BaseModel):
    """A new fact; `evidence` is the person's own message, for the asserted check."""

    model_config = STRICT

    subject: Line = Field(min_length=1, max_length=MAX_TEXT, description="What the fact is about")
    predicate: Line = Field(min_length=1, max_length=MAX_TEXT, description="The slot name")
    object: Line = Field(min_length=1, max_length=MAX_TEXT, description="The value")
    valid_at: datetime | None = Field(
        None,
        description="When it became true (default: now, stored with start_stated false: "
        "a later write that dates the change earlier replaces it)",
    )
    invalid_at: datetime | None = Field(
        None,
        description="When it stops being true, when that is known already (a deploy freeze "
        "until January 4, a cover on call until Friday): after valid_at (or now), a fact only; "
        "the slot's value it interrupts holds again from then. Default: until changed",
    )
    kind: Kind = Field(Kind.FACT, description="fact (holds until changed) or event (happened once)")
    cardinality: Cardinality | None = Field(None, description="one or many current values")
    tier: Tier | None = Field(
        None,
        description="asserted / observed / inferred; default: the writer's own "
        "(the person: asserted, a tool rule: observed, an agent: inferred)",
    )
    fact_class: FactClass | None = Field(None, alias="class", description="sets the default place")
    category: Line | None = Field(None, max_length=40, description="e.g. env, git, build")
    cwd: Text | None = Field(None, max_length=4096, description="the session's working directory")
    evidence: Text | None = Field(None, max_length=10_000, description="the person's own message")

    @field_validator("valid_at", "invalid_at")
    @classmethod
    def _aware(cls, value: datetime | None, info: ValidationInfo) -> datetime | None:
        return require_aware(value, info.field_name or "valid_at")


class ReplacedValue(BaseModel):
    """A value a write closed or overruled: it stays as history."""

    fact_id: str
    object: str
    retired_reason: RetiredReason | None = Field(
        None,
        description="how it left: ended (it held until the new value's valid_at), outdated "
        "(told with no start; the new value dates a change before it was told), corrected (a "
        "guess the person's dated word contradicts)",
    )


class RetractResult(BaseModel):
    """The fact a retract closed, and what its slot holds (or does not) after it."""

    fact_id: str
    status: str = Field(
        "retracted", description="retracted, or held_back for a fact the refusal watch held"
    )
    left_ended: list[ReplacedValue] = Field(
        default_factory=list,
        description="when the slot holds no value after the retract: the values this fact "
        "had replaced, which stay ended (or outdated or corrected, where this fact's dated "
        "word overruled them). A retract gives nothing back; if the fact was never "
        "true, reopen it and revise it with reason corrected (that believes them again), or "
        "remember a value that holds again",
    )


class NearSlot(BaseModel):
    """A slot of the subject whose name is close to the one written, yet was not merged.

    Slot drift merges two names only when it is sure; between its grey floor and its
    threshold it keeps them apart (``owner`` / ``maintainer`` may be one slot or two) and
    says so here, so the writer, who knows, can decide.
    """

    predicate: str = Field(description="the existing slot's name")
    values: list[str] = Field(description="its current values that the writer can see")
    similarity: float = Field(description="how close the two names scored (the grey zone)")


class HeldAfter(BaseModel):
    """The value of a slot that starts where a late, older write stops, and goes on holding."""

    fact_id: str
    object: str
    valid_at: datetime = Field(description="when it began, or, start_stated false, was told")
    start_stated: bool = Field(
        description="false: told with no start; only a word at least as trusted as its tier "
        "that dates a change before it replaces it"
    )
    tier: Tier | None


class RememberResult(BaseModel):
    """What a write did; `predicate` is the slot name used after drift merging."""

    fact_id: str
    version_id: str
    outcome: Outcome
    predicate: str
    closed: list[str] = Field(
        description="the current facts this write closed: ended where it starts, or, for "
        "an agent's guess the person's own word says was never true, corrected, or, for a "
        "value told with no start that this write dates a change before, outdated"
    )
    replaced: list[ReplacedValue] = Field(
        default_factory=list,
        description="the values `closed` ended, with their text: what this write replaced",
    )
    written_as: str | None = Field(
        None,
        description="the name the writer used, when slot drift wrote the fact under the "
        "existing slot `predicate` instead; POST /v1/aliases/split (`twoclocks split`) "
        "makes it its own slot again",
    )
    tier: Tier = Field(description="the tier stored (the writer's default when none was given)")
    invalid_at: datetime | None = Field(
        None,
        description="when the value stored stops being true, if it has an end: where a later "
        "value of the slot starts (outcome stored_closed), or the end the writer gave",
    )
    tier_lowered: str | None = Field(
        None, description="why the tier stored is lower than the one asked for, if it is"
    )
    place: Place | None = Field(
        None,
        description="where the fact applies: everywhere, repo, project or worktree (the level"
        " of `workspace`; everywhere when the write had no working directory)",
    )
    workspace: str | None = Field(
        None,
        description="the repo, project or worktree the fact is kept in; a read from another "
        "workspace does not see it (null: seen everywhere). A fact about the person applies "
        "everywhere only with class user",
    )
    raised: str | None = Field(
        None,
        description="for a restatement that vouched more than the fact held (a higher tier, a "
        "wider place), what it raised, e.g. 'tier inferred -> asserted'",
    )
    held_after: HeldAfter | None = Field(
        None,
        description="with outcome stored_closed: the slot's value that starts where this one "
        "stops and goes on holding (a late, older value does not replace it). Told with no "
        "start (start_stated false) and at a higher tier than the one stored, it was kept "
        "over this write: the person's own word dating the change (tier asserted, their "
        "message as evidence) replaces it",
    )
    near_slot: NearSlot | None = Field(
        None,
        description="an existing slot of the subject whose name is close to `predicate` and "
        "that holds the same kind of thing, but was not merged with it: both values are "
        "current now. If the two name one thing, POST /v1/aliases/merge (`twoclocks merge`) "
        "makes them one slot, POST /v1/aliases/apart (`twoclocks keep-apart`) stops the "
        "hint; GET /v1/aliases/close lists every such pair",
    )


class Replacement(BaseModel):
    """The successor of a revised fact; its window is set by the revision."""

    model_config = STRICT

    object: str = Field(min_length=1, max_length=MAX_TEXT, description="the new value")
    predicate: str | None = Field(
        None, min_length=1, max_length=MAX_TEXT, description="a new slot name, if it changes"
    )
    tier: Tier | None = Field(None, description="asserted / observed / inferred")
    evidence: str | None = Field(None, max_length=10_000, description="the person's own message")

    @field_validator("object", "predicate")
    @classmethod
    def _one_line(cls, value: str | None, info: ValidationInfo) -> str | None:
        # Named as the caller sent it, inside the revision body.
        return None if value is None else require_one_line(value, f"replacement.{info.field_name}")

    @field_validator("evidence")
    @classmethod
    def _printable(cls, value: str | None) -> str | None:
        return None if value is None else require_printable(value, "replacement.evidence")


class ReviseRequest(BaseModel):
    """Retire a fact: `ended` (the world changed) or `corrected` (it was never true)."""

    model_config = STRICT

    reason: Literal[RetiredReason.ENDED, RetiredReason.CORRECTED] = Field(
        description="ended: the world changed; corrected: it was never true"
    )
    at: datetime | None = Field(None, description="for ended: when it stopped being true")
    replacement: Replacement | None = Field(None, description="the successor's value")

    @field_validator("at")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return require_aware(value, "at")


class ReviseResult(BaseModel):
    """The revised fact and its successor, if one was given."""

    fact_id: str
    successor_id: str | None
    successor_tier: Tier | None = Field(None, description="the successor's stored tier")
    tier_lowered: str | None = Field(
        None, description="why the successor's tier is lower than the one asked for, if it is"
    )
    restored: list[str] = Field(
        default_factory=list,
        description="facts a correction believed open again (what the mistaken write closed)",
    )
    values: dict[str, str] = Field(
        default_factory=dict,
        description="the value of each fact in `restored`, by fact id: what holds again",
    )


MAX_PAGE = 1000
"""The largest page GET /v1/facts answers with a limit."""


class FactsRequest(BaseModel):
    """A read on either clock or both."""

    model_config = STRICT

    subject: Line | None = Field(None, max_length=MAX_TEXT, description="only this subject")
    predicate: Line | None = Field(None, max_length=MAX_TEXT, description="only this slot name")
    as_of: datetime | None = Field(None, description="what was true at this valid time")
    as_believed: datetime | None = Field(
        None,
        description="what the store believed at this record time, about that same time "
        "unless as_of is given (with include_history: every version it held then)",
    )
    include_history: bool = Field(False, description="every version, not only current ones")
    include_later: bool = Field(
        False,
        description="also the values believed now that start later (valid_at after now: "
        '"deploy freeze from the 20th", read on the 4th); a read of now only, so not with '
        "as_of or as_believed",
    )
    text: Line | None = Field(
        None,
        max_length=MAX_TEXT,
        description="only rows whose subject, slot name, value or workspace holds this text "
        "(any case)",
    )
    tier: Tier | None = Field(None, description="only this tier")
    place: Place | None = Field(None, description="only this place")
    writer: Writer | None = Field(None, description="only rows this writer wrote")
    fact_class: FactClass | None = Field(None, description="only this class of fact")
    limit: int | None = Field(
        None,
        ge=1,
        le=MAX_PAGE,
        description=f"at most this many rows (1 to {MAX_PAGE}), newest valid_at first; the "
        "answer's total then counts every match. None: every row, no total",
    )
    offset: int = Field(0, ge=0, description="skip this many rows first (with limit: the page)")
    count: bool = Field(
        True,
        description="with a limit: also count every match into total; false answers the page "
        "alone (total null), sooner on a large account",
    )
    cwd: Text | None = Field(None, max_length=4096, description="the session's working directory")
    all_workspaces: bool = Field(
        False,
        description="every workspace of the account, not only cwd's (the person's CLI only; "
        "an agent's read stays in its workspace: 403)",
    )

    @field_validator("as_of", "as_believed")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return require_aware(value)

    @model_validator(mode="after")
    def _later_reads_now(self) -> FactsRequest:
        # "What starts later" is relative to now; beside a clock it would silently mean nothing.
        if self.include_later and (self.as_of is not None or self.as_believed is not None):
            raise ValueError(
                "include_later adds what starts after now to a read of now: drop as_of and "
                "as_believed, or ask as_of the later date instead"
            )
        return self


TIMELINE_TEXT = 500
"""The longest subject or slot name a timeline read takes."""


class TimelineRequest(BaseModel):
    """A read of every version in time order on one clock, in the caller's workspace."""

    model_config = STRICT

    clock: Clock = Field(Clock.WORLD, description="world orders by valid_at, system by created_at")
    since: datetime | None = Field(None, description="inclusive")
    until: datetime | None = Field(None, description="exclusive")
    subject: Line | None = Field(None, max_length=TIMELINE_TEXT, description="only this subject")
    predicate: Line | None = Field(
        None,
        max_length=TIMELINE_TEXT,
        description="only this slot name (with subject: its aliases too, as GET /v1/facts)",
    )
    cwd: Text | None = Field(
        None,
        max_length=4096,
        description="the session's working directory: its workspace's rows and the unplaced "
        "ones (none: the unplaced ones only)",
    )
    all_workspaces: bool = Field(
        False,
        description="every workspace of the account (the person's CLI only; an agent's read "
        "stays in its workspace: 403)",
    )

    @field_validator("since", "until")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return require_aware(value)


class Fact(BaseModel):
    """One version of a fact as the wire shows it, both clocks included."""

    fact_id: str
    version_id: str
    subject: str
    predicate: str
    object: str
    kind: Kind
    tier: Tier | None
    place: Place | None
    workspace: str | None
    valid_at: datetime
    invalid_at: datetime | None
    created_at: datetime
    expired_at: datetime | None
    retired_reason: RetiredReason | None = Field(
        description="why it is history: ended (the world changed), corrected (never true), "
        "outdated (told with no start, and a later word dates a change before it was told), "
        "retracted, held_back (closed by the refusal watch), rewritten (the same value "
        "written again: still true in a later version); null while it holds"
    )
    supersedes: str | None
    writer: str | None = Field(
        None, description="who wrote it: person, agent, tool_rule, extractor"
    )
    fact_class: FactClass | None = Field(None, description="what it is about (sets its place)")
    written_as: str | None = Field(
        None,
        description="the predicate the writer used, when slot drift filed the fact under "
        "`predicate` (split the alias to undo it)",
    )
    start_stated: bool = Field(
        True,
        description="false when the writer gave no valid_at: valid_at is then when the "
        "store was told, not when the value became true",
    )

    @classmethod
    def of(cls, version: FactVersion) -> Fact:
        """The wire form of a stored version, its place the one its readers see it in."""
        # A row kept under no workspace key is seen everywhere, whatever its class asked
        # for (stores written before 2026-12-06 kept "worktree" for a write with no cwd).
        wire = version.model_dump(include=set(cls.model_fields)) | {"place": seen_from(version)}
        return cls.model_validate(wire)
