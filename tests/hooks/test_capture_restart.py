"""Nothing lost (issue 12 point 2): an event the server accepted, then died before writing
its facts, has them written when the app starts again. Real restarts on the embedded store."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from twoclocks import bootstrap
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.service.capture import EventRequest
from twoclocks.service.capture_pending import PENDING_NAME
from twoclocks.service.requests import Caller, FactsRequest

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]

FIXTURES = Path(__file__).parents[1] / "capture" / "fixtures"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def start(falkordb_server: Any, data_dir: Path) -> bootstrap.Runtime:
    """The app's runtime as `twoclocks serve` builds it, on the shared embedded engine."""
    from twoclocks.graph.falkordb.store import FalkorDBStore

    settings = bootstrap.load_settings(data_dir=data_dir)
    return await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
    )


def commit_event(cwd: str) -> EventRequest:
    event = json.loads((FIXTURES / "claude_code.json").read_text())["events"]["git_commit"]
    return EventRequest(client="claude-code", event={**event, "cwd": cwd})


async def facts(runtime: bootstrap.Runtime, caller: Caller, cwd: str) -> list[tuple[str, str]]:
    rows = await runtime.service.facts(caller, FactsRequest(cwd=cwd, include_history=True))
    return sorted((f.predicate, f.object) for f in rows)


async def test_facts_of_an_event_accepted_before_the_server_died_are_written_at_restart(
    falkordb_server: Any, tmp_path: Path
) -> None:
    data_dir, cwd = tmp_path / "data", str(tmp_path / "web")
    account = f"cap_{uuid.uuid4().hex[:12]}"
    caller = Caller(account=account)

    first = await start(falkordb_server, data_dir)
    try:
        await first.accounts.create(account)
        # What POST /v1/events does before its 202; the server dies before the facts.
        accepted = await first.capture.accept(caller, commit_event(cwd))
        assert accepted.result.status == "stored" and accepted.result.facts == 3
        assert await facts(first, caller, cwd) == []
    finally:
        await first.close()
    assert (data_dir / PENDING_NAME).stat().st_mode & 0o077 == 0

    second = await start(falkordb_server, data_dir)
    try:
        written = await facts(second, caller, cwd)
        assert len(written) == 3 and ("current_branch", "feat/login") in written
        # The event itself was kept once: sending it again is a duplicate, nothing pending.
        again = await second.capture.accept(caller, commit_event(cwd))
        assert again.result.status == "duplicate"
        assert second.capture.pending is not None and second.capture.pending.pending() == []
    finally:
        await second.close()
    assert (data_dir / PENDING_NAME).read_bytes() == b""

    third = await start(falkordb_server, data_dir)  # nothing left to replay
    try:
        assert await facts(third, caller, cwd) == written
    finally:
        await third.close()


async def test_an_event_whose_facts_were_written_is_not_pending(
    falkordb_server: Any, tmp_path: Path
) -> None:
    data_dir, cwd = tmp_path / "data", str(tmp_path / "web")
    account = f"cap_{uuid.uuid4().hex[:12]}"
    caller = Caller(account=account)
    runtime = await start(falkordb_server, data_dir)
    try:
        await runtime.accounts.create(account)
        # The route's two halves: accept (journaled), then the facts after the answer.
        accepted = await runtime.capture.accept(caller, commit_event(cwd))
        assert runtime.capture.pending is not None and len(runtime.capture.pending.pending()) == 1
        assert await runtime.capture.apply(caller, accepted) == 3
        assert runtime.capture.pending.pending() == []
        assert (data_dir / PENDING_NAME).read_bytes() == b""
    finally:
        await runtime.close()
