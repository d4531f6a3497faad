"""The MCP tools, driven through the SDK's client against the real app and a real store.

In-process: the FastAPI app with /mcp mounted, over streamable HTTP (httpx2's ASGI
transport, the app's lifespan running). Stdio path: the same tools over
``HttpBackend``, forwarding to that app served by uvicorn on a loopback port.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx2
import pytest
from live_server import serving
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.port import Clock, TimelineQuery
from twoclocks.mcp_server.backends import CWD_HEADER, HttpBackend
from twoclocks.mcp_server.http import mount_mcp
from twoclocks.mcp_server.path import MCP_PATH
from twoclocks.mcp_server.tools import build_server

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]

TOOLS = {"remember", "recall", "revise", "retract", "timeline", "search_episodes"}
BASE = "http://twoclocks.test"


@pytest.fixture
def anyio_backend() -> str:
    """The store drivers are asyncio clients."""
    return "asyncio"


@pytest.fixture
async def runtime(falkordb_server: Any, tmp_path: Path) -> AsyncIterator[bootstrap.Runtime]:
    """A Runtime on the session's FalkorDB with the hashing embedder (no model download)."""
    from twoclocks.graph.falkordb.store import FalkorDBStore

    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    rt = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
    )
    try:
        yield rt
    finally:
        await rt.close()


@pytest.fixture
async def key(runtime: bootstrap.Runtime) -> str:
    """A fresh account per test, so tests never see each other's facts."""
    return await runtime.accounts.create(f"mcp-{uuid.uuid4().hex[:12]}")


@pytest.fixture
def session_dir(tmp_path: Path) -> Path:
    """The directory the MCP client says its session runs in."""
    path = tmp_path / "project"
    path.mkdir()
    return path


@asynccontextmanager
async def mcp_over_http(
    runtime: bootstrap.Runtime, headers: dict[str, str]
) -> AsyncIterator[Client]:
    """An MCP client session over streamable HTTP to the real app, its lifespan running."""
    app = create_app(runtime)
    mount_mcp(app)
    async with app.router.lifespan_context(app):
        http = httpx2.AsyncClient(
            transport=httpx2.ASGITransport(app=app), base_url=BASE, headers=headers
        )
        transport = streamable_http_client(BASE + MCP_PATH, http_client=http)
        async with http, Client(transport) as client:
            yield client


def _headers(key: str, cwd: Path | None = None) -> dict[str, str]:
    headers = {"Authorization": f"Bearer {key}"}
    if cwd is not None:
        headers[CWD_HEADER] = str(cwd)
    return headers


def _error_text(result: Any) -> str:
    assert result.is_error, result
    return "".join(getattr(part, "text", "") for part in result.content)


def _read(result: Any) -> str:
    """The answer's text: what the model reads (recall and timeline send nothing else)."""
    assert not result.is_error, _error_text(result)
    assert result.structured_content is None  # Claude Code would show the model that instead
    return "".join(getattr(part, "text", "") for part in result.content)


async def _remember(client: Client, **fields: Any) -> dict[str, Any]:
    result = await client.call_tool("remember", {"tier": "observed", **fields})
    assert not result.is_error, _error_text(result)
    return dict(result.structured_content)


async def test_the_six_tools_take_no_space_and_teach_ended_vs_corrected(
    runtime: bootstrap.Runtime, key: str
) -> None:
    async with mcp_over_http(runtime, _headers(key)) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    assert set(tools) == TOOLS
    for tool in tools.values():
        params = {p.lower() for p in tool.input_schema.get("properties", {})}
        assert not params & {"space", "workspace", "account", "cwd", "group_id"}, tool.name
    revise = tools["revise"]
    assert "what was true last month" in revise.description
    assert "ask" in revise.description
    assert revise.annotations.idempotent_hint is False
    assert tools["retract"].annotations.destructive_hint is True
    assert tools["recall"].annotations.read_only_hint is True


async def test_remember_then_recall_in_the_headers_workspace(
    runtime: bootstrap.Runtime, key: str, session_dir: Path
) -> None:
    async with mcp_over_http(runtime, _headers(key, session_dir)) as client:
        stored = await _remember(client, subject="ci", predicate="ci_provider", object="CircleCI")
        assert stored["outcome"] == "inserted"
        result = await client.call_tool("recall", {"query": "which CI do we use"})
    text = _read(result)
    assert text.startswith("rows: ")
    assert "ci · ci_provider: CircleCI (known since " in text and stored["fact_id"][:12] in text
    # No class -> task -> worktree: the workspace came from the header's directory.
    assert stored["workspace"] == f"worktree:{os.path.realpath(session_dir)}"


async def test_a_call_over_64_kb_is_refused_with_a_message_the_client_shows(
    runtime: bootstrap.Runtime, key: str, session_dir: Path
) -> None:
    # The HTTP edge refuses the body before MCP reads it; the client must still hear why
    # ("Server returned an error response" was all it had), and nothing is stored.
    big = {"subject": "ci", "predicate": "ci_provider", "object": "x" * 450,
           "evidence": "y" * 70_000}  # fmt: skip
    async with mcp_over_http(runtime, _headers(key, session_dir)) as client:
        with pytest.raises(MCPError) as refused:
            await client.call_tool("remember", big)
        assert refused.value.message == (
            "BodyTooLarge: request body is over 64 KB: send shorter facts"
        )
        # The session goes on: the next call is answered.
        assert await _remember(client, subject="ci", predicate="ci_provider", object="Drone")
    account = (await runtime.accounts.authenticate(key)).account
    history = await runtime.store.timeline(account, TimelineQuery(clock=Clock.SYSTEM, subject="ci"))
    assert [v.object for v in history] == ["Drone"]


async def test_the_model_reads_one_line_a_fact_and_revise_takes_the_id_it_shows(
    runtime: bootstrap.Runtime, key: str, session_dir: Path
) -> None:
    # Claude Code hands its model the text content: lines, not the indented JSON rows.
    async with mcp_over_http(runtime, _headers(key, session_dir)) as client:
        for predicate, value in (("ci_provider", "CircleCI"), ("cache", "Redis"),
                                 ("language", "Python"), ("owner", "Aiko Tanaka")):  # fmt: skip
            await _remember(client, subject="billing-api", predicate=predicate, object=value)
        result = await client.call_tool("recall", {"query": "which CI does billing-api use"})
        text = _read(result)
        line = next(line for line in text.splitlines() if "CircleCI" in line)
        shown_id = line.rsplit(" id ", 1)[1]
        ended = {"fact_id": shown_id, "reason": "ended", "replacement": "Drone"}
        revised = await client.call_tool("revise", ended)
        assert not revised.is_error, _error_text(revised)
        timeline = await client.call_tool("timeline", {"subject": "billing-api"})
    assert text.splitlines()[0].startswith("rows: 4 facts, best first")
    assert line.startswith("- billing-api · ci_provider: CircleCI (known since ")
    assert all(len(line) < 160 for line in text.splitlines())  # ~500 as a JSON row
    history = _read(timeline)
    assert history.startswith("6 versions, by when each was true")
    # The version memory holds ended; what it believed before the end was told is marked
    # by until when it was believed.
    circleci = [line for line in history.splitlines() if "CircleCI" in line]
    assert sorted(line.split(") [")[1].split("]")[0].split(" ")[0] for line in circleci) == [
        "believed",
        "ended",
    ], circleci
    assert "(recorded " in history and "Drone" in history


async def test_timeline_reads_the_sessions_workspace_and_one_slot_when_asked(
    runtime: bootstrap.Runtime, key: str, tmp_path: Path
) -> None:
    # Two checkouts of one account: a session in the second must not read the first's
    # worktree task as its own history (DESIGN §4: a read is its workspace's rows).
    one, two = tmp_path / "one", tmp_path / "two"
    one.mkdir(), two.mkdir()
    async with mcp_over_http(runtime, _headers(key, one)) as client:
        await _remember(client, subject="api", predicate="working_on", object="router cache")
        await _remember(client, subject="api", predicate="cache", object="Redis")
        mine = _read(await client.call_tool("timeline", {"predicate": "working_on"}))
    async with mcp_over_http(runtime, _headers(key, two)) as client:
        await _remember(client, subject="api", predicate="working_on", object="login timeout")
        theirs = _read(await client.call_tool("timeline", {"subject": "api"}))
    assert "router cache" in mine and "Redis" not in mine
    assert "login timeout" in theirs and "router cache" not in theirs and "Redis" not in theirs


async def test_revise_ended_keeps_history_and_a_second_revise_is_refused(
    runtime: bootstrap.Runtime, key: str, session_dir: Path
) -> None:
    async with mcp_over_http(runtime, _headers(key, session_dir)) as client:
        stored = await _remember(
            client,
            subject="ci",
            predicate="ci_provider",
            object="CircleCI",
            valid_at="2026-01-01T00:00:00+00:00",
        )
        first = await client.call_tool(
            "revise",
            {
                "fact_id": stored["fact_id"],
                "reason": "ended",
                "at": "2026-03-01T00:00:00+00:00",
                "replacement": "GitHub Actions",
            },
        )
        assert not first.is_error, _error_text(first)
        assert first.structured_content["successor_id"]
        again = await client.call_tool("revise", {"fact_id": stored["fact_id"], "reason": "ended"})
        timeline = await client.call_tool("timeline", {"subject": "ci"})
    assert "FactAlreadyRetired" in _error_text(again)
    history = _read(timeline)
    assert "ci · ci_provider: CircleCI (" in history
    assert "ci · ci_provider: GitHub Actions (" in history


async def test_errors_come_back_as_tool_errors_with_their_type_name(
    runtime: bootstrap.Runtime, key: str
) -> None:
    async with mcp_over_http(runtime, _headers(key)) as client:
        missing = await client.call_tool("revise", {"fact_id": "nope", "reason": "ended"})
        naive = await client.call_tool(
            "remember",
            {"subject": "a", "predicate": "b", "object": "c", "valid_at": "2026-01-01T00:00:00"},
        )
        secret = await client.call_tool(
            "remember", {"subject": "deploy", "predicate": "token", "object": "ghp_" + "a1B2" * 9}
        )
    assert _error_text(missing).startswith("FactNotFound: ")
    assert _error_text(naive).startswith("NaiveDatetime: ")
    assert _error_text(secret).startswith("SecretRefused: ")


async def test_a_date_alone_is_midnight_in_the_accounts_zone_through_both_backends(
    runtime: bootstrap.Runtime, key: str, session_dir: Path
) -> None:
    # "We moved to Postgres 16 last Friday": an agent passes the day. Refused, it had to
    # learn the form on a second call, or left the time out and the value started today.
    from datetime import UTC, datetime

    from twoclocks.client import Client as V1Client
    from twoclocks.domain.account_settings import AccountSettings

    holder = await runtime.accounts.authenticate(key)
    await runtime.accounts.update_settings(
        holder.account, AccountSettings(timezone="Europe/Istanbul")
    )
    async with mcp_over_http(runtime, _headers(key, session_dir)) as client:
        engine = await _remember(
            client, subject="db", predicate="engine", object="Postgres 16", valid_at="2026-11-27"
        )
        before = await client.call_tool("recall", {"query": "db engine", "as_of": "2026-11-26"})
        then = await client.call_tool("recall", {"query": "db engine", "as_of": "2026-11-27"})
        since = await client.call_tool("timeline", {"subject": "db", "since": "2026-11-27"})
    async with serving(runtime) as url:
        backend = HttpBackend(V1Client(url, key, timeout=10), str(session_dir))
        async with Client(build_server(backend)) as client:
            cache = await _remember(
                client, subject="db", predicate="cache", object="Redis 7", valid_at="2026-11-28"
            )
            cached = await client.call_tool("recall", {"query": "db cache"})
    istanbul_midnight = {
        engine["fact_id"]: datetime(2026, 11, 26, 21, 0, tzinfo=UTC),
        cache["fact_id"]: datetime(2026, 11, 27, 21, 0, tzinfo=UTC),
    }
    for fact_id, start in istanbul_midnight.items():
        (version,) = await runtime.store.versions_of(holder.account, fact_id)
        assert version.valid_at == start
    assert "Postgres 16" not in _read(before)
    async with mcp_over_http(runtime, _headers(key, session_dir)) as client:
        no_such_day = await client.call_tool("recall", {"query": "db", "as_of": "2026-02-30"})
    assert _error_text(no_such_day).startswith("InvalidInput: as_of: '2026-02-30' is not a date")
    assert "db · engine: Postgres 16" in _read(then)
    assert "db · engine: Postgres 16" in _read(since)
    # The lines are in the account's zone, as the block's are: a day the answer names
    # ("yesterday (2026-11-27)") is the day its times fall on.
    assert "db · engine: Postgres 16 (since 2026-11-27 00:00 +03" in _read(then)
    assert "db · engine: Postgres 16 (since 2026-11-27 00:00 +03" in _read(since)
    assert "db · cache: Redis 7 (since 2026-11-28 00:00 +03" in _read(cached)


INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "0"},
    },
}
ACCEPT = {"Accept": "application/json, text/event-stream"}


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer tck_not-a-key"}])
async def test_mcp_refuses_a_request_without_a_key_it_accepts_before_initialize(
    runtime: bootstrap.Runtime, headers: dict[str, str]
) -> None:
    app = create_app(runtime)
    mount_mcp(app)
    async with (
        app.router.lifespan_context(app),
        httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as http,
    ):
        answer = await http.post(MCP_PATH, json=INITIALIZE, headers={**ACCEPT, **headers})
    assert answer.status_code == 401
    assert answer.json()["error"] == "Unauthorized"
    assert answer.headers["www-authenticate"].startswith("Bearer")


async def test_server_info_names_the_package_version(runtime: bootstrap.Runtime, key: str) -> None:
    from importlib.metadata import version

    app = create_app(runtime)
    mount_mcp(app)
    async with (
        app.router.lifespan_context(app),
        httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as http,
    ):
        answer = await http.post(MCP_PATH, json=INITIALIZE, headers={**ACCEPT, **_headers(key)})
    assert answer.status_code == 200, answer.text
    info = answer.json()["result"]["serverInfo"]
    assert info["name"] == "twoclocks"
    assert info["version"] == version("twoclocks") != ""


async def test_arguments_the_schema_refuses_come_back_as_invalid_input(
    runtime: bootstrap.Runtime, key: str
) -> None:
    async with mcp_over_http(runtime, _headers(key)) as client:
        wrong_type = await client.call_tool("recall", {"query": "ci", "k": "many"})
        missing = await client.call_tool("remember", {"subject": "a", "predicate": "b"})
        bad_choice = await client.call_tool("revise", {"fact_id": "x", "reason": "oops"})
        too_long = await client.call_tool("timeline", {"subject": "x" * 600})
    for result, field in ((wrong_type, "k"), (missing, "object"), (bad_choice, "reason")):
        text = _error_text(result)
        assert text.startswith("InvalidInput: "), text
        assert field in text
        assert "Error executing tool" not in text and "pydantic" not in text
    # A text's length in characters, as the HTTP API says it.
    assert "subject: String should have at most 500 characters" in _error_text(too_long)


async def test_retract_hides_the_fact_from_recall(
    runtime: bootstrap.Runtime, key: str, session_dir: Path
) -> None:
    async with mcp_over_http(runtime, _headers(key, session_dir)) as client:
        stored = await _remember(client, subject="editor", predicate="uses", object="Helix")
        done = await client.call_tool("retract", {"fact_id": stored["fact_id"]})
        assert not done.is_error, _error_text(done)
        result = await client.call_tool("recall", {"query": "Helix editor"})
    assert stored["fact_id"][:12] not in _read(result)


async def test_a_retract_that_leaves_its_slot_empty_names_what_stays_ended(
    runtime: bootstrap.Runtime, key: str, session_dir: Path
) -> None:
    async with mcp_over_http(runtime, _headers(key, session_dir)) as client:
        await _remember(client, subject="api", predicate="cache", object="Redis")
        second = await _remember(client, subject="api", predicate="cache", object="Memcached")
        done = await client.call_tool("retract", {"fact_id": second["fact_id"][:12]})
    assert not done.is_error, _error_text(done)
    reply = done.structured_content or {}
    assert reply["fact_id"] == second["fact_id"]  # the full id, not the start given
    assert [v["object"] for v in reply["left_ended"]] == ["Redis"]


async def test_search_episodes_finds_the_persons_own_words(
    runtime: bootstrap.Runtime, key: str
) -> None:
    async with mcp_over_http(runtime, _headers(key)) as client:
        missing = await client.call_tool("search_episodes", {"query": "walrus"})
        await _remember(
            client,
            subject="router-cache",
            predicate="decided",
            object="plain Map with a size cap",
            evidence="we'll use a plain Map with a size cap, not lru-cache",
        )
        found = await client.call_tool("search_episodes", {"query": "lru-cache"})
    assert missing.structured_content == {"status": "empty", "episodes": [], "note": None}
    assert found.structured_content["status"] == "rows"
    assert "not lru-cache" in found.structured_content["episodes"][0]["content"]


async def test_mcp_answers_503_outside_the_lifespan(runtime: bootstrap.Runtime) -> None:
    app = create_app(runtime)
    mount_mcp(app)
    async with httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url=BASE) as http:
        answer = await http.post(MCP_PATH, json={})
    assert answer.status_code == 503
    assert answer.json()["error"] == "StoreUnavailable"


async def test_http_backend_forwards_to_a_running_server(
    runtime: bootstrap.Runtime, key: str, session_dir: Path
) -> None:
    from twoclocks.client import Client as V1Client

    async with serving(runtime) as url:
        v1 = V1Client(url, key, timeout=10)
        backend = HttpBackend(v1, str(session_dir))
        async with Client(build_server(backend)) as client:
            stored = await _remember(
                client, subject="db", predicate="engine", object="Postgres 16",
                evidence="the db engine is Postgres 16",
            )  # fmt: skip
            recalled = await client.call_tool("recall", {"query": "Postgres database engine"})
            # Both reads carry the session's directory: the fact and its words are this
            # worktree's, so without it both would answer nothing.
            history = await client.call_tool("timeline", {"subject": "db"})
            said = await client.call_tool("search_episodes", {"query": "Postgres"})
            missing = await client.call_tool("retract", {"fact_id": "nope"})
            # A model-supplied id stays one path segment: it cannot reach another route.
            sneaky = await client.call_tool("retract", {"fact_id": "../../healthz"})
    assert "db · engine: Postgres 16 (known since " in _read(recalled)
    assert "db · engine: Postgres 16 (" in _read(history)
    assert [e["content"] for e in said.structured_content["episodes"]] == [
        "the db engine is Postgres 16"
    ]
    assert stored["workspace"] == f"worktree:{os.path.realpath(session_dir)}"
    assert "FactNotFound" in _error_text(missing)
    assert sneaky.is_error


async def test_twoclocks_mcp_checks_the_server_and_key_before_serving(
    runtime: bootstrap.Runtime, key: str
) -> None:
    import asyncio

    from twoclocks.client import Client as V1Client
    from twoclocks.domain.errors import Unauthorized
    from twoclocks.mcp_server.stdio import check_reachable

    async with serving(runtime) as url:
        await asyncio.to_thread(check_reachable, V1Client(url, key, timeout=10))
        with pytest.raises(Unauthorized):
            await asyncio.to_thread(check_reachable, V1Client(url, "tck_wrong", timeout=10))
        with pytest.raises(Unauthorized, match="no API key"):
            await asyncio.to_thread(check_reachable, V1Client(url, None, timeout=10))


def test_twoclocks_mcp_fails_visibly_when_no_server_answers(tmp_path: Path) -> None:
    import socket
    import subprocess
    import sys

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    env = {
        **os.environ,
        "TWOCLOCKS_URL": f"http://127.0.0.1:{port}",
        "TWOCLOCKS_KEY": "tck_any",
        "TWOCLOCKS_DATA_DIR": str(tmp_path),
    }
    done = subprocess.run(
        [sys.executable, "-m", "twoclocks.console", "mcp"],
        input="",
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert done.returncode != 0
    assert f"127.0.0.1:{port}" in done.stderr
    assert done.stdout == ""


def test_an_unexpanded_workspace_folder_is_no_directory_and_is_logged(tmp_path: Path) -> None:
    from twoclocks.hooks.claude_code import UNEXPANDED, read_failures
    from twoclocks.mcp_server.stdio import stdio_cwd

    assert stdio_cwd("${workspaceFolder}", tmp_path) is None
    [entry] = read_failures(tmp_path)
    assert entry["error"] == UNEXPANDED and "${workspaceFolder}" in entry["message"]
    assert stdio_cwd(str(tmp_path), tmp_path) == str(tmp_path)
    assert stdio_cwd(None, tmp_path) == os.getcwd()


async def test_the_stdio_server_reads_the_accounts_zone_once_a_minute(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Every recall and timeline writes its lines in the account's zone: read each time, the
    # settings request cost half as much again as the recall it served (26 ms of 53).
    from twoclocks.mcp_server import backends

    asked: list[str] = []

    class Settings:
        def call(self, method: str, path: str, body: object = None) -> dict[str, str]:
            asked.append(path)
            return {"timezone_in_use": "Europe/Istanbul"}

    clock = [1000.0]
    monkeypatch.setattr(backends.time, "monotonic", lambda: clock[0])
    backend = HttpBackend(Settings(), None)  # type: ignore[arg-type]
    assert [await backend.zone(None) for _ in range(3)] == ["Europe/Istanbul"] * 3  # type: ignore[arg-type]
    assert asked == ["/v1/settings"]
    clock[0] += backends.ZONE_FRESH_S
    await backend.zone(None)  # type: ignore[arg-type]
    assert asked == ["/v1/settings", "/v1/settings"]
