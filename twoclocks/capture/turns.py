"""Conversation turns: what a finished turn is, when nothing may come of it, and the
extractor's protocol (the prompt, the JSON schema, and checking what a model answered).

A turn arrives as a ``Stop`` event (Claude Code, Codex) or ``afterAgentResponse``
(Cursor). The hook adds what only the client machine can read (the transcript's last
person and assistant text) under ``twoclocks_turn``. Pure: stdlib and pydantic only.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, date
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from twoclocks.capture.events import Client, detect_client
from twoclocks.domain.errors import InvalidInput
from twoclocks.domain.model import FactClass, Kind
from twoclocks.domain.temporal import midnight_of
from twoclocks.domain.trust import value_in_evidence

TURN_TEXT_MAX = 2500
"""Characters of the person's text, and of the answer, that a turn keeps (DESIGN.md §5)."""

MAX_FACTS = 5
MAX_WORDS = 10
TOP_PREDICATES = 40
"""The account's most used predicates shown to the extractor, so slot names stay stable."""

TURN_HOOKS = frozenset({"Stop", "afterAgentResponse"})
ENRICHED_KEY = "twoclocks_turn"
"""Where the hook puts the transcript's text; the server never reads a transcript itself."""

CUT_SHORT = frozenset(
    {"max_tokens", "length", "interrupted", "aborted", "cancelled", "canceled", "error",
     "timeout", "pause_turn", "model_context_window_exceeded"}
)  # fmt: skip
"""Stop reasons (Anthropic, OpenAI, the clients' own statuses) of a turn that did not finish."""

REFUSED = frozenset({"refusal", "content_filter", "refused"})

_REFUSAL = re.compile(
    r"^\W*(?:i'?m sorry,? (?:but )?)?(?:i|we) (?:can(?:no|')t|cannot|won'?t|will not|am unable to"
    r"|'m unable to|'m not able to|am not able to) (?:help|assist|do|provide|comply|continue"
    r"|share|write|create)",
    re.IGNORECASE,
)
_MEMORY_QUESTION = re.compile(
    r"\b(?:what do you (?:remember|know|recall)(?: about)?"
    r"|what (?:have|did) (?:i|we) (?:told|tell) you"
    r"|(?:show|list|read) (?:me )?(?:your|the) memor(?:y|ies)"
    r"|what(?:'s| is) in (?:your |the )?memory"
    r"|do you remember|forget (?:that|what|everything|about)"
    r"|(?:delete|clear|wipe) (?:your |the |my )?memor(?:y|ies))",
    re.IGNORECASE,
)

SkipReason = Literal[
    "no_person_text", "cut_short", "refused", "memory_question", "dry_run", "empty_answer"
]


class Turn(BaseModel):
    """One finished turn: the person's text and the answer, each at most TURN_TEXT_MAX."""

    model_config = ConfigDict(frozen=True)

    client: Client
    turn_id: str
    session_id: str | None = None
    cwd: str | None = None
    person: str = ""
    answer: str = ""
    stop_reason: str | None = None
    dry_run: bool = False
    said_on: date | None = None
    """The day the server kept the turn, in the account's zone: what "since Monday" counts
    back from when the extractor reads the turn later."""


def trim(text: str, limit: int = TURN_TEXT_MAX) -> str:
    """The head of a long text: what the person says first is what they mean."""
    text = text.strip()
    return text if len(text) <= limit else text[:limit].rstrip()


def is_turn(raw: Mapping[str, Any]) -> bool:
    """True for the event that ends a turn (Stop, afterAgentResponse)."""
    return str(raw.get("hook_event_name") or "") in TURN_HOOKS or ENRICHED_KEY in raw


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def turn_id_of(client: str, raw: Mapping[str, Any], person: str, answer: str) -> str:
    """A stable id from the client's ids and the texts, so a re-sent turn is one."""
    ids = [raw.get(k) for k in ("session_id", "conversation_id", "turn_id", "generation_id")]
    parts = [client, *(str(i) for i in ids if i not in (None, "")), person, answer]
    return "turn-" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def turn_from(raw: Any, client: str | None, last_prompt: str | None = None) -> Turn:
    """The turn a Stop / afterAgentResponse event ends; ``last_prompt``: the session's
    prompt seen by capture, used when the hook found no person text in a transcript."""
    if not isinstance(raw, Mapping):
        raise InvalidInput("a turn must be a JSON object (the Stop hook's input)")
    who: Client = client if client in ("claude-code", "codex", "cursor") else detect_client(raw)  # type: ignore[assignment]
    extra = raw.get(ENRICHED_KEY)
    extra = extra if isinstance(extra, Mapping) else {}
    person = _str(extra.get("prompt")) or _str(raw.get("prompt")) or (last_prompt or "")
    answer = (
        _str(extra.get("answer"))
        or _str(raw.get("last_assistant_message"))
        or _str(raw.get("text"))
        or _str(raw.get("response"))
    )
    person, answer = trim(person), trim(answer)
    stop = extra.get("stop_reason") or raw.get("stop_reason") or raw.get("status")
    session = raw.get("session_id") or raw.get("conversation_id")
    return Turn(
        client=who,
        turn_id=turn_id_of(who, raw, person, answer),
        session_id=str(session)[:200] if session else None,
        cwd=_str(raw.get("cwd")) or _first_root(raw) or None,
        person=person,
        answer=answer,
        stop_reason=str(stop).lower() if isinstance(stop, str) and stop else None,
        dry_run=bool(raw.get("dry_run") or extra.get("dry_run")),
    )


def _first_root(raw: Mapping[str, Any]) -> str:
    roots = raw.get("workspace_roots")
    return roots[0] if isinstance(roots, list) and roots and isinstance(roots[0], str) else ""


def nothing_from(turn: Turn) -> SkipReason | None:
    """Why nothing may be extracted from a turn (DESIGN.md §5), or None when it may."""
    if turn.dry_run:
        return "dry_run"
    person = turn.person.strip()
    # Text that only repeats the answer is the agent's, not the person's.
    if not person or person == turn.answer.strip():
        return "no_person_text"
    if turn.stop_reason in REFUSED or is_refusal(turn.answer):
        return "refused"
    if turn.stop_reason in CUT_SHORT:
        return "cut_short"
    if not turn.answer.strip():
        return "empty_answer"
    if _MEMORY_QUESTION.search(person):
        return "memory_question"
    return None


def is_refusal(answer: str) -> bool:
    """True when the answer opens by declining the request."""
    return bool(_REFUSAL.search(answer.strip()[:300]))


# -- the extractor's protocol ---------------------------------------------------------------

FACT_SCHEMA: dict[str, Any] = {
    "type": "object",
    "additionalProperties": False,
    "required": ["facts"],
    "properties": {
        "facts": {
            "type": "array",
            "maxItems": MAX_FACTS,
            "items": {
                "type": "object",
                "additionalProperties": False,
                "required": [
                    "subject",
                    "predicate",
                    "object",
                    "kind",
                    "class",
                    "category",
                    "since",
                ],
                "properties": {
                    "subject": {"type": "string"},
                    "predicate": {"type": "string"},
                    "object": {"type": "string"},
                    "kind": {"type": "string", "enum": ["fact", "event"]},
                    "class": {"type": "string", "enum": [c.value for c in FactClass]},
                    "category": {"type": "string"},
                    "since": {"type": ["string", "null"]},
                },
            },
        }
    },
}
"""What the model must answer; sent as ``response_format`` where the endpoint takes it."""

SYSTEM_PROMPT = f"""You keep a coding agent's long-term memory. Read one turn: the person's \
message and the agent's answer. Write down at most {MAX_FACTS} durable facts worth knowing in \
later sessions: decisions, rules the person sets, preferences, facts about the environment, \
project or person. Each fact is subject, predicate, object, of at most {MAX_WORDS} words in all.
- object: copy the value from the turn's own words; never invent one.
- predicate: snake_case; reuse one of the known predicates when it fits.
- kind: "fact" (holds until changed) or "event" (happened once).
- class: user, rule, project, environment, decision or task. A rule is how work must be done.
- category: one short word (git, deploy, ci, env, style, ...).
- since: the day it became true as YYYY-MM-DD, only when the person says when ("since \
Monday", "last week", "on March 3"), counted from today's date given below; else null. \
Never guess a day.
Small talk, questions and anything the person did not state yield no facts: answer \
{{"facts": []}}. Never write secrets. Answer JSON only: {{"facts": [...]}}"""


def prompt_messages(turn: Turn, predicates: Sequence[str]) -> list[dict[str, str]]:
    """The chat messages the extractor is sent for one turn."""
    known = ", ".join(predicates[:TOP_PREDICATES]) or "(none yet)"
    day = turn.said_on
    today = f"Today: {day.isoformat()} ({day.strftime('%A')})\n" if day else ""
    user = (
        f"{today}Known predicates: {known}\n\n"
        f"Person:\n{turn.person}\n\nAnswer:\n{turn.answer}\n\n"
        'JSON: {"facts": [{"subject", "predicate", "object", "kind", "class", "category", '
        '"since"}]}'
    )
    return [{"role": "system", "content": SYSTEM_PROMPT}, {"role": "user", "content": user}]


class ExtractedFact(BaseModel):
    """One fact as the model wrote it, checked against FACT_SCHEMA and the word limit."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True, frozen=True)

    subject: str = Field(min_length=1, max_length=200)
    predicate: str = Field(min_length=1, max_length=100)
    object: str = Field(min_length=1, max_length=300)
    kind: Kind
    fact_class: FactClass = Field(alias="class")
    category: str = Field(min_length=1, max_length=40)
    since: date | None = None
    """The day it became true, when the person said when; kept only where ``parse_extraction``
    finds the person's words name a time and the day is not after the turn's."""

    @field_validator("subject", "predicate", "object", "category")
    @classmethod
    def _one_line(cls, value: str) -> str:
        value = " ".join(value.split())
        if not value:
            raise ValueError("empty")
        return value

    def words(self) -> int:
        """Words in the fact as a sentence (predicate parts split on _)."""
        text = f"{self.subject} {self.predicate.replace('_', ' ')} {self.object}"
        return len(text.split())


class Extraction(BaseModel):
    """What a model answer yields: the facts kept, and how many were dropped and why."""

    facts: list[ExtractedFact]
    dropped: dict[str, int]


def parse_extraction(text: str, turn: Turn) -> Extraction:
    """Check a model's answer item by item: an invalid item is dropped and counted, never
    half-stored; a value that is not in the turn's own text is dropped (models invent)."""
    dropped: dict[str, int] = {}

    def drop(why: str) -> None:
        dropped[why] = dropped.get(why, 0) + 1

    try:
        data = json.loads(_json_part(text))
    except ValueError:
        return Extraction(facts=[], dropped={"not_json": 1})
    items = data.get("facts") if isinstance(data, dict) else data
    if not isinstance(items, list):
        return Extraction(facts=[], dropped={"no_facts_list": 1})
    facts: list[ExtractedFact] = []
    for item in items:
        if isinstance(item, dict) and item.get("since") is not None and not _is_day(item["since"]):
            drop("since_unsupported")  # the fact stays, told with no start
            item = {**item, "since": None}
        try:
            fact = ExtractedFact.model_validate(item)
        except ValidationError:
            drop("invalid")
            continue
        if fact.words() > MAX_WORDS:
            drop("too_long")
        elif not value_in_evidence(fact.object, f"{turn.person}\n{turn.answer}"):
            drop("not_in_turn")
        elif len(facts) >= MAX_FACTS:
            drop("over_limit")
        else:
            if fact.since is not None and not _dated_by_the_person(fact.since, turn):
                # Models invent days: the fact stays, told with no start.
                drop("since_unsupported")
                fact = fact.model_copy(update={"since": None})
            facts.append(fact)
    return Extraction(facts=facts, dropped=dropped)


_TIME_WORDS = re.compile(
    r"\b(?:since|ago|yesterday|today|last|this (?:morning|week|month|year)|as of|starting"
    r"|(?:mon|tues|wednes|thurs|fri|satur|sun)day|(?:jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec)"
    r"[a-z]*\.?|may \d|\d{4}-\d{2}-\d{2}|\d{1,2}(?:st|nd|rd|th)\b)",
    re.IGNORECASE,
)
"""Words with which a person says when something began: without one, a day is a guess."""


def _is_day(value: Any) -> bool:
    """A date written alone, as the CLI and MCP read one (``domain.temporal.midnight_of``)."""
    try:
        return isinstance(value, str) and midnight_of(value, UTC) is not None
    except ValueError:  # not on the calendar: 2026-02-30
        return False


def _dated_by_the_person(day: date, turn: Turn) -> bool:
    """A day the extractor gives is kept when the person's words name a time and it is not
    after the day of the turn (nor before 1970: no invented epoch)."""
    if turn.said_on is not None and day > turn.said_on:
        return False
    return day.year >= 1970 and bool(_TIME_WORDS.search(turn.person))


def _json_part(text: str) -> str:
    """The JSON in an answer, without a Markdown fence some models add."""
    fenced = re.search(r"```(?:json)?\s*(.*?)```", text, re.DOTALL)
    return fenced.group(1) if fenced else text
