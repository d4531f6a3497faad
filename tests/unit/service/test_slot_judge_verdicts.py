"""The slot judge's prompt, answer reading and memory, with a scripted completer."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Sequence

import pytest

from twoclocks.domain.errors import ExtractorUnavailable
from twoclocks.service.extractor import AnswerSchema
from twoclocks.service.slot_judge import (
    CONTROLS,
    SlotJudge,
    SlotQuestion,
    judge_messages,
    read_verdict,
)

pytestmark = pytest.mark.anyio

QUESTION = SlotQuestion(subject="billing", existing="owner", existing_values=("Aiko",),
                        new="maintainer", new_value="Ravi", similarity=0.5)  # fmt: skip


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def said(same: bool) -> str:
    return json.dumps({"same_slot": same, "reason": "x"})


class Script:
    """A completer answering the control pairs right, and the real questions from a list;
    records the real questions it was asked."""

    model = "m"

    def __init__(self, *answers: str | Exception) -> None:
        self.answers = list(answers)
        self.asked: list[Sequence[dict[str, str]]] = []

    async def complete(self, messages: Sequence[dict[str, str]], schema: AnswerSchema) -> str:
        for control, right in CONTROLS:
            if messages == judge_messages(control):
                return said(right)
        self.asked.append(messages)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return answer


@pytest.mark.parametrize(
    ("answer", "verdict"),
    [
        ('{"same_slot": true, "reason": "x"}', True),
        ('{"same_slot": false}', False),
        ('{"same_slot": "yes"}', None),
        ("[true]", None),
        ("Yes, they are the same.", None),
        ("", None),
    ],
)
def test_only_a_boolean_same_slot_is_a_verdict(answer: str, verdict: bool | None) -> None:
    assert read_verdict(answer) is verdict


def test_the_question_names_both_slots_with_their_values() -> None:
    user = judge_messages(QUESTION)[-1]["content"]
    assert "owner = Aiko" in user and "maintainer = Ravi" in user and "billing" in user


async def test_a_pair_is_asked_once_and_its_verdict_remembered() -> None:
    script = Script(said(True))
    judge = SlotJudge(script)
    assert await judge.same_slot(QUESTION) is True
    assert await judge.same_slot(QUESTION) is True
    assert len(script.asked) == 1


async def test_an_unreadable_answer_is_no_verdict_and_is_asked_again() -> None:
    script = Script("maybe", said(False))
    judge = SlotJudge(script)
    assert await judge.same_slot(QUESTION) is None
    assert await judge.same_slot(QUESTION) is False


async def test_a_failed_call_rests_the_judge_for_a_minute() -> None:
    now = [0.0]
    script = Script(ExtractorUnavailable("down"), said(True))
    judge = SlotJudge(script, monotonic=lambda: now[0])
    assert await judge.same_slot(QUESTION) is None
    now[0] = 59.0
    assert await judge.same_slot(QUESTION) is None and len(script.asked) == 1
    now[0] = 61.0
    assert await judge.same_slot(QUESTION) is True


class Yes:
    """A model that calls every pair the same slot (Gemma 3 270M, measured)."""

    model = "yes"
    calls = 0

    async def complete(self, messages: Sequence[dict[str, str]], schema: AnswerSchema) -> str:
        self.calls += 1
        return said(True)


async def test_a_model_that_gets_a_control_pair_wrong_is_never_used() -> None:
    yes = Yes()
    judge = SlotJudge(yes)
    assert await judge.same_slot(QUESTION) is None
    assert await judge.same_slot(QUESTION) is None
    assert judge.trusted is False and yes.calls == 1


async def test_the_control_pairs_are_asked_once_before_the_first_question() -> None:
    script = Script(said(False), said(True))
    judge = SlotJudge(script)
    other = SlotQuestion(subject="s", existing="a", existing_values=("x",), new="b",
                         new_value="y", similarity=0.4)  # fmt: skip
    assert await judge.same_slot(QUESTION) is False
    assert await judge.same_slot(other) is True
    assert judge.trusted is True and len(script.asked) == 2


class Counting(Script):
    """A Script that also counts every call, the control pairs included."""

    calls = 0

    async def complete(self, messages: Sequence[dict[str, str]], schema: AnswerSchema) -> str:
        self.calls += 1
        await asyncio.sleep(0)  # let the other writes in, as a real call would
        return await super().complete(messages, schema)


async def test_writes_arriving_together_share_one_round_of_control_pairs() -> None:
    script = Counting(*(said(True) for _ in range(5)))
    judge = SlotJudge(script)
    questions = [
        SlotQuestion(subject="s", existing="a", existing_values=(str(n),), new="b",
                     new_value="y", similarity=0.4)
        for n in range(5)
    ]  # fmt: skip
    verdicts = await asyncio.gather(*(judge.same_slot(q) for q in questions))
    assert verdicts == [True] * 5
    assert script.calls == len(CONTROLS) + 5


async def test_the_judge_state_says_unchecked_trusted_or_which_control_it_failed() -> None:
    fresh = SlotJudge(Script(said(True)))
    assert fresh.state().status == "unchecked" and fresh.state().model == "m"
    await fresh.same_slot(QUESTION)
    assert fresh.state().status == "trusted" and fresh.state().failed_control is None
    wrong = SlotJudge(Yes())
    await wrong.same_slot(QUESTION)
    first, _ = CONTROLS[0]
    assert wrong.state().status == "failed_control"
    assert wrong.state().failed_control == f"{first.existing} / {first.new}: called the same slot"


class Down:
    """An endpoint that never answers."""

    model = "down"
    calls = 0

    async def complete(self, messages: Sequence[dict[str, str]], schema: AnswerSchema) -> str:
        self.calls += 1
        raise ExtractorUnavailable("connection refused")


async def test_check_asks_the_control_pairs_once_and_an_unreachable_model_again_later() -> None:
    yes = Yes()
    wrong = SlotJudge(yes)
    assert await wrong.check() is False and await wrong.check() is False
    assert yes.calls == 1
    now = [0.0]
    down = Down()
    unreachable = SlotJudge(down, monotonic=lambda: now[0])
    assert await unreachable.check() is None and unreachable.state().status == "unchecked"
    now[0] = 61.0  # past the rest after a failed call
    assert await unreachable.check() is None and down.calls == 2
