"""Recall of a value the question names that has ended, over every real store (DESIGN.md §6,
``service.former_values``): when the value now does not say it, the ended one is named."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from storekit import Writer
from test_recall_service import ew, service  # noqa: F401 (ew is a fixture)

from twoclocks.domain.model import RetiredReason, Tier
from twoclocks.graph.port import Store
from twoclocks.service.recall_requests import RecallRequest
from twoclocks.service.requests import Caller

pytestmark = pytest.mark.anyio


async def test_recall_an_ended_value_the_question_asks_ever_held_is_named_whatever_replaced_it(
    store: Store,
    ew: Writer,  # noqa: F811
    account: str,
) -> None:
    # SQLite from September, Postgres 16 told on December 7 with no start (it closed SQLite
    # then); Jekyll replaced by Docusaurus from 1 February, a start stated. Asked on
    # 2030-01-01, "did we ever use SQLite?" got Postgres 16 alone, which reads as "no".
    await ew.write("ledger", "database", "SQLite", datetime(2029, 9, 1, tzinfo=UTC),
                   tier=Tier.ASSERTED)  # fmt: skip
    told = datetime(2029, 12, 7, tzinfo=UTC)
    await ew.write("ledger", "database", "Postgres 16", told, now=told, tier=Tier.ASSERTED,
                   start_stated=False)  # fmt: skip
    await ew.write("ledger", "docs_site", "Jekyll", datetime(2028, 1, 1, tzinfo=UTC),
                   tier=Tier.ASSERTED)  # fmt: skip
    await ew.write("ledger", "docs_site", "Docusaurus", datetime(2029, 2, 1, tzinfo=UTC),
                   tier=Tier.ASSERTED)  # fmt: skip
    caller = Caller(account=account)

    async def ended(question: str) -> list[str]:
        got = await service(store).recall(caller, RecallRequest(query=question, k=5))
        return [f.object for f in got.ended_values]

    assert await ended("did we ever use SQLite?") == ["SQLite"]
    assert await ended("have we used Jekyll in the past?") == ["Jekyll"]
    # Asked of now, Postgres 16's "known from" is when it was told: it does not say when
    # SQLite ended, so SQLite is named; Docusaurus's stated start is Jekyll's end.
    assert await ended("is the database still SQLite?") == ["SQLite"]
    assert await ended("is the docs site still on Jekyll?") == []


async def test_recall_a_value_the_question_names_that_was_found_wrong_is_named_as_never_true(
    store: Store,
    ew: Writer,  # noqa: F811
    account: str,
) -> None:
    # GitHub Actions told, then corrected to Buildkite: "is the ci still GitHub Actions?"
    # got Buildkite alone, which does not say that GitHub Actions never held.
    gha = await ew.write("ledger", "ci", "GitHub Actions", datetime(2029, 6, 1, tzinfo=UTC),
                         tier=Tier.ASSERTED)  # fmt: skip
    await ew.revise(gha.fact_id, RetiredReason.CORRECTED, replacement="Buildkite")
    caller = Caller(account=account)
    ask = RecallRequest(query="is the ci still GitHub Actions?", k=5)
    got = await service(store).recall(caller, ask)
    assert [(f.object, f.retired_reason) for f in got.ended_values] == [
        ("GitHub Actions", RetiredReason.CORRECTED)
    ]
    # A question naming no such value gets none.
    plain = await service(store).recall(caller, RecallRequest(query="which ci do we use?", k=5))
    assert plain.ended_values == []


async def test_recall_a_version_the_question_names_that_was_found_wrong_is_named(
    store: Store,
    ew: Writer,  # noqa: F811
    account: str,
) -> None:
    # Rust 1.82 told, then corrected to 1.83: "are we on Rust 1.82?" got 1.83 alone, since a
    # number was never a value a question names.
    rust = await ew.write("ledger", "rust_toolchain", "1.82", datetime(2029, 6, 1, tzinfo=UTC),
                          tier=Tier.ASSERTED)  # fmt: skip
    await ew.revise(rust.fact_id, RetiredReason.CORRECTED)
    await ew.write("ledger", "rust_toolchain", "1.83", datetime(2029, 6, 1, tzinfo=UTC),
                   tier=Tier.ASSERTED)  # fmt: skip
    caller = Caller(account=account)
    got = await service(store).recall(caller, RecallRequest(query="are we on Rust 1.82?", k=5))
    assert [(f.object, f.retired_reason) for f in got.ended_values] == [
        ("1.82", RetiredReason.CORRECTED)
    ]
    assert got.facts[0].object == "1.83"
    # 1.821 is another version: nothing is named.
    other = await service(store).recall(caller, RecallRequest(query="are we on Rust 1.821?"))
    assert other.ended_values == []
