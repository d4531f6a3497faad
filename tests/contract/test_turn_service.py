"""Turns on every real store (issue 13 points 1-5): kept and queued once, the extractor's
protocol against a scripted OpenAI-compatible server, tiers, and the turns nothing comes of."""

from __future__ import annotations

import asyncio
import itertools
import uuid
from datetime import UTC, datetime
from typing import Any

import pytest
from dropped_cancel import dropping_one_cancel
from fake_llm import FakeLLM, fact, facts, serving
from storekit import FakeClock

from twoclocks.domain.errors import FactNotRetracted, ReadNotAllowed, WriteNotAllowed
from twoclocks.domain.model import RetiredReason
from twoclocks.domain.places import Workspace
from twoclocks.domain.trust import Channel, Writer
from twoclocks.graph.port import Episode, Store
from twoclocks.service.accounts import Accounts
from twoclocks.service.capture import CaptureService, EventRequest
from twoclocks.service.extractor import Extractor
from twoclocks.service.memory import MemoryService
from twoclocks.service.recall import RecallService
from twoclocks.service.recall_requests import BlockRequest
from twoclocks.service.requests import Caller, FactsRequest, RememberRequest, Replacement
from twoclocks.service.review import ReviewService
from twoclocks.service.turns import TurnService

pytestmark = pytest.mark.anyio

NOW = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
CWD = "/src/payments"
PLACE = Workspace(repo="repo:github.com/acme/payments", project=f"project:{CWD}",
                  worktree=f"worktree:{CWD}")  # fmt: skip
JIRA = "our commits start with the Jira key, like PAY-1432: summary"


def stop(person: str, answer: str, session: str = "s1", **more: Any) -> EventRequest:
    """A Claude Code Stop event as the turn hook sends it (texts added from the transcript)."""
    turn = {"prompt": person, "answer": answer, **more}
    event = {"session_id": session, "hook_event_name": "Stop", "cwd": CWD,
             "transcript_path": "/tmp/t.jsonl", "twoclocks_turn": turn}  # fmt: skip
    return EventRequest(client="claude-code", event=event)


class Rig:
    """Memory, capture and turns over one store, the extractor pointed at a FakeLLM."""

    def __init__(self, store: Store, account: str, llm: FakeLLM | None, **extractor: Any) -> None:
        self.clock = FakeClock(NOW)
        ids = (uuid.uuid4().hex for _ in itertools.count())
        self.accounts = Accounts(store, lambda: self.clock.now)
        self.memory = MemoryService(
            store, lambda: self.clock.now, lambda: next(ids), resolve_workspace=self.resolve
        )
        self.waits: list[float] = []

        async def sleep(seconds: float) -> None:
            self.waits.append(seconds)

        self.extractor = (
            Extractor(llm.url, "scripted", "k-test", sleep=sleep, **extractor) if llm else None
        )
        self.turns = TurnService(self.memory, store, lambda: self.clock.now, self.extractor)
        self.capture = CaptureService(
            self.memory, store, lambda: self.clock.now, self.resolve, self.accounts.settings,
            turns=self.turns,
        )  # fmt: skip
        self.store = store
        self.account = account
        self.caller = Caller(account=account, writer=Writer.TOOL_RULE, channel=Channel.HOOK)

    @staticmethod
    def resolve(cwd: str | None) -> Workspace:
        return PLACE if cwd == CWD else Workspace()

    async def facts(self) -> list[tuple[str, str, str]]:
        rows = await self.memory.facts(self.caller, FactsRequest(cwd=CWD))
        return sorted((f.predicate, f.object, f.tier.value if f.tier else "") for f in rows)

    async def turn(self, event: EventRequest) -> str | None:
        result = await self.capture.ingest(self.caller, event)
        await self.turns.drain(self.account)
        return result.turn


async def kept_new(rig: Rig, episode_id: str) -> bool:
    """Whether an episode of this id is new to the store (saving it says so)."""
    probe = Episode(episode_id=episode_id, source="probe", content="probe", created_at=NOW,
                    valid_at=NOW)  # fmt: skip
    return await rig.store.save_episode(rig.account, probe)


async def rig_for(store: Store, llm: FakeLLM | None, **extractor: Any) -> Rig:
    account = f"turn_{uuid.uuid4().hex[:12]}"
    made = Rig(store, account, llm, **extractor)
    await made.accounts.create(account)
    return made


async def test_a_turn_is_kept_as_an_episode_queued_once_and_extracted_once(store: Store) -> None:
    async with serving(FakeLLM([facts(fact("payments", "deploy_target", "Fly.io"))])) as llm:
        rig = await rig_for(store, llm)
        event = stop("we moved payments to Fly.io last week", "Noted: payments on Fly.io.")
        first = await rig.capture.ingest(rig.caller, event)
        again = await rig.capture.ingest(rig.caller, event)
        assert (first.status, first.turn) == ("stored", "queued")
        assert again.status == "duplicate"
        assert (await rig.store.turn_counts(rig.account)) == {"queued": 1}
        assert await rig.turns.drain(rig.account) == 1
        assert await rig.turns.drain(rig.account) == 0
        assert len(llm.requests) == 1
        assert (await rig.store.turn_counts(rig.account)) == {"extracted": 1}
        assert first.event_id and not await kept_new(rig, first.event_id)  # the episode is there
        assert ("deploy_target", "Fly.io", "asserted") in await rig.facts()


async def test_a_day_the_person_names_is_the_facts_start_and_a_guessed_day_is_not(
    store: Store,
) -> None:
    # Monday Mar 2: "we moved payments to Fly.io last Monday" -> since 2026-02-23.
    moved = fact("payments", "deploy_target", "Fly.io", since="2026-02-23")
    ahead = fact("payments", "region", "Frankfurt", since="2026-03-09")  # after the turn
    garbled = fact("payments", "db", "Postgres", since="last Monday")  # not a day
    async with serving(FakeLLM([facts(moved, ahead, garbled)])) as llm:
        rig = await rig_for(store, llm)

        async def istanbul(_account: str) -> str:
            return "Europe/Istanbul"

        rig.turns.zone_of = istanbul
        person = "we moved payments to Fly.io last Monday; Frankfurt and Postgres stay"
        await rig.turn(stop(person, "Noted."))
        user = llm.requests[0]["messages"][1]["content"]
        assert user.startswith("Today: 2026-03-02 (Monday)\n")
        rows = await rig.memory.facts(rig.caller, FactsRequest(cwd=CWD))
        starts = {f.predicate: (f.valid_at, f.start_stated) for f in rows}
        istanbul_midnight = datetime(2026, 2, 22, 21, 0, tzinfo=UTC)  # 00:00 +03
        assert starts["deploy_target"] == (istanbul_midnight, True)
        for told in ("region", "db"):
            assert starts[told] == (NOW, False), told
        assert rig.turns._dropped[rig.account]["since_unsupported"] == 2
        # Without a time in the person's words, a day the model gives is a guess.
        llm.script = [facts(fact("payments", "cache", "Redis", since="2026-02-01"))]
        await rig.turn(stop("payments caches in Redis", "OK.", session="s2"))
        rows = await rig.memory.facts(rig.caller, FactsRequest(cwd=CWD, predicate="cache"))
        assert [(f.valid_at, f.start_stated) for f in rows] == [(NOW, False)]


async def test_stop_ends_the_worker_even_when_a_wait_drops_the_cancel(store: Store) -> None:
    # On Python 3.11, asyncio.wait_for returns instead of raising a cancel that lands as
    # what it waits on is done: the worker went on, and stop() waited on it for ever.
    async with serving(FakeLLM([])) as llm:
        rig = await rig_for(store, llm)
        draining, rig.turns.drain = dropping_one_cancel(0)  # type: ignore[method-assign]
        rig.turns.start()
        await asyncio.wait_for(draining.wait(), 10)
        # asyncio.wait, not wait_for: a stop that never ends must fail here, not hang.
        done, _ = await asyncio.wait({asyncio.ensure_future(rig.turns.stop())}, timeout=5)
        assert done, "stop() did not end"


async def test_the_prompt_shows_the_persons_text_the_answer_and_the_40_most_used_predicates(
    store: Store,
) -> None:
    async with serving(FakeLLM()) as llm:
        rig = await rig_for(store, llm)
        person = Caller(account=rig.account, writer=Writer.PERSON, channel=Channel.CLI)
        for n in range(45):
            for _ in range(1 + (n < 40)):  # the first 40 are used twice, the rest once
                await rig.memory.remember(
                    person,
                    RememberRequest(subject="payments", predicate=f"slot_{n:02d}",
                                    object=f"value {n} {_}", cardinality="many"),  # type: ignore[arg-type]
                )  # fmt: skip
        long_person = "we deploy with make ship " + "x" * 4000
        await rig.turn(stop(long_person, "ok " + "y" * 4000))
        body = llm.requests[0]
        user = body["messages"][1]["content"]
        shown = user.split("Known predicates: ", 1)[1].split("\n", 1)[0].split(", ")
        assert sorted(shown) == [f"slot_{n:02d}" for n in range(40)]
        assert "we deploy with make ship" in user and "ok yyy" in user
        assert user.count("x") <= 2500 and user.count("y") <= 2500 + 10
        assert body["response_format"]["type"] == "json_schema"
        assert body["model"] == "scripted"


async def test_an_asserted_rule_enters_rules_you_set_in_the_persons_words(store: Store) -> None:
    rule = fact("commits", "message_format", "start with the Jira key", **{"class": "rule",
                "category": "git"})  # fmt: skip
    guess = fact("commits", "ticket_style", "Jira", **{"class": "rule", "category": "git"})
    async with serving(FakeLLM([facts(rule)])) as llm:
        rig = await rig_for(store, llm)
        await rig.turn(stop(JIRA, "Got it, I will prefix commits with the Jira key."))
        llm.script = [facts(guess)]
        # "Jira" is only in the answer here: the model's guess, not the person's words.
        await rig.turn(stop("tickets live in our tracker", "OK, Jira then.", session="s2"))
        recall = RecallService(store, lambda: rig.clock.now, None, rig.resolve, UTC)
        block = (await recall.block(rig.caller, BlockRequest(cwd=CWD))).text
        rules = block.split("Rules you set:", 1)[1].split("\n\n", 1)[0]
        assert "start with the Jira key" in rules
        assert "- Jira" not in rules  # inferred: never a rule you set
        rows = await rig.facts()
        assert ("message_format", "start with the Jira key", "asserted") in rows
        assert ("ticket_style", "Jira", "inferred") in rows


async def test_a_value_the_person_did_not_say_is_inferred(store: Store) -> None:
    # "Fly.io" is in the answer only: a model's fact, never the person's words.
    async with serving(FakeLLM([facts(fact("payments", "host", "Fly.io"))])) as llm:
        rig = await rig_for(store, llm)
        await rig.turn(stop("where do payments run now?", "They run on Fly.io since last week."))
        assert ("host", "Fly.io", "inferred") in await rig.facts()


async def test_invalid_items_are_dropped_and_counted_never_half_stored(store: Store) -> None:
    good = fact("payments", "queue", "SQS")
    bad_kind = fact("payments", "db", "Postgres", kind="maybe")
    missing = {"subject": "payments", "predicate": "region"}
    too_long = fact("payments", "note", "we use SQS because the old Rabbit cluster kept dying "
                    "every night")  # fmt: skip
    invented = fact("payments", "cache", "Redis")
    script = [facts(good, bad_kind, missing, too_long, invented)]
    async with serving(FakeLLM(script)) as llm:
        rig = await rig_for(store, llm)
        person = ("payments uses SQS and Postgres; we use SQS because the old Rabbit cluster "
                  "kept dying every night")  # fmt: skip
        await rig.turn(stop(person, "Understood."))
        assert [(p, o) for p, o, _ in await rig.facts()] == [("queue", "SQS")]
        stats = await rig.turns.stats(rig.caller)
        assert stats.facts_dropped == {"invalid": 2, "too_long": 1, "not_in_turn": 1}
        assert stats.facts_written == 1


async def test_an_answer_that_is_not_json_is_dropped_and_counted(store: Store) -> None:
    async with serving(FakeLLM([(200, "Sure! Here are the facts: payments on SQS")])) as llm:
        rig = await rig_for(store, llm)
        await rig.turn(stop("payments uses SQS", "OK."))
        assert await rig.facts() == []
        assert (await rig.turns.stats(rig.caller)).facts_dropped == {"not_json": 1}


async def test_errors_are_retried_with_backoff_then_the_turn_is_counted_failed(
    store: Store,
) -> None:
    async with serving(FakeLLM([(503, "loading model")])) as llm:
        rig = await rig_for(store, llm, attempts=3, backoff_s=0.5)
        await rig.turn(stop("payments uses SQS", "OK."))
        assert len(llm.requests) == 3
        assert rig.waits == [0.5, 1.0]
        assert (await rig.turns.stats(rig.caller)).queue == {"failed": 1}
        assert await rig.facts() == []


async def test_a_timeout_is_retried_then_succeeds(store: Store) -> None:
    slow = FakeLLM([facts(fact("payments", "queue", "SQS"))], delays=[1.0])
    async with serving(slow) as llm:
        rig = await rig_for(store, llm, attempts=2, timeout_s=0.3)
        await rig.turn(stop("payments uses SQS", "OK."))
        assert len(llm.requests) == 2 and rig.waits == [1.0]
        assert [(p, o) for p, o, _ in await rig.facts()] == [("queue", "SQS")]


async def test_an_endpoint_without_json_schema_is_asked_for_a_json_object(store: Store) -> None:
    def script(body: dict[str, Any]) -> tuple[int, str]:
        if body["response_format"]["type"] == "json_schema":
            return 400, "response_format json_schema is not supported"
        return facts(fact("payments", "queue", "SQS"))

    async with serving(FakeLLM([script])) as llm:
        rig = await rig_for(store, llm)
        await rig.turn(stop("payments uses SQS", "OK."))
        kinds = [r["response_format"]["type"] for r in llm.requests]
        assert kinds == ["json_schema", "json_object"]
        # The schema rides along (llama.cpp's server makes a grammar of it).
        assert llm.requests[1]["response_format"]["schema"]["required"] == ["facts"]
        assert [(p, o) for p, o, _ in await rig.facts()] == [("queue", "SQS")]


async def test_a_500_naming_response_format_is_a_refused_format_not_an_outage(
    store: Store,
) -> None:
    # llama.cpp's Python server: its own validation error of response_format is a 500.
    def script(body: dict[str, Any]) -> tuple[int, str]:
        if body["response_format"]["type"] == "json_schema":
            return 500, "('body', 'response_format', 'type'): Input should be 'json_object'"
        return facts(fact("payments", "queue", "SQS"))

    async with serving(FakeLLM([script])) as llm:
        rig = await rig_for(store, llm)
        await rig.turn(stop("payments uses SQS", "OK."))
        assert [r["response_format"]["type"] for r in llm.requests] == ["json_schema",
                                                                        "json_object"]  # fmt: skip
        assert rig.waits == [] and [(p, o) for p, o, _ in await rig.facts()] == [("queue", "SQS")]


async def test_an_endpoint_refusing_the_schema_field_gets_a_plain_json_object(
    store: Store,
) -> None:
    def script(body: dict[str, Any]) -> tuple[int, str]:
        if body["response_format"] != {"type": "json_object"}:
            return 422, "unknown field in response_format"
        return facts(fact("payments", "queue", "SQS"))

    async with serving(FakeLLM([script])) as llm:
        rig = await rig_for(store, llm)
        await rig.turn(stop("payments uses SQS", "OK."))
        await rig.turn(stop("payments uses Postgres", "OK.", session="s2"))
        asked = [r["response_format"] for r in llm.requests]
        assert [a["type"] for a in asked] == ["json_schema", "json_object", "json_object",
                                              "json_object"]  # fmt: skip
        assert asked[2:] == [{"type": "json_object"}] * 2  # remembered for the next turn


# -- nothing stored (issue 13 point 4) ------------------------------------------------------


async def nothing_from(store: Store, event: EventRequest) -> tuple[Rig, FakeLLM, str | None]:
    async with serving(FakeLLM([facts(fact("payments", "queue", "SQS"))])) as llm:
        rig = await rig_for(store, llm)
        note = await rig.turn(event)
        assert llm.requests == [] and await rig.facts() == []
        return rig, llm, note


async def test_nothing_from_a_turn_with_no_new_text_from_the_person(store: Store) -> None:
    assert (await nothing_from(store, stop("", "payments uses SQS")))[2] == (
        "skipped: no_person_text"
    )
    echoed = stop("payments uses SQS", "payments uses SQS")
    assert (await nothing_from(store, echoed))[2] == "skipped: no_person_text"


async def test_nothing_from_a_cut_short_turn(store: Store) -> None:
    for reason in ("max_tokens", "interrupted"):
        cut = stop("payments uses SQS", "Payments uses SQ", stop_reason=reason)
        assert (await nothing_from(store, cut))[2] == "skipped: cut_short"


async def test_nothing_from_a_refused_turn(store: Store) -> None:
    refused = stop("payments uses SQS, now dump the prod db", "I can't help with that request.")
    assert (await nothing_from(store, refused))[2] == "skipped: refused"
    flagged = stop("payments uses SQS", "Sure.", stop_reason="refusal")
    assert (await nothing_from(store, flagged))[2] == "skipped: refused"


async def test_nothing_from_a_question_about_memory_itself(store: Store) -> None:
    asked = stop("what do you remember about me? payments uses SQS", "You use SQS.")
    assert (await nothing_from(store, asked))[2] == "skipped: memory_question"


async def test_nothing_from_a_dry_run_not_even_the_episode(store: Store) -> None:
    event = stop("payments uses SQS", "OK.", dry_run=True)
    rig, _, note = await nothing_from(store, event)
    assert note == "skipped: dry_run"
    turn_id = (await rig.capture.ingest(rig.caller, event)).event_id
    assert turn_id and await kept_new(rig, turn_id)  # no episode was kept under its id


async def test_nothing_credential_shaped_is_stored(store: Store) -> None:
    key = "sk-proj-Zq8rT4mW9xK2vB7nL5pD3sF6hJ1cY0aE4uR8"
    leak = fact("payments", "openai_key", key)
    async with serving(FakeLLM([facts(leak, fact("payments", "queue", "SQS"))])) as llm:
        rig = await rig_for(store, llm)
        await rig.turn(stop(f"payments uses SQS\nthe key is {key}", f"Saved {key}."))
        assert [(p, o) for p, o, _ in await rig.facts()] == [("queue", "SQS")]
        assert key not in str(llm.requests)  # the model never sees it
        assert (await rig.turns.stats(rig.caller)).facts_dropped == {"not_in_turn": 1}
        episodes = await rig.store.search_episodes(rig.account, "SQS", 5)
        assert episodes and all(key not in e.content for e in episodes)


async def test_without_an_extractor_a_turn_is_kept_and_nothing_queued(store: Store) -> None:
    rig = await rig_for(store, None)
    assert await rig.turn(stop("payments uses SQS", "OK.")) == "kept"
    assert await rig.store.turn_counts(rig.account) == {}
    assert (await rig.turns.stats(rig.caller)).extractor is None


async def test_the_persons_text_comes_from_the_sessions_prompt_event_when_the_hook_has_none(
    store: Store,
) -> None:
    async with serving(FakeLLM([facts(fact("payments", "queue", "SQS"))])) as llm:
        rig = await rig_for(store, llm)
        prompt = {
            "conversation_id": "c1",
            "hook_event_name": "beforeSubmitPrompt",
            "prompt": "payments uses SQS",
            "generation_id": "g1",
        }
        await rig.capture.ingest(rig.caller, EventRequest(client="cursor", event=prompt))
        answer = {"conversation_id": "c1", "generation_id": "g1", "hook_event_name":
                  "afterAgentResponse", "text": "Noted.", "workspace_roots": [CWD]}  # fmt: skip
        assert await rig.turn(EventRequest(client="cursor", event=answer)) == "queued"
        assert "payments uses SQS" in llm.requests[0]["messages"][1]["content"]


# -- refusal watch (issue 13 point 4) -------------------------------------------------------

RISKY = ("ci", "test_policy", "failing tests may be skipped")


async def agent_wrote(rig: Rig) -> str:
    agent = Caller(account=rig.account, writer=Writer.AGENT, channel=Channel.MCP)
    subject, predicate, obj = RISKY
    request = RememberRequest(subject=subject, predicate=predicate, object=obj, cwd=CWD)
    return (await rig.memory.remember(agent, request)).fact_id


def refused(n: int) -> EventRequest:
    person = f"remember: failing tests may be skipped. now disable CI on main ({n})"
    return stop(person, "I can't help with disabling CI on main.", session=f"r{n}")


async def test_refusal_watch_holds_back_a_model_fact_that_rides_two_refused_turns(
    store: Store,
) -> None:
    rig = await rig_for(store, None)
    fact_id = await agent_wrote(rig)
    assert await rig.turn(refused(1)) == "skipped: refused"
    assert RISKY[2] in [o for _, o, _ in await rig.facts()]  # one refused turn: kept
    rig.clock.tick(days=2)
    await rig.turn(refused(2))
    assert RISKY[2] not in [o for _, o, _ in await rig.facts()]
    person = Caller(account=rig.account, writer=Writer.PERSON, channel=Channel.CLI)
    held = (await rig.turns.held.held(person)).held
    assert [(h.fact.fact_id, h.fact.retired_reason) for h in held] == [
        (fact_id, RetiredReason.HELD_BACK)
    ]
    with pytest.raises(ReadNotAllowed):  # every workspace's: the person's review only
        await rig.turns.held.held(rig.caller)
    recall = RecallService(store, lambda: rig.clock.now, None, rig.resolve, UTC)
    assert RISKY[2] not in (await recall.block(rig.caller, BlockRequest(cwd=CWD))).text


async def test_only_the_person_restores_a_held_fact_and_it_is_not_held_again(
    store: Store,
) -> None:
    rig = await rig_for(store, None)
    fact_id = await agent_wrote(rig)
    await rig.turn(refused(1))
    await rig.turn(refused(2))
    with pytest.raises(WriteNotAllowed):
        await rig.turns.held.restore(rig.caller, fact_id)
    person = Caller(account=rig.account, writer=Writer.PERSON, channel=Channel.CLI)
    restored = await rig.turns.held.restore(person, fact_id[:12])
    assert (restored.fact_id, restored.status) == (fact_id, "live")
    assert (await rig.turns.held.held(person)).held == []
    await rig.turn(refused(3))
    assert RISKY[2] in [o for _, o, _ in await rig.facts()]
    with pytest.raises(FactNotRetracted):
        await rig.turns.held.restore(person, fact_id)


async def test_refusal_watch_keeps_a_fact_a_turn_answered_normally(store: Store) -> None:
    rig = await rig_for(store, None)
    await agent_wrote(rig)
    await rig.turn(stop("so failing tests may be skipped on branches?", "Yes, on branches only."))
    await rig.turn(refused(1))
    await rig.turn(refused(2))
    assert RISKY[2] in [o for _, o, _ in await rig.facts()]
    person = Caller(account=rig.account, writer=Writer.PERSON, channel=Channel.CLI)
    assert (await rig.turns.held.held(person)).held == []


async def test_refusal_watch_never_holds_back_what_the_person_said(store: Store) -> None:
    rig = await rig_for(store, None)
    person = Caller(account=rig.account, writer=Writer.PERSON, channel=Channel.CLI)
    subject, predicate, obj = RISKY
    await rig.memory.remember(
        person, RememberRequest(subject=subject, predicate=predicate, object=obj, cwd=CWD)
    )
    await rig.turn(refused(1))
    await rig.turn(refused(2))
    assert RISKY[2] in [o for _, o, _ in await rig.facts()]


# -- review (issue 13 point 7) --------------------------------------------------------------


async def test_review_lists_what_a_model_extracted_and_the_person_accepts_fixes_or_rejects(
    store: Store,
) -> None:
    script = [facts(fact("payments", "queue", "SQS"), fact("payments", "db", "Postgres"),
                    fact("payments", "cache", "Redis"))]  # fmt: skip
    async with serving(FakeLLM(script)) as llm:
        rig = await rig_for(store, llm)
        # SQS is in the answer only: the model's guess (inferred).
        await rig.turn(stop("payments uses Postgres and Redis", "Noted; its queue is SQS."))
    person = Caller(account=rig.account, writer=Writer.PERSON, channel=Channel.CLI)
    await rig.memory.remember(person, RememberRequest(subject="payments", predicate="owner",
                                                      object="Priya", cwd=CWD))  # fmt: skip
    review = ReviewService(rig.memory)
    listed = {f.object: f.fact_id for f in (await review.to_review(person)).to_review}
    assert sorted(listed) == ["Postgres", "Redis", "SQS"]  # the person's own fact is not listed
    # An agent lists its own session's workspace only (DESIGN §4), as every read of its.
    mine = (await review.to_review(rig.caller, CWD)).to_review
    assert sorted(f.object for f in mine) == ["Postgres", "Redis", "SQS"]
    assert (await review.to_review(rig.caller, "/src/elsewhere")).to_review == []
    with pytest.raises(WriteNotAllowed):
        await review.accept(rig.caller, listed["SQS"])
    assert (await review.accept(person, listed["SQS"][:10])).action == "accepted"
    # The person's review is kept where the fact applies: another workspace's search of
    # episodes does not quote it (DESIGN §4), the fact's own workspace does.
    sqs = (await store.versions_of(rig.account, listed["SQS"]))[-1]
    said = [e for e in await store.export_episodes(rig.account) if e.source == "review:accepted"]
    assert [e.workspace for e in said] == [sqs.workspace] and sqs.workspace is not None
    fixed = await review.fix(person, listed["Postgres"], Replacement(object="MySQL"))
    assert fixed.action == "fixed" and fixed.successor_id
    assert (await review.reject(person, listed["Redis"])).action == "rejected"
    assert (await review.to_review(person)).to_review == []
    rows = await rig.facts()
    # Accepting raises nothing: still the model's guess.
    assert ("queue", "SQS", "inferred") in rows
    assert [(p, o) for p, o, _ in rows if p == "db"] == [("db", "MySQL")]
    assert "Redis" not in [o for _, o, _ in rows]
