"""The fact and its two clocks: the value types every other module speaks.

A fact is ``subject -predicate-> object``; ``(subject, predicate)`` is its slot.
Each stored row is one immutable *version* of a logical fact (``fact_id`` groups
the versions). Two half-open intervals, start inclusive and end exclusive:

* valid (world) time ``[valid_at, invalid_at)``: when it was true; set by the writer;
* record (belief) time ``[created_at, expired_at)``: when the store held it; set
  only from the store's own clock.

A version never changes after it is written except that ``expired_at`` (with the
``retired_reason`` that explains it) is set once, and ``episodes`` may grow when a
restatement confirms it.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from twoclocks.domain.errors import InvalidInput, NaiveDatetime

MAX_TEXT = 500
"""Longest subject, predicate or object accepted, in characters."""


class Kind(StrEnum):
    """A fact holds until something changes it; an event happened once, replacing nothing."""

    FACT = "fact"
    EVENT = "event"


class Cardinality(StrEnum):
    """How many current values a slot holds."""

    ONE = "one"
    MANY = "many"


class Tier(StrEnum):
    """Who could witness the fact; set from the writer, never from the text."""

    INFERRED = "inferred"
    OBSERVED = "observed"
    ASSERTED = "asserted"


class Place(StrEnum):
    """Where a fact applies, widest first."""

    EVERYWHERE = "everywhere"
    REPO = "repo"
    PROJECT = "project"
    WORKTREE = "worktree"


class FactClass(StrEnum):
    """What a fact is about; the class sets its default place."""

    USER = "user"
    RULE = "rule"
    PROJECT = "project"
    ENVIRONMENT = "environment"
    DECISION = "decision"
    TASK = "task"


class RetiredReason(StrEnum):
    """Why a version is no longer the live truth.

    ``ended``: the world changed (world axis closed). ``corrected``: it was never
    true (belief axis, terminal). ``retracted``: forgotten on request (belief
    axis, can be reopened). ``held_back``: a model's fact the refusal watch closed
    (domain.refusal_watch; belief axis, the person can restore it). ``rewritten``: the
    same value and window written again, by someone who vouches more
    (domain.write_plan) or under another slot name (domain.slot_merge,
    domain.alias_split); belief axis, the value still holds in the version that
    replaced it. ``outdated``: a value told with no start (``start_stated`` false) that a
    later word, at least as trusted, says had already changed before it was told
    (domain.write_plan, "a start nobody stated"); belief axis, terminal: its told window
    never held, though the value may well have held before the change, so it is not
    ``corrected`` (never true).
    """

    ENDED = "ended"
    CORRECTED = "corrected"
    RETRACTED = "retracted"
    HELD_BACK = "held_back"
    REWRITTEN = "rewritten"
    OUTDATED = "outdated"


class Outcome(StrEnum):
    """What a write did."""

    INSERTED = "inserted"
    RESTATED = "restated"
    STORED_CLOSED = "stored_closed"


class FactStatus(StrEnum):
    """A logical fact's state, read off its versions."""

    LIVE = "live"
    ENDED = "ended"
    CORRECTED = "corrected"
    RETRACTED = "retracted"
    HELD_BACK = "held_back"
    OUTDATED = "outdated"
    FOLDED = "folded"
    """No version believed, the last rewritten: another fact holds its value (a slot merge
    folded it into a fact that said the same). Revise, retract and reopen refuse it and
    say so: the fact holding the value is the one to act on."""


def require_aware(value: datetime | None, field: str = "time") -> datetime | None:
    """Refuse a naive datetime: twoclocks never guesses a time zone."""
    if value is not None and (value.tzinfo is None or value.utcoffset() is None):
        raise NaiveDatetime(
            f"{field} has no UTC offset: send RFC 3339 with an offset, "
            f"e.g. 2026-01-10T09:00:00+00:00"
        )
    return value


_CONTROL = {chr(c) for c in range(32) if chr(c) not in "\n\t"} | {"\x7f"}

_BIDI = frozenset({"\u061c", "\u200e", "\u200f"} | {chr(c) for c in range(0x202A, 0x202F)})
_BIDI |= {chr(c) for c in range(0x2066, 0x206A)}
_NOT_ON_ONE_LINE = (
    {chr(c) for c in range(32)} | {chr(c) for c in range(0x7F, 0xA0)} | {"\u2028", "\u2029"} | _BIDI
)
"""Characters a short field may not hold: every C0 and C1 control (newline, tab and CR
included), the Unicode line and paragraph separators, and the bidi controls that reorder
what a terminal or a model shows. Each of them lets a value pose as another line or hide
what it says."""


def require_printable(value: str, field: str = "text") -> str:
    """Refuse control characters (NUL and the like), which no engine stores faithfully, and
    lone surrogates, which are not text at all (the tokenizer and the engines reject them)."""
    bad = next((ch for ch in value if ch in _CONTROL or "\ud800" <= ch <= "\udfff"), None)
    if bad is None:
        return value
    what = "a lone surrogate" if "\ud800" <= bad <= "\udfff" else "the control character"
    raise InvalidInput(f"{field} contains {what} U+{ord(bad):04X}: remove it and send again")


def require_one_line(value: str, field: str) -> str:
    """Strip a short field and refuse what could forge a line or reorder it when shown.

    Surrounding whitespace (a trailing newline from a shell) is stripped first; inside the
    text, a newline, tab, CR, any other C0/C1 control or a bidi control is refused, since a
    subject, predicate or object is printed on one line of a list the model trusts.
    """
    text = require_printable(value.strip(), field)
    bad = next((ch for ch in text if ch in _NOT_ON_ONE_LINE), None)
    if bad is not None:
        what = "a bidi control" if bad in _BIDI else "the control character"
        raise InvalidInput(
            f"{field} contains {what} U+{ord(bad):04X}; it must be one line of plain text: "
            "remove it (longer text belongs in evidence) and send again"
        )
    return text


def on_one_line(text: str) -> str:
    """``text`` as it may be printed on one line: each forbidden character as a visible escape.

    For rows stored before the one-line rule, or imported from elsewhere, so that no
    printed list can be forged by a value, whatever the store holds.
    """
    if not any(ch in _NOT_ON_ONE_LINE for ch in text):
        return text
    return "".join(f"\\u{ord(ch):04x}" if ch in _NOT_ON_ONE_LINE else ch for ch in text)


def require_text(value: str, field: str) -> str:
    """Strip and check a subject, predicate or object: one line, non-empty, at most MAX_TEXT."""
    text = require_one_line(value, field)
    if not text:
        raise InvalidInput(f"{field} is empty: give a short non-empty text")
    if len(text) > MAX_TEXT:
        raise InvalidInput(
            f"{field} has {len(text)} characters; the limit is {MAX_TEXT}: store a shorter fact"
        )
    return text


class FactVersion(BaseModel):
    """One immutable row: a version of a logical fact with both clocks."""

    model_config = ConfigDict(frozen=True)

    version_id: str
    fact_id: str
    subject: str
    predicate: str
    object: str
    kind: Kind = Kind.FACT
    cardinality: Cardinality = Cardinality.ONE
    tier: Tier | None = None
    fact_class: FactClass | None = None
    category: str | None = None
    place: Place | None = None
    workspace: str | None = None
    valid_at: datetime
    invalid_at: datetime | None = None
    created_at: datetime
    expired_at: datetime | None = None
    retired_reason: RetiredReason | None = None
    supersedes: str | None = None
    episodes: tuple[str, ...] = ()
    writer: str | None = None
    written_as: str | None = None
    """The predicate the writer used when slot drift filed the fact under another name."""
    start_stated: bool = True
    """False when the writer gave no start: ``valid_at`` is then only when the store was
    told, and a later word that dates the slot's change earlier overrules it
    (``domain.write_plan``: "a start nobody stated")."""

    @field_validator("valid_at", "invalid_at", "created_at", "expired_at")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return require_aware(value)

    @property
    def slot(self) -> tuple[str, str]:
        """The (subject, predicate) pair this version fills."""
        return (self.subject, self.predicate)

    @property
    def believed(self) -> bool:
        """True while the store still holds this version (record clock open)."""
        return self.expired_at is None


class Incoming(BaseModel):
    """A write as the planner sees it: already validated, placed and tiered."""

    model_config = ConfigDict(frozen=True)

    subject: str
    predicate: str
    object: str
    valid_at: datetime
    kind: Kind = Kind.FACT
    cardinality: Cardinality | None = None
    tier: Tier | None = None
    fact_class: FactClass | None = None
    category: str | None = None
    place: Place | None = None
    workspace: str | None = None
    episode_id: str | None = None
    writer: str | None = None
    supersedes: str | None = None
    invalid_at: datetime | None = None
    written_as: str | None = None
    start_stated: bool = True

    @field_validator("subject", "predicate", "object")
    @classmethod
    def _text(cls, value: str, info: ValidationInfo) -> str:
        return require_text(value, info.field_name or "text")

    @field_validator("category")
    @classmethod
    def _category(cls, value: str | None) -> str | None:
        return None if value is None else require_one_line(value, "category")

    @field_validator("valid_at", "invalid_at")
    @classmethod
    def _aware(cls, value: datetime | None) -> datetime | None:
        return require_aware(value)


class Expiry(BaseModel):
    """Close one version on the record clock, saying why."""

    model_config = ConfigDict(frozen=True)

    version_id: str
    reason: RetiredReason


class EpisodeLink(BaseModel):
    """Add an episode to an existing version's provenance (a restatement confirmed it)."""

    model_config = ConfigDict(frozen=True)

    version_id: str
    episode_id: str


class Plan(BaseModel):
    """What a store must apply, all or nothing, in one transaction.

    ``now`` is the record time of every change in the plan: inserted versions get
    ``created_at = now`` and expired ones ``expired_at = now``.
    """

    model_config = ConfigDict(frozen=True)

    now: datetime
    expire: tuple[Expiry, ...] = ()
    insert: tuple[FactVersion, ...] = ()
    link_episodes: tuple[EpisodeLink, ...] = ()
    outcome: Outcome = Outcome.INSERTED
    fact_id: str = ""
    version_id: str = ""
    predicate: str = ""
    closed: tuple[str, ...] = Field(default=())
    successor_id: str | None = None
    folded: tuple[tuple[str, str], ...] = Field(
        default=(), description="(fact, the fact it was folded into): a merge's same values"
    )

    @property
    def changes_anything(self) -> bool:
        """False for a plan that only reports (nothing to expire, insert or link)."""
        return bool(self.expire or self.insert or self.link_episodes)
