"""What recall and the first-turn block take and answer: the wire models, no behaviour.

Kept apart from ``service.recall`` so the edges that only speak the protocol (the MCP
stdio server forwarding to a running server, the API's schema) load the models without
recall's ranking, the store port and the rest of the service.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from twoclocks.domain.block import DEFAULT_BUDGET, MIN_BUDGET
from twoclocks.domain.errors import InvalidInput
from twoclocks.domain.model import require_aware
from twoclocks.domain.named_times import NamedTime
from twoclocks.domain.scope import Scope
from twoclocks.service.requests import Fact, Text

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


class NamedSpan(BaseModel):
    """A time a question names in words, as recall read it: a past one
    (``domain.named_times``) or one to come (``domain.times_to_come``)."""

    said: str = Field(description="the question's words, e.g. 'in march'")
    label: str = Field(description="the time they name, e.g. 'March 2026'")
    since: datetime = Field(description="its start, in the account's zone")
    until: datetime = Field(description="its end (exclusive); now for 'the past week'")

    @classmethod
    def of(cls, named: NamedTime) -> NamedSpan:
        """The wire form of a domain ``NamedTime``."""
        return cls(said=named.said, label=named.label, since=named.start, until=named.end)


class RecallResult(BaseModel):
    """rows, empty (a measured 'no record'), or unavailable (the store could not answer)."""

    status: Status
    facts: list[ScoredFact]
    starting_later: list[ScoredFact] = Field(
        default_factory=list,
        description="asked of the present (no as_of, as_believed or include_history): up "
        "to 3 facts believed now that start later and rank among the k best for the "
        "question, best first. Not true yet, so never in `facts`; `as_of` a time after "
        "their valid_at reads them as facts. A question asking nothing but what is to come "
        "('what's coming up?', 'anything planned next week?') gets every fact that starts "
        "after now and holds in its `time_to_come`, soonest first, up to k",
    )
    starting_later_more: int = Field(
        0,
        description="with a question asking nothing but what is to come: how many more "
        "facts starting later hold in its `time_to_come` than `starting_later` names (k of "
        "them)",
    )
    later_first: bool = Field(
        False,
        description="true when a fact of `starting_later` matches the question better than "
        'every fact of `facts` ("is there a deploy freeze?" with one from the 10th, and '
        "the current rows about other slots): the plan is the answer, the rows rank below "
        "it. Never when a fact of `facts` holds the plan's slot now (unless the question asks "
        "what is to come: 'what will we use in February?'), nor when the question names a "
        "past time, an ended slot or asks what changed (`changes_in`). With `time_to_come`: "
        "true when the plan holds then and holds the first row's slot, or matches better "
        "than every row",
    )
    elsewhere: int | None = Field(
        None,
        description="when scope here finds nothing, or finds rows none of which is about "
        "the thing the question names, or none of which holds a word of the question: how "
        "many facts (about that thing, or holding its words and ranked above every row "
        "here) the same question finds in the space's other workspaces (scope wide reads "
        "them); null otherwise",
    )
    named_time: NamedSpan | None = Field(
        None,
        description="asked of the present: the past time the question names in words ('in "
        "March', 'last year', 'two weeks ago', an ISO date), read in the account's zone, or "
        "the time before a value it names ('before Discord': from the start of the value that "
        "ended last by then); null when it names none. `facts` still hold now; `held_then` "
        "names what held then",
    )
    time_to_come: NamedSpan | None = Field(
        None,
        description="asked of the present, naming no past time: the time to come the "
        "question names in words ('tomorrow', 'next week', 'in two weeks', 'next Friday', "
        "'on December 15', a later ISO date, 'in February' asked with 'will'), read in the "
        "account's zone; null when it names none. `facts` still hold now; the facts of "
        "`starting_later` that hold then are named first, and `later_first` is true when "
        "the first of them holds the first row's slot then (Ravi on call next week, Dana "
        "now) or matches the question better than every row. A question asking of nothing "
        "but what is to come ('what's coming up?', 'anything planned next week?') names "
        "that time, or 'from now on (no time named)', and `starting_later` holds every fact "
        "that starts in it first, soonest first, whatever its words (score 0)",
    )
    held_then: list[ScoredFact] = Field(
        default_factory=list,
        description="with named_time: up to 3 facts memory believes held during that time and "
        "have ended since, or, of an event slot, up to 10 events that happened in it (an "
        "event happens once, at its valid_at), in the order they began; `as_of` a time "
        "within it reads that time whole",
    )
    then_believed: bool = Field(
        False,
        description="with named_time: true when the question asks what memory believed then "
        "('what did you think our host was on Tuesday?'); held_then then lists up to 3 facts "
        "memory believed at the start and at the end of that time, each about that instant "
        "(as_believed and as_of both then; at a moment named, at it alone), the two reads' best "
        "in turn, each with its record as it stands now (expired_at and "
        "retired_reason say a belief corrected since), and still_held is empty",
    )
    still_held: list[ScoredFact] = Field(
        default_factory=list,
        description="with named_time: up to 3 facts of the slot the question asks about "
        "that memory believes held during that time and still hold now, in the order they "
        "began (Ana and Chen, maintainers in April and now, beside Bo in `held_then`, who "
        "left in September; Dana, from June, is not one); when nothing of that slot ended "
        "(held_then empty), only when it is the slot of the first row of `facts`. Rows of "
        "`facts` too when among the k best, so a surface names them once, here",
    )
    told_later: list[ScoredFact] = Field(
        default_factory=list,
        description="with a past as_of: up to 3 facts believed now, best first, whose start "
        "nobody stated (start_stated false), told after as_of, of slots `facts` has nothing "
        "for, each matching the question at least as well as the best of `facts`: not true "
        "then on the record, yet they may have held; memory does not know. With a past time "
        "the question names (`named_time`) and nothing in `held_then` or `still_held`, first "
        "the asked slot's values told with no start that a later word outdated (status "
        "outdated), when that word's value began after the time began",
    )
    ended: list[ScoredFact] = Field(
        default_factory=list,
        description="asked of the present, with no past time named: for up to 2 slots the "
        "question names, by name (every word of the slot name in the question) or by a value "
        "they held, that no row "
        "of `facts` has and that hold no value now, nor one starting later, the slot's last "
        "value believed, ended since ('what was our release cadence?' after it ended with "
        "nothing after it). Not true now; `score` here is the share of the question's "
        "words its slot name and value hold",
    )
    ended_values: list[ScoredFact] = Field(
        default_factory=list,
        description="asked of the present, with no past time named: values the question "
        "names of up to 2 slots, ended since, while the slot holds other values now and none "
        "of them is the same value ('is Bo still a maintainer?' after Bo's value ended): the "
        "rows of `facts` do not say it ended. Of a one-value slot, only when its value now "
        "did not begin, by a stated start, at that end ('do we still use Heroku?', Heroku "
        "ended in March, Render from June), or when the question asks whether it held at all "
        "('did we ever use SQLite?'). A value found wrong is named too, whatever replaced it "
        "('is the ci still GitHub Actions?' after it was corrected to Buildkite): its "
        "`retired_reason` is `corrected`, never true. Not true now; `score` as for `ended`",
    )
    changes_in: NamedSpan | None = Field(
        None,
        description="asked of the present by a question asking what changed ('what changed "
        "this week?', 'anything new since Monday?'): the time it asks about, up to now (the "
        "past 7 days when it names none; from the first change listed, labelled 'at any time "
        "(no time named)', when it names no time but a thing or slot: 'what changed in the "
        "database?'). Such a question gets no `named_time`",
    )
    changes_about: list[str] = Field(
        default_factory=list,
        description="with changes_in: the slots ('ledger · ci') or things ('ledger') the "
        "question asks what changed of, when it names any (a value it names, the slot that "
        "holds it: 'when did we switch to uv?'); `changed` and `corrected` then "
        "hold only theirs, and when both are empty nothing of them changed then (not "
        "nothing at all)",
    )
    changes_more: int = Field(
        0,
        description="with changes_in: how many more facts changed (or were told) then than "
        "`changed` names (the latest 10, at most 3 a slot); the timeline has them all. With "
        "`changed` empty and `changes_about` set, the changes then of other things: the "
        "question named a thing no fact that changed then holds a word of",
    )
    changes_told: bool = Field(
        False,
        description="with changes_in: true when the question asks what memory was told in "
        "that time ('what did you learn this week?', 'what have I told you today?'): "
        "`changed` then holds the facts recorded then (record time) that memory still "
        "believes, whatever their own valid time, the first told first",
    )
    changed: list[ScoredFact] = Field(
        default_factory=list,
        description="with changes_in: the facts memory believes that began or ended in that "
        "time (world time), about a thing the question names when it names any: the latest "
        "10, at most 3 a slot, oldest change first; a value told with no start stated counts "
        "only when it closed another then (it may have held long before). Events are not "
        "changes (`named_time` "
        "'what happened last week?' names them); GET /v1/timeline has every version. "
        "`score` as for `ended`",
    )
    changes_corrected: bool = Field(
        False,
        description="with changes_in: true when the question asks what memory found wrong "
        "in that time ('what did we correct today?', 'any corrections this week?'): "
        "`changed` is then empty and `corrected` is the answer",
    )
    corrected: list[ScoredFact] = Field(
        default_factory=list,
        description="with changes_in: the facts memory found wrong in that time (record "
        "time: corrected; a value outdated when told was no mistake), about a thing or slot "
        "the question names when it names any, the latest 5, oldest first, each followed by "
        "what holds instead when memory holds one (its `supersedes` names the wrong fact, or "
        "it is the value "
        "the correction believed again). A correction changes memory's belief, not the "
        "world: `changed` never lists it. `score` as for `ended`",
    )


class BlockRequest(BaseModel):
    """The first-turn block for a session's working directory."""

    model_config = ConfigDict(extra="forbid")

    cwd: Text | None = Field(None, max_length=4096, description="the session's working directory")
    query: Text | None = Field(None, max_length=2000, description="the first prompt, if known")
    budget: int = Field(DEFAULT_BUDGET, ge=MIN_BUDGET, le=10_000, description="characters")


class BlockResult(BaseModel):
    """The rendered block: its status, text, how many facts it tells, and how many were cut."""

    status: Status
    text: str
    rows: int = Field(description="how many fact versions the block's lines tell")
    more: int = Field(description="how many it cut to fit the budget (the last line's count)")
