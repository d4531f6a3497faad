"""The store reads behind the web screen (issue 14.2, 14.3), on every engine: the memory
table's filters (query and count alike) and the episodes a fact's versions name."""

from __future__ import annotations

from datetime import timedelta

import pytest
from storekit import T0, Writer

from twoclocks.domain.model import FactClass, Place, Tier
from twoclocks.graph.port import Episode, FactQuery, Store

pytestmark = pytest.mark.anyio

DAY = timedelta(days=1)


async def test_the_memory_filters_narrow_query_and_count_alike(
    store: Store, writer: Writer, account: str
) -> None:
    await writer.write("Production", "deploy_target", "Render", T0, writer="agent")
    await writer.write(
        "me", "editor", "Helix", T0 - DAY, writer="person", tier=Tier.ASSERTED,
        fact_class=FactClass.USER, place=Place.EVERYWHERE,
    )  # fmt: skip
    await writer.write("repo", "ci", "GitHub Actions", T0 - 2 * DAY, tier=Tier.OBSERVED)
    now = writer.clock.tick()
    cases: list[tuple[dict[str, object], list[str]]] = [
        ({"text": "production"}, ["Render"]),
        ({"text": "HUB ACT"}, ["GitHub Actions"]),
        ({"text": "edit"}, ["Helix"]),
        ({"tier": Tier.OBSERVED}, ["GitHub Actions"]),
        ({"place": Place.EVERYWHERE}, ["Helix"]),
        ({"writer": "person"}, ["Helix"]),
        ({"fact_class": FactClass.USER}, ["Helix"]),
        ({"writer": "agent", "text": "render"}, ["Render"]),
        ({"text": "nothing like it"}, []),
    ]
    for filters, expected in cases:
        q = FactQuery(now=now, **filters)  # type: ignore[arg-type]
        assert [v.object for v in await store.query(account, q)] == expected, filters
        assert await store.count(account, q) == len(expected), filters


async def test_episodes_by_id_answer_those_stored_and_skip_the_unknown(
    store: Store, account: str
) -> None:
    for n in range(3):
        episode = Episode(
            episode_id=f"ep{n}", source="remember", content=f"words {n}",
            created_at=T0 + n * DAY, valid_at=T0,
        )  # fmt: skip
        assert await store.save_episode(account, episode)
    found = await store.episodes(account, ["ep2", "ep0", "nope"])
    assert [(e.episode_id, e.content) for e in found] == [("ep0", "words 0"), ("ep2", "words 2")]
    assert await store.episodes(account, []) == []
