"""The grey zone of slot drift, judged by the configured extractor model (issue 11).

The matcher (``embeddings.slot_matcher``) merges names it is sure name one slot and keeps
apart names its rules say differ. Between its grey floor and its threshold sit synonyms a
small embedding model scores poorly (``notes_app`` / ``second_brain``, ``owner`` /
``maintainer``) beside genuinely different slots (``city`` / ``hometown``). When the
judge is on (``TWOCLOCKS_DRIFT_JUDGE``, with an extractor endpoint), that model is asked
about the closest grey-zone slot, once it has answered the control pairs right; its
"same" becomes a merge recorded with the model's name on the alias, its "different" or
silence leaves the matcher's answer (two slots) standing. Lexical "different" verdicts
(contrasting modifiers, numbers) never reach it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from pydantic import BaseModel, Field

from twoclocks.domain.errors import ExtractorUnavailable
from twoclocks.service.extractor import AnswerSchema

log = logging.getLogger(__name__)

SAME_SLOT_ANSWER = AnswerSchema(
    "same_slot",
    {
        "type": "object",
        "properties": {"same_slot": {"type": "boolean"}, "reason": {"type": "string"}},
        "required": ["same_slot", "reason"],
        "additionalProperties": False,
    },
)
"""The judge's answer: one boolean, and a few words of why (kept in the log)."""

# The examples are pairs of the labelled sets' tune parts only (tests/data); nothing of a
# held-out part may reach a prompt.
_SYSTEM = (
    "You keep a developer's memory of facts: subject, attribute, value. Two attribute "
    "names of one subject are the SAME slot when they name one thing that has one value at "
    "a time, so the new value replaces the old one (owner / maintainer, notes_app / "
    "second_brain). They are DIFFERENT slots when both values can be true at once "
    "(city / hometown, cache / queue). Answer with JSON only: "
    '{"same_slot": true or false, "reason": "a few words"}.'
)


class Completer(Protocol):
    """What the judge needs of the extractor (``service.extractor.Extractor``)."""

    model: str

    async def complete(self, messages: Sequence[dict[str, str]], schema: AnswerSchema) -> str:
        """The model's answer text, or ExtractorUnavailable."""


@dataclass(frozen=True)
class SlotQuestion:
    """One grey-zone pair: the subject's existing slot and the name a writer used."""

    subject: str
    existing: str
    existing_values: tuple[str, ...]
    new: str
    new_value: str
    similarity: float


def judge_messages(question: SlotQuestion) -> list[dict[str, str]]:
    """The chat messages that ask the model about one grey-zone pair."""
    held = ", ".join(question.existing_values) or "(no current value)"
    user = (
        f"Subject: {question.subject}\n"
        f"Existing attribute: {question.existing} = {held}\n"
        f"New attribute: {question.new} = {question.new_value}\n"
        "Is the new attribute the same slot as the existing one?"
    )
    return [{"role": "system", "content": _SYSTEM}, {"role": "user", "content": user}]


def read_verdict(answer: str) -> bool | None:
    """The model's ``same_slot``, or None when the answer is not that JSON."""
    try:
        data = json.loads(answer)
    except ValueError:
        return None
    verdict = data.get("same_slot") if isinstance(data, dict) else None
    return verdict if isinstance(verdict, bool) else None


REST_AFTER_FAILURE_S = 60.0
"""After a failed call the judge is not asked again for this long: a down endpoint costs
one timeout a minute, not one per write."""

CONTROLS: tuple[tuple[SlotQuestion, bool], ...] = (
    (SlotQuestion("checkout", "on_call_engineer", ("Aiko Tanaka",), "release_manager",
                  "Ravi Iyer", 0.0), False),
    (SlotQuestion("me", "home_city", ("Lyon",), "birthplace", "Porto", 0.0), False),
    (SlotQuestion("checkout", "issue_tracker", ("Jira",), "ticketing_system", "Linear", 0.0),
     True),
)  # fmt: skip
"""Pairs whose answer is plain, asked before the first real one. A model that gets one
wrong (Gemma 3 270M calls every pair the same slot) is not used at all: a wrong merge
closes a value that is still true."""


class SlotJudgeState(BaseModel):
    """Whether the slot judge is used, for doctor (``GET /v1/turns/stats``)."""

    model: str = Field(description="the extractor model the judge asks")
    status: Literal["unchecked", "trusted", "failed_control"] = Field(
        description="unchecked: the control pairs are not answered yet (asked at the "
        "server's start, and again at a grey-zone write while unanswered); "
        "trusted: it answered them right; failed_control: it got one wrong and is not used"
    )
    failed_control: str | None = Field(
        None, description="the control pair it got wrong and what it answered"
    )


_STATUS: dict[bool | None, Literal["unchecked", "trusted", "failed_control"]] = {
    None: "unchecked",
    True: "trusted",
    False: "failed_control",
}


class SlotJudge:
    """Asks the extractor model about grey-zone pairs; remembers its answers per process."""

    def __init__(
        self,
        completer: Completer,
        cache_size: int = 1024,
        monotonic: Callable[[], float] = time.monotonic,
    ) -> None:
        self.completer = completer
        self.decided_by = f"model {completer.model}"
        """What a merge it made records on its alias."""
        self.trusted: bool | None = None
        """None until the control pairs are answered; False for good once one is wrong."""
        self.failed_control: str | None = None
        """The control pair it got wrong, and its answer, once ``trusted`` is False."""
        self._answers: OrderedDict[tuple[str, ...], bool] = OrderedDict()
        self._cache_size = cache_size
        self._monotonic = monotonic
        self._resting_until = 0.0
        self._controls = asyncio.Lock()

    async def same_slot(self, question: SlotQuestion) -> bool | None:
        """The model's verdict on one pair; None when it could not give one.

        None (endpoint down, slow, or an unreadable answer, or a model that failed the
        control pairs) leaves the write to the matcher's own answer, a new slot: a write
        never fails or waits on a retry for this.
        """
        if not await self.check():
            return None
        return await self._ask(question)

    async def check(self) -> bool | None:
        """Ask the control pairs unless they were answered; whether the model may judge.

        The server calls this at start, so doctor can tell at once; a model that could not
        be reached then (None) is asked again at the first grey-zone write.
        """
        if self.trusted is None:
            # Writes arriving together wait for one round of controls, not one round each.
            async with self._controls:
                if self.trusted is None:
                    self.trusted = await self._passes_controls()
        return self.trusted

    def state(self) -> SlotJudgeState:
        """Whether the model judges the grey zone, and why not."""
        return SlotJudgeState(
            model=self.completer.model,
            status=_STATUS[self.trusted],
            failed_control=self.failed_control,
        )

    async def _passes_controls(self) -> bool | None:
        for control, right in CONTROLS:
            verdict = await self._ask(control)
            if verdict is None:
                return None  # no answer is no proof either way: try again later
            if verdict != right:
                self.failed_control = (
                    f"{control.existing} / {control.new}: called "
                    f"{'the same slot' if verdict else 'two slots'}"
                )
                log.warning(
                    "slot drift: %s got a control pair wrong (%s); it is not used as the slot "
                    "judge, and grey-zone names stay apart (docs/design.md, 'The grey zone')",
                    self.decided_by, self.failed_control,
                )  # fmt: skip
                return False
        log.info("slot drift: %s answered the control pairs; it judges the grey zone",
                 self.decided_by)  # fmt: skip
        return True

    async def _ask(self, question: SlotQuestion) -> bool | None:
        key = (question.existing, *question.existing_values, "\0", question.new, question.new_value)
        if key in self._answers:
            self._answers.move_to_end(key)
            return self._answers[key]
        if self._monotonic() < self._resting_until:
            return None
        try:
            answer = await self.completer.complete(judge_messages(question), SAME_SLOT_ANSWER)
        except ExtractorUnavailable as exc:
            self._resting_until = self._monotonic() + REST_AFTER_FAILURE_S
            log.warning(
                "slot drift: no verdict on %s / %s, the judge rests %.0f s: %s",
                question.existing, question.new, REST_AFTER_FAILURE_S, exc,
            )  # fmt: skip
            return None
        verdict = read_verdict(answer)
        if verdict is None:
            log.warning("slot drift: unreadable verdict on %s / %s: %.200r", question.existing,
                        question.new, answer)  # fmt: skip
            return None
        log.info(
            "slot drift: %s judged %s of %s %s %s (similarity %.2f): %.200s",
            self.decided_by,
            question.new,
            question.subject,
            "the same slot as" if verdict else "apart from",
            question.existing,
            question.similarity,
            answer,
        )
        self._answers[key] = verdict
        while len(self._answers) > self._cache_size:
            self._answers.popitem(last=False)
        return verdict
