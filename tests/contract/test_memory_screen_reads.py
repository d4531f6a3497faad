"""The store reads behind the web screen (issue 14.2, 14.3), on every engine: the memory
table's filters (query and count alike) and the episodes a fact's versions name."""

from __future__ import annotations

from datetime import timedelta

import pytest
from storekit import T0, Writer

from twoclocks.domain.model import FactClass, Place, Tier
from twoclocks.graph.port import Episode, FactQuery, Store
from twoclocks.service.requests import Fact

pytestmark = pytest.mark.anyio

DAY = timedelta(days=1)


async def test_the_memory_filters_narrow_query_and_count_alike(
    store: Store, writer: Writer, account: str
) -> None:
    here = {"place": Place.WORKTREE, "workspace": "worktree:/src/api"}
    await writer.write("Production", "deploy_target", "Render", T0, writer="agent", **here)
    await writer.write(
        "me", "editor", "Helix", T0 - DAY, writer="person", tier=Tier.ASSERTED,
        fact_class=FactClass.USER, place=Place.EVERYWHERE,
    )  # fmt: skip
    await writer.write("repo", "ci", "GitHub Actions", T0 - 2 * DAY, tier=Tier.OBSERVED, **here)
    now = writer.clock.tick()
    cases: list[tuple[dict[str, object], list[str]]] = [
        ({"text": "production"}, ["Render"]),
        ({"text": "HUB ACT"}, ["GitHub Actions"]),
        ({"text": "edit"}, ["Helix"]),
        ({"tier": Tier.OBSERVED}, ["GitHub Actions"]),
        ({"place": Place.EVERYWHERE}, ["Helix"]),
        ({"place": Place.WORKTREE}, ["Render", "GitHub Actions"]),
        ({"writer": "person"}, ["Helix"]),
        ({"fact_class": FactClass.USER}, ["Helix"]),
        ({"writer": "agent", "text": "render"}, ["Render"]),
        ({"text": "nothing like it"}, []),
    ]
    for filters, expected in cases:
        q = FactQuery(now=now, **filters)  # type: ignore[arg-type]
        assert [v.object for v in await store.query(account, q)] == expected, filters
        assert await store.count(account, q) == len(expected), filters


async def test_a_row_kept_under_no_workspace_is_filtered_and_shown_as_everywhere(
    store: Store, writer: Writer, account: str
) -> None:
    # Before 2026-12-06 a write with no working directory kept its class's place
    # ("worktree") beside no workspace key, though every read sees it.
    await writer.write("api", "runtime", "Python 3.12", T0, place=Place.WORKTREE)
    await writer.write(
        "web", "runtime", "Node 22", T0, place=Place.WORKTREE, workspace="worktree:/src/web"
    )
    now = writer.clock.tick()
    for place, expected in ((Place.EVERYWHERE, ["Python 3.12"]), (Place.WORKTREE, ["Node 22"])):
        q = FactQuery(now=now, place=place)
        assert [v.object for v in await store.query(account, q)] == expected, place
        assert await store.count(account, q) == 1, place
    shown = {v.object: Fact.of(v).place for v in await store.query(account, FactQuery(now=now))}
    assert shown == {"Python 3.12": Place.EVERYWHERE, "Node 22": Place.WORKTREE}


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


async def test_a_page_read_from_a_window_of_recent_valid_times_equals_the_whole_reads_slice(
    store: Store, writer: Writer, account: str
) -> None:
    # Valid times years apart, a dense cluster, ties on one instant, and one in the future:
    # every window the paging tries must give the rows the full sort gives.
    now = writer.clock.tick()
    spread = [now - timedelta(days=d) for d in (0.01, 0.5, 2, 9, 40, 400, 1100)]
    spread += [now - timedelta(hours=3)] * 4 + [now + timedelta(days=30)]
    spread += [now - timedelta(days=40, minutes=m) for m in range(12)]
    for n, valid_at in enumerate(spread):
        tier = Tier.OBSERVED if n % 3 == 0 else None
        await writer.write(f"s{n % 4}", f"p{n}", f"v{n}", valid_at, tier=tier)
    await writer.write("s0", "p0", "replaced", now - timedelta(days=1))
    now = writer.clock.tick()
    for filters in ({}, {"include_history": True}, {"tier": Tier.OBSERVED}, {"text": "v1"}):
        whole = [v.version_id for v in await store.query(account, FactQuery(now=now, **filters))]  # type: ignore[arg-type]
        for offset, limit in ((0, 1), (0, 3), (2, 5), (10, 10), (0, 100), (len(whole), 5)):
            q = FactQuery(now=now, offset=offset, limit=limit, **filters)  # type: ignore[arg-type]
            got = [v.version_id for v in await store.query(account, q)]
            assert got == whole[offset : offset + limit], (filters, offset, limit)


async def test_a_page_of_an_empty_account_is_empty(store: Store, account: str) -> None:
    assert await store.query(account, FactQuery(now=T0, limit=10)) == []
