"""The capture hook (issue 12 points 1-2): never in the way, nothing lost while the server
is down, each event stored once when it comes back. Against the real app on a port."""

from __future__ import annotations

import asyncio
import io
import json
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from live_server import serving

from twoclocks import bootstrap
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.hooks import capture
from twoclocks.service.requests import Caller, FactsRequest

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def closed_port_url() -> str:
    """A loopback URL nothing listens on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def edit_event(i: int, cwd: str) -> str:
    """A Cursor afterFileEdit, as the client sends it (its own ids make it unique)."""
    return json.dumps(
        {
            "conversation_id": "conv-1",
            "generation_id": f"gen-{i}",
            "hook_event_name": "afterFileEdit",
            "workspace_roots": [cwd],
            "cursor_version": "2.1.4",
            "file_path": f"{cwd}/src/module_{i:03d}.py",
            "edits": [{"old_string": "a", "new_string": "b"}],
        }
    )


@pytest.fixture
async def runtime(falkordb_server: Any, tmp_path: Path) -> AsyncIterator[bootstrap.Runtime]:
    from twoclocks.graph.falkordb.store import FalkorDBStore

    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    started = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
    )
    # The FalkorDB server is shared by the session: each test gets an account of its own.
    started.details["account"] = f"cap_{uuid.uuid4().hex[:12]}"
    started.details["key"] = await started.accounts.create(started.details["account"])
    try:
        yield started
    finally:
        await started.close()


def env_for(data_dir: Path, url: str, runtime: bootstrap.Runtime | None = None) -> dict[str, str]:
    env = {"TWOCLOCKS_DATA_DIR": str(data_dir), "TWOCLOCKS_URL": url}
    if runtime is not None:
        env["TWOCLOCKS_KEY"] = runtime.details["key"]
    return env


async def edited_files(runtime: bootstrap.Runtime, cwd: str) -> list[str]:
    caller = Caller(account=runtime.details["account"])
    rows = await runtime.service.facts(
        caller, FactsRequest(cwd=cwd, predicate="edited_file", include_history=True)
    )
    return [f.object for f in rows]


async def test_server_down_then_up_every_spooled_event_is_stored_once(
    runtime: bootstrap.Runtime, tmp_path: Path
) -> None:
    data_dir, cwd = runtime.settings.data_dir, str(tmp_path)
    down = env_for(data_dir, closed_port_url(), runtime)
    for i in range(100):
        assert capture.capture("cursor", io.StringIO(edit_event(i, cwd)), down) == "spooled"
    assert capture.spool_depth(data_dir) == (100, 0)

    async with serving(runtime) as url:
        target = capture.client_target(env_for(data_dir, url, runtime))
        # A generous timeout: on a loaded CI machine 100 events can take more than the
        # hook's 5 s per batch (a drain that times out just tries again later).
        sent = await asyncio.to_thread(capture.drain, target, None, 60.0)
        assert sent == 100 and capture.spool_depth(data_dir) == (0, 0)
        files = await edited_files(runtime, cwd)
        assert sorted(files) == [f"src/module_{i:03d}.py" for i in range(100)]
        # The same 100 again (a replay, or a hook that spooled after a slow answer).
        for i in range(100):
            capture.spool(data_dir, capture.body_of("cursor", json.loads(edit_event(i, cwd))))
        body = (
            b'{"events": ['
            + b",".join(
                line.strip() for line in capture.spool_path(data_dir).read_bytes().splitlines()[:10]
            )
            + b"]}"
        )
        answer = await asyncio.to_thread(capture.post, target, "/v1/events/batch", body, 60.0)
        assert {r["status"] for r in answer["results"]} == {"duplicate"}
        assert await asyncio.to_thread(capture.drain, target, None, 60.0) == 100
        assert sorted(await edited_files(runtime, cwd)) == sorted(files)


async def test_a_spooled_event_is_dated_when_the_hook_saw_it_not_when_it_was_drained(
    runtime: bootstrap.Runtime, tmp_path: Path
) -> None:
    data_dir, cwd = runtime.settings.data_dir, str(tmp_path)
    down = env_for(data_dir, closed_port_url(), runtime)
    before = datetime.now(UTC)
    assert capture.capture("cursor", io.StringIO(edit_event(7, cwd)), down) == "spooled"
    seen = datetime.now(UTC)
    await asyncio.sleep(1.2)  # the server is back a while later
    async with serving(runtime) as url:
        target = capture.client_target(env_for(data_dir, url, runtime))
        drained = datetime.now(UTC)
        assert await asyncio.to_thread(capture.drain, target, None, 60.0) == 1
        caller = Caller(account=runtime.details["account"])
        (fact,) = await runtime.service.facts(
            caller, FactsRequest(cwd=cwd, predicate="edited_file", include_history=True)
        )
        episodes = await runtime.store.export_episodes(runtime.details["account"])
        (kept,) = [e for e in episodes if e.source == "capture:cursor"]
    assert before <= fact.valid_at <= seen < drained <= fact.created_at
    assert fact.start_stated
    # The event itself is kept dated when it happened, recorded when the store got it.
    assert before <= kept.valid_at <= seen < drained <= kept.created_at


async def test_a_hook_that_reaches_the_server_sends_its_event_and_drains_the_spool(
    runtime: bootstrap.Runtime, tmp_path: Path
) -> None:
    data_dir, cwd = runtime.settings.data_dir, str(tmp_path)
    down = env_for(data_dir, closed_port_url(), runtime)
    for i in range(3):
        capture.capture("cursor", io.StringIO(edit_event(i, cwd)), down)
    async with serving(runtime) as url:
        up = env_for(data_dir, url, runtime)
        got = await asyncio.to_thread(
            capture.capture, "cursor", io.StringIO(edit_event(99, cwd)), up, 2.0
        )
        assert got == "sent"
        assert capture.spool_depth(data_dir) == (0, 0)
        for _ in range(200):  # the live event's facts are written after the answer
            if len(await edited_files(runtime, cwd)) == 4:
                break
            await asyncio.sleep(0.02)
        assert len(await edited_files(runtime, cwd)) == 4


def test_the_spool_is_bounded_and_counts_what_it_drops(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(capture, "SPOOL_MAX_BYTES", 2000)
    line = capture.body_of("cursor", json.loads(edit_event(1, "/src/web")))
    for _ in range(50):
        capture.spool(tmp_path, line)
    waiting, dropped = capture.spool_depth(tmp_path)
    assert waiting + dropped == 50 and dropped > 0
    assert capture.spool_path(tmp_path).stat().st_size <= 2000
    # Every line left is a whole event: the oldest went, never half of one.
    assert all(json.loads(x) for x in capture.spool_path(tmp_path).read_bytes().splitlines())


def test_a_long_event_is_cut_to_fit_the_servers_body_limit() -> None:
    huge = {"hook_event_name": "PostToolUse", "tool_response": {"stdout": "x" * 500_000}}
    assert len(capture.body_of("claude-code", huge)) <= capture.BODY_MAX_BYTES


def test_the_hook_process_exits_0_silently_and_spools_when_the_server_is_down(
    tmp_path: Path,
) -> None:
    env = {**env_for(tmp_path, closed_port_url()), "TWOCLOCKS_KEY": "tck_x", "PATH": ""}
    timings = []
    for i in range(5):
        started = time.monotonic()
        done = subprocess.run(
            [sys.executable, "-m", "twoclocks.hooks.capture", "cursor"],
            input=edit_event(i, "/src/web"),
            capture_output=True,
            text=True,
            env=env,
            timeout=30,
        )
        timings.append(time.monotonic() - started)
        assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert capture.spool_depth(tmp_path) == (5, 0)
    assert sorted(timings)[2] < 1.0  # generous for a shared CI box; bench/ has the figures


def test_bad_input_exits_0_and_spools_nothing(tmp_path: Path) -> None:
    env = env_for(tmp_path, closed_port_url())
    assert capture.capture("cursor", io.StringIO("not json"), env) == "failed"
    assert capture.spool_depth(tmp_path) == (0, 0)


def test_the_capture_hook_imports_nothing_heavy() -> None:
    code = "import sys, twoclocks.hooks.capture; print(' '.join(sorted(sys.modules)))"
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=30
        ).stdout.split()
    )
    heavy = {"fastapi", "httpx", "pydantic", "pydantic_settings", "typer", "twoclocks.bootstrap"}
    assert not loaded & heavy


async def test_the_stop_hook_drains_the_spool_within_its_budget(
    runtime: bootstrap.Runtime, tmp_path: Path
) -> None:
    data_dir, cwd = runtime.settings.data_dir, str(tmp_path)
    for i in range(30):
        capture.spool(data_dir, capture.body_of("cursor", json.loads(edit_event(i, cwd))))
    async with serving(runtime) as url:
        runs = []
        # Each run sends what it can in its budget; a busy box may need the next turn's.
        while capture.spool_depth(data_dir)[0] and len(runs) < 5:
            started = time.monotonic()
            done = await asyncio.to_thread(
                subprocess.run,
                [sys.executable, "-m", "twoclocks.hooks.capture", "stop"],
                input=json.dumps({"hook_event_name": "Stop", "session_id": "s"}),
                capture_output=True,
                text=True,
                env={**env_for(data_dir, url, runtime), "PATH": ""},
                timeout=30,
            )
            runs.append(time.monotonic() - started)
            assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
        assert capture.spool_depth(data_dir) == (0, 0)
        assert len(await edited_files(runtime, cwd)) == 30
    # The budget, plus starting the interpreter.
    assert max(runs) < capture.STOP_BUDGET_S + 1.5


def test_cursor_prompt_hook_answers_continue_even_with_the_server_down(tmp_path: Path) -> None:
    # Cursor waits on beforeSubmitPrompt and reads `continue`; silence there is a guess.
    prompt = json.dumps(
        {
            "hook_event_name": "beforeSubmitPrompt",
            "conversation_id": "c1",
            "generation_id": "g1",
            "prompt": "our commits start with the Jira key",
            "workspace_roots": ["/src/web"],
        }
    )
    env = {**env_for(tmp_path, closed_port_url()), "TWOCLOCKS_KEY": "tck_x", "PATH": ""}
    done = subprocess.run(
        [sys.executable, "-m", "twoclocks.hooks.capture", "cursor"],
        input=prompt,
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )
    assert (done.returncode, json.loads(done.stdout), done.stderr) == (0, {"continue": True}, "")
    assert capture.spool_depth(tmp_path) == (1, 0)
