"""`twoclocks install` makes the agent key the hooks and MCP send; the person's key stays
with the CLI and the web screen (issue 15 point 4). Against a live server."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest
from test_cli import Served, anyio_backend, served
from test_install import home
from typer.testing import CliRunner

from twoclocks import bootstrap, client_file
from twoclocks.agent_key import ensure_agent_key, revoke_agent_key
from twoclocks.cli import app
from twoclocks.domain.errors import Unauthorized
from twoclocks.domain.trust import KeyRole

__all__ = ["anyio_backend", "home", "served"]  # fixtures of test_cli and test_install


@pytest.fixture
def person_env(served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The person's key in a data dir's key file (as `serve` leaves it), not in the env."""
    data_dir = tmp_path / "client-data"
    client_file.write_key_file(data_dir / client_file.KEY_FILE, served.env["TWOCLOCKS_KEY"])
    monkeypatch.delenv("TWOCLOCKS_KEY", raising=False)
    monkeypatch.setenv("TWOCLOCKS_URL", served.env["TWOCLOCKS_URL"])
    monkeypatch.setenv("TWOCLOCKS_DATA_DIR", str(data_dir))
    return data_dir


@pytest.mark.anyio
async def test_install_makes_an_agent_key_that_hooks_and_mcp_send_and_the_cli_does_not(
    served: Served, person_env: Path
) -> None:
    said = await asyncio.to_thread(ensure_agent_key, bootstrap.client_settings())
    path = person_env / client_file.AGENT_KEY_FILE
    assert said.startswith("created") and str(path) in said
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    agent_key = path.read_text().strip()
    holder = await served.runtime.accounts.authenticate(agent_key)
    assert (holder.role, holder.key_name) == (KeyRole.AGENT, "agents")
    assert bootstrap.client_settings(agent=True).key == agent_key  # `twoclocks mcp`
    assert client_file.target_of(os.environ, agent=True).key == agent_key  # the hooks
    assert bootstrap.client_settings().key == served.env["TWOCLOCKS_KEY"]  # the CLI
    again = await asyncio.to_thread(ensure_agent_key, bootstrap.client_settings())
    assert again.startswith("unchanged") and path.read_text().strip() == agent_key


@pytest.mark.anyio
async def test_a_lost_agent_key_file_is_replaced_by_rotating_the_key(
    served: Served, person_env: Path
) -> None:
    await asyncio.to_thread(ensure_agent_key, bootstrap.client_settings())
    path = person_env / client_file.AGENT_KEY_FILE
    lost = path.read_text().strip()
    path.unlink()
    said = await asyncio.to_thread(ensure_agent_key, bootstrap.client_settings())
    assert said.startswith("created") and path.read_text().strip() != lost
    with pytest.raises(Unauthorized):
        await served.runtime.accounts.authenticate(lost)
    names = [k.name for k in await served.runtime.store.keys_of(
        (await served.runtime.accounts.authenticate(path.read_text().strip())).account
    )]  # fmt: skip
    assert names.count("agents") == 1


@pytest.fixture
def no_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A person's key and a data dir, but nothing answering at the server's URL."""
    monkeypatch.setenv("TWOCLOCKS_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("TWOCLOCKS_KEY", "tck_person")
    monkeypatch.setenv("TWOCLOCKS_DATA_DIR", str(tmp_path))
    return tmp_path


def test_with_no_server_install_says_the_agent_key_was_skipped_and_why(
    no_server: Path, tmp_path: Path
) -> None:
    said = ensure_agent_key(bootstrap.client_settings())
    assert said.startswith("skipped") and "ServerUnreachable" in said
    assert "install` again" in said
    assert not (tmp_path / client_file.AGENT_KEY_FILE).exists()


@pytest.mark.anyio
async def test_the_install_command_reports_the_agent_key_and_writes_no_key_into_configs(
    served: Served, person_env: Path, home: Path
) -> None:
    result = await asyncio.to_thread(CliRunner().invoke, app, ["install", "claude-code"])
    assert result.exit_code == 0, result.output
    assert "agent key 'agents'" in result.output
    agent_key = (person_env / client_file.AGENT_KEY_FILE).read_text().strip()
    configs = [p.read_text() for p in home.rglob("*") if p.is_file()]
    assert configs and not any(agent_key in text for text in configs)


async def _cli(*args: str) -> str:
    result = await asyncio.to_thread(CliRunner().invoke, app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.anyio
async def test_uninstalling_the_last_client_revokes_the_agent_key_and_removes_its_file(
    served: Served, person_env: Path, home: Path
) -> None:
    await _cli("install", "claude-code")
    path = person_env / client_file.AGENT_KEY_FILE
    agent_key = path.read_text().strip()
    said = await _cli("uninstall", "claude-code")
    assert f"removed  {path}: revoked agent key 'agents'" in said
    assert not path.exists()
    with pytest.raises(Unauthorized):
        await served.runtime.accounts.authenticate(agent_key)
    # A file left behind for a key revoked elsewhere goes too, and says so.
    client_file.write_key_file(path, agent_key)
    again = await asyncio.to_thread(revoke_agent_key, bootstrap.client_settings())
    assert "was revoked already" in again and not path.exists()


@pytest.mark.anyio
async def test_uninstall_keeps_the_agent_key_while_another_installed_client_sends_it(
    served: Served, person_env: Path, home: Path
) -> None:
    await _cli("install", "claude-code")
    await _cli("install", "cursor")
    path = person_env / client_file.AGENT_KEY_FILE
    agent_key = path.read_text().strip()
    said = await _cli("uninstall", "cursor")
    assert f"kept  {path}: agent key 'agents' is still sent by claude-code" in said
    holder = await served.runtime.accounts.authenticate(agent_key)
    assert holder.key_name == "agents" and path.exists()
    assert "revoked agent key" in await _cli("uninstall", "claude-code")


def test_with_no_server_uninstall_removes_the_key_file_and_says_how_to_revoke_it_later(
    no_server: Path,
) -> None:
    path = no_server / client_file.AGENT_KEY_FILE
    client_file.write_key_file(path, "tck_agent")
    assert revoke_agent_key(bootstrap.client_settings(), dry_run=True).startswith("would revoke")
    assert path.exists()
    said = revoke_agent_key(bootstrap.client_settings())
    assert not path.exists()
    assert "could NOT be revoked" in said and "ServerUnreachable" in said
    assert "run `twoclocks keys revoke agents`" in said
    assert revoke_agent_key(bootstrap.client_settings()).startswith("unchanged")


def test_doctor_flags_an_agent_key_file_others_can_read(tmp_path: Path) -> None:
    from twoclocks.doctor import check_data_dir

    path = tmp_path / client_file.AGENT_KEY_FILE
    client_file.write_key_file(path, "tck_agent")
    assert check_data_dir(tmp_path).ok
    path.chmod(0o644)
    flagged = check_data_dir(tmp_path)
    assert flagged.ok is False and f"chmod 600 {path}" in flagged.text
