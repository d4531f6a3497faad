"""Issue 9 through the CLI a person types, against the real app on a loopback port."""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from live_server import serving
from typer.testing import CliRunner

from twoclocks import bootstrap
from twoclocks.cli import app
from twoclocks.embeddings.hashing import HashingEmbedder

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def env(falkordb_server: Any, tmp_path: Path) -> AsyncIterator[dict[str, str]]:
    """The environment a person's CLI runs with: a live server and a fresh account's key."""
    from twoclocks.graph.falkordb.store import FalkorDBStore

    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
    )
    try:
        key = await runtime.accounts.create(f"cli{uuid.uuid4().hex[:12]}")
        async with serving(runtime) as url:
            yield {"TWOCLOCKS_URL": url, "TWOCLOCKS_KEY": key}
    finally:
        await runtime.close()


def cli(env: dict[str, str], *args: str) -> Any:
    result = CliRunner().invoke(app, [*args, "--json"], env=env)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


async def test_a_correction_restores_what_the_mistake_replaced_through_the_cli(
    env: dict[str, str],
) -> None:
    def play() -> tuple[Any, Any, Any]:
        for value, day in [("Heroku", "01-06"), ("Render", "06-01")]:
            cli(env, "remember", "acme-web", "deploy_target", value,
                "--valid-at", f"2025-{day}T00:00:00+00:00")  # fmt: skip
        aws = cli(env, "remember", "acme-web", "deploy_target", "AWS",
                  "--valid-at", "2025-09-01T00:00:00+00:00")  # fmt: skip
        revised = cli(env, "revise", aws["fact_id"], "--reason", "corrected")
        now = cli(env, "facts", "--subject", "acme-web")
        return aws, revised, now

    aws, revised, now = await asyncio.to_thread(play)
    # The person's own write is asserted without saying so.
    assert aws["tier"] == "asserted" and aws["tier_lowered"] is None
    assert revised["restored"], revised
    facts = now["facts"] if isinstance(now, dict) else now
    assert [f["object"] for f in facts] == ["Render"]
    assert facts[0]["tier"] == "asserted"


async def test_facts_lists_what_starts_later_after_what_holds_now(env: dict[str, str]) -> None:
    """`twoclocks facts` on the 4th names the freeze from the 20th, marked as not true yet."""
    soon = (datetime.now(UTC) + timedelta(days=3)).isoformat()

    def play() -> tuple[str, str, Any]:
        cli(env, "remember", "team", "on_call", "Dana")
        cli(env, "remember", "team", "deploy_freeze", "on", "--valid-at", soon)
        shown = CliRunner().invoke(app, ["facts"], env=env)
        assert shown.exit_code == 0, shown.output
        current_only = CliRunner().invoke(app, ["facts", "--no-later"], env=env)
        return shown.output, current_only.output, cli(env, "facts", "--no-later")

    shown, current_only, as_json = await asyncio.to_thread(play)
    lines = shown.splitlines()
    head = lines.index("starts later (not true yet):")
    assert "team · on_call: Dana" in "\n".join(lines[:head])
    assert "team · deploy_freeze: on" in "\n".join(lines[head:])
    assert "deploy_freeze" not in current_only and "Dana" in current_only
    assert [f["object"] for f in as_json["facts"]] == ["Dana"]
