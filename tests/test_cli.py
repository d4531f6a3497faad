"""The CLI against a real embedded store in a temp data dir."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from twoclocks.cli import app

pytestmark = pytest.mark.falkordb


def test_accounts_create_prints_the_key_as_its_last_line(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["accounts", "create", "bars", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    key = result.output.strip().splitlines()[-1]
    assert key.startswith("tck_") and len(key) > 30


def test_accounts_create_refuses_a_taken_name_with_a_clear_message(tmp_path: Path) -> None:
    runner = CliRunner()
    runner.invoke(app, ["accounts", "create", "bars", "--data-dir", str(tmp_path)])
    again = runner.invoke(app, ["accounts", "create", "bars", "--data-dir", str(tmp_path)])
    assert again.exit_code == 2
    assert "exists already" in again.output


def test_accounts_create_refuses_a_bad_name(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["accounts", "create", "a b", "--data-dir", str(tmp_path)])
    assert result.exit_code == 2 and "letters, digits" in result.output


def test_client_commands_without_a_server_say_where_they_looked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TWOCLOCKS_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("TWOCLOCKS_KEY", "tck_x")
    result = CliRunner().invoke(app, ["recall", "which CI"])
    assert result.exit_code == 2
    assert "cannot reach twoclocks at http://127.0.0.1:9" in result.output


def test_serve_with_a_model_that_cannot_load_stops_with_its_path(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-model"
    result = CliRunner().invoke(
        app,
        ["serve", "--data-dir", str(tmp_path), "--port", "1"],
        env={"TWOCLOCKS_MODEL": str(missing)},
    )
    assert result.exit_code == 2
    assert "ModelUnavailable" in result.output and str(missing) in result.output
    assert "Traceback" not in result.output


def test_admin_purge_fact_needs_yes_and_erases_every_version(tmp_path: Path) -> None:
    import asyncio

    from twoclocks import bootstrap
    from twoclocks.service.requests import Caller, RememberRequest

    settings = bootstrap.load_settings(data_dir=tmp_path)

    async def write() -> str:
        runtime = await bootstrap.start_runtime(settings, load_model=False)
        try:
            await runtime.accounts.create("ops")
            done = await runtime.service.remember(
                Caller(account="ops"), RememberRequest(subject="a", predicate="b", object="c")
            )
            return done.fact_id
        finally:
            await runtime.close()

    fact_id = asyncio.run(write())
    runner = CliRunner()
    base = ["admin", "purge-fact", fact_id, "--account", "ops", "--data-dir", str(tmp_path)]
    refused = runner.invoke(app, base)
    assert refused.exit_code == 2 and "--yes" in refused.output
    done = runner.invoke(app, [*base, "--yes"])
    assert done.exit_code == 0, done.output
    assert "removed 1 version" in done.output

    async def versions() -> int:
        runtime = await bootstrap.start_runtime(settings, load_model=False)
        try:
            return len(await runtime.store.versions_of("ops", fact_id))
        finally:
            await runtime.close()

    assert asyncio.run(versions()) == 0


def test_capture_off_and_on_change_only_the_capture_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from twoclocks import cli

    stored: dict[str, Any] = {"timezone": "Europe/Istanbul", "places": {}, "capture": True}
    calls: list[tuple[str, str]] = []

    def call(method: str, path: str, body: Any = None) -> Any:
        calls.append((method, path))
        if method == "PUT":
            stored.clear()
            stored.update(body)
        return dict(stored)

    monkeypatch.setattr(cli, "_call", call)
    off = CliRunner().invoke(cli.app, ["capture", "off"])
    assert off.exit_code == 0 and "capture: off" in off.stdout
    assert stored == {"timezone": "Europe/Istanbul", "places": {}, "capture": False}
    shown = CliRunner().invoke(cli.app, ["capture"])
    assert "capture: off" in shown.stdout and calls[-1] == ("GET", "/v1/settings")
    on = CliRunner().invoke(cli.app, ["capture", "on"])
    assert on.exit_code == 0 and stored["capture"] is True
    bad = CliRunner().invoke(cli.app, ["capture", "maybe"])
    assert bad.exit_code == 2 and stored["capture"] is True
