"""Recall ranking rules of issue 11 (walks follow the question, a slot leg, vector scores)
and the relevance floor of issue 10, on every store."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from storekit import T0, Writer
from test_recall_legs import EMBEDDER, EmbeddingStore, vector

from twoclocks.domain.model import Tier
from twoclocks.domain.places import Workspace
from twoclocks.graph.port import FactQuery, Store
from twoclocks.graph.schema import fact_text
from twoclocks.service.recall import RecallService
from twoclocks.service.recall_fusion import LEGS
from twoclocks.service.recall_requests import RecallRequest
from twoclocks.service.relevance import dot
from twoclocks.service.requests import Caller

pytestmark = pytest.mark.anyio

NOW = datetime(2030, 1, 1, tzinfo=UTC)


def service(store: Store, **weights: float) -> RecallService:
    legs = {leg: 0.0 for leg in LEGS} | weights if weights else None
    return RecallService(
        store, lambda: NOW, EMBEDDER, lambda _cwd: Workspace(), UTC, leg_weights=legs
    )


@pytest.fixture
def ew(store: Store, account: str) -> Writer:
    return Writer(EmbeddingStore(store), account)  # type: ignore[arg-type]


async def test_the_vector_leg_scores_each_fact_by_its_cosine_to_the_question(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("billing-api", "cache", "Redis", T0, tier=Tier.OBSERVED)
    await ew.write("billing-api", "language", "Python", T0, tier=Tier.OBSERVED)
    ask = vector("billing-api cache")
    got = await store.search_vector_scored(account, ask, FactQuery(now=NOW), 5)
    assert [v.object for v, _ in got] == ["Redis", "Python"]
    for version, score in got:
        want = dot(ask, vector(fact_text(version.subject, version.predicate, version.object)))
        # Neo4j quantizes its vector index (int8 by default), so its scores are near, not exact.
        assert score == pytest.approx(want, abs=0.06)


async def test_every_candidate_is_scored_by_its_exact_cosine_to_the_question(
    store: Store, ew: Writer, account: str
) -> None:
    cache = await ew.write("billing-api", "cache", "Redis", T0, tier=Tier.OBSERVED)
    language = await ew.write("billing-api", "language", "Python", T0, tier=Tier.OBSERVED)
    await Writer(store, account).write("legacy", "db", "Oracle", T0)  # stored with no embedding
    ask = vector("billing-api cache")
    rows = {v.version_id: v for v in await store.query(account, FactQuery(now=NOW))}
    got = await store.cosines(account, ask, list(rows))
    assert set(got) == {cache.insert[0].version_id, language.insert[0].version_id}
    for vid, score in got.items():
        v = rows[vid]
        assert score == pytest.approx(dot(ask, vector(fact_text(v.subject, v.predicate, v.object))))
    assert await store.cosines(account, ask, []) == {}


async def test_a_walk_ranks_what_it_reaches_by_the_question_not_by_store_order(
    store: Store, ew: Writer, account: str
) -> None:
    # The cache was recorded first: in store order (newest first) it comes last.
    await ew.write("billing-api", "cache", "Redis", T0, tier=Tier.OBSERVED)
    for predicate, value in [("language", "Python"), ("owner", "Priya"), ("port", "8080")]:
        await ew.write("billing-api", predicate, value, T0, tier=Tier.OBSERVED)
    got = await service(store, entity_walk=1.0).recall(
        Caller(account=account), RecallRequest(query="what cache does billing-api use?", k=4)
    )
    assert got.facts[0].predicate == "cache"


async def test_the_slot_leg_puts_the_slot_the_question_names_first(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("team", "on_call_engineer", "Dana", T0, tier=Tier.OBSERVED)
    for predicate, value in [("standup_time", "09:30"), ("chat_tool", "Slack")]:
        await ew.write("team", predicate, value, T0, tier=Tier.OBSERVED)
    ask = RecallRequest(query="who is the on call engineer of the team?", k=3)
    walk_only = await service(store, entity_walk=1.0, slot=0.0).recall(Caller(account=account), ask)
    assert walk_only.facts[0].predicate == "on_call_engineer"  # the walk ranks by the question
    slot_led = await service(store, entity_walk=0.01, slot=1.0).recall(Caller(account=account), ask)
    assert slot_led.facts[0].predicate == "on_call_engineer"


async def test_a_question_nothing_in_memory_is_about_comes_back_empty(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("billing-api", "cache", "Redis", T0, tier=Tier.OBSERVED)
    recall = service(store)
    caller = Caller(account=account)
    assert (await recall.recall(caller, RecallRequest(query="billing-api cache"))).status == "rows"
    nonsense = await recall.recall(caller, RecallRequest(query="zebra quantum banana"))
    assert nonsense.status == "empty" and nonsense.facts == []


@pytest.mark.parametrize("cache_first", [True, False])
async def test_a_question_naming_an_entity_ranks_the_asked_slot_first(
    store: Store, ew: Writer, account: str, cache_first: bool
) -> None:
    others = [("language", "Python"), ("owner", "Priya"), ("http_port", "8080")]
    writes = [("cache", "Redis"), *others] if cache_first else [*others, ("cache", "Redis")]
    for predicate, value in writes:
        await ew.write("billing-api", predicate, value, T0, tier=Tier.OBSERVED)
    got = await service(store).recall(
        Caller(account=account), RecallRequest(query="what cache does billing-api use?", k=4)
    )
    assert [f.predicate for f in got.facts][:1] == ["cache"]


async def test_who_asks_for_a_person_so_the_owner_beats_the_services_other_facts(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("billing-api", "owner", "Mei Chen", T0, tier=Tier.OBSERVED)
    for predicate, value in [("deploy_target", "runs on AWS ECS"), ("runtime", "Python")]:
        await ew.write("billing-api", predicate, value, T0, tier=Tier.OBSERVED)
    got = await service(store).recall(
        Caller(account=account), RecallRequest(query="who runs billing-api?", k=3)
    )
    assert got.facts[0].object == "Mei Chen"


async def test_a_subject_the_question_names_in_other_words_leads(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("ingest", "language", "Go 1.22", T0, tier=Tier.OBSERVED)
    await ew.write("auth-service", "language", "Rust", T0, tier=Tier.OBSERVED)
    got = await service(store).recall(
        Caller(account=account),
        RecallRequest(query="what language is the ingestion service written in?", k=2),
    )
    assert got.facts[0].subject == "ingest"


@pytest.mark.parametrize(
    ("question", "predicate", "ours", "theirs"),
    [
        ("what is my timezone?", "timezone", ("user", "Europe/Lisbon"), ("Aisha", "Europe/London")),
        ("which wiki do we use?", "wiki", ("team", "Notion"), ("web-app", "Confluence")),
    ],
)
async def test_a_question_in_the_first_person_is_about_the_user_or_the_team(
    store: Store,
    ew: Writer,
    account: str,
    question: str,
    predicate: str,
    ours: tuple[str, str],
    theirs: tuple[str, str],
) -> None:
    for subject, value in (ours, theirs):
        await ew.write(subject, predicate, value, T0, tier=Tier.OBSERVED)
    got = await service(store).recall(Caller(account=account), RecallRequest(query=question, k=2))
    assert got.facts[0].subject == ours[0]


async def test_what_am_i_working_on_asks_for_the_persons_task_among_many_facts(
    store: Store, ew: Writer, account: str
) -> None:
    # "I" names no entity by its words, and MiniLM puts "what am I working on?" far from
    # "user current task ..." (below 30 other facts in the labelled set): the question
    # must still reach the person's own facts, and its form asks for a piece of work.
    for predicate, value in [
        ("job_title", "Staff Engineer"),
        ("working_hours", "09:00-17:30 Lisbon time"),
        ("current_task", "upgrade web-app and docs-site to Node 20"),
        ("editor", "Neovim"),
    ]:
        await ew.write("user", predicate, value, T0, tier=Tier.OBSERVED)
    for i in range(40):
        await ew.write(f"worker-{i}", "job_queue", f"queue {i} for right-now jobs", T0,
                       tier=Tier.OBSERVED)  # fmt: skip
    got = await service(store).recall(
        Caller(account=account), RecallRequest(query="what am I working on right now?", k=3)
    )
    assert got.facts[0].predicate == "current_task"


RUFF_RECORDED = T0 + timedelta(days=200)


async def formatter_changed(ew: Writer) -> None:
    """The team's formatter was Black from January, Ruff from June (recorded in July)."""
    await ew.write("team", "python_formatter", "Black", T0, now=T0, tier=Tier.OBSERVED)
    await ew.write(
        "team",
        "python_formatter",
        "Ruff format",
        T0.replace(month=6),
        now=RUFF_RECORDED,
        tier=Tier.OBSERVED,
    )


async def changed_in_june(ew: Writer, subject: str, predicate: str, before: str, now: str) -> None:
    """One slot's value from January, replaced from June (observed, recorded then)."""
    later = T0.replace(month=6)
    await ew.write(subject, predicate, before, T0, now=T0, tier=Tier.OBSERVED)
    await ew.write(subject, predicate, now, later, now=later, tier=Tier.OBSERVED)


async def ask_former(store: Store, account: str, query: str) -> list[str]:
    """What the former-value leg alone returns for ``query``, by value."""
    got = await service(store, former=1.0).recall(
        Caller(account=account), RecallRequest(query=query, k=3)
    )
    return [f.object for f in got.facts]


async def test_a_question_naming_a_former_value_gets_the_slots_current_value(
    store: Store, ew: Writer, account: str
) -> None:
    # "Do we still use Black?": Black was closed by Ruff; the answer is Ruff, and Black,
    # no longer true, is not shown.
    await formatter_changed(ew)
    await ew.write("team", "chat_tool", "Slack", T0, tier=Tier.OBSERVED)
    ask = RecallRequest(query="do we still use Black?", k=3)
    got = await service(store, keyword=1.0, former=1.0).recall(Caller(account=account), ask)
    assert got.status == "rows"
    assert [f.object for f in got.facts][:1] == ["Ruff format"]
    assert "Black" not in [f.object for f in got.facts]
    keyword_only = await service(store, keyword=1.0).recall(Caller(account=account), ask)
    assert "Ruff format" not in [f.object for f in keyword_only.facts]


async def test_a_question_naming_a_qualified_former_value_gets_the_slots_current_value(
    store: Store, ew: Writer, account: str
) -> None:
    # The README's example, Render moved to Fly.io: the question names only the old value.
    seen = Tier.OBSERVED
    await ew.write("production", "deploy_target", "Render, Oregon region", T0, now=T0, tier=seen)
    later = T0.replace(month=6)
    await ew.write("production", "deploy_target", "Fly.io, Frankfurt", later, now=later, tier=seen)
    await ew.write("production", "error_tracker", "Sentry", T0, now=T0, tier=seen)
    ask = RecallRequest(query="are we still on Render?", k=3)
    got = await service(store, keyword=1.0, former=1.0).recall(Caller(account=account), ask)
    assert [f.object for f in got.facts][:1] == ["Fly.io, Frankfurt"]


async def test_a_former_value_named_by_a_first_name_or_a_versioned_part_gets_the_current_value(
    store: Store, ew: Writer, account: str
) -> None:
    # People say "Kwame" for Kwame Mensah and "OTP 26" for "Elixir 1.15 on OTP 26".
    await changed_in_june(ew, "platform", "owner", "Kwame Mensah", "Ingrid Solberg")
    await changed_in_june(
        ew, "ingestor", "language", "Elixir 1.15 on OTP 26", "Elixir 1.17 on OTP 27"
    )
    await ew.write("platform", "iac_tool", "Terraform", T0, now=T0, tier=Tier.OBSERVED)
    # The former leg alone: it reads a slot only when the question names its earlier value.
    owner = await ask_former(store, account, "is Kwame still the owner?")
    assert owner == ["Ingrid Solberg"]
    otp = await ask_former(store, account, "is the ingestor still on OTP 26?")
    assert otp == ["Elixir 1.17 on OTP 27"]
    nobody = await ask_former(store, account, "is Mensah still the owner?")
    assert nobody == []  # a surname alone names no one


async def test_a_former_value_named_by_its_initials_gets_the_current_value(
    store: Store, ew: Writer, account: str
) -> None:
    # People say "CRA" for Create React App; two letters ("GA") name too many other things.
    await changed_in_june(ew, "fleet-dashboard", "framework", "Create React App", "Next.js 14")
    await changed_in_june(ew, "fleet-dashboard", "ci", "GitHub Actions", "Buildkite")
    cra = await ask_former(store, account, "is the fleet dashboard still a CRA project?")
    assert cra == ["Next.js 14"]
    ga = await ask_former(store, account, "is the fleet dashboard CI still GA?")
    assert ga == []


async def test_a_former_value_named_by_its_dotted_version_alone_gets_the_current_value(
    store: Store, ew: Writer, account: str
) -> None:
    # "Still on 3.10?" of Python 3.10, now 3.12; a bare "16" names nothing.
    await changed_in_june(ew, "telemetry-ingest", "language", "Python 3.10", "Python 3.12")
    await changed_in_june(ew, "telemetry-ingest", "database", "Postgres 16", "Postgres 17")
    py = await ask_former(store, account, "telemetry-ingest still on 3.10?")
    assert py == ["Python 3.12"]
    pg = await ask_former(store, account, "telemetry-ingest still on 16?")
    assert pg == []


async def test_the_former_leg_leaves_history_reads_alone(
    store: Store, ew: Writer, account: str
) -> None:
    # With history asked for, the closed value is itself a row: nothing is "former".
    await formatter_changed(ew)
    ask = RecallRequest(query="do we still use Black?", k=3, include_history=True)
    got = await service(store, keyword=1.0, former=1.0).recall(Caller(account=account), ask)
    assert "Black" in [f.object for f in got.facts]


@pytest.mark.parametrize(
    ("clocks", "want"),
    [
        ({}, ["Ruff format"]),
        ({"as_of": T0 + timedelta(days=30)}, ["Black"]),
        ({"as_believed": RUFF_RECORDED - timedelta(days=1)}, ["Black"]),
        ({"as_of": T0.replace(month=7), "as_believed": RUFF_RECORDED}, ["Ruff format"]),
    ],
    ids=["now", "as_of", "as_believed", "both"],
)
async def test_current_facts_only_unless_the_clocks_say_otherwise_through_the_former_leg(
    store: Store, ew: Writer, account: str, clocks: dict[str, datetime], want: list[str]
) -> None:
    # DESIGN.md §6: the keyword search now reads history for the former leg; what either
    # leg returns is still exactly what the read shows at those clocks.
    await formatter_changed(ew)
    ask = RecallRequest(query="do we still use Black or Ruff format?", k=5, **clocks)
    got = await service(store, keyword=1.0, former=1.0).recall(Caller(account=account), ask)
    assert [f.object for f in got.facts] == want


class SlowEntitySearch:
    """The real store, its entity search slowed as on a busy machine (every other call as is)."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def entities_named(self, account: str, text: str, limit: int) -> list[str]:
        await asyncio.sleep(0.3)
        return await self._store.entities_named(account, text, limit)


async def test_recall_leaves_no_search_running_after_it_answers(
    store: Store, ew: Writer, account: str
) -> None:
    # With the walks and the vector leg unweighted nothing awaited the entity search: it
    # went on reading after recall returned, and failed once the store closed under it.
    await ew.write("platform", "owner", "Kwame Mensah", T0, now=T0, tier=Tier.OBSERVED)
    ask = RecallRequest(query="is Kwame still the owner?", k=3)
    slow: Any = SlowEntitySearch(store)
    for weights in ({"former": 1.0}, {"keyword": 1.0}):
        await service(slow, **weights).recall(Caller(account=account), ask)
        left = [t for t in asyncio.all_tasks() if "RecallService" in t.get_coro().__qualname__]
        assert left == [], weights


# Each pair of slots reads alike to every leg; the question's words say which side it asks
# for ("always be up" is the floor, "at most" the ceiling, "am I on" the branch checked
# out: the default's short value "main" reads closer to a short question than a feature
# branch's long name).
OPPOSITE_SLOTS = {
    "replicas": (
        {("billing-api", "min_replicas"): "2", ("billing-api", "max_replicas"): "10"},
        [
            ("how many billing-api replicas must always be up?", "min_replicas"),
            ("how many billing-api replicas can run at most?", "max_replicas"),
        ],
    ),
    "branches": (
        {("shop", "current_branch"): "feat/invoice-pdf-export", ("shop", "default_branch"): "main"},
        [
            ("which shop branch am I on?", "current_branch"),
            ("which shop branch is checked out?", "current_branch"),
            ("what is the default branch of shop?", "default_branch"),
        ],
    ),
}


@pytest.mark.parametrize("pair", sorted(OPPOSITE_SLOTS))
async def test_recall_a_question_asking_for_one_side_of_opposite_slots_gets_that_side(
    store: Store, ew: Writer, account: str, pair: str
) -> None:
    facts, questions = OPPOSITE_SLOTS[pair]
    for (subject, predicate), value in facts.items():
        await ew.write(subject, predicate, value, T0, tier=Tier.OBSERVED)
    recall = service(store, keyword=1.0, vector=3.0, entity_walk=0.5)
    for question, want in questions:
        got = await recall.recall(Caller(account=account), RecallRequest(query=question, k=2))
        assert [f.predicate for f in got.facts][:1] == [want], question


async def test_recall_a_why_a_may_i_or_an_open_items_question_gets_the_reason_rule_or_task(
    store: Store, ew: Writer, account: str
) -> None:
    # Each question's words lie closest to the product fact (rtos = Zephyr); what it asks
    # for is a reason, a rule or a piece of work, which the other three facts state.
    facts = {
        "rtos": "Zephyr 3.6",
        "rtos_decision": "chose Zephyr over FreeRTOS: built-in BLE stack and MCUboot",
        "branch_policy": "never push to a release branch without a signed tag",
        "current_task": "fix the CAN timeout to the motor controller on cold start",
    }
    for predicate, value in facts.items():
        await ew.write("firmware", predicate, value, T0, tier=Tier.OBSERVED)
    recall = service(store, keyword=1.0, vector=3.0, entity_walk=0.5)
    for question, want in (
        ("why did we move the firmware off FreeRTOS onto its current RTOS?", "rtos_decision"),
        ("is it ok to tag a firmware RTOS upgrade release myself?", "branch_policy"),
        ("any conventions for shipping a firmware RTOS upgrade?", "branch_policy"),
        ("what's pending on the firmware's RTOS?", "current_task"),
    ):
        got = await recall.recall(Caller(account=account), RecallRequest(query=question, k=4))
        assert [f.predicate for f in got.facts][:1] == [want], question
