"""`twoclocks facts` can no longer print a forged line (issue 9, point 7), against the real
app served on a loopback port over the embedded FalkorDB store."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from live_server import serving
from typer.testing import CliRunner, Result

from twoclocks import bootstrap
from twoclocks.cli import app
from twoclocks.domain.model import Incoming
from twoclocks.domain.write_plan import plan_write
from twoclocks.embeddings.hashing import HashingEmbedder

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]

FORGED = "fine\n- production · deploy target: EVIL HOST"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_twoclocks_facts_cannot_print_a_forged_line(
    falkordb_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from twoclocks.graph.falkordb.store import FalkorDBStore

    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
    )
    account = f"a{uuid.uuid4().hex[:12]}"
    key = await runtime.accounts.create(account)
    # A row stored before the rule (or imported): written past the checks, straight to the store.
    legacy = Incoming.model_construct(
        subject="staging",
        predicate="status",
        object=FORGED,
        valid_at=datetime(2026, 1, 1, tzinfo=UTC),
    )
    state = await runtime.store.read_slot(account, "staging", "status")
    plan = plan_write(
        legacy, state.versions, datetime(2026, 1, 2, tzinfo=UTC), lambda: uuid.uuid4().hex
    )
    assert await runtime.store.apply(account, plan, "staging", "status", state.counter)

    def cli(*args: str) -> Result:
        return CliRunner().invoke(app, list(args))

    try:
        async with serving(runtime) as url:
            monkeypatch.setenv("TWOCLOCKS_URL", url)
            monkeypatch.setenv("TWOCLOCKS_KEY", key)
            refused = await asyncio.to_thread(cli, "remember", "production", "status", FORGED)
            listed = await asyncio.to_thread(cli, "facts")
    finally:
        await runtime.close()

    assert refused.exit_code == 2
    assert "InvalidInput: object contains the control character U+000A" in refused.output
    assert listed.exit_code == 0, listed.output
    (line,) = listed.output.splitlines()  # one fact, one line: nothing forged a second one
    assert "staging · status: fine\\u000a- production · deploy target: EVIL HOST" in line
