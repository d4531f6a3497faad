"""The recall legs of the Store port (DESIGN.md §6), on every engine.

Keyword, vector and graph legs each filter exactly like ``Store.query``; the slot-drift
aliases, the account registry and episode search live in the store too. Embeddings are
``HashingEmbedder(384)``: deterministic and fast (texts that share spelling are near).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

import pytest
from storekit import T0, Writer, fresh_account

from twoclocks.domain.errors import ConfigError, InvalidInput
from twoclocks.domain.model import (
    Cardinality,
    FactVersion,
    Incoming,
    Plan,
    RetiredReason,
    Tier,
)
from twoclocks.domain.temporal import is_visible
from twoclocks.domain.write_plan import new_version
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.port import Episode, FactQuery, SlotAlias, Store
from twoclocks.graph.schema import check_account, fact_text

pytestmark = pytest.mark.anyio

DAY = timedelta(days=1)
EMBEDDER = HashingEmbedder(384)


def vector(text: str) -> list[float]:
    return EMBEDDER.embed_query(text)


class EmbeddingStore:
    """The store under test, with every inserted version given its fact embedding (as the
    service does), so the storekit Writer exercises the vector index too."""

    def __init__(self, store: Store) -> None:
        self._store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    async def apply(
        self,
        account: str,
        plan: Plan,
        subject: str,
        predicate: str,
        expected_counter: int,
        embeddings: Mapping[str, Sequence[float]] | None = None,
    ) -> bool:
        if embeddings is None:
            embeddings = {
                v.version_id: vector(fact_text(v.subject, v.predicate, v.object))
                for v in plan.insert
            }
        return await self._store.apply(
            account, plan, subject, predicate, expected_counter, embeddings
        )


@pytest.fixture
def ew(store: Store, account: str) -> Writer:
    """A Writer whose versions carry embeddings."""
    return Writer(EmbeddingStore(store), account)  # type: ignore[arg-type]


def objects(versions: Sequence[FactVersion]) -> list[str]:
    return [v.object for v in versions]


async def legs(
    store: Store, account: str, text: str, q: FactQuery, k: int = 50
) -> dict[str, list[FactVersion]]:
    """Every leg's answer to one question (traversal from the entities the text names)."""
    entities = await store.entities_named(account, text, 10)
    return {
        "text": await store.search_text(account, text, q, k),
        "vector": await store.search_vector(account, vector(text), q, k),
        "graph": await store.traverse(account, entities, q, 3, k),
    }


async def test_short_word_ci_finds_ci_provider_circleci(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("project", "ci_provider", "CircleCI", T0)
    await ew.write("project", "deploy_target", "Render, Oregon region", T0)
    await ew.write("project", "language", "Python 3.11", T0)
    await ew.write("project", "city", "Cincinnati office", T0)  # "ci..." only as a prefix
    await ew.write("web", "bundlerName", "Vite", T0)
    q = FactQuery(now=ew.clock.tick())

    hits = await store.search_text(account, "which CI do we use?", q, 5)
    assert objects(hits) == ["CircleCI"]
    hits = await store.search_text(account, "What's our CI provider?", q, 5)
    assert objects(hits)[:1] == ["CircleCI"]
    # camelCase and other separators split too; punctuation and stop words are ignored.
    assert objects(await store.search_text(account, "bundler?", q, 5)) == ["Vite"]
    assert objects(await store.search_text(account, "where do we DEPLOY (to)?", q, 5)) == [
        "Render, Oregon region"
    ]
    assert await store.search_text(account, "what is it?", q, 5) == []
    assert await store.search_text(account, '"*:() AND OR [x] {y}', q, 5) == []
    # The account name is indexed on every edge (graphiti's group_id): never a match.
    assert await store.search_text(account, account, q, 5) == []
    assert await store.search_text(fresh_account(), "which CI do we use?", q, 5) == []


async def test_the_keyword_leg_matches_a_name_whole(store: Store, ew: Writer, account: str) -> None:
    # billing-api-19 is one name: billing-api-17's facts share two of its words and
    # answer nothing about it (at 100k facts, "billing api" matched thousands of them).
    await ew.write("billing-api-17", "cache", "Redis", T0)
    await ew.write("billing-api-18", "cache", "Memcached", T0)
    await ew.write("billing-web-19", "owner", "Sam", T0)
    q = FactQuery(now=ew.clock.tick())

    assert objects(await store.search_text(account, "what is billing-api-19's owner?", q, 5)) == [
        "Sam"  # by the word "owner" alone, in the second tier
    ]
    hits = await store.search_text(account, "what cache does billing-api-17 use?", q, 5)
    assert objects(hits)[0] == "Redis"
    assert await store.search_text(account, "billing_api_20", q, 5) == []
    # A name of hundreds of words is cut to its first few, not sent whole to the index.
    endless = "-".join(f"w{i}" for i in range(300))
    assert await store.search_text(account, f"{endless} and {endless}x cache?", q, 5) != []


async def test_vector_leg_uses_the_index_and_respects_the_clocks(
    store: Store, ew: Writer, account: str, engine: str
) -> None:
    ci = await ew.write("project", "ci_provider", "CircleCI", T0)
    await ew.write("project", "deploy_target", "Render", T0)
    await ew.write("project", "language", "Python", T0)
    now = ew.clock.tick()
    q = FactQuery(now=now)
    hits = await store.search_vector(account, vector("project ci provider CircleCI"), q, 2)
    assert objects(hits)[0] == "CircleCI" and len(hits) == 2

    # The world changed on day 10: the CircleCI version is history, found only in its window.
    ended = ew.clock.tick()
    await ew.revise(
        ci.fact_id, RetiredReason.ENDED, at=T0 + 10 * DAY, now=ended, replacement="GitHub Actions"
    )
    ask = vector("project ci provider CircleCI")
    later = FactQuery(now=ew.clock.tick() + 20 * DAY)
    assert "CircleCI" not in objects(await store.search_vector(account, ask, later, 10))
    assert "GitHub Actions" in objects(await store.search_vector(account, ask, later, 10))
    then = FactQuery(now=later.now, as_of=T0 + 5 * DAY)
    assert objects(await store.search_vector(account, ask, then, 10))[0] == "CircleCI"
    believed = FactQuery(now=later.now, as_believed=ended - timedelta(microseconds=1))
    hits = await store.search_vector(account, ask, believed, 10)
    assert objects(hits)[0] == "CircleCI" and hits[0].expired_at == ended
    assert hits[0].invalid_at is None  # the original as it was believed, not the closed copy

    # Over-fetch: 300 closed versions nearer the question than the one current fact must
    # not hide it (the index answers top-K before our filters; K starts at 100).
    incoming = Incoming(subject="noise", predicate="item", object="x", valid_at=T0)
    t = ew.clock.tick()
    history = [
        new_version(
            incoming.model_copy(update={"object": f"alpha beta gamma {i}"}),
            version_id=ew.new_id(),
            fact_id=ew.new_id(),
            cardinality=Cardinality.MANY,
            now=t,
            invalid_at=T0 + DAY,
        )
        for i in range(300)
    ]
    current = new_version(
        incoming.model_copy(update={"object": "zeta"}),
        version_id=ew.new_id(),
        fact_id=ew.new_id(),
        cardinality=Cardinality.MANY,
        now=t,
        invalid_at=None,
    )
    plan = Plan(now=t, insert=(*history, current))
    assert await ew.store.apply(account, plan, "noise", "item", 0)
    hits = await store.search_vector(
        account,
        vector("noise item alpha beta gamma"),
        FactQuery(now=t + 2 * DAY, subject="noise"),
        1,
    )
    assert [v.version_id for v in hits] == [current.version_id]

    # A vector the index cannot hold is refused before anything is written.
    with pytest.raises(ConfigError):
        await store.search_vector(account, [0.1] * 256, q, 5)
    state = await store.read_slot(account, "project", "owner")
    bad_plan = Plan(
        now=t,
        insert=(
            new_version(
                Incoming(subject="project", predicate="owner", object="team", valid_at=T0),
                version_id=ew.new_id(),
                fact_id=ew.new_id(),
                cardinality=Cardinality.ONE,
                now=t,
                invalid_at=None,
            ),
        ),
    )
    with pytest.raises(ConfigError):
        await store.apply(
            account,
            bad_plan,
            "project",
            "owner",
            state.counter,
            {bad_plan.insert[0].version_id: [0.5] * 256},
        )
    assert await store.query(account, FactQuery(now=t, subject="project", predicate="owner")) == []

    # And it is the engine's vector index that answers.
    assert await _has_vector_index(store, account, engine)


async def _has_vector_index(store: Store, account: str, engine: str) -> bool:
    if engine == "falkordb":
        graph = await store._graph(account)  # type: ignore[attr-defined]
        rows = (await graph.ro_query("CALL db.indexes()")).result_set
        return any(
            r[0] == "RELATES_TO" and "VECTOR" in r[2].get("fact_embedding", []) for r in rows
        )
    rows = await store._run(  # type: ignore[attr-defined]
        "SHOW INDEXES YIELD name, type, state, entityType, properties "
        "WHERE name = 'twoclocks_edge_embedding' RETURN type, state, entityType, properties"
    )
    return [tuple(r) for r in rows] == [("VECTOR", "ONLINE", "RELATIONSHIP", ["fact_embedding"])]


async def test_traversal_follows_three_relations(store: Store, ew: Writer, account: str) -> None:
    await ew.write("The Left Hand of Darkness", "author", "Ursula K. Le Guin", T0)
    spouse = await ew.write("Ursula K. Le Guin", "spouse", "Charles Le Guin", T0)
    await ew.write("Charles Le Guin", "citizenship", "Kenya", T0)
    await ew.write("Kenya", "capital", "Nairobi", T0)  # four relations away
    await ew.write("Gethen", "setting_of", "The Left Hand of Darkness", T0)  # points inward
    question = "What is the citizenship of the spouse of the author of The Left Hand of Darkness?"
    now = ew.clock.tick()
    q = FactQuery(now=now)

    entities = await store.entities_named(account, question, 10)
    assert entities[0] == "The Left Hand of Darkness"
    assert "Kenya" not in entities and "Nairobi" not in entities
    found = await store.traverse(account, entities[:1], q, 3, 10)
    # Nearest first: hop 1 (both directions), hop 2, hop 3; never the fourth relation.
    assert [(v.subject, v.predicate) for v in found][2:] == [
        ("Ursula K. Le Guin", "spouse"),
        ("Charles Le Guin", "citizenship"),
    ]
    assert {v.predicate for v in found[:2]} == {"author", "setting_of"}
    assert "Nairobi" not in objects(found)
    assert "Kenya" not in objects(await store.traverse(account, entities[:1], q, 2, 10))
    assert objects(await store.traverse(account, entities[:1], q, 3, 1)) in (
        ["Ursula K. Le Guin"],
        ["The Left Hand of Darkness"],
    )

    # A stale link breaks the chain for a current read, but not for a read in its window.
    await ew.revise(spouse.fact_id, RetiredReason.ENDED, at=T0 + 10 * DAY, now=ew.clock.tick())
    later = FactQuery(now=ew.clock.tick() + 20 * DAY)
    found = await store.traverse(account, ["The Left Hand of Darkness"], later, 3, 10)
    assert "Kenya" not in objects(found) and "Charles Le Guin" not in objects(found)
    then = FactQuery(now=later.now, as_of=T0 + 5 * DAY)
    found = await store.traverse(account, ["The Left Hand of Darkness"], then, 3, 10)
    assert objects(found)[-1] == "Kenya"
    assert await store.traverse(account, ["nobody by that name"], q, 3, 10) == []


async def test_traversal_walks_out_of_a_value_never_back_into_it(
    store: Store, ew: Writer, account: str
) -> None:
    await ew.write("billing-api", "ci_provider", "GitHub Actions", T0)
    await ew.write("GitHub Actions", "vendor", "GitHub", T0)
    await ew.write("search-api", "ci_provider", "GitHub Actions", T0)
    await ew.write("ledger", "ci_provider", "GitHub Actions", T0)
    await ew.write("ledger", "owner", "Dana", T0)
    q = FactQuery(now=ew.clock.tick())

    # From billing-api: its CI, then what its CI says of itself; not the CI's other users.
    found = await store.traverse(account, ["billing-api"], q, 3, 10)
    assert [(v.subject, v.predicate) for v in found] == [
        ("billing-api", "ci_provider"),
        ("GitHub Actions", "vendor"),
    ]
    # Named, a value is walked both ways: its users are what the question asks about.
    found = await store.traverse(account, ["GitHub Actions"], q, 1, 10)
    assert {v.subject for v in found} == {"billing-api", "search-api", "ledger", "GitHub Actions"}
    # Reached as a fact's subject (GitHub Actions, from its vendor), it is walked back into.
    found = await store.traverse(account, ["GitHub"], q, 2, 10)
    assert {v.subject for v in found} == {"GitHub Actions", "billing-api", "search-api", "ledger"}
    assert await store.traverse(fresh_account(), ["The Left Hand of Darkness"], q, 3, 10) == []


async def test_a_walk_to_entities_named_a_or_the_answers_and_the_engine_stays_up(
    store: Store, ew: Writer, account: str
) -> None:
    # Stopwords of graphiti's fulltext index on Entity.name: on FalkorDB 4.16 an IN list
    # holding one crashed the engine (SIGSEGV), so a grade "A" took the store down.
    await ew.write("billing-api", "security_grade", "A", T0)
    await ew.write("A", "means", "the", T0)
    await ew.write("the", "kind", "is", T0)
    q = FactQuery(now=ew.clock.tick())
    walked = await store.traverse(account, ["billing-api"], q, 3, 10)
    assert objects(walked) == ["A", "the", "is"]
    for name in ("a", "A", "the", "is", "and"):
        await store.traverse(account, [name], q, 1, 10)
    assert sorted(objects(await store.traverse(account, ["the"], q, 1, 10))) == ["is", "the"]
    assert objects(await store.query(account, FactQuery(now=q.now, subject="A"))) == ["the"]


async def test_no_stale_version_leaks_through_any_leg(
    store: Store, ew: Writer, account: str
) -> None:
    clock = ew.clock
    ended = await ew.write("deploy", "ci_provider", "CircleCI pipelines", T0)
    await ew.revise(
        ended.fact_id,
        RetiredReason.ENDED,
        at=T0 + 10 * DAY,
        now=clock.tick(),
        replacement="GitHub Actions pipelines",
    )
    wrong = await ew.write("deploy", "region", "Oregon datacenter", T0)
    corrected_at = clock.tick()
    await ew.revise(
        wrong.fact_id, RetiredReason.CORRECTED, now=corrected_at, replacement="Ohio datacenter"
    )
    gone = await ew.write("deploy", "owner", "team blue squad", T0)
    retracted_at = clock.tick()
    await ew.retract(gone.fact_id, now=retracted_at)
    await ew.write("deploy", "runner", "Render workers", T0, workspace="wt-b")
    everything = [v async for v in store.export(account)]
    stale = {
        v.version_id for v in everything if v.expired_at is not None or v.invalid_at is not None
    }
    # ended: the expired original and its closed copy; corrected and retracted: the original.
    assert len(stale) == 4

    question = (
        "deploy ci provider CircleCI GitHub Actions pipelines region Oregon Ohio "
        "datacenter owner team blue squad runner Render workers"
    )
    now = clock.tick() + 30 * DAY
    queries = [
        FactQuery(now=now, workspaces=("wt-a",)),
        FactQuery(now=now, include_history=True),
        FactQuery(now=now, as_of=T0 + 5 * DAY),
        FactQuery(now=now, as_believed=corrected_at - timedelta(microseconds=1)),
        FactQuery(now=now, as_believed=retracted_at - timedelta(microseconds=1)),
        FactQuery(now=now, as_of=T0 + 5 * DAY, as_believed=retracted_at),
    ]
    for q in queries:
        want = {
            v.version_id
            for v in everything
            if is_visible(v, q.now, q.as_of, q.as_believed, q.include_history)
            and (q.workspaces is None or v.workspace in (None, *q.workspaces))
        }
        for leg, got in (await legs(store, account, question, q)).items():
            assert {v.version_id for v in got} == want, (leg, q)

    current = FactQuery(now=now, workspaces=("wt-a",))
    for leg, got in (await legs(store, account, question, current)).items():
        assert sorted(objects(got)) == ["GitHub Actions pipelines", "Ohio datacenter"], leg
        assert not {v.version_id for v in got} & stale
    history = FactQuery(now=now, include_history=True)
    for leg, got in (await legs(store, account, question, history)).items():
        assert stale <= {v.version_id for v in got}, leg
    window = FactQuery(now=now, as_of=T0 + 5 * DAY)
    for leg, got in (await legs(store, account, question, window)).items():
        assert "CircleCI pipelines" in objects(got), leg


async def test_slot_aliases_round_trip(store: Store, writer: Writer, account: str) -> None:
    assert await store.slot_names(account, "ci") == {}
    await writer.write("ci", "ci_provider", "CircleCI", T0)
    await writer.write("ci", "ci_provider", "GitHub Actions", T0 + DAY)  # history kept
    await store.record_alias(
        account, SlotAlias(subject="ci", alias="ci_platform", canonical="ci_provider")
    )
    await store.record_alias(
        account, SlotAlias(subject="ci", alias="ciService", canonical="ci_provider")
    )
    await store.record_alias(
        account, SlotAlias(subject="web", alias="ci_platform", canonical="build_host")
    )  # another subject
    assert await store.slot_names(account, "ci") == {
        "ci_provider": "ci_provider",
        "ci_platform": "ci_provider",
        "ciService": "ci_provider",
    }
    # Re-recording moves an alias; a recorded alias wins over a slot of that name (a merge).
    await writer.write("ci", "ci_vendor", "Buildkite", T0)
    await store.record_alias(
        account, SlotAlias(subject="ci", alias="ciService", canonical="ci_vendor")
    )
    await store.record_alias(
        account, SlotAlias(subject="ci", alias="ci_vendor", canonical="ci_provider")
    )
    names = await store.slot_names(account, "ci")
    assert names["ciService"] == "ci_vendor" and names["ci_vendor"] == "ci_provider"
    assert names["ci_platform"] == "ci_provider"
    assert await store.slot_names(account, "web") == {"ci_platform": "build_host"}
    assert await store.slot_names(fresh_account(), "ci") == {}


async def test_accounts_by_key_hash(store: Store) -> None:
    name, other = fresh_account(), fresh_account()
    key, other_key = f"sha256:{fresh_account()}", f"sha256:{fresh_account()}"
    assert await store.account_for_key(key) is None
    assert await store.save_account(name, key, T0)
    assert await store.save_account(other, other_key, T0 + DAY)
    assert not await store.save_account(name, "sha256:another", T0 + DAY)  # name taken
    assert await store.account_for_key(key) == name
    assert await store.account_for_key(other_key) == other
    assert await store.account_for_key("sha256:another") is None
    # The FalkorDB registry graph has a name no account can take.
    with pytest.raises(InvalidInput):
        check_account("twoclocks:accounts")
    with pytest.raises(InvalidInput):
        await store.save_account("twoclocks:accounts", "sha256:x", T0)


async def test_episode_search(store: Store, account: str) -> None:
    def episode(i: int, content: str, at: datetime) -> Episode:
        return Episode(
            episode_id=f"ep-{i}", source="turn", content=content, created_at=at, valid_at=at
        )

    for ep in (
        episode(1, "We deploy the API to Render from main", T0),
        episode(2, "Deploying to Render failed: out of memory", T0 + 2 * DAY),
        episode(3, "CircleCI config moved to .circleci/config.yml", T0 + 3 * DAY),
        episode(4, "render the docs with mkdocs", T0 + 4 * DAY),
        episode(5, "Lunch plans", T0 + 5 * DAY),
    ):
        await store.save_episode(account, ep)
    await store.save_episode(fresh_account(), episode(9, "deploy to Render", T0 + 9 * DAY))

    found = await store.search_episodes(account, "How do we deploy to Render?", 10)
    # Every word first (newest first), then any word (newest first).
    assert [e.episode_id for e in found] == ["ep-2", "ep-1", "ep-4"]
    assert found[0].source == "turn" and found[0].created_at == T0 + 2 * DAY
    assert found[1].content == "We deploy the API to Render from main"
    assert [e.episode_id for e in await store.search_episodes(account, "render", 2)] == [
        "ep-4",
        "ep-2",
    ]
    assert [e.episode_id for e in await store.search_episodes(account, "circleci", 5)] == ["ep-3"]
    assert await store.search_episodes(account, "what is it?", 5) == []
    assert await store.search_episodes(fresh_account(), "render", 5) == []


async def test_tiered_only_drops_untiered_rows_from_every_read(
    store: Store, ew: Writer, account: str
) -> None:
    # DESIGN §4: a row with no tier is never sent to a model; reads for a model ask the
    # store for tiered rows only, so the limit is spent on rows that can be shown.
    await ew.write("project", "ci_provider", "CircleCI", T0, tier=Tier.OBSERVED)
    await ew.write("runner", "ci_provider", "CircleCI", T0)  # no tier
    now = ew.clock.tick()
    tiered = FactQuery(now=now, tiered_only=True)
    assert {v.subject for v in await store.query(account, FactQuery(now=now))} == {
        "project", "runner"
    }  # fmt: skip
    assert [v.subject for v in await store.query(account, tiered)] == ["project"]
    answers = await legs(store, account, "which CI do project runner use?", tiered)
    for name, leg in answers.items():
        assert [v.subject for v in leg] == ["project"], name
