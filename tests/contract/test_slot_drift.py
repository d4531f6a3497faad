"""Slot drift through the service with the real MiniLM model, on every store (DESIGN.md §3)."""

from __future__ import annotations

import itertools
import uuid
from datetime import UTC, datetime

import pytest
from storekit import FakeClock, drifting_service

from twoclocks.domain.model import RetiredReason
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.port import Store
from twoclocks.service.memory import MemoryService
from twoclocks.service.requests import Caller, FactsRequest, RememberRequest, ReplacedValue

pytestmark = [pytest.mark.anyio, pytest.mark.slow]


def service(store: Store, matcher: SlotMatcher, clock: FakeClock) -> MemoryService:
    return drifting_service(store, matcher, clock)


async def each_its_own_slot(
    svc: MemoryService, who: Caller, clock: FakeClock, subject: str, rows: list[tuple[str, str]]
) -> list[tuple[str, str]]:
    """Write ``rows`` one by one, each under its own name closing nothing; the current facts."""
    for predicate, value in rows:
        written = await svc.remember(
            who, RememberRequest(subject=subject, predicate=predicate, object=value)
        )
        assert (written.predicate, written.closed) == (predicate, []), predicate
        clock.tick()
    current = await svc.facts(who, FactsRequest(subject=subject))
    return sorted((f.predicate, f.object) for f in current)


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("ci_provider", "ci_platform"),
        ("deploy_target", "deployment_target"),
        ("db_engine", "database_engine"),
        ("timeout_seconds", "timeout_ms"),
    ],
)
async def test_slot_drift_synonym_is_written_under_the_existing_slot_and_closes_it(
    store: Store, account: str, matcher: SlotMatcher, first: str, second: str
) -> None:
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    svc, who = service(store, matcher, clock), Caller(account=account)
    old = await svc.remember(who, RememberRequest(subject="prod", predicate=first, object="A"))
    clock.tick()
    new = await svc.remember(who, RememberRequest(subject="prod", predicate=second, object="B"))
    assert new.predicate == first and new.closed == [old.fact_id]
    # The answer says both things the writer did not ask for: the slot, and what it closed.
    assert new.written_as == second and old.written_as is None
    ended = RetiredReason.ENDED
    assert new.replaced == [ReplacedValue(fact_id=old.fact_id, object="A", retired_reason=ended)]
    assert old.replaced == []
    clock.tick()
    # Reads merge aliased slots: the alias finds the slot it names.
    by_alias = await svc.facts(who, FactsRequest(subject="prod", predicate=second))
    assert [(f.predicate, f.object) for f in by_alias] == [(first, "B")]


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("deploy_target", "deploy_region"),
        ("primary_db", "replica_db"),
        ("frontend_port", "backend_port"),
        ("owner", "previous_owner"),
        ("database", "analytics_db"),
        ("hosting", "staging_host"),
        ("moved_from", "moved_to"),
    ],
)
async def test_slot_drift_near_names_stay_separate_slots(
    store: Store, account: str, matcher: SlotMatcher, first: str, second: str
) -> None:
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    svc, who = service(store, matcher, clock), Caller(account=account)
    for a, b in ((first, second), (second, first)):
        subject = f"svc-{a}"
        await svc.remember(who, RememberRequest(subject=subject, predicate=a, object="A"))
        clock.tick()
        written = await svc.remember(who, RememberRequest(subject=subject, predicate=b, object="B"))
        assert written.predicate == b and written.closed == []
        clock.tick()
        current = await svc.facts(who, FactsRequest(subject=subject))
        assert sorted(f.object for f in current) == ["A", "B"]


# One service's stores, hosts and queues in several roles, as an agent writes them over
# weeks: each later name is an earlier one's head with a role word, or a thing of its kind.
ROLES = [
    ("database", "PostgreSQL 16"),
    ("hosting", "Fly.io"),
    ("queue", "SQS orders"),
    ("region", "eu-west-1"),
    ("analytics_db", "ClickHouse 24.3"),
    ("test_db", "SQLite"),
    ("data_warehouse", "Snowflake"),
    ("staging_host", "Render"),
    ("api_hosting", "Railway"),
    ("dead_letter_queue", "SQS orders-dlq"),
    ("dr_region", "us-east-1"),
]


async def test_slot_drift_a_role_word_keeps_every_role_current(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    svc, who = service(store, matcher, clock), Caller(account=account)
    assert await each_its_own_slot(svc, who, clock, "orders", ROLES) == sorted(ROLES)
    # Another name for one of them still finds it.
    renamed = await svc.remember(
        who, RememberRequest(subject="orders", predicate="db", object="PostgreSQL 17")
    )
    assert renamed.predicate == "database" and len(renamed.closed) == 1


async def test_slot_drift_a_persons_role_with_a_word_before_it_is_another_role(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    svc, who = service(store, matcher, clock), Caller(account=account)
    for subject, predicate, value in [
        ("admin-dashboard", "owner", "Priya Raman"),
        ("admin-dashboard", "product_owner", "Tom Okafor"),
        ("billing-ui", "product_owner", "Tom Okafor"),  # the other direction
        ("billing-ui", "owner", "Priya Raman"),
        ("security-team", "lead", "Ana Lima"),
    ]:
        written = await svc.remember(
            who, RememberRequest(subject=subject, predicate=predicate, object=value)
        )
        assert written.closed == [], predicate
        clock.tick()
    # The security team's security lead is its lead: the subject's own word names no role.
    renamed = await svc.remember(
        who, RememberRequest(subject="security-team", predicate="security_lead", object="Jo Park")
    )
    assert renamed.predicate == "lead" and len(renamed.closed) == 1


async def test_slot_drift_a_manager_of_people_with_a_word_before_it_is_another_role(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    svc, who = service(store, matcher, clock), Caller(account=account)
    people = [("product_manager", "Sam Reyes"), ("manager", "Dana Whitfield")]
    assert await each_its_own_slot(svc, who, clock, "team", people) == sorted(people)
    # A tool named "manager" is not a person's role: its synonym still finds it.
    await svc.remember(
        who, RememberRequest(subject="me", predicate="password_manager", object="1Password")
    )
    clock.tick()
    renamed = await svc.remember(
        who, RememberRequest(subject="me", predicate="passwords_manager", object="Bitwarden")
    )
    assert renamed.predicate == "password_manager" and len(renamed.closed) == 1


# A repository of two languages: each tool role once for all code, once for Python's.
POLYGLOT = [
    ("formatter", "Prettier"),
    ("python_formatter", "Black"),
    ("package_manager", "pnpm"),
    ("python_package_manager", "uv"),
    ("test_framework", "Jest"),
    ("python_test_framework", "pytest"),
]


async def test_slot_drift_a_language_qualifier_keeps_another_languages_tool_current(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    svc, who = service(store, matcher, clock), Caller(account=account)
    assert await each_its_own_slot(svc, who, clock, "monorepo", POLYGLOT) == sorted(POLYGLOT)


async def test_slot_drift_a_name_narrowed_to_its_values_language_is_the_same_slot(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    svc, who = service(store, matcher, clock), Caller(account=account)
    await svc.remember(who, RememberRequest(subject="web", predicate="test_runner", object="Jest"))
    clock.tick()
    renamed = await svc.remember(
        who, RememberRequest(subject="web", predicate="typescript_test_runner", object="Vitest")
    )
    assert renamed.predicate == "test_runner" and len(renamed.closed) == 1
    current = await svc.facts(who, FactsRequest(subject="web"))
    assert [(f.predicate, f.object) for f in current] == [("test_runner", "Vitest")]


class ModelGoneForFacts:
    """Fact embeddings fail (the model broke after start); nothing else is used."""

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        raise RuntimeError("model file vanished")

    def embed_query(self, text: str) -> list[float]:
        raise RuntimeError("model file vanished")


async def test_slot_drift_alias_is_recorded_only_once_the_write_is_in(
    store: Store, account: str, matcher: SlotMatcher
) -> None:
    clock = FakeClock(datetime(2026, 1, 1, tzinfo=UTC))
    who = Caller(account=account)
    healthy = service(store, matcher, clock)
    await healthy.remember(
        who, RememberRequest(subject="prod", predicate="ci_provider", object="A")
    )
    ids = (uuid.uuid4().hex for _ in itertools.count())
    broken = MemoryService(
        store, lambda: clock.now, lambda: next(ids), embedder=ModelGoneForFacts(),  # type: ignore[arg-type]
        slot_matcher=matcher,
    )  # fmt: skip
    clock.tick()
    with pytest.raises(RuntimeError):
        await broken.remember(
            who, RememberRequest(subject="prod", predicate="ci_platform", object="B")
        )
    assert "ci_platform" not in await store.slot_names(account, "prod")

    clock.tick()
    done = await healthy.remember(
        who, RememberRequest(subject="prod", predicate="ci_platform", object="B")
    )
    assert done.predicate == "ci_provider"
    assert (await store.slot_names(account, "prod"))["ci_platform"] == "ci_provider"
