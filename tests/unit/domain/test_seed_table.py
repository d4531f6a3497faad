"""The Postgres seed's running example ("Corrected vs. ended"), through the pure planners.

acme-api: on Feb 2 "deploys from main" and "runs on Postgres 15" are written; on
Apr 14 the first is ended and "deploys from trunk" starts; on Jun 9 the second is
corrected to "runs on Postgres 16". The record clock reads those same dates. The
seed's four-row table must come out exactly, and one more question that its
in-place ``UPDATE valid_to`` cannot answer.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pytest

from twoclocks.domain.model import FactVersion, Incoming, Plan, RetiredReason
from twoclocks.domain.revise_plan import plan_revise
from twoclocks.domain.temporal import is_visible
from twoclocks.domain.write_plan import plan_write


def at(month: int, day: int) -> datetime:
    return datetime(2026, month, day, tzinfo=UTC)


FEB2, MAR1, APR14, MAY1, JUN9 = at(2, 2), at(3, 1), at(4, 14), at(5, 1), at(6, 9)
NOW = at(10, 15)


def fact(predicate: str, obj: str, valid_at: datetime) -> Incoming:
    return Incoming(subject="acme-api", predicate=predicate, object=obj, valid_at=valid_at)


def apply(store: Sequence[FactVersion], plan: Plan) -> list[FactVersion]:
    expire = {e.version_id: e.reason for e in plan.expire}
    out = [
        v.model_copy(update={"expired_at": plan.now, "retired_reason": expire[v.version_id]})
        if v.version_id in expire
        else v
        for v in store
    ]
    return out + list(plan.insert)


@pytest.fixture(scope="module")
def store() -> list[FactVersion]:
    counter = itertools.count(1)

    def new_id() -> str:
        return f"id{next(counter)}"

    rows: list[FactVersion] = []
    # Feb 2
    main = plan_write(fact("deploys_from", "main", FEB2), [], FEB2, new_id)
    rows = apply(rows, main)
    pg15 = plan_write(fact("runs_on", "Postgres 15", FEB2), [], FEB2, new_id)
    rows = apply(rows, pg15)
    # Apr 14: the world moved to trunk
    of_main = [v for v in rows if v.fact_id == main.fact_id]
    rows = apply(
        rows,
        plan_revise(
            main.fact_id,
            of_main,
            RetiredReason.ENDED,
            APR14,
            new_id,
            replacement=fact("deploys_from", "trunk", APR14),
        ),
    )
    # Jun 9: it was never Postgres 15
    of_pg15 = [v for v in rows if v.fact_id == pg15.fact_id]
    rows = apply(
        rows,
        plan_revise(
            pg15.fact_id,
            of_pg15,
            RetiredReason.CORRECTED,
            JUN9,
            new_id,
            replacement=fact("runs_on", "Postgres 16", JUN9),
        ),
    )
    return rows


def recall(store: Sequence[FactVersion], **clocks: Any) -> list[str]:
    return sorted(
        f"{v.predicate.replace('_', ' ')} {v.object}" for v in store if is_visible(v, NOW, **clocks)
    )


@pytest.mark.parametrize(
    ("clocks", "rows"),
    [
        ({}, ["deploys from trunk", "runs on Postgres 16"]),
        ({"as_of": MAR1}, ["deploys from main", "runs on Postgres 16"]),
        # "What did we believe on May 1" means about May 1 (DESIGN §2): as_of defaults to it.
        ({"as_believed": MAY1}, ["deploys from trunk", "runs on Postgres 15"]),
        ({"as_of": MAY1, "as_believed": MAY1}, ["deploys from trunk", "runs on Postgres 15"]),
        # Every version held on May 1, whatever its world window, is asked for with history.
        (
            {"as_believed": MAY1, "include_history": True},
            ["deploys from main", "deploys from trunk", "runs on Postgres 15"],
        ),
    ],
    ids=["nothing", "as_of Mar 1", "as_believed May 1", "both May 1", "as_believed + history"],
)
def test_seed_table_row(
    store: list[FactVersion], clocks: dict[str, datetime], rows: list[str]
) -> None:
    assert recall(store, **clocks) == rows


def test_what_the_store_believed_on_march_1_about_may_1(store: list[FactVersion]) -> None:
    # On Mar 1 nobody knew main would end on Apr 14, nor that 15 was wrong.
    assert recall(store, as_of=MAY1, as_believed=MAR1) == [
        "deploys from main",
        "runs on Postgres 15",
    ]


def test_the_record_clock_is_the_stores_own(store: list[FactVersion]) -> None:
    created = sorted({v.created_at for v in store})
    expired = sorted({v.expired_at for v in store if v.expired_at is not None})
    assert created == [FEB2, APR14, JUN9]
    assert expired == [APR14, JUN9]
