"""Recall of what changed in one slot a question names, over every real store (DESIGN.md
§6): nothing of it changed is said of it, not answered with every other change."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime

import pytest
from storekit import FakeClock
from storekit import Writer as StoreWriter
from test_recall_legs import EmbeddingStore
from test_recall_service import service

from twoclocks.domain.change_questions import ANY_TIME_LABEL
from twoclocks.domain.model import Cardinality, RetiredReason, Tier
from twoclocks.domain.trust import Channel, Writer
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.recall_requests import RecallRequest, RecallResult
from twoclocks.service.requests import Caller, RememberRequest

pytestmark = pytest.mark.anyio


def at(day: int, hour: int = 9, month: int = 12, year: int = 2029) -> datetime:
    return datetime(year, month, day, hour, tzinfo=UTC)


async def a_new_week(store: Store, account: str) -> Caller:
    """Told through the service, asked on Tuesday 2030-01-01 (the week began on Monday the
    31st): CI on GitHub Actions since September; the database SQLite since October,
    replaced on the 31st by Postgres 16 told with no start; the deploy target Fly.io from
    15 November, replaced at 11:00 on the 31st by Render told with no start; a deploy
    freeze, "no deploys", from the 20th (a value whose name shares a word with a slot's)."""
    clock = FakeClock()
    ids = (uuid.uuid4().hex for _ in itertools.count())
    svc = MemoryService(EmbeddingStore(store), lambda: clock.now, lambda: next(ids))  # type: ignore[arg-type]
    who = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)

    async def say(told: datetime, predicate: str, value: str, start: datetime | None) -> None:
        clock.now = told
        req = RememberRequest(subject="ledger", predicate=predicate, object=value, valid_at=start)
        await svc.remember(who, req)

    await say(at(1, month=9), "ci", "GitHub Actions", at(1, month=9))
    await say(at(1, month=10), "database", "SQLite", at(1, month=10))
    await say(at(15, month=11), "deploy_target", "Fly.io", at(15, month=11))
    await say(at(1, month=12), "deploy_freeze", "no deploys", at(20, month=12))
    await say(at(31, 10), "database", "Postgres 16", None)
    await say(at(31, 11), "deploy_target", "Render", None)
    return Caller(account=account)


async def ask(store: Store, caller: Caller, question: str) -> RecallResult:
    return await service(store).recall(caller, RecallRequest(query=question, k=5))


async def test_a_change_question_naming_a_slot_that_did_not_change_is_told_so_of_that_slot(
    store: Store, account: str
) -> None:
    # "What changed in the ci this week?" was told the database and the deploy target,
    # read as what changed in ci.
    caller = await a_new_week(store, account)
    got = await ask(store, caller, "what changed in the ci this week?")
    assert got.changes_in is not None and got.changed == []
    assert got.changes_about == ["ledger · ci"]
    assert "GitHub Actions" in [f.object for f in got.facts]
    # A slot that did change is told alone, as before.
    got = await ask(store, caller, "what changed in the database this week?")
    assert [f.object for f in got.changed] == ["SQLite", "Postgres 16"]
    assert got.changes_about == ["ledger · database"]
    # A question naming no slot is told every change.
    got = await ask(store, caller, "what changed this week?")
    assert {f.predicate for f in got.changed} == {"database", "deploy_target"}
    assert got.changes_about == []


async def test_a_question_whether_a_slot_changed_is_a_change_question(
    store: Store, account: str
) -> None:
    # "Did the database change this week?" was read as what holds: Postgres 16 "known from"
    # the 31st does not say that SQLite held until then.
    caller = await a_new_week(store, account)
    got = await ask(store, caller, "did the database change this week?")
    assert [f.object for f in got.changed] == ["SQLite", "Postgres 16"]
    got = await ask(store, caller, "has the ci changed since Monday?")
    assert (got.changed, got.changes_about) == ([], ["ledger · ci"])


async def test_when_a_slot_changed_names_a_value_told_with_no_start_that_closed_another(
    store: Store, account: str
) -> None:
    # Render, told with no start, closed Fly.io on the 31st: that is when the deploy target
    # changed, whenever Render began. "deploy" names the slot, not the value "no deploys":
    # read as that thing, the question was told that nothing of it ever changed.
    caller = await a_new_week(store, account)
    got = await ask(store, caller, "when did the deploy target change?")
    assert got.changes_in is not None and got.changes_in.label == ANY_TIME_LABEL
    assert [(f.object, f.invalid_at) for f in got.changed] == [
        ("Fly.io", at(31, 11)),
        ("Render", None),
    ]


async def test_a_question_of_a_move_to_a_value_is_told_the_change_of_that_values_slot(
    store: Store, account: str
) -> None:
    # "When did we switch to Render?" was read as what holds: Render "known from" the 31st,
    # with no word that Fly.io held until then. Read as a change question, "Render" (a
    # value, no subject) was read as a thing, and nothing about it had ever changed.
    caller = await a_new_week(store, account)
    got = await ask(store, caller, "when did we switch to Render?")
    assert got.changes_about == ["ledger · deploy_target"]
    assert [(f.object, f.invalid_at) for f in got.changed] == [
        ("Fly.io", at(31, 11)),
        ("Render", None),
    ]
    # The rows beside them are said to match the question's words: the ci does not.
    assert {f.object for f in got.facts} <= {"Render"}
    # A value that has ended names its slot too.
    got = await ask(store, caller, "have we moved off SQLite?")
    assert [f.object for f in got.changed] == ["SQLite", "Postgres 16"]
    assert got.changes_about == ["ledger · database"]


async def test_a_change_question_counts_the_changes_its_list_leaves_out(
    store: Store, account: str
) -> None:
    # Twelve slots changed this week; the list names the latest ten and counted none else,
    # which reads as every change of the week.
    clock = FakeClock()
    ids = (uuid.uuid4().hex for _ in itertools.count())
    svc = MemoryService(EmbeddingStore(store), lambda: clock.now, lambda: next(ids))  # type: ignore[arg-type]
    who = Caller(account=account, writer=Writer.PERSON, channel=Channel.CLI)
    for i in range(12):
        clock.now = at(31, 8 + i // 6)
        start = datetime(2029, 12, 31, 8 + i // 6, i, tzinfo=UTC)
        req = RememberRequest(
            subject="ledger", predicate=f"setting_{i}", object="on", valid_at=start
        )
        await svc.remember(who, req)
    got = await ask(store, Caller(account=account), "what changed this week?")
    assert len(got.changed) == 10
    assert got.changes_more == 2


async def test_a_change_question_naming_a_thing_no_fact_holds_is_told_none_of_it_changed(
    store: Store, account: str
) -> None:
    # "What changed with kubernetes this week?" with no kubernetes fact was told the
    # database and the deploy target, as if they were its changes; and a deploy freeze
    # starting on the 20th was put before them as "the best match".
    caller = await a_new_week(store, account)
    got = await ask(store, caller, "what changed with kubernetes this week?")
    assert got.changes_in is not None and got.changed == [] and got.corrected == []
    assert got.changes_about == ["kubernetes"]
    assert got.changes_more == 4  # SQLite ended, Postgres 16, Fly.io ended, Render
    # A word inside a name still narrows to nothing: "deploy" is in deploy_target.
    deploys = await ask(store, caller, "what changed with deploys this week?")
    assert {f.predicate for f in deploys.changed} >= {"deploy_target"}
    # A word and a name that differ by a plural are one thing: "did the retry count
    # change?" was told no retry changed while max_retries went from 3 to 5.
    retries = StoreWriter(EmbeddingStore(store), account)  # type: ignore[arg-type]
    await retries.write("loader", "max_retries", "3", at(31, 9), tier=Tier.ASSERTED)
    await retries.write("loader", "max_retries", "5", at(31, 12), tier=Tier.ASSERTED)
    got = await ask(store, caller, "did the retry count change this week?")
    assert got.changes_about == [] and "max_retries" in {f.predicate for f in got.changed}
    # And its changes are the answer, the week's others counted: "what changed in dbt?"
    # was told every change of the week, dbt's among them.
    assert [f.object for f in got.changed] == ["3", "5"]
    assert got.changes_more == 4  # SQLite ended, Postgres 16, Fly.io ended, Render
    # A word naming no thing keeps every change.
    code = await ask(store, caller, "what changed in the codebase this week?")
    assert {f.predicate for f in code.changed} == {"database", "deploy_target", "max_retries"}


async def test_a_change_question_never_reads_a_plan_as_its_best_match(
    store: Store, account: str
) -> None:
    # A release freeze from the 10th outscored the week's changes and was put first, "the
    # best match", above them: it is no change made this week.
    caller = await a_new_week(store, account)
    plans = StoreWriter(EmbeddingStore(store), account)  # type: ignore[arg-type]
    await plans.write(
        "ledger", "release_freeze", "no releases", at(10, 1, 1, 2030), tier=Tier.ASSERTED
    )
    got = await ask(store, caller, "what changed with the release freeze this week?")
    assert got.changes_in is not None and got.starting_later and not got.later_first


async def test_a_question_asking_who_left_is_a_change_question(store: Store, account: str) -> None:
    # "Who left the team?" after Ana's membership ended was answered with the members
    # still there, Bo first: a model read Bo as the one who left.
    ew = StoreWriter(EmbeddingStore(store), account)  # type: ignore[arg-type]
    for who in ("Ana", "Bo", "Chen"):
        plan = await ew.write("mobile", "team_member", who, at(1), now=at(1),
                              tier=Tier.ASSERTED, cardinality=Cardinality.MANY)  # fmt: skip
        if who == "Ana":
            ana = plan.fact_id
    await ew.revise(ana, RetiredReason.ENDED, at=at(30), now=at(30))
    caller = Caller(account=account)
    for question in ("who left the team?", "what did we stop using?"):
        got = await ask(store, caller, question)
        assert got.changes_in is not None, question
        assert [(f.object, f.invalid_at) for f in got.changed] == [("Ana", at(30))], question
