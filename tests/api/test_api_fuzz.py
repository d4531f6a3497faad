"""Schemathesis against the app's own OpenAPI: bounded examples per route, never a 5xx.

Opt-in: `make fuzz` installs the `fuzz` extra and runs this with TWOCLOCKS_FUZZ_EXAMPLES
examples a route (default 50); `make test` leaves it out (marker ``fuzz``).
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import uvicorn
from hypothesis import HealthCheck, given, settings

from twoclocks import bootstrap
from twoclocks.api.app import create_app
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore

schemathesis = pytest.importorskip("schemathesis", reason="`make fuzz` installs the fuzz extra")

pytestmark = [pytest.mark.falkordb, pytest.mark.slow, pytest.mark.fuzz]
EXAMPLES = int(os.environ.get("TWOCLOCKS_FUZZ_EXAMPLES", "50"))
COUNTS: dict[str, int] = {}


@schemathesis.serializer("application/x-ndjson")
def _ndjson(_: Any, value: Any) -> bytes:
    """POST /v1/import's body: a string of lines (or whatever else the generator made)."""
    return value.encode() if isinstance(value, str) else json.dumps(value).encode()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="module")
def live_api(
    falkordb_server: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, str]]:
    """A real server (uvicorn in a thread) over the real FalkorDB, and a fresh account's key."""
    data_dir = tmp_path_factory.mktemp("fuzz")
    keys: list[str] = []

    async def start() -> bootstrap.Runtime:
        runtime = await bootstrap.start_runtime(
            bootstrap.load_settings(data_dir=data_dir),
            store=FalkorDBStore(falkordb_server.socket_path),
            embedder=HashingEmbedder(384),
        )
        keys.append(await runtime.accounts.create(f"fz{uuid.uuid4().hex[:10]}"))
        return runtime

    port = _free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(start=start), port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(base + "/healthz", timeout=1).status_code == 200:
                break
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    yield base, keys[0]
    server.should_exit = True
    thread.join(timeout=20)


@pytest.fixture(scope="module")
def api_schema(live_api: tuple[str, str]) -> Any:
    base, _ = live_api
    return schemathesis.openapi.from_url(base + "/openapi.json")


def test_no_route_answers_5xx(api_schema: Any, live_api: tuple[str, str]) -> None:
    """EXAMPLES generated requests per route, valid and not; none may break the server."""
    _, key = live_api
    failures: list[str] = []
    for result in api_schema.get_all_operations():
        operation = result.ok()

        @given(case=operation.as_strategy())
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=list(HealthCheck),
        )
        def check(case: Any) -> None:
            response = case.call(headers={"Authorization": f"Bearer {key}"})
            route = f"{case.method} {case.path}"
            COUNTS[route] = COUNTS.get(route, 0) + 1
            COUNTS[f"{response.status_code // 100}xx"] = (
                COUNTS.get(f"{response.status_code // 100}xx", 0) + 1
            )
            if response.status_code >= 500:
                failures.append(
                    f"{case.method} {case.formatted_path} -> "
                    f"{response.status_code}: {response.text[:200]}"
                )

        check()
        print(f"fuzz: {operation.method.upper()} {operation.path} done", COUNTS, flush=True)
    print("fuzz counts:", json.dumps(COUNTS, sort_keys=True))  # the figures docs/SECURITY.md cites
    assert not failures, "\n".join(failures[:10])
