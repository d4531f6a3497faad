"""Recall across projects inside the walls (issue 17), on every engine, through every surface.

Three real git checkouts: repos A and B (no configured space claims them, so they share
the implicit space) and C under the configured space ``client``. From B, ``here`` never
returns A's repo, project or worktree facts; ``wide`` does, labelled; C's never reach A or
B. With ``reads_from`` set one way, only that way. HTTP, MCP, CLI and the block alike.
"""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import httpx2
import pytest
from live_server import serving
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from typer.testing import CliRunner

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.cli import app as cli_app
from twoclocks.domain.account_settings import AccountSettings
from twoclocks.domain.model import FactClass, Place
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.port import Store
from twoclocks.mcp_server.backends import CWD_HEADER
from twoclocks.mcp_server.http import mount_mcp
from twoclocks.mcp_server.path import MCP_PATH

pytestmark = pytest.mark.anyio

T1, T2 = "2026-01-10T00:00:00+00:00", "2026-03-01T00:00:00+00:00"
BETWEEN = "2026-02-01T00:00:00+00:00"


def git_repo(path: Path, remote: str) -> Path:
    """A real checkout made by git itself, with an origin."""
    path.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(path)], check=True)
    subprocess.run(["git", "-C", str(path), "remote", "add", "origin", remote], check=True)
    return Path(os.path.realpath(path))


@dataclass
class World:
    """A running app over the store under test, one account, three checkouts."""

    runtime: bootstrap.Runtime
    http: httpx.AsyncClient
    key: str
    a: Path
    b: Path
    c: Path

    async def remember(self, where: Path, **fields: Any) -> dict[str, Any]:
        body = {"cwd": str(where), "tier": "asserted", **fields}
        r = await self.http.post("/v1/facts", json=body)
        assert r.status_code == 201, r.text
        return dict(r.json())

    async def project_fact(
        self, where: Path, subject: str, predicate: str, value: str, **fields: Any
    ) -> dict[str, Any]:
        """A fact of the project at ``where`` (class ``project``: it stays in its place)."""
        return await self.remember(
            where,
            subject=subject,
            predicate=predicate,
            object=value,
            **fields,
            **{"class": "project"},
        )

    async def recall(self, where: Path, query: str, **fields: Any) -> list[dict[str, Any]]:
        body = {"query": query, "cwd": str(where), "k": 50, **fields}
        r = await self.http.post("/v1/recall", json=body)
        assert r.status_code == 200, r.text
        return list(r.json()["facts"])

    async def block(self, where: Path) -> str:
        r = await self.http.post("/v1/block", json={"cwd": str(where)})
        assert r.status_code == 200, r.text
        return str(r.json()["text"])


async def make_world(store: Store, tmp_path: Path, spaces: str) -> AsyncIterator[World]:
    a = git_repo(tmp_path / "code" / "ingest", "git@github.com:acme/ingest.git")
    b = git_repo(tmp_path / "code" / "billing", "git@github.com:acme/billing.git")
    c = git_repo(tmp_path / "client" / "portal", "git@github.com:client/portal.git")
    spaces_file = tmp_path / "spaces.toml"
    spaces_file.write_text(spaces.format(client=tmp_path / "client"))
    settings = bootstrap.load_settings(data_dir=tmp_path / "data", spaces_file=spaces_file)
    runtime = await bootstrap.start_runtime(settings, store=store, embedder=HashingEmbedder(384))
    account = f"w{uuid.uuid4().hex[:12]}"
    key = await runtime.accounts.create(account)
    # Environment facts go to the repo, so every rung of the ladder is exercised.
    await runtime.accounts.update_settings(
        account, AccountSettings(places={FactClass.ENVIRONMENT: Place.REPO})
    )
    transport = httpx.ASGITransport(app=create_app(runtime))
    headers = {"Authorization": f"Bearer {key}"}
    async with httpx.AsyncClient(transport=transport, base_url="http://t", headers=headers) as h:
        world = World(runtime, h, key, a, b, c)
        await world.remember(
            a,
            subject="ingest",
            predicate="kafka_consumer",
            object="KafkaJS group ingest-a",
            **{"class": "project"},
        )
        await world.remember(
            a,
            subject="ingest",
            predicate="node_runtime",
            object="Node 18 kafka",
            **{"class": "environment"},
        )
        await world.remember(
            a, subject="ingest", predicate="working_on", object="kafka retry backoff"
        )
        await world.remember(
            b,
            subject="billing",
            predicate="kafka_consumer",
            object="confluent kafka group billing-b",
            **{"class": "project"},
        )
        await world.remember(
            c,
            subject="portal",
            predicate="kafka_consumer",
            object="kafka group client-c secret",
            **{"class": "project"},
        )
        yield world


WALLED = """
[[space]]
id = "client"
paths = ["{client}"]
"""

ONE_WAY = """
default_space = "personal"

[[space]]
id = "client"
paths = ["{client}"]
reads_from = ["personal"]
"""


@pytest.fixture
async def walled(store: Store, tmp_path: Path) -> AsyncIterator[World]:
    async for world in make_world(store, tmp_path, WALLED):
        yield world


@pytest.fixture
async def one_way(store: Store, tmp_path: Path) -> AsyncIterator[World]:
    async for world in make_world(store, tmp_path, ONE_WAY):
        yield world


def objects(facts: list[dict[str, Any]]) -> set[str]:
    return {f["object"] for f in facts}


A_FACTS = {"KafkaJS group ingest-a", "Node 18 kafka", "kafka retry backoff"}
B_FACT = "confluent kafka group billing-b"
C_FACT = "kafka group client-c secret"


async def test_here_from_b_does_not_return_a_repo_project_or_worktree_facts(
    walled: World,
) -> None:
    got = await walled.recall(walled.b, "kafka")
    assert B_FACT in objects(got)
    assert not objects(got) & A_FACTS
    assert not any(f["elsewhere"] for f in got)


async def test_wide_from_b_returns_a_facts_labelled_with_their_repo_project_or_worktree(
    walled: World,
) -> None:
    got = await walled.recall(walled.b, "kafka", scope="wide")
    by_object = {f["object"]: f for f in got}
    assert set(by_object) >= A_FACTS
    a = walled.a
    assert by_object["Node 18 kafka"]["workspace"] == "repo:github.com/acme/ingest"
    assert by_object["KafkaJS group ingest-a"]["workspace"] == f"project:{a}"
    assert by_object["kafka retry backoff"]["workspace"] == f"worktree:{a}"
    assert all(by_object[o]["elsewhere"] for o in A_FACTS)
    assert by_object[B_FACT]["elsewhere"] is False


async def test_nothing_of_a_walled_space_ever_appears_from_a_or_b(walled: World) -> None:
    for where in (walled.a, walled.b):
        for scope in ("here", "wide"):
            assert C_FACT not in objects(await walled.recall(where, "kafka", scope=scope))
        assert "client-c" not in await walled.block(where)
    # And the wall holds the other way: C's space reads nobody.
    wide_c = objects(await walled.recall(walled.c, "kafka", scope="wide"))
    assert C_FACT in wide_c and not wide_c & (A_FACTS | {B_FACT})


async def test_reads_from_widens_one_way_only(one_way: World) -> None:
    from_c = objects(await one_way.recall(one_way.c, "kafka", scope="wide"))
    assert {C_FACT, B_FACT} | A_FACTS <= from_c
    for where in (one_way.a, one_way.b):
        assert C_FACT not in objects(await one_way.recall(where, "kafka", scope="wide"))
        assert "client-c" not in await one_way.block(where)
    # The block reads the spaces it reads from, never wider by itself.
    assert "billing-b" in await one_way.block(one_way.c)


async def test_rows_from_elsewhere_rank_below_equally_good_rows_from_here(walled: World) -> None:
    same = {"subject": "dashboard", "predicate": "chart_library", "object": "Recharts"}
    await walled.remember(walled.a, **same, **{"class": "project"})
    mine = await walled.remember(walled.b, **same, **{"class": "project"})
    got = [
        f
        for f in await walled.recall(walled.b, "chart library", scope="wide")
        if f["object"] == "Recharts"
    ]
    assert [f["elsewhere"] for f in got] == [False, True]
    assert got[0]["fact_id"] == mine["fact_id"]


async def test_a_slots_value_here_ranks_above_its_values_elsewhere(walled: World) -> None:
    # A's task shares every word of the question but one; B's own task shares none, and
    # still answers first when asked from B: the slot's value here is the one that holds.
    await walled.remember(walled.a, subject="user", predicate="working_on", object="kafka lag")
    mine = await walled.remember(
        walled.b, subject="user", predicate="working_on", object="invoice export"
    )
    got = [
        f
        for f in await walled.recall(walled.b, "working on kafka lag", scope="wide")
        if f["predicate"] == "working_on" and f["subject"] == "user"
    ]
    assert [(f["object"], f["elsewhere"]) for f in got] == [
        ("invoice export", False),
        ("kafka lag", True),
    ]
    assert got[0]["fact_id"] == mine["fact_id"]


async def test_the_block_leaves_out_another_workspaces_value_of_a_slot_held_here(
    one_way: World,
) -> None:
    # C's space reads from A's: the person's task in A must not read as C's second task.
    await one_way.remember(one_way.a, subject="user", predicate="working_on", object="kafka lag")
    await one_way.remember(one_way.c, subject="user", predicate="working_on", object="sso login")
    block = await one_way.block(one_way.c)
    assert "user · working on: sso login (known since " in block
    assert "kafka lag" not in block
    # What only A holds still shows, saying where it is from.
    line = next(x for x in block.splitlines() if "KafkaJS group ingest-a" in x)
    assert line.endswith(", asserted, from project:personal)")


async def test_an_empty_recall_here_says_how_many_facts_wide_would_find(walled: World) -> None:
    # B holds nothing about a node runtime; A, in B's space, does; C's wall keeps it out.
    body = {"query": "node runtime", "k": 5}
    here = await walled.http.post("/v1/recall", json={**body, "cwd": str(walled.b)})
    assert here.json()["status"] == "empty" and here.json()["elsewhere"] >= 1
    wide = await walled.recall(walled.b, "node runtime", scope="wide")
    assert [f["object"] for f in wide][:1] == ["Node 18 kafka"]
    walled_off = await walled.http.post("/v1/recall", json={**body, "cwd": str(walled.c)})
    assert walled_off.json()["status"] == "empty" and walled_off.json()["elsewhere"] is None
    # A question wide finds nothing for either: no count.
    none = await walled.http.post("/v1/recall", json={"query": "zeppelin", "cwd": str(walled.b)})
    assert none.json()["elsewhere"] is None


async def test_rows_here_about_another_thing_than_the_one_named_say_wide_has_it(
    walled: World,
) -> None:
    # Asked in billing about ingest: billing's own kafka consumer is a row, no "empty", and
    # a model would read it as ingest's. The answer counts ingest's facts in A.
    ask = {"query": "which kafka consumer does ingest use?", "k": 5, "cwd": str(walled.b)}
    here = (await walled.http.post("/v1/recall", json=ask)).json()
    assert here["status"] == "rows" and {f["subject"] for f in here["facts"]} == {"billing"}
    assert here["elsewhere"] >= 1
    # A row about the thing named, or scope wide, needs no count.
    own = {**ask, "query": "which kafka consumer does billing use?"}
    assert (await walled.http.post("/v1/recall", json=own)).json()["elsewhere"] is None
    wide = (await walled.http.post("/v1/recall", json={**ask, "scope": "wide"})).json()
    assert "ingest" in {f["subject"] for f in wide["facts"]} and wide["elsewhere"] is None


async def test_rows_here_sharing_no_word_of_the_question_say_wide_has_better(
    walled: World,
) -> None:
    # "Which database?" asked in B got B's data store, close in meaning only, with no word
    # that A holds a database: that row said nothing of where the answer was.
    await walled.project_fact(walled.a, "ingest", "database", "Postgres 16")
    await walled.project_fact(walled.b, "billing", "data_store", "S3 bucket billing-b")
    ask = {"query": "which database?", "k": 5, "cwd": str(walled.b)}
    here = (await walled.http.post("/v1/recall", json=ask)).json()
    assert here["status"] == "rows" and "S3 bucket billing-b" in objects(here["facts"])
    assert here["elsewhere"] == 1
    # A row here that holds a word of the question needs no count.
    await walled.project_fact(walled.b, "billing", "database", "MySQL 8")
    here = (await walled.http.post("/v1/recall", json=ask)).json()
    assert "MySQL 8" in objects(here["facts"]) and here["elsewhere"] is None


async def test_both_clocks_apply_across_projects(walled: World) -> None:
    await walled.project_fact(walled.a, "ingest", "queue", "RabbitMQ", valid_at=T1)
    await walled.project_fact(walled.a, "ingest", "queue", "Kafka topics", valid_at=T2)
    wide = {"scope": "wide"}
    now = objects(await walled.recall(walled.b, "ingest queue", **wide))
    assert "Kafka topics" in now and "RabbitMQ" not in now
    then = objects(await walled.recall(walled.b, "ingest queue", as_of=BETWEEN, **wide))
    assert "RabbitMQ" in then and "Kafka topics" not in then
    history = objects(await walled.recall(walled.b, "ingest queue", include_history=True, **wide))
    assert {"RabbitMQ", "Kafka topics"} <= history
    # Believed on the day between: the store held only RabbitMQ's row... both were written
    # today, so what it believed before today is nothing at all.
    believed = await walled.recall(walled.b, "ingest queue", as_believed=T1, **wide)
    assert "RabbitMQ" not in objects(believed) and "Kafka topics" not in objects(believed)
    # And here from B, none of A's queue at any time.
    assert not {"RabbitMQ", "Kafka topics"} & objects(
        await walled.recall(walled.b, "ingest queue", include_history=True)
    )


async def test_wide_through_the_mcp_recall_tool(walled: World) -> None:
    app = create_app(walled.runtime)
    mount_mcp(app)
    headers = {"Authorization": f"Bearer {walled.key}", CWD_HEADER: str(walled.b)}
    async with app.router.lifespan_context(app):
        http = httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=app), base_url="http://t", headers=headers
        )
        async with (
            http,
            Client(streamable_http_client("http://t" + MCP_PATH, http_client=http)) as mcp,
        ):
            tools = {t.name: t for t in (await mcp.list_tools()).tools}
            here = await mcp.call_tool("recall", {"query": "kafka", "k": 50})
            wide = await mcp.call_tool("recall", {"query": "kafka", "k": 50, "scope": "wide"})
    assert "wide" in tools["recall"].description and "anywhere" in tools["recall"].description
    # The model reads lines (mcp_server/rendering.py); one from elsewhere says where from.
    here_text, wide_text = (r.content[0].text for r in (here, wide))
    assert not any(f": {value} (" in here_text for value in A_FACTS)
    assert C_FACT not in wide_text
    for value in A_FACTS:
        line = next(line for line in wide_text.splitlines() if f": {value} (" in line)
        assert ", from " in line


async def test_wide_through_the_cli(walled: World, monkeypatch: pytest.MonkeyPatch) -> None:
    async with serving(walled.runtime) as url:
        env = {"TWOCLOCKS_URL": url, "TWOCLOCKS_KEY": walled.key}
        monkeypatch.chdir(walled.b)

        def ask(*extra: str) -> tuple[Any, str]:
            runner = CliRunner()
            raw = runner.invoke(
                cli_app, ["recall", "kafka", "--k", "50", *extra, "--json"], env=env
            )
            text = runner.invoke(cli_app, ["recall", "kafka", "--k", "50", *extra], env=env)
            assert raw.exit_code == 0 and text.exit_code == 0, raw.output + text.output
            return json.loads(raw.output), text.output

        (here, _), (wide, wide_text) = await asyncio.to_thread(
            lambda: (ask(), ask("--scope", "wide"))
        )
    assert not objects(here["facts"]) & A_FACTS
    assert objects(wide["facts"]) >= A_FACTS and C_FACT not in objects(wide["facts"])
    assert f"[elsewhere: project:{walled.a}]" in wide_text


async def test_postgres_and_postgres_meet_across_projects_one_row_per_project(
    walled: World,
) -> None:
    await walled.project_fact(walled.a, "ingest", "database", "Postgres")
    await walled.project_fact(walled.b, "billing", "database", "postgres")
    got = await walled.recall(walled.b, "which services use Postgres?", scope="wide")
    rows = [f for f in got if f["predicate"] == "database"]
    assert sorted((f["subject"], f["object"]) for f in rows) == [
        ("billing", "postgres"),
        ("ingest", "Postgres"),
    ]


async def test_node_18_and_node_20_stay_two_values_of_one_slot(walled: World) -> None:
    await walled.project_fact(walled.a, "ingest", "node_version", "Node 18", valid_at=T1)
    await walled.project_fact(walled.a, "ingest", "node_version", "Node 20", valid_at=T2)
    now = [
        f
        for f in await walled.recall(walled.b, "node version", scope="wide")
        if f["predicate"] == "node_version"
    ]
    assert [f["object"] for f in now] == ["Node 20"]
    both = await walled.recall(walled.b, "node version", scope="wide", include_history=True)
    # The version still believed (the one it replaced on the record clock is expired).
    old = next(f for f in both if f["object"] == "Node 18" and f["expired_at"] is None)
    assert old["predicate"] == "node_version" and old["invalid_at"].startswith("2026-03-01")


async def test_a_scope_other_than_here_or_wide_is_a_422_that_names_the_choices(
    walled: World,
) -> None:
    body = {"query": "kafka", "cwd": str(walled.b), "scope": "client"}
    r = await walled.http.post("/v1/recall", json=body)
    assert r.status_code == 422
    assert "scope" in r.json()["message"] and "wide" in r.json()["message"]
