"""RecallService over every real store (DESIGN.md §6): what a caller of recall relies on.

The legs themselves are tested in test_recall_legs.py; these tests are about the fused
answer: k tiered rows, the workspace's own entity as a starting point, and a recall that
degrades (one leg lost) instead of failing when the embedder breaks.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

import pytest
from severable import SeverableLink
from storekit import T0, Writer
from test_recall_legs import EMBEDDER, EmbeddingStore

from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.category_glosses import CATEGORY_GLOSSES, glosses
from twoclocks.domain.change_questions import ANY_TIME_LABEL
from twoclocks.domain.errors import ModelUnavailable, StoreUnavailable
from twoclocks.domain.model import Cardinality, Kind, RetiredReason, Tier
from twoclocks.domain.places import Workspace
from twoclocks.domain.times_to_come import ANY_TIME_TO_COME_LABEL
from twoclocks.graph.port import FactQuery, Store
from twoclocks.service.recall import RecallService
from twoclocks.service.recall_requests import RecallRequest
from twoclocks.service.relevance import slot_text
from twoclocks.service.requests import Caller

pytestmark = pytest.mark.anyio

NOWHERE = Workspace()
BILLING = Workspace(repo="repo:github.com/acme/billing-api", project="project:/src/billing-api")


def service(
    store: Store, workspace: Workspace = NOWHERE, embedder: object = EMBEDDER
) -> RecallService:
    return RecallService(
        store,
        lambda: datetime(2030, 1, 1, tzinfo=UTC),
        embedder,  # type: ignore[arg-type]
        lambda _cwd: workspace,
        UTC,
    )


def subjects(facts: Sequence[object]) -> list[str]:
    return [f.subject for f in facts]  # type: ignore[attr-defined]


@pytest.fixture
def ew(store: Store, account: str) -> Writer:
    return Writer(EmbeddingStore(store), account)  # type: ignore[arg-type]


async def test_rows_with_no_tier_are_never_sent_to_a_model_and_recall_still_fills_k(
    store: Store, ew: Writer, account: str
) -> None:
    # Forty untiered rows that match the question better than the tiered ones.
    for i in range(40):
        await ew.write(f"ci-runner-{i}", "ci_provider", "CircleCI", T0)
    for i in range(6):
        await ew.write(f"svc-{i}", "ci_provider", "CircleCI", T0, tier=Tier.OBSERVED)
    got = await service(store).recall(Caller(account=account), RecallRequest(query="ci", k=5))
    assert got.status == "rows"
    assert len(got.facts) == 5
    assert all(f.tier is not None for f in got.facts)


async def test_recall_walks_from_the_workspace_entity(
    store: Store, ew: Writer, account: str
) -> None:
    # billing-api's CI was recorded first; five other services' later, so every
    # question-only leg (same words, newer rows) puts one of them first.
    await ew.write("billing-api", "ci_provider", "CircleCI", T0, tier=Tier.OBSERVED)
    await ew.write("billing-api", "language", "Python", T0, tier=Tier.OBSERVED)
    for name in ("auth-api", "search-api", "media-api", "orders-api", "ledger-api"):
        await ew.write(name, "ci_provider", "CircleCI", T0, tier=Tier.OBSERVED)
    ask = RecallRequest(query="which CI do we use?", k=3, cwd="/src/billing-api")
    caller = Caller(account=account)

    inside = await service(store, BILLING).recall(caller, ask)
    assert subjects(inside.facts)[0] == "billing-api"
    assert inside.facts[0].predicate == "ci_provider"
    # Outside any workspace nothing favours billing-api.
    outside = await service(store).recall(caller, ask)
    assert subjects(outside.facts)[0] != "billing-api"


async def test_the_slots_capture_writes_answer_questions_asked_in_the_words_of_the_work(
    store: Store, ew: Writer, account: str
) -> None:
    # Nobody asks for "pytest result" by name: "are the tests green?" scored under the
    # relevance floor against it and recall said empty while the answer was stored.
    shop = "shop"
    for predicate, value in [
        ("pytest_result", "pytest passed"),
        ("current_branch", "feature/sqs"),
        ("default_branch", "main"),
        ("last_commit", "1a2b3c4 on feature/sqs: worker: consume from SQS"),
        ("edited_file", "worker/consumer.py"),
        ("last_push", "feature/sqs to origin"),
        ("database", "Postgres 16"),
        ("deploy_target", "Fly.io, Amsterdam"),
    ]:
        await ew.write(shop, predicate, value, T0, tier=Tier.OBSERVED)
    caller = Caller(account=account)
    for question, slot in [
        ("are the tests green?", "pytest_result"),
        ("did the tests pass?", "pytest_result"),
        ("which branch am I on?", "current_branch"),
        ("which branch do pull requests merge into?", "default_branch"),
        ("what did I commit last?", "last_commit"),
    ]:
        got = await service(store).recall(caller, RecallRequest(query=question, k=3))
        assert got.status == "rows", question
        assert got.facts[0].predicate == slot, (question, [f.predicate for f in got.facts])


class BrokenEmbedder:
    """An embedder whose model has gone away after start, failing as the real adapter
    reports it (ModelUnavailable)."""

    dimension = 384

    def embed_query(self, text: str) -> list[float]:
        raise ModelUnavailable("embedding model /models/minilm failed to encode: gone")

    def embed_documents(self, texts: Sequence[str]) -> list[list[float]]:
        raise ModelUnavailable("embedding model /models/minilm failed to encode: gone")


async def test_a_failing_embedder_costs_recall_the_vector_leg_not_the_answer(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("project", "ci_provider", "CircleCI", T0, tier=Tier.OBSERVED)
    got = await service(store, embedder=BrokenEmbedder()).recall(
        Caller(account=account), RecallRequest(query="which CI do we use?", k=3)
    )
    assert got.status == "rows"
    assert [f.object for f in got.facts] == ["CircleCI"]


async def test_an_engine_lost_mid_run_makes_recall_unavailable_not_an_error(
    linked_store: tuple[Store, SeverableLink], account: str
) -> None:
    store, link = linked_store
    writer = Writer(EmbeddingStore(store), account)  # type: ignore[arg-type]
    await writer.write("project", "ci_provider", "CircleCI", T0, tier=Tier.OBSERVED)
    ask = RecallRequest(query="which CI do we use?", k=3)
    recall = service(store)
    assert (await recall.recall(Caller(account=account), ask)).status == "rows"

    link.cut()
    got = await recall.recall(Caller(account=account), ask)
    assert got.status == "unavailable" and got.facts == []
    # Every other read says the same typed thing (the HTTP layer turns it into a 503).
    with pytest.raises(StoreUnavailable):
        await store.query(account, FactQuery(now=T0))


async def test_block_leads_with_an_old_fact_the_first_prompt_asks_about(
    store: Store, ew: Writer, account: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from twoclocks.service import session_block
    from twoclocks.service.recall_requests import BlockRequest

    # A small candidate window stands in for 400 newer rows.
    monkeypatch.setattr(session_block, "BLOCK_CANDIDATES", 5)
    await ew.write("billing-api", "ci_provider", "CircleCI", T0, tier=Tier.OBSERVED)
    for i in range(8):
        await ew.write(f"svc-{i}", "language", "Python", T0, tier=Tier.OBSERVED)
    svc, who = service(store), Caller(account=account)

    plain = await svc.block(who, BlockRequest())
    assert "CircleCI" not in plain.text  # outside the newest five
    asked = await svc.block(who, BlockRequest(query="which CI does billing-api use?"))
    facts = [line for line in asked.text.splitlines() if "CircleCI" in line or "Python" in line]
    assert "CircleCI" in facts[0]


async def test_warm_puts_the_accounts_slot_names_and_every_gloss_in_the_cache(
    store: Store, ew: Writer, account: str
) -> None:
    # What `serve` does at start: no early question waits on the model for a slot name.
    await ew.write("billing-api", "deploy_target", "Render", T0, tier=Tier.OBSERVED)
    await ew.write("billing-api", "ci_provider", "CircleCI", T0, tier=Tier.OBSERVED)
    recall = service(store)
    matcher = recall.slot_matcher
    assert matcher is not None
    names = ["deploy_target", "ci_provider"]
    said = [t for n in names if (t := slot_text(n)) is not None]
    assert said  # deploy_target has a gloss
    everything = [*glosses(CATEGORY_GLOSSES), *said]
    assert matcher.cached_vectors(names, everything) is None
    assert await recall.warm(account) == len(names) + len(everything)
    assert matcher.cached_vectors(names, everything) is not None


async def test_an_empty_answer_names_what_starts_later(
    store: Store, ew: Writer, account: str
) -> None:
    # Asked on January 1st of a freeze that starts on the 20th: "empty" alone would read
    # as "no freeze". The answer stays empty (nothing holds now) and names the freeze.
    freeze_starts = datetime(2030, 1, 20, tzinfo=UTC)
    await ew.write("team", "deploy_freeze", "on", freeze_starts, tier=Tier.ASSERTED)
    caller = Caller(account=account)
    got = await service(store).recall(caller, RecallRequest(query="is there a deploy freeze?"))
    assert (got.status, got.facts) == ("empty", [])
    assert [(f.predicate, f.object, f.valid_at) for f in got.starting_later] == [
        ("deploy_freeze", "on", freeze_starts)
    ]
    nonsense = await service(store).recall(caller, RecallRequest(query="zebra quantum banana"))
    assert (nonsense.status, nonsense.starting_later) == ("empty", [])
    then = RecallRequest(query="is there a deploy freeze?", as_of=datetime(2030, 1, 21, tzinfo=UTC))
    got = await service(store).recall(caller, then)
    assert got.status == "rows" and got.starting_later == []
    assert [f.object for f in got.facts] == ["on"]


async def test_recall_returns_current_facts_only_and_names_what_starts_later_beside_them(
    store: Store, ew: Writer, account: str
) -> None:
    # The team's facts hold now; the freeze starts on the 20th. Asked on the 1st, the
    # current rows answer and the freeze is named apart, as not true yet.
    await ew.write("team", "release_day", "Tuesday", T0, tier=Tier.ASSERTED)
    await ew.write("team", "deploy_window", "weekdays 10:00-16:00", T0, tier=Tier.ASSERTED)
    await ew.write(
        "team", "deploy_freeze", "on", datetime(2030, 1, 20, tzinfo=UTC), tier=Tier.ASSERTED
    )
    caller = Caller(account=account)
    ask = RecallRequest(query="can we deploy, is there a deploy freeze?", k=3)
    got = await service(store).recall(caller, ask)
    assert got.status == "rows"
    assert "deploy_freeze" not in [f.predicate for f in got.facts]
    assert all(f.valid_at <= datetime(2030, 1, 1, tzinfo=UTC) for f in got.facts)
    assert [f.predicate for f in got.starting_later] == ["deploy_freeze"]


async def test_a_plan_that_matches_the_question_best_is_said_first_unless_a_past_time_is_asked(
    store: Store, ew: Writer, account: str
) -> None:
    # "Is there a deploy freeze?" on the 1st, with one from the 20th: the current rows are
    # about other slots, and read first they would be taken for the answer.
    await ew.write("team", "deploy_target", "Fly.io", T0, tier=Tier.ASSERTED)
    await ew.write("team", "ci_provider", "GitHub Actions", T0, tier=Tier.ASSERTED)
    await ew.write(
        "team", "deploy_freeze", "on", datetime(2030, 1, 20, tzinfo=UTC), tier=Tier.ASSERTED
    )
    caller = Caller(account=account)
    asked = await service(store).recall(caller, RecallRequest(query="is there a deploy freeze?"))
    assert asked.status == "rows" and asked.later_first
    assert [f.predicate for f in asked.starting_later] == ["deploy_freeze"]
    # Asked of the deploy target, the current row is the answer and the plan stays after it.
    ask = RecallRequest(query="what is our deploy target?")
    where = await service(store).recall(caller, ask)
    assert where.facts[0].predicate == "deploy_target" and not where.later_first
    # A question naming a past time asks about then: the plan is no answer to it, even
    # one that matches its words best (PostgreSQL 17 for "in September").
    for version, since in (("PostgreSQL 14", datetime(2029, 2, 1, tzinfo=UTC)),
                           ("PostgreSQL 16", datetime(2029, 10, 20, tzinfo=UTC)),
                           ("PostgreSQL 17", datetime(2030, 1, 15, tzinfo=UTC))):  # fmt: skip
        await ew.write("api", "database", version, since, tier=Tier.ASSERTED)
    ask = RecallRequest(query="what database did api use in september?", k=3)
    then = await service(store).recall(caller, ask)
    assert [f.object for f in then.starting_later] == ["PostgreSQL 17"]
    assert [f.object for f in then.held_then] == ["PostgreSQL 14"] and not then.later_first
    # Nor is the plan first when the slot's current value is a row: it answers "db" today.
    terse = await service(store).recall(caller, RecallRequest(query="api db", k=3))
    assert "PostgreSQL 16" in [f.object for f in terse.facts] and not terse.later_first
    # Unless the question asks what is to come: then the plan answers it.
    coming = RecallRequest(query="what database will api use in february?", k=3)
    will = await service(store).recall(caller, coming)
    assert will.named_time is None and will.later_first
    assert [f.object for f in will.starting_later] == ["PostgreSQL 17"]


async def test_recall_current_facts_only_and_a_question_naming_a_time_to_come_gets_what_holds_then_first(  # noqa: E501
    store: Store, ew: Writer, account: str
) -> None:
    # Asked on Tuesday 2030-01-01: Dana is on call now, Ravi from Monday the 7th. "Next
    # week" is Ravi's: led by Dana's row, the answer would mislead.
    await ew.write("team", "ci_provider", "GitHub Actions", T0, tier=Tier.ASSERTED)
    await ew.write(
        "team", "on_call", "Dana", datetime(2029, 12, 31, tzinfo=UTC), tier=Tier.ASSERTED
    )
    await ew.write("team", "on_call", "Ravi", datetime(2030, 1, 7, tzinfo=UTC), tier=Tier.ASSERTED)
    caller = Caller(account=account)
    ask = RecallRequest(query="who is on call next week?", k=3)
    week = await service(store).recall(caller, ask)
    assert week.time_to_come is not None
    assert (week.time_to_come.label, week.time_to_come.since) == (
        "next week (the week of 2030-01-07)",
        datetime(2030, 1, 7, tzinfo=UTC),
    )
    assert week.later_first and [f.object for f in week.starting_later] == ["Ravi"]
    # The rows still hold now: Dana is among them, never replaced by the plan.
    assert "Dana" in [f.object for f in week.facts] and "Ravi" not in [f.object for f in week.facts]
    # Tomorrow is still Dana's: the plan is named after her, even asked with "will".
    for question in ("who is on call tomorrow?", "who will be on call tomorrow?"):
        got = await service(store).recall(caller, RecallRequest(query=question, k=3))
        assert got.time_to_come is not None and got.time_to_come.label == "tomorrow (2030-01-02)"
        assert got.facts[0].object == "Dana" and not got.later_first
    # Naming no time, the current value answers and the plan follows it.
    plain = await service(store).recall(caller, RecallRequest(query="who is on call?", k=3))
    assert plain.time_to_come is None and not plain.later_first
    assert plain.facts[0].object == "Dana"


async def test_recall_current_facts_only_and_a_question_asking_only_what_is_to_come_gets_the_plans(
    store: Store, ew: Writer, account: str
) -> None:
    # "What's coming up?" shares no word with a deploy freeze from the 20th: ranked by its
    # words, the answer was whatever held now, and the freeze was never named.
    await ew.write("team", "ci_provider", "GitHub Actions", T0, tier=Tier.ASSERTED)
    await ew.write(
        "team", "deploy_freeze", "no deploys", datetime(2030, 1, 20, tzinfo=UTC),
        invalid_at=datetime(2030, 2, 1, tzinfo=UTC), tier=Tier.ASSERTED,
    )  # fmt: skip
    await ew.write("team", "on_call", "Ravi", datetime(2030, 1, 7, tzinfo=UTC), tier=Tier.ASSERTED)
    caller = Caller(account=account)
    got = await service(store).recall(caller, RecallRequest(query="what's coming up?", k=3))
    assert got.time_to_come is not None and got.time_to_come.label == ANY_TIME_TO_COME_LABEL
    assert got.later_first
    assert [f.object for f in got.starting_later] == ["Ravi", "no deploys"]  # soonest first
    # A time named keeps to it: next week is Ravi's, the freeze comes after.
    ask = RecallRequest(query="anything planned next week?", k=3)
    week = await service(store).recall(caller, ask)
    assert week.later_first and week.starting_later[0].object == "Ravi"
    # A question that names what it asks of is ranked by its words, as before.
    infra = RecallRequest(query="what infra upgrade is coming up?", k=3)
    assert (await service(store).recall(caller, infra)).time_to_come is None


async def test_recall_current_facts_only_and_a_question_asking_only_what_is_to_come_counts_the_rest(
    store: Store, ew: Writer, account: str
) -> None:
    # Six plans, "what's coming up?" named three (the cap of a plan beside rows) and said
    # nothing of the rest: the deploy freeze from the 20th was one of them.
    plans = [
        ("app", "node_version", "22", 3),
        ("team", "release_manager", "Priya", 5),
        ("team", "on_call", "Ravi", 7),
        ("team", "deploy_freeze", "no deploys", 20),
    ]
    for subject, slot, value, day in plans:
        when = datetime(2030, 1, day, tzinfo=UTC)
        await ew.write(subject, slot, value, when, tier=Tier.ASSERTED)
    caller = Caller(account=account)
    got = await service(store).recall(caller, RecallRequest(query="what's coming up?", k=3))
    assert [f.object for f in got.starting_later] == ["22", "Priya", "Ravi"]
    assert got.starting_later_more == 1
    five = await service(store).recall(caller, RecallRequest(query="anything planned?", k=5))
    assert len(five.starting_later) == 4 and five.starting_later_more == 0
    # Next week (from Monday the 7th) holds what starts before it too, soonest first.
    ask = RecallRequest(query="anything planned next week?", k=5)
    week = await service(store).recall(caller, ask)
    assert [f.object for f in week.starting_later][:3] == ["22", "Priya", "Ravi"]


async def test_recall_current_facts_only_and_a_slot_the_question_names_that_ended_is_named_first(
    store: Store, ew: Writer, account: str
) -> None:
    # "What was our release cadence?" after the cadence ended: the rows are other slots
    # ("two weeks" of the sprint), and a model would take one for the cadence.
    await ew.write("team", "sprint_length", "two weeks", T0, tier=Tier.ASSERTED)
    await ew.write("app", "release_cadence", "every two weeks", T0, tier=Tier.ASSERTED)
    weekly = await ew.write(
        "app", "release_cadence", "weekly", datetime(2029, 6, 1, tzinfo=UTC), tier=Tier.ASSERTED
    )
    await ew.revise(weekly.fact_id, RetiredReason.ENDED, at=datetime(2029, 12, 1, tzinfo=UTC))
    caller = Caller(account=account)
    ask = RecallRequest(query="what was our release cadence?", k=3)
    got = await service(store).recall(caller, ask)
    assert [(f.object, f.invalid_at) for f in got.ended] == [
        ("weekly", datetime(2029, 12, 1, tzinfo=UTC))
    ]
    assert "release_cadence" not in [f.predicate for f in got.facts]
    # Named by a value it held, the slot is found too.
    weekly_asked = RecallRequest(query="do we still release weekly?", k=3)
    assert [f.object for f in (await service(store).recall(caller, weekly_asked)).ended] == [
        "weekly"
    ]
    # A question naming another thing does not get this one's slot.
    other = RecallRequest(query="what is the release cadence of team?", k=3)
    assert (await service(store).recall(caller, other)).ended == []
    # A slot named by a phrase the lexicon reads as another ("crash reporting" is an error
    # tracker) is named by those words too: "result: empty" alone said nothing was used.
    sentry = await ew.write("app", "crash_reporting", "Sentry", T0, tier=Tier.ASSERTED)
    await ew.revise(sentry.fact_id, RetiredReason.ENDED, at=datetime(2029, 12, 1, tzinfo=UTC))
    crash = RecallRequest(query="what do we use for crash reporting?", k=3)
    assert [f.object for f in (await service(store).recall(caller, crash)).ended] == ["Sentry"]

    # A value starting later fills the slot: it is named as such, not the ended one.
    await ew.write(
        "app", "release_cadence", "monthly", datetime(2030, 3, 1, tzinfo=UTC), tier=Tier.ASSERTED
    )
    got = await service(store).recall(caller, ask)
    assert got.ended == [] and [f.object for f in got.starting_later] == ["monthly"]

    # A retracted value is not believed: its slot holds nothing to name.
    wrong = await ew.write("app", "code_freeze", "Fridays", T0, tier=Tier.ASSERTED)
    await ew.retract(wrong.fact_id)
    freeze = RecallRequest(query="what is the code freeze?", k=3)
    assert (await service(store).recall(caller, freeze)).ended == []


async def maintainers(ew: Writer, *joined: tuple[str, int], gone: str | None = None) -> None:
    """Write ledger's maintainers (a many-value slot), each from the first of a month of
    2029; ``gone`` left on 2029-09-01."""
    for who, month in joined:
        plan = await ew.write(
            "ledger", "maintainer", who, datetime(2029, month, 1, tzinfo=UTC),
            tier=Tier.ASSERTED, cardinality=Cardinality.MANY,
        )  # fmt: skip
        if who == gone:
            await ew.revise(plan.fact_id, RetiredReason.ENDED, at=datetime(2029, 9, 1, tzinfo=UTC))


async def test_recall_current_facts_only_and_an_ended_value_of_a_many_value_slot_the_question_names_is_named_first(  # noqa: E501
    store: Store, ew: Writer, account: str
) -> None:
    # "Is Bo still a maintainer of ledger?" after Bo's value ended: the maintainers now
    # (the rows) do not say that Bo left, or when; in a one-value slot the value after
    # would say both.
    await maintainers(ew, ("Ana Ruiz", 1), ("Bo Lin", 2), ("Chen Wu", 3), gone="Bo Lin")
    caller = Caller(account=account)
    ask = RecallRequest(query="is Bo still a maintainer of ledger?", k=5)
    got = await service(store).recall(caller, ask)
    assert [(f.object, f.invalid_at) for f in got.ended_values] == [
        ("Bo Lin", datetime(2029, 9, 1, tzinfo=UTC))
    ]
    assert sorted(f.object for f in got.facts) == ["Ana Ruiz", "Chen Wu"]
    assert got.ended == []
    # A question naming no ended value, or another thing, gets none.
    await ew.write("payroll", "language", "Go", T0, tier=Tier.ASSERTED)
    for other in ("who maintains ledger?", "is Bo still a maintainer of payroll?"):
        assert (await service(store).recall(caller, RecallRequest(query=other))).ended_values == []
    # Bo back on the team (a value held again now) is not named as ended.
    await maintainers(ew, ("Bo Lin", 11))
    assert (await service(store).recall(caller, ask)).ended_values == []


async def test_recall_current_facts_only_and_an_ended_value_of_a_one_value_slot_is_named_when_nothing_began_at_its_end(  # noqa: E501
    store: Store, ew: Writer, account: str
) -> None:
    # "Do we still use Heroku?": Heroku ended on 1 March 2029 and Render began on 1 June.
    # Render's line alone ("from June") reads as Heroku until June.
    heroku = await ew.write(
        "shop", "deploy_target", "Heroku", datetime(2028, 10, 1, tzinfo=UTC), tier=Tier.ASSERTED
    )
    await ew.revise(heroku.fact_id, RetiredReason.ENDED, at=datetime(2029, 3, 1, tzinfo=UTC))
    await ew.write(
        "shop", "deploy_target", "Render", datetime(2029, 6, 1, tzinfo=UTC), tier=Tier.ASSERTED
    )
    await ew.write("shop", "docs_site", "Jekyll", datetime(2028, 1, 1, tzinfo=UTC),
                   tier=Tier.ASSERTED)  # fmt: skip
    await ew.write("shop", "docs_site", "Docusaurus", datetime(2029, 2, 1, tzinfo=UTC),
                   tier=Tier.ASSERTED)  # fmt: skip
    caller = Caller(account=account)
    got = await service(store).recall(caller, RecallRequest(query="do we still use Heroku?", k=5))
    assert [(f.object, f.invalid_at) for f in got.ended_values] == [
        ("Heroku", datetime(2029, 3, 1, tzinfo=UTC))
    ]
    assert "Render" in [f.object for f in got.facts]
    # Jekyll's end is Docusaurus's start: the value now says when, and nothing else is named.
    asked = RecallRequest(query="is the docs site still on Jekyll?", k=5)
    got = await service(store).recall(caller, asked)
    assert (got.ended_values, got.facts[0].object) == ([], "Docusaurus")


async def test_recall_current_facts_only_and_a_question_asking_what_changed_gets_what_began_or_ended(  # noqa: E501
    store: Store, ew: Writer, account: str
) -> None:
    # Asked on 2030-01-01: shop moved from PostgreSQL to MySQL on 10 December, ledger took
    # up Go on the 20th; an incident happened on the 15th; shop's CI did not change.

    def day(d: int) -> datetime:
        return datetime(2029, 12, d, tzinfo=UTC)

    await ew.write("shop", "database", "PostgreSQL", T0, tier=Tier.ASSERTED)
    await ew.write("shop", "ci", "GitHub Actions", T0, tier=Tier.ASSERTED)
    await ew.write("shop", "database", "MySQL 8", day(10), tier=Tier.ASSERTED)
    await ew.write("ledger", "language", "Go", day(20), tier=Tier.ASSERTED)
    await ew.write("shop", "incident", "checkout outage", day(15), tier=Tier.ASSERTED,
                   kind=Kind.EVENT)  # fmt: skip
    caller = Caller(account=account)
    asked = RecallRequest(query="what changed since December?", k=5)
    got = await service(store).recall(caller, asked)
    assert [(f.object, f.invalid_at) for f in got.changed] == [
        ("PostgreSQL", day(10)),
        ("MySQL 8", None),
        ("Go", None),
    ]
    assert got.status == "rows" and got.named_time is None
    assert got.changes_in is not None and got.changes_in.label == "since December 2029"
    # Of a thing it names, that thing's changes alone.
    asked = RecallRequest(query="what changed in shop since December?", k=5)
    got = await service(store).recall(caller, asked)
    assert [f.object for f in got.changed] == ["PostgreSQL", "MySQL 8"]
    # Of a slot it names, that slot's changes alone.
    asked = RecallRequest(query="what changed in the database since December?", k=5)
    got = await service(store).recall(caller, asked)
    assert [f.object for f in got.changed] == ["PostgreSQL", "MySQL 8"]
    # A question about what holds is no question of changes.
    got = await service(store).recall(caller, RecallRequest(query="which database does shop use?"))
    assert (got.changes_in, got.changed) == (None, [])


async def test_recall_current_facts_only_and_a_change_question_naming_a_slot_and_no_time_gets_its_latest_changes(  # noqa: E501
    store: Store, ew: Writer, account: str
) -> None:
    # Asked on 2030-01-01, three weeks after shop moved from PostgreSQL to MySQL: "what
    # changed in the database?" named no time and got "nothing in the past 7 days".
    moved = datetime(2029, 12, 10, tzinfo=UTC)
    await ew.write("shop", "database", "PostgreSQL", T0, tier=Tier.ASSERTED)
    await ew.write("shop", "database", "MySQL 8", moved, tier=Tier.ASSERTED)
    await ew.write("ledger", "language", "Go", moved, tier=Tier.ASSERTED)
    caller = Caller(account=account)
    for question in ("what changed in the database?", "what changed in shop?"):
        got = await service(store).recall(caller, RecallRequest(query=question, k=5))
        assert [(f.object, f.invalid_at) for f in got.changed] == [
            ("PostgreSQL", moved),
            ("MySQL 8", None),
        ], question
        assert got.changes_in is not None and got.changes_in.label == ANY_TIME_LABEL
        assert got.changes_in.since == T0 and got.status == "rows"
    # A question that narrows to nothing keeps the past 7 days, where nothing changed.
    got = await service(store).recall(caller, RecallRequest(query="anything new?", k=5))
    assert got.changed == [] and got.changes_in is not None
    assert got.changes_in.label == "the past 7 days (no time named)"


async def test_recall_current_facts_only_and_a_question_asking_what_memory_learned_gets_what_was_told_then(  # noqa: E501
    store: Store, ew: Writer, account: str
) -> None:
    # Asked on Tuesday 2030-01-01. Told last June: CI. Told on 30 December: the database,
    # MySQL 8 since 2025 (an old fact, told late). Told on the 31st: ledger's language.
    # "What did you learn in the past 7 days?" got `result: empty`: nothing it names
    # changed in the world that week, yet memory learned two facts.
    def told(day: datetime) -> datetime:
        return day.replace(hour=9)

    await ew.write("shop", "ci", "GitHub Actions", T0, now=datetime(2029, 6, 1, tzinfo=UTC),
                   tier=Tier.ASSERTED)  # fmt: skip
    await ew.write("shop", "database", "MySQL 8", datetime(2025, 1, 1, tzinfo=UTC),
                   now=told(datetime(2029, 12, 30, tzinfo=UTC)), tier=Tier.ASSERTED)  # fmt: skip
    await ew.write("ledger", "language", "Go", datetime(2029, 12, 31, tzinfo=UTC),
                   now=told(datetime(2029, 12, 31, tzinfo=UTC)), tier=Tier.ASSERTED)  # fmt: skip
    caller = Caller(account=account)
    asked = RecallRequest(query="what did you learn in the past 7 days?", k=5)
    got = await service(store).recall(caller, asked)
    assert got.changes_told and [f.object for f in got.changed] == ["MySQL 8", "Go"]
    assert got.changes_in is not None and got.changes_in.label == "the past 7 days"
    assert got.status == "rows"
    # The week now running began on Monday the 31st.
    asked = RecallRequest(query="what have I told you this week?", k=5)
    got = await service(store).recall(caller, asked)
    assert got.changes_told and [f.object for f in got.changed] == ["Go"]
    # What changed in the world that week is another question: MySQL 8 held since 2025.
    asked = RecallRequest(query="what changed in the past 7 days?", k=5)
    got = await service(store).recall(caller, asked)
    assert not got.changes_told and [f.object for f in got.changed] == ["Go"]


async def test_recall_times_in_the_accounts_own_time_zone_and_a_change_questions_today_is_its_today(
    store: Store, ew: Writer, account: str
) -> None:
    # Asked at 2030-01-01 00:00 UTC, 09:00 in Tokyo, by an account set to Asia/Tokyo: Go
    # began at 2029-12-31 16:00 UTC, 01:00 on Tokyo's 1 January, so "today" holds it;
    # read in the server's UTC, "today" would start after it.
    await ew.write("ledger", "language", "Go", datetime(2029, 12, 31, 16, tzinfo=UTC),
                   tier=Tier.ASSERTED)  # fmt: skip

    async def tokyo(_account: str) -> AccountSettings:
        return AccountSettings(timezone="Asia/Tokyo")

    in_tokyo = service(store)
    in_tokyo.settings_of = tokyo
    caller = Caller(account=account)
    asked = RecallRequest(query="what changed today?", k=5)
    got = await in_tokyo.recall(caller, asked)
    assert [f.object for f in got.changed] == ["Go"]
    assert got.changes_in is not None and got.changes_in.label == "today (2030-01-01)"
    got = await service(store).recall(caller, asked)
    assert got.changed == [] and got.changes_in is not None


async def test_recall_current_facts_only_and_what_held_at_a_past_time_named_and_holds_still_is_named_too(  # noqa: E501
    store: Store, ew: Writer, account: str
) -> None:
    # Asked on 2030-01-01 "who maintained ledger in April?": Bo held then and left in
    # September (held_then); Ana held then and holds still; Dana began in June. Bo named
    # alone first would read as April's whole answer.
    await maintainers(ew, ("Ana Ruiz", 1), ("Bo Lin", 2), ("Dana Kim", 6), gone="Bo Lin")
    caller = Caller(account=account)
    april = RecallRequest(query="who maintained ledger in April?", k=5)
    got = await service(store).recall(caller, april)
    assert [f.object for f in got.held_then] == ["Bo Lin"]
    assert [f.object for f in got.still_held] == ["Ana Ruiz"]
    assert sorted(f.object for f in got.facts) == ["Ana Ruiz", "Dana Kim"]
    # Of January nothing that held then has ended: Ana alone held then, and holds still.
    january = RecallRequest(query="who maintained ledger in January 2029?", k=5)
    got = await service(store).recall(caller, january)
    assert (got.held_then, [f.object for f in got.still_held]) == ([], ["Ana Ruiz"])


async def test_recall_current_facts_only_and_what_held_then_is_never_put_above_the_first_row(
    store: Store, ew: Writer, account: str
) -> None:
    # "what was the penguin db in january 2029?": an old mascot value, closed in 2028,
    # holds the question's words, so the read with history may pick the mascot slot, while
    # the answer's first row is the database. Nothing of the mascot slot ended in January:
    # its value then and now (the owl) is not said above the database. (The two slots
    # score close: the history read picks the database on some runs, and then what held
    # then and still holds is the first row's own value, which may be said.)
    await ew.write("app", "db", "Postgres", datetime(2028, 1, 1, tzinfo=UTC), tier=Tier.ASSERTED)
    await ew.write(
        "app",
        "mascot",
        "emperor penguin suit",
        datetime(2027, 1, 1, tzinfo=UTC),
        tier=Tier.ASSERTED,
    )
    await ew.write("app", "mascot", "owl", datetime(2028, 12, 1, tzinfo=UTC), tier=Tier.ASSERTED)
    caller = Caller(account=account)
    asked = RecallRequest(query="what was the penguin db in january 2029?", k=3)
    got = await service(store).recall(caller, asked)
    assert got.named_time is not None and got.held_then == []
    assert got.facts[0].predicate == "db"
    assert [f.predicate for f in got.still_held] in ([], ["db"])


async def test_recall_current_facts_only_and_the_events_of_a_past_time_named_are_named_first(
    store: Store, ew: Writer, account: str
) -> None:
    # Asked on 2030-01-01 "what incidents did payroll have in November?": the November
    # incident happened then; March's did not, and no event "still holds" a time.
    event = {"tier": Tier.ASSERTED, "kind": Kind.EVENT}
    for what, month in (("database failover", 3), ("expired TLS cert", 11)):
        await ew.write("payroll", "incident", what, datetime(2029, month, 12, tzinfo=UTC), **event)
    await ew.write("payroll", "language", "Kotlin", T0, tier=Tier.ASSERTED)
    caller = Caller(account=account)
    asked = RecallRequest(query="what incidents did payroll have in November?", k=5)
    got = await service(store).recall(caller, asked)
    assert [f.object for f in got.held_then] == ["expired TLS cert"]
    assert got.still_held == []


async def test_a_question_asking_what_came_before_a_value_names_what_held_before_it_first(
    store: Store, ew: Writer, account: str
) -> None:
    # "What chat did we use before Discord?" answered with Discord alone got the one
    # value it did not ask for. Slack held until Discord began; IRC before that.
    for chat, since in (("IRC", 2027), ("Slack", 2028), ("Discord", 2029)):
        at = datetime(since, 1, 1, tzinfo=UTC)
        await ew.write("team", "chat", chat, at, tier=Tier.ASSERTED)
    caller = Caller(account=account)
    got = await service(store).recall(
        caller, RecallRequest(query="what chat did we use before Discord?", k=3)
    )
    assert got.facts[0].object == "Discord"
    assert got.named_time is not None and got.named_time.label == "the time before Discord"
    assert [f.object for f in got.held_then] == ["Slack"]
    # A value replaced since is named too: before Slack, IRC.
    got = await service(store).recall(
        caller, RecallRequest(query="which chat did we use before Slack?", k=3)
    )
    assert [f.object for f in got.held_then] == ["IRC"]
    # The slot's first value has nothing before it: the time before it is named, empty
    # ("who owned checkout before?" answered with Bea alone read Bea as the former owner).
    got = await service(store).recall(
        caller, RecallRequest(query="what did the team chat on before IRC?", k=3)
    )
    assert got.named_time is not None and got.named_time.label == "the time before IRC"
    assert got.held_then == [] and got.facts[0].object == "Discord"
    # Naming no value, "before" asks of the first row's slot: what held before Discord.
    got = await service(store).recall(
        caller, RecallRequest(query="what was the team chat before?", k=3)
    )
    assert got.facts[0].object == "Discord" and [f.object for f in got.held_then] == ["Slack"]
    # A number is a value too ("20" is never named in words, so it is read off the row).
    await ew.write("api", "max_connections", "20", T0, tier=Tier.ASSERTED)
    await ew.write(
        "api", "max_connections", "50", datetime(2029, 6, 1, tzinfo=UTC), tier=Tier.ASSERTED
    )
    got = await service(store).recall(
        caller, RecallRequest(query="what were the api max connections previously?", k=3)
    )
    assert got.named_time is not None and got.named_time.label == "the time before 50"
    assert [f.object for f in got.held_then] == ["20"]
    # "Earlier" at the end asks the same: the failure a pass ended, not the pass alone.
    await ew.write("shop", "pytest_result", "pytest failed: 1 failing: test_refund", T0,
                   tier=Tier.OBSERVED)  # fmt: skip
    await ew.write("shop", "pytest_result", "pytest passed", datetime(2029, 6, 1, tzinfo=UTC),
                   tier=Tier.OBSERVED)  # fmt: skip
    got = await service(store).recall(
        caller, RecallRequest(query="which test failed earlier?", k=3)
    )
    assert got.facts[0].object == "pytest passed"
    assert [f.object for f in got.held_then] == ["pytest failed: 1 failing: test_refund"]


async def snowflake_then_bigquery(ew: Writer) -> None:
    """ "warehouse Snowflake" told on 2029-12-07 with no start, then "BigQuery since November
    15" an hour later: Snowflake is outdated."""
    told = datetime(2029, 12, 7, 15, tzinfo=UTC)
    await ew.write("etl", "warehouse", "Snowflake", told, now=told, tier=Tier.ASSERTED,
                   start_stated=False)  # fmt: skip
    await ew.write("etl", "warehouse", "BigQuery", datetime(2029, 11, 15, tzinfo=UTC),
                   now=told + timedelta(hours=1), tier=Tier.ASSERTED)  # fmt: skip


async def test_a_value_told_late_and_outdated_by_a_dated_word_came_before_that_words_value(
    store: Store, ew: Writer, account: str
) -> None:
    # "warehouse Snowflake" told on 2029-12-07 with no start, then "BigQuery since November
    # 15": Snowflake is outdated, and the block says "Snowflake -> BigQuery (changed Nov 15)".
    # Recall said nothing came before BigQuery, and that the warehouse never changed.
    await snowflake_then_bigquery(ew)
    caller = Caller(account=account)
    got = await service(store).recall(
        caller, RecallRequest(query="what was the warehouse before BigQuery?", k=3)
    )
    assert got.facts[0].object == "BigQuery"
    assert got.named_time is not None and got.named_time.label == "the time before BigQuery"
    assert [(f.object, f.retired_reason) for f in got.held_then] == [
        ("Snowflake", RetiredReason.OUTDATED)
    ]
    got = await service(store).recall(
        caller, RecallRequest(query="when did we switch to BigQuery?", k=3)
    )
    assert [(f.object, f.valid_at) for f in got.changed] == [
        ("BigQuery", datetime(2029, 11, 15, tzinfo=UTC))
    ]


async def test_recall_a_question_asking_what_replaced_a_value_gets_that_values_slot_first(
    store: Store, ew: Writer, account: str
) -> None:
    # "What replaced Expo?" was answered by analytics' Mixpanel first, the row that matched
    # its words best: read as Expo's successor. The slots Expo held come first now.
    told = datetime(2029, 12, 7, 15, tzinfo=UTC)
    await ew.write("app", "analytics", "Mixpanel", told, now=told, tier=Tier.ASSERTED,
                   start_stated=False)  # fmt: skip
    await ew.write("app", "build_tool", "Expo", told, now=told, tier=Tier.ASSERTED,
                   start_stated=False)  # fmt: skip
    await ew.write("app", "build_tool", "React Native CLI", datetime(2029, 11, 30, tzinfo=UTC),
                   now=told + timedelta(hours=1), tier=Tier.ASSERTED)  # fmt: skip
    await ew.write("app", "host", "Heroku", datetime(2029, 1, 1, tzinfo=UTC), tier=Tier.ASSERTED)
    await ew.write("app", "host", "Render", datetime(2029, 6, 1, tzinfo=UTC), tier=Tier.ASSERTED)
    # Facts that share the question's words and name no successor.
    await ew.write("app", "expo_account", "acme-mobile on Expo", T0, tier=Tier.ASSERTED)
    await ew.write("app", "heroku_app_name", "acme-prod on Heroku", T0, tier=Tier.ASSERTED)
    caller = Caller(account=account)
    for question, value in [
        ("what replaced Expo?", "React Native CLI"),
        ("what did we replace Heroku with?", "Render"),
        ("what do we use instead of Heroku?", "Render"),
    ]:
        got = await service(store).recall(caller, RecallRequest(query=question, k=3))
        assert got.facts[0].object == value, question
    # A value that still holds names no former slot: the order is recall's own.
    got = await service(store).recall(caller, RecallRequest(query="what replaced Mixpanel?", k=3))
    assert "Mixpanel" in [f.object for f in got.facts]


async def test_recall_a_past_time_before_a_dated_word_names_the_value_it_outdated_as_told_later(
    store: Store, ew: Writer, account: str
) -> None:
    # The same store, asked of October: nothing on the record held then, yet the block says
    # Snowflake -> BigQuery (changed Nov 15). Snowflake may have held: named apart, marked
    # outdated, never under "held then". Asked of a time after November 15, it is not.
    await snowflake_then_bigquery(ew)
    caller = Caller(account=account)
    october = await service(store).recall(
        caller, RecallRequest(query="which warehouse did we use in October?", k=3)
    )
    assert october.named_time is not None and october.named_time.label == "October 2029"
    assert october.facts[0].object == "BigQuery" and october.held_then == []
    assert [(f.object, f.retired_reason) for f in october.told_later] == [
        ("Snowflake", RetiredReason.OUTDATED)
    ]
    late_november = await service(store).recall(
        caller, RecallRequest(query="which warehouse did we use on 2029-11-20?", k=3)
    )
    assert late_november.named_time is not None
    assert [f.object for f in late_november.still_held] == ["BigQuery"]
    assert late_november.told_later == []


async def test_recall_current_facts_only_and_a_question_asking_what_memory_believed_then_gets_that_belief(  # noqa: E501
    store: Store, ew: Writer, account: str
) -> None:
    # Told Heroku on December 1st, corrected to Render (never Heroku) on the 20th; asked on
    # 2030-01-01 what memory thought on December 10th: Heroku, the belief then. Read on the
    # world clock, a corrected value never held, so it would not be named at all.
    heroku = await ew.write(
        "team", "host", "Heroku", datetime(2029, 12, 1, tzinfo=UTC),
        now=datetime(2029, 12, 1, 9, tzinfo=UTC), tier=Tier.ASSERTED,
    )  # fmt: skip
    await ew.revise(heroku.fact_id, RetiredReason.CORRECTED, now=datetime(2029, 12, 20, tzinfo=UTC))
    await ew.write(
        "team", "host", "Render", datetime(2029, 12, 1, tzinfo=UTC),
        now=datetime(2029, 12, 20, 1, tzinfo=UTC), tier=Tier.ASSERTED,
    )  # fmt: skip
    caller = Caller(account=account)
    ask = RecallRequest(query="what did you think our host was on December 10?", k=3)
    got = await service(store).recall(caller, ask)
    assert got.named_time is not None and got.named_time.label == "2029-12-10"
    assert got.then_believed and got.still_held == []
    assert [(f.object, f.retired_reason) for f in got.held_then] == [
        ("Heroku", RetiredReason.CORRECTED)
    ]
    assert got.facts[0].object == "Render"
    # Asked of what held then, the world clock answers: Render held then (its window is
    # Heroku's), and nothing that held then has ended, so nothing is named as held then.
    held = await service(store).recall(
        caller, RecallRequest(query="what host did we use on December 10?", k=3)
    )
    assert not held.then_believed and "Heroku" not in [f.object for f in held.held_then]
    # Before memory was told anything of it, it believed nothing about it.
    early = await service(store).recall(
        caller, RecallRequest(query="what did you think our host was on 2029-11-15?", k=3)
    )
    assert early.then_believed and early.held_then == []


async def test_recall_current_facts_only_and_a_belief_asked_at_a_clock_time_or_today_is_read_then(
    store: Store, ew: Writer, account: str
) -> None:
    # Told Heroku at 09:00 yesterday, corrected to Render at 10:00. "What did you think our
    # host was yesterday at 9:30?" and "... today?" named no time memory could read: both
    # got Render alone, the value memory did not believe at 09:30.
    heroku = await ew.write(
        "team", "host", "Heroku", datetime(2029, 12, 31, 9, tzinfo=UTC),
        now=datetime(2029, 12, 31, 9, tzinfo=UTC), tier=Tier.ASSERTED,
    )  # fmt: skip
    await ew.revise(
        heroku.fact_id, RetiredReason.CORRECTED, now=datetime(2029, 12, 31, 10, tzinfo=UTC)
    )
    await ew.write(
        "team", "host", "Render", datetime(2029, 12, 31, 9, tzinfo=UTC),
        now=datetime(2029, 12, 31, 10, 1, tzinfo=UTC), tier=Tier.ASSERTED,
    )  # fmt: skip
    caller = Caller(account=account)
    ask = RecallRequest(query="what did you think our host was yesterday at 9:30am?", k=3)
    got = await service(store).recall(caller, ask)
    assert got.named_time is not None and got.named_time.label == "at 2029-12-31 09:30"
    assert got.then_believed
    assert [(f.object, f.retired_reason) for f in got.held_then] == [
        ("Heroku", RetiredReason.CORRECTED)
    ]
    # A time still running is read from its start to now: this week, from Monday the 31st,
    # began before Heroku was told; memory believed it in between.
    ask = RecallRequest(query="what did you think our host was this week?", k=3)
    got = await service(store).recall(caller, ask)
    assert got.then_believed and "Heroku" in [f.object for f in got.held_then]


async def test_recall_current_facts_only_and_a_moment_hours_ago_names_what_held_then(
    store: Store, ew: Writer, account: str
) -> None:
    # Asked at midnight: the branch was switched from main to feature at 23:00. "Two hours
    # ago" is 22:00, when main held; what memory believed then was main too.
    await ew.write("ledger", "current_branch", "main", T0, tier=Tier.OBSERVED)
    switched = datetime(2029, 12, 31, 23, tzinfo=UTC)
    await ew.write(
        "ledger", "current_branch", "feature", switched, now=switched, tier=Tier.OBSERVED
    )
    caller = Caller(account=account)
    ask = RecallRequest(query="what was the current branch two hours ago?", k=3)
    got = await service(store).recall(caller, ask)
    assert got.named_time is not None
    assert got.named_time.label == "at 2029-12-31 22:00 (two hours ago)"  # yesterday: dated
    assert [f.object for f in got.held_then] == ["main"] and got.facts[0].object == "feature"
    ask = RecallRequest(query="what did you think the current branch was two hours ago?", k=3)
    believed = await service(store).recall(caller, ask)
    assert believed.then_believed and [f.object for f in believed.held_then] == ["main"]


async def test_recall_current_facts_only_and_a_past_time_named_in_words_is_named_beside_them(
    store: Store, ew: Writer, account: str
) -> None:
    # Asked on 2030-01-01 "which warehouse did we use in March?": the answer is still what
    # holds now (BigQuery), and Snowflake, which held in March 2029 and ended in November,
    # is named beside it. Memcached, retracted (never true), is never named as March's.
    march = datetime(2029, 3, 1, tzinfo=UTC)
    await ew.write(
        "data-team", "warehouse", "Snowflake", march.replace(month=1), tier=Tier.ASSERTED
    )
    await ew.write(
        "data-team", "warehouse", "BigQuery", march.replace(month=11), tier=Tier.ASSERTED
    )
    cache = await ew.write("data-team", "cache", "Memcached", march, tier=Tier.ASSERTED)
    await ew.write("data-team", "cache", "Redis", march.replace(month=6), tier=Tier.ASSERTED)
    await ew.retract(cache.fact_id)
    caller = Caller(account=account)

    got = await service(store).recall(
        caller, RecallRequest(query="which warehouse did we use in march?", k=3)
    )
    assert got.facts[0].object == "BigQuery"
    assert got.named_time is not None and got.named_time.label == "March 2029"
    assert [(f.object, f.invalid_at) for f in got.held_then] == [
        ("Snowflake", march.replace(month=11))
    ]
    cache_then = RecallRequest(query="which cache did the data-team use in march?", k=3)
    got = await service(store).recall(caller, cache_then)
    assert got.facts[0].object == "Redis"
    assert "Memcached" not in [f.object for f in got.held_then]

    # A slot changed often ranks its newer versions first; the old one is still found.
    for version, since in (("Node 20", 2), ("Node 22", 10), ("Node 24", 12)):
        at = march.replace(month=since)
        await ew.write("data-team", "node_version", version, at, tier=Tier.ASSERTED)
    ask = RecallRequest(query="which node version did data-team run in september?", k=1)
    got = await service(store).recall(caller, ask)
    assert [f.object for f in got.held_then] == ["Node 20"]

    # A question naming no past time, or one read at a time it names, reads no history.
    plain = await service(store).recall(caller, RecallRequest(query="which warehouse do we use?"))
    assert (plain.named_time, plain.held_then) == (None, [])
    asked_then = RecallRequest(query="which warehouse did we use in march?", as_of=march)
    got = await service(store).recall(caller, asked_then)
    assert [f.object for f in got.facts][:1] == ["Snowflake"]
    assert (got.named_time, got.held_then) == (None, [])


async def test_rows_with_no_tier_are_never_named_as_what_held_at_a_past_time(
    store: Store, ew: Writer, account: str
) -> None:
    # An imported, untiered Jira ended in June; the tiered Linear holds since then.
    await ew.write("app", "issue_tracker", "Jira", datetime(2029, 1, 1, tzinfo=UTC))
    await ew.write("app", "issue_tracker", "Linear", datetime(2029, 6, 1, tzinfo=UTC),
                   tier=Tier.OBSERVED)  # fmt: skip
    caller = Caller(account=account)
    for question in (
        "which issue tracker did app use in March 2029?",
        "which issue tracker did app use before Linear?",
    ):
        got = await service(store).recall(caller, RecallRequest(query=question, k=3))
        assert got.named_time is not None, question
        assert [f.object for f in [*got.held_then, *got.told_later]] == [], question


class ApproximateIndex(EmbeddingStore):
    """The store under test, its vector index missing the rows of one slot, as an
    approximate (HNSW) index can among many near-identical facts."""

    def __init__(self, store: Store, missed: tuple[str, str]) -> None:
        super().__init__(store)
        self._missed = missed

    async def search_vector_scored(self, *args: object) -> list[tuple[object, float]]:
        found = await self._store.search_vector_scored(*args)  # type: ignore[arg-type]
        return [(v, score) for v, score in found if v.slot != self._missed]


async def test_a_row_the_vector_index_missed_ranks_by_its_own_cosine(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("billing-api", "ci_provider", "CircleCI", T0, tier=Tier.OBSERVED)
    await ew.write("billing-api", "language", "Python", T0, tier=Tier.OBSERVED)
    for name in ("auth-api", "search-api", "media-api"):
        await ew.write(name, "ci_provider", "CircleCI", T0, tier=Tier.OBSERVED)
    missing = ApproximateIndex(store, missed=("billing-api", "ci_provider"))
    ask = RecallRequest(query="which CI do we use?", k=3, cwd="/src/billing-api")
    got = await service(missing, BILLING).recall(Caller(account=account), ask)  # type: ignore[arg-type]
    # The workspace walk found it; scored as the farthest row the index returned (the
    # language's), billing-api's CI fell below the other services' CI.
    assert (got.facts[0].subject, got.facts[0].predicate) == ("billing-api", "ci_provider")
