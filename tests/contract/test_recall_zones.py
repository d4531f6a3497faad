"""Times a question names, read in the account's own zone, over every real store
(DESIGN.md §6): a plan for "tomorrow" is the account's tomorrow, not the server's."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from storekit import Writer
from test_recall_service import ew, service  # noqa: F401 (ew is a fixture)

from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.model import Tier
from twoclocks.domain.named_times import NamedTime
from twoclocks.domain.times_to_come import holds_during
from twoclocks.graph.port import Store
from twoclocks.service.recall_requests import RecallRequest, RecallResult
from twoclocks.service.requests import Caller

pytestmark = pytest.mark.anyio


async def test_recall_a_time_to_come_is_read_in_the_accounts_own_zone(
    store: Store,
    ew: Writer,  # noqa: F811
    account: str,
) -> None:
    # Asked at 2030-01-01 00:00 UTC, 09:00 in Tokyo. Ravi covers on call from 15:00 to 23:00
    # UTC: all of it on Tokyo's 2 January, none of it on UTC's. "Tomorrow" asked by an
    # account set to Asia/Tokyo is Ravi's; read in the server's UTC, no plan holds then.
    await ew.write(
        "team", "on_call", "Dana", datetime(2029, 12, 31, tzinfo=UTC), tier=Tier.ASSERTED
    )
    await ew.write(
        "team", "on_call", "Ravi", datetime(2030, 1, 1, 15, tzinfo=UTC), tier=Tier.ASSERTED,
        invalid_at=datetime(2030, 1, 1, 23, tzinfo=UTC),
    )  # fmt: skip

    async def tokyo(_account: str) -> AccountSettings:
        return AccountSettings(timezone="Asia/Tokyo")

    in_tokyo = service(store)
    in_tokyo.settings_of = tokyo
    caller = Caller(account=account)
    ask = RecallRequest(query="who is on call tomorrow?", k=3)
    there = await in_tokyo.recall(caller, ask)
    assert there.time_to_come is not None
    assert there.time_to_come.since == datetime(2030, 1, 1, 15, tzinfo=UTC)
    assert there.time_to_come.label == "tomorrow (2030-01-02)"
    # Dana is back from 23:00 UTC, after Ravi's cover: both hold on Tokyo's 2 January.
    assert there.later_first and holding(there) == ["Dana", "Ravi"]
    here = await service(store).recall(caller, ask)
    assert here.time_to_come is not None
    assert here.time_to_come.since == datetime(2030, 1, 2, tzinfo=UTC)
    assert holding(here) == ["Dana"]


def holding(got: RecallResult) -> list[str]:
    """The plans of a recall that hold in the time to come it read, by value."""
    span = got.time_to_come
    assert span is not None
    named = NamedTime(span.said, span.label, span.since, span.until)
    return sorted(
        f.object for f in got.starting_later if holds_during(named, f.valid_at, f.invalid_at)
    )
