"""The shapes slot-drift's entry points (list, split, merge, keep apart) hand to the service
(service.slot_aliases), and get back."""

from __future__ import annotations

from pydantic import BaseModel, Field

from twoclocks.domain.model import MAX_TEXT
from twoclocks.service.requests import STRICT, Line


class AliasesRequest(BaseModel):
    """Which slot-drift merges and kept-apart pairs to list: the account's, or one subject's."""

    model_config = STRICT

    subject: Line | None = Field(
        None, min_length=1, max_length=MAX_TEXT, description="only this subject's"
    )


class SplitAliasRequest(BaseModel):
    """Undo a slot-drift merge: the alias becomes its own slot again."""

    model_config = STRICT

    alias: Line = Field(max_length=MAX_TEXT, description="the name the writer used (written_as)")
    subject: Line | None = Field(
        None, max_length=MAX_TEXT, description="whose alias; needed when several subjects have it"
    )


class SplitAliasResult(BaseModel):
    """What a split did: facts moved back to the alias's slot, facts believed open again."""

    subject: str
    alias: str
    canonical: str = Field(description="the slot the alias had been merged into")
    moved: list[str] = Field(description="facts now filed under the alias again")
    reopened: list[str] = Field(
        description="facts of the canonical slot whose end the merge had caused, open again"
    )
    values: dict[str, str] = Field(
        default_factory=dict,
        description="the value of each fact in `moved` and `reopened`, by fact id",
    )


class MergeSlotRequest(BaseModel):
    """Merge what slot drift missed: one slot name becomes an alias of another."""

    model_config = STRICT

    subject: Line = Field(min_length=1, max_length=MAX_TEXT, description="whose slots")
    alias: Line = Field(
        min_length=1,
        max_length=MAX_TEXT,
        description="the slot name to fold in; it becomes an alias",
    )
    canonical: Line = Field(
        min_length=1, max_length=MAX_TEXT, description="the slot it joins, which keeps its name"
    )


class KeepApartRequest(BaseModel):
    """Two slot names of a subject are two slots: drift never merges them, nor lists them."""

    model_config = STRICT

    subject: Line = Field(min_length=1, max_length=MAX_TEXT, description="whose slots")
    slot: Line = Field(min_length=1, max_length=MAX_TEXT, description="one slot name")
    other: Line = Field(min_length=1, max_length=MAX_TEXT, description="the other slot name")


class MergeSlotResult(BaseModel):
    """What a merge did: facts filed under the other slot, values it made history."""

    subject: str
    alias: str
    canonical: str = Field(description="the slot the alias now names")
    moved: list[str] = Field(description="facts now filed under `canonical`, written_as `alias`")
    closed: list[str] = Field(
        description="facts that were current and are history now: the later value of the "
        "one slot replaced them, as a write would have"
    )
    folded: dict[str, str] = Field(
        default_factory=dict,
        description="facts that said again what the other slot already said, over its own "
        "time, each with the fact it is now one with (which keeps its start, its "
        "episodes too): the same value under two names is one fact",
    )
    teaches: bool = Field(
        False,
        description="whether the two names now join for every other subject too: a merge "
        "by the person does, unless the person kept the same two names apart elsewhere",
    )
    values: dict[str, str] = Field(
        default_factory=dict,
        description="the value of each fact in `moved`, `closed` and `folded`, by fact id",
    )
