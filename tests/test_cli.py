"""The CLI against a real embedded store in a temp data dir."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import typer
from click.testing import Result
from live_server import serving
from typer.testing import CliRunner

from twoclocks import bootstrap
from twoclocks.cli import app
from twoclocks.cli_render import shown
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.falkordb.store import FalkorDBStore

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


def test_an_unreachable_server_is_named_with_how_to_start_it_or_point_at_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TWOCLOCKS_URL", "http://127.0.0.1:9")
    monkeypatch.setenv("TWOCLOCKS_KEY", "tck_x")
    result = CliRunner().invoke(app, ["recall", "which CI"])
    assert result.exit_code == 2
    assert result.output.startswith("ServerUnreachable: the twoclocks server at http://127.0.0.1:9")
    assert "twoclocks serve" in result.output and "TWOCLOCKS_URL" in result.output


def free_port() -> int:
    """A port nothing listens on now (the kernel's pick, released at once)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.slow  # a real `serve`: it loads the model and starts FalkorDB
def test_serve_stopped_by_sigterm_cleans_up_and_hands_the_client_file_back(
    tmp_path: Path,
) -> None:
    # A second server (a check's harness, a service manager) is stopped with SIGTERM.
    # uvicorn raised it again after its shutdown and the process died there, so the client
    # file kept naming the stopped server while the person's own still ran.
    home = tmp_path / "home"
    config = home / ".config" / "twoclocks"
    config.mkdir(parents=True)
    earlier = {"url": "http://127.0.0.1:9311", "data_dir": str(tmp_path / "persons-data")}
    (config / "client.json").write_text(json.dumps(earlier))
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / ".config")}
    env = {k: v for k, v in env.items() if not k.startswith("TWOCLOCKS_")}
    log = tmp_path / "serve.log"
    cli = Path(sys.executable).parent / "twoclocks"
    cmd = [str(cli), "serve", "--data-dir", str(tmp_path / "data"), "--port", str(free_port())]
    with log.open("w") as out:
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=env)
        try:
            deadline = time.monotonic() + 180
            while "ready:" not in log.read_text() and proc.poll() is None:
                assert time.monotonic() < deadline, log.read_text()[-500:]
                time.sleep(0.5)
            assert json.loads((config / "client.json").read_text())["url"] != earlier["url"]
            proc.send_signal(signal.SIGTERM)
            assert proc.wait(60) == 0, log.read_text()[-500:]
        finally:
            proc.kill()
    assert json.loads((config / "client.json").read_text()) == earlier
    assert "clients point at http://127.0.0.1:9311 again" in log.read_text()


def test_serve_with_a_model_that_cannot_load_stops_with_its_path(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-model"
    result = CliRunner().invoke(
        app,
        ["serve", "--data-dir", str(tmp_path), "--port", str(free_port())],
        env={"TWOCLOCKS_MODEL": str(missing)},
    )
    assert result.exit_code == 2
    assert "ModelUnavailable" in result.output and str(missing) in result.output
    assert "Traceback" not in result.output
    # What it was doing when it stopped: a slow load never reads as a hang.
    assert "twoclocks: loading the embedding model" in result.output
    # It no longer says it is starting: clients go back to "start it with `twoclocks serve`".
    assert not (tmp_path / "serve-starting").exists()


def test_serve_on_a_taken_port_stops_before_it_starts_anything(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # It used to load the model, start its store, point every client's file at its own
    # key and say "ready" before uvicorn failed to bind: the running server's clients
    # then sent a key that server did not know.
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "home" / ".config"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        data = tmp_path / "data"
        result = CliRunner().invoke(app, ["serve", "--data-dir", str(data), "--port", str(port)])
    assert result.exit_code == 2
    assert result.output.startswith(f"PortInUse: 127.0.0.1:{port} is in use")
    assert "--port" in result.output and "Traceback" not in result.output
    assert "loading the embedding model" not in result.output
    assert not data.exists() and not (tmp_path / "home").exists()


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


# -- the client commands, against the real app on a real port -------------------------


@dataclass
class Served:
    """A live server over a fresh embedded store, and the CLI pointed at it."""

    runtime: bootstrap.Runtime
    env: dict[str, str]

    async def cli(self, *args: str) -> Result:
        """Run one CLI command off the loop (the loop serves it)."""
        return await asyncio.to_thread(CliRunner().invoke, app, list(args), env=self.env)

    async def ok(self, *args: str) -> str:
        """Run a command that must succeed; its output."""
        result = await self.cli(*args)
        assert result.exit_code == 0, result.output
        return result.output


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
async def served(
    falkordb_server: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> AsyncIterator[Served]:
    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder(384)
    )
    key = await runtime.accounts.create(f"a{uuid.uuid4().hex[:12]}")
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    try:
        async with serving(runtime) as url:
            yield Served(runtime, {"TWOCLOCKS_URL": url, "TWOCLOCKS_KEY": key})
    finally:
        await runtime.close()


@pytest.mark.anyio
async def test_recall_that_finds_nothing_here_says_scope_wide_would(
    served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await served.ok("remember", "api", "runs_on", "Fly")
    monkeypatch.chdir(tmp_path)  # another checkout of the same (implicit) space
    out = await served.ok("recall", "api runs_on")
    assert out.strip() == (
        "result: empty here; 1 fact in other projects or worktrees of this space"
        " (add --scope wide to read them)"
    )
    wide = await served.ok("recall", "api runs_on", "--scope", "wide")
    assert "api · runs_on: Fly" in wide and "[elsewhere: worktree:" in wide


@pytest.mark.anyio
async def test_recall_of_an_ended_slot_says_it_ended_first_not_what_other_workspaces_hold(
    served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The orchestrator ended here; another checkout holds a fact of the same words. The
    # answer began "result: empty here; 1 fact in other projects ...", read as if memory
    # here held nothing of it, and the ended Airflow came after.
    work = Path.cwd()
    airflow = (await served.ok("remember", "etl", "orchestrator", "Airflow")).split()[1]
    await served.ok("revise", airflow, "--reason", "ended")
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.chdir(other)
    await served.ok("remember", "etl", "orchestrator_host", "airflow.internal")
    monkeypatch.chdir(work)
    answer = json.loads(await served.ok("recall", "etl orchestrator", "--json"))
    assert answer["elsewhere"] and [f["object"] for f in answer["ended"]] == ["Airflow"]
    lines = (await served.ok("recall", "etl orchestrator")).splitlines()
    assert lines[0] == "result: empty"
    assert lines[1].startswith("nothing holds now; no value now in the slot the question names")
    assert "orchestrator: Airflow" in lines[2]


@pytest.mark.anyio
async def test_facts_in_an_empty_workspace_count_those_elsewhere_and_all_workspaces_lists_them(
    served: Served, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    await served.ok("remember", "api", "runs_on", "Fly")
    await served.ok("remember", "api", "region", "eu")
    monkeypatch.chdir(tmp_path)  # another directory, another workspace
    out = await served.ok("facts")
    assert out.strip() == (
        "result: empty here; 2 facts in other workspaces (add --all-workspaces to list them)"
    )
    out = await served.ok("facts", "--all-workspaces")
    assert "api · runs_on: Fly" in out and "api · region: eu" in out


@pytest.mark.anyio
async def test_a_printed_short_id_works_in_retract_reopen_and_revise(served: Served) -> None:
    await served.ok("remember", "api", "runs_on", "Fly")
    short = (await served.ok("facts")).split()[0]
    assert len(short) == 12
    assert (await served.ok("retract", short)).startswith(f"retracted {short}")
    assert (await served.ok("reopen", short)).startswith(f"reopened {short}")
    out = await served.ok("revise", short, "--reason", "corrected", "--replacement", "Render")
    assert out.startswith(f"corrected: {short}")
    assert "api · runs_on: Render" in await served.ok("facts")


@pytest.mark.anyio
async def test_retract_and_reopen_answer_json_with_the_full_id(served: Served) -> None:
    fact_id = json.loads(await served.ok("remember", "a", "b", "c", "--json"))["fact_id"]
    answer = json.loads(await served.ok("retract", fact_id[:8], "--json"))
    assert answer == {"fact_id": fact_id, "status": "retracted", "left_ended": []}
    answer = json.loads(await served.ok("reopen", fact_id[:8], "--json"))
    assert answer == {"fact_id": fact_id, "status": "live"}  # nothing is left ended by a reopen


@pytest.mark.anyio
async def test_a_retract_that_leaves_its_slot_empty_says_what_stays_ended(served: Served) -> None:
    await served.ok("remember", "api", "cache", "Redis")
    second = json.loads(await served.ok("remember", "api", "cache", "Memcached", "--json"))
    lines = (await served.ok("retract", second["fact_id"][:8])).strip().splitlines()
    assert lines[0] == f"retracted {second['fact_id']}"
    assert lines[1].startswith(
        "its slot holds no value now; what it had replaced stays ended: Redis"
    )


@pytest.mark.anyio
async def test_aliases_lists_a_merge_split_undoes_it_and_an_unknown_alias_fails_with_its_name(
    served: Served,
) -> None:
    await served.ok("remember", "web", "ci_provider", "CircleCI")
    await served.ok("remember", "web", "ci_platform", "Buildkite")
    listed = (await served.ok("aliases")).strip().splitlines()
    assert listed[0] == "web · ci_platform -> ci_provider"
    assert listed[1].startswith("undo one: twoclocks split ALIAS --subject SUBJECT")
    assert (await served.ok("aliases", "--subject", "web")).strip().splitlines() == listed
    assert "no merges" in await served.ok("aliases", "--subject", "billing")
    blank = await served.cli("aliases", "--subject", "")
    assert blank.exit_code == 2 and "InvalidInput: subject" in blank.output
    out = await served.ok("split", "ci_platform")
    assert out.startswith("split ci_platform from ci_provider (web)")
    listed = await served.ok("facts")
    assert "web · ci_platform: Buildkite" in listed and "web · ci_provider: CircleCI" in listed
    again = await served.cli("split", "ci_platform")
    assert again.exit_code == 2 and "AliasNotFound" in again.output
    assert "no merges" in await served.ok("aliases")


@pytest.mark.anyio
async def test_merge_joins_two_slots_says_what_became_history_and_how_to_undo(
    served: Served,
) -> None:
    await served.ok("remember", "web", "ci_provider", "CircleCI", "--valid-at", "2026-01-01")
    await served.ok("remember", "web", "ci_platform", "Buildkite", "--valid-at", "2026-03-01")
    await served.ok("split", "ci_platform")  # two slots, two current values
    out = await served.ok("merge", "ci_platform", "--into", "ci_provider", "--subject", "web")
    lines = out.strip().splitlines()
    assert lines[0] == "merged ci_platform into ci_provider (web)"
    assert lines[1].startswith("moved: ") and lines[2].startswith("now history")
    assert lines[-2] == (
        "from now on, ci_platform written beside ci_provider for any other subject joins it too"
    )
    assert lines[-1] == "undo: twoclocks split ci_platform --subject web"
    listed = await served.ok("facts")
    assert "web · ci_provider: Buildkite" in listed and "CircleCI" not in listed
    again = await served.cli("merge", "ci_platform", "--into", "ci_provider", "--subject", "web")
    assert again.exit_code == 2 and "already written under 'ci_provider'" in again.output
    missing = await served.cli("merge", "cd_tool", "--into", "ci_provider", "--subject", "web")
    assert missing.exit_code == 2 and "SlotNotFound" in missing.output


@pytest.mark.anyio
async def test_close_slots_lists_names_kept_apart_with_the_merge_that_joins_them(
    served: Served,
) -> None:
    assert (await served.ok("close-slots")).strip().startswith("no close slots")
    await served.ok("remember", "web", "cache_ttl", "5 minutes")
    await served.ok("remember", "web", "cache_expiry", "10 minutes")  # grey: own slot
    lines = (await served.ok("close-slots")).strip().splitlines()
    assert lines[0].startswith("web · cache_ttl (5 minutes) ~ cache_expiry (10 minutes)")
    assert lines[0].endswith("close names holding things of one kind")
    command = "twoclocks merge cache_expiry --into cache_ttl --subject web"
    assert lines[1] == f"  one slot? {command}"
    assert lines[2] == "  two slots? twoclocks keep-apart cache_ttl cache_expiry --subject web"
    await served.ok(*command.split()[1:])  # the command as printed joins them
    assert (await served.ok("close-slots")).strip().startswith("no close slots")


@pytest.mark.anyio
async def test_keep_apart_drops_a_close_pair_and_aliases_lists_it(served: Served) -> None:
    await served.ok("remember", "web", "cache_ttl", "5 minutes")
    await served.ok("remember", "web", "cache_expiry", "10 minutes")
    command = (await served.ok("close-slots")).strip().splitlines()[2].split("? ", 1)[1]
    said = (await served.ok(*command.split()[1:])).strip().splitlines()
    assert said[0] == "kept apart: cache_expiry and cache_ttl (web) are two slots"
    assert (
        said[1]
        == "undo: twoclocks merge cache_expiry --into cache_ttl --subject web (makes them one)"
    )
    assert (await served.ok("close-slots")).strip().startswith("no close slots")
    listed = (await served.ok("aliases")).strip().splitlines()
    assert "web · cache_expiry | cache_ttl  (kept apart by person)" in listed
    missing = await served.cli("keep-apart", "cache_ttl", "ttl", "--subject", "web")
    assert missing.exit_code == 2 and "SlotNotFound" in missing.output


@pytest.mark.anyio
async def test_empty_reads_say_result_empty(served: Served) -> None:
    assert (await served.ok("facts")).strip() == "result: empty"
    await served.ok("remember", "api", "runs_on", "Fly", "--valid-at", "2026-06-01")
    assert (await served.ok("facts", "--as-of", "2020-01-01")).strip() == "result: empty"
    out = await served.ok("timeline", "--until", "2020-01-01")
    assert out.strip() == "result: empty"


@pytest.mark.anyio
async def test_a_past_read_names_what_was_told_later_with_no_start(served: Served) -> None:
    await served.ok("remember", "api", "runs_on", "Fly")  # told now, no start
    assert "(known from " in await served.ok("facts")
    lines = (await served.ok("facts", "--as-of", "2020-01-01")).strip().splitlines()
    assert lines[0] == "result: empty"
    assert lines[1] == (
        "told later, with no start stated (they may have held then; memory does not know):"
    )
    assert "api · runs_on: Fly  (known from " in lines[2]
    raw = json.loads(await served.ok("facts", "--as-of", "2020-01-01", "--json"))
    assert raw["facts"] == [] and [f["object"] for f in raw["told_later"]] == ["Fly"]
    answer = await served.ok("recall", "what does api run on", "--as-of", "2020-01-01")
    assert "told later, with no start stated" in answer and "Fly" in answer


@pytest.mark.anyio
async def test_times_show_in_the_account_zone_to_the_minute_and_json_keeps_rfc3339(
    served: Served,
) -> None:
    await served.ok("settings", "--timezone", "Europe/Istanbul")
    await served.ok("remember", "api", "runs_on", "Fly", "--valid-at", "2026-01-10T06:00:00Z")
    assert "(from 2026-01-10 09:00 +03, asserted)" in await served.ok("facts")
    raw = json.loads(await served.ok("facts", "--json"))["facts"][0]
    assert raw["valid_at"] in ("2026-01-10T06:00:00Z", "2026-01-10T06:00:00+00:00")


@pytest.mark.anyio
async def test_a_date_is_midnight_in_the_account_zone(served: Served) -> None:
    await served.ok("settings", "--timezone", "Europe/Istanbul")
    await served.ok("remember", "api", "runs_on", "Fly", "--valid-at", "2026-11-30")
    raw = json.loads(await served.ok("facts", "--json"))["facts"][0]
    assert raw["valid_at"].startswith("2026-11-29T21:00:00")  # 00:00 +03
    assert "Fly" in await served.ok("facts", "--as-of", "2026-11-30")
    assert "result: empty" in await served.ok("facts", "--as-of", "2026-11-29")


@pytest.mark.anyio
async def test_a_time_without_an_offset_is_refused_naming_what_is_taken(served: Served) -> None:
    result = await served.cli("facts", "--as-of", "2026-11-30T09:00")
    assert result.exit_code == 2
    assert "no UTC offset" in result.output and "a date such as 2026-11-30" in result.output
    result = await served.cli("facts", "--as-of", "yesterday")
    assert result.exit_code == 2 and "is not a time" in result.output


@pytest.mark.anyio
async def test_a_write_over_64_kb_is_refused_by_name_and_stores_nothing(served: Served) -> None:
    # The server refuses the body before reading it; the CLI (and `twoclocks mcp`, on the
    # same client) printed "TwoclocksError: HTTP 413: ..." for it.
    result = await served.cli("remember", "ci", "ci_provider", "Drone", "--evidence", "y" * 70_000)
    assert result.exit_code == 2
    assert "BodyTooLarge: request body is over 64 KB: send shorter facts" in result.output
    assert "HTTP 413" not in result.output
    assert "result: empty" in await served.ok("facts")


@pytest.mark.anyio
async def test_timeline_shows_each_clocks_own_window(served: Served) -> None:
    await served.ok("remember", "api", "runs_on", "Fly", "--valid-at", "2026-01-10T00:00:00Z")
    await served.ok("remember", "api", "runs_on", "Render", "--valid-at", "2026-02-01T00:00:00Z")
    world = (await served.ok("timeline", "--clock", "world")).splitlines()
    # Fly's closed copy ends where Render begins, on the world clock.
    assert any(line.startswith("2026-01-10 00:00 +00 -> 2026-02-01 00:00 +00") for line in world)
    assert world[-1].startswith("2026-02-01 00:00 +00 -> open") and "Render" in world[-1]
    system = await served.ok("timeline", "--clock", "system")
    facts = json.loads(await served.ok("timeline", "--clock", "system", "--json"))["facts"]
    closed = next(f for f in facts if f["expired_at"])
    assert f"-> {shown(closed['expired_at'], ZoneInfo('UTC'))}" in system
    assert system != "\n".join(world)


@pytest.mark.anyio
async def test_recall_of_what_changed_says_the_changes_first_and_each_row_once(
    served: Served,
) -> None:
    began = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    await served.ok("remember", "api", "port", "8080", "--valid-at", began)
    await served.ok("remember", "api", "language", "Go", "--valid-at", "2020-01-01")
    # Told with no start, it may have held for years: not a change.
    await served.ok("remember", "api", "region", "eu-west-1")
    lines = (await served.ok("recall", "what changed in api since yesterday?")).splitlines()
    # The port began a minute ago: said under the changes, and not again among the rows now.
    assert len(lines) == 6 and lines[0] == "result: rows"
    assert lines[1].startswith("changed since yesterday (") and "api · port: 8080" in lines[2]
    assert lines[3] == "holds now, matching the question's words:"
    assert {"api · language: Go", "api · region: eu-west-1"} == {
        line.split("  ")[1] for line in lines[4:]
    }


@pytest.mark.anyio
async def test_recall_of_what_memory_believed_today_marks_an_end_a_correction_took_back(
    served: Served,
) -> None:
    # Prefect closed Airflow and was corrected: Airflow's closed copy was believed in between,
    # and "[corrected]" on it read as Airflow found wrong, while Airflow holds now.
    await served.ok("remember", "etl", "orchestrator", "Airflow")
    await served.ok("remember", "etl", "orchestrator", "Prefect")
    prefect = next(line for line in (await served.ok("facts")).splitlines() if "Prefect" in line)
    await served.ok("revise", prefect.split()[0], "--reason", "corrected")
    lines = (
        await served.ok("recall", "what did we believe the orchestrator was today?")
    ).splitlines()
    assert lines[1].startswith("memory believed today (")
    believed = lines[2 : lines.index("holds now:")]
    airflow = [line for line in believed if "orchestrator: Airflow" in line]
    assert any(line.endswith("[end corrected]") for line in airflow), believed
    assert not any(line.endswith(" [corrected]") for line in airflow), believed
    assert any("Prefect" in line and line.endswith("[corrected]") for line in believed)


@pytest.mark.anyio
async def test_recall_of_what_memory_believed_today_never_says_nothing_holds_now(
    served: Served,
) -> None:
    # Every current fact was among what memory believed today, so none was left for the
    # rows, and the answer began "nothing holds now; memory believed today ...".
    await served.ok("remember", "etl", "warehouse", "BigQuery")
    lines = (await served.ok("recall", "what did you think the warehouse was today?")).splitlines()
    assert lines[0] == "result: rows"
    assert lines[1].startswith("memory believed today (")
    assert "etl · warehouse: BigQuery" in lines[2] and len(lines) == 3


@pytest.mark.anyio
async def test_recall_and_remember_take_the_apis_flags(served: Served) -> None:
    out = await served.ok(
        "remember", "deploy", "happened", "v1.2 to prod", "--kind", "event", "--evidence",
        "we shipped v1.2 to prod", "--tier", "asserted", "--json",
    )  # fmt: skip
    fact_id = json.loads(out)["fact_id"]
    row = json.loads(await served.ok("facts", "--json"))["facts"][0]
    assert row["fact_id"] == fact_id and row["kind"] == "event"
    await served.ok("retract", fact_id)
    assert "result: empty" in await served.ok("recall", "deploy prod")
    assert "v1.2 to prod" in await served.ok("recall", "deploy prod", "--history")
    past = await served.ok(
        "recall", "deploy prod", "--as-believed", "2020-01-01", "--as-of", "2020-01-01"
    )
    assert "result: empty" in past
    # "-k 3" as people type it (pytest's habit) works as "--k 3".
    await served.ok("remember", "api", "port", "8080", "--tier", "asserted")
    one = (await served.ok("recall", "port", "-k", "1")).splitlines()
    assert one[0] == "result: rows" and len(one) == 2 and "api · port: 8080" in one[1]
    # A question typed without quotes is the question ("Got unexpected extra argument").
    unquoted = (await served.ok("recall", "which", "port", "-k", "1")).splitlines()
    assert "api · port: 8080" in unquoted[1]


def test_remember_given_a_value_of_several_unquoted_words_shows_it_quoted() -> None:
    refused = CliRunner().invoke(
        app, ["remember", "shop", "deploy_target", "Cloudflare", "Pages"], env={"COLUMNS": "200"}
    )
    assert refused.exit_code == 2
    assert "twoclocks remember shop deploy_target 'Cloudflare Pages'" in refused.output


def test_every_option_and_argument_of_every_command_has_help_text() -> None:
    import click

    root = typer.main.get_command(app)
    missing = []

    def walk(command: click.Command, path: str) -> None:
        for param in command.params:
            if not getattr(param, "help", None) and param.name != "help":
                missing.append(f"{path} {param.name}")
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {name}")

    walk(root, "twoclocks")
    assert missing == []


def test_every_commands_summary_is_one_line() -> None:
    # The command list prints a summary's line breaks as they are: a summary wrapped in
    # its docstring broke the list mid-sentence.
    import click

    wrapped = []

    def walk(command: click.Command, path: str) -> None:
        if "\n" in (command.help or "").split("\n\n")[0].strip():
            wrapped.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, f"{path} {name}")

    walk(typer.main.get_command(app), "twoclocks")
    assert wrapped == []


def test_remember_given_one_sentence_shows_its_three_parts_and_stores_nothing() -> None:
    # A newcomer's first remember is a sentence; typer said only "Missing argument".
    refused = CliRunner().invoke(
        app, ["remember", "Anna owns the checkout flow"], env={"COLUMNS": "200"}
    )
    assert refused.exit_code == 2
    assert "remember takes three parts and got 1" in refused.output
    assert "twoclocks remember 'checkout flow' owner Anna" in refused.output
    plain = CliRunner().invoke(app, ["remember", "shop", "framework"], env={"COLUMNS": "200"})
    assert plain.exit_code == 2 and "got 2" in plain.output


def test_a_revise_reason_outside_the_two_is_refused_naming_both() -> None:
    refused = CliRunner().invoke(app, ["revise", "abcd1234", "--reason", "finished"])
    assert refused.exit_code == 2
    assert "ended" in refused.output and "corrected" in refused.output


def test_block_help_shows_the_budgets_range() -> None:
    out = CliRunner().invoke(app, ["block", "--help"], env={"COLUMNS": "200"}).output
    assert "500<=x<=10000" in out
    refused = CliRunner().invoke(app, ["block", "--budget", "10"])
    assert refused.exit_code == 2 and "500" in refused.output


@pytest.mark.anyio
async def test_capture_off_and_on_change_only_the_capture_setting(served: Served) -> None:
    await served.ok("settings", "--timezone", "Europe/Istanbul")
    assert "capture: off" in await served.ok("capture", "off")
    after = json.loads(await served.ok("settings", "--json"))
    assert after["capture"] is False and after["timezone"] == "Europe/Istanbul"
    assert "capture: off" in await served.ok("capture")
    assert "capture: on" in await served.ok("capture", "on")
    bad = await served.cli("capture", "maybe")
    assert bad.exit_code == 2
    assert json.loads(await served.ok("settings", "--json"))["capture"] is True


def test_eval_fc_refuses_an_unknown_size_before_starting_anything() -> None:
    result = CliRunner().invoke(app, ["eval", "fc", "--size", "10K"])
    assert result.exit_code == 2
    assert "6K, 32K, 64K, 262K" in result.output


def test_eval_fc_names_a_neo4j_store_without_its_password() -> None:
    from twoclocks.cli_eval import _store_label

    assert _store_label("bolt://neo4j:s3cret@db.local:7687") == "bolt://db.local:7687"
    assert _store_label(None) == "embedded"


@pytest.mark.anyio
async def test_the_cli_in_an_agents_shell_acts_as_the_agent(served: Served) -> None:
    # An agent with a shell can run the CLI, which reads the person's key: the variable its
    # client sets there makes the call the agent's (clients/shells.py, docs/SECURITY.md).
    in_claude = {**served.env, "CLAUDECODE": "1"}

    def err(result: Result) -> str:
        # click < 8.2 (the lowest allowed) mixes stderr into output unless asked not to.
        try:
            return result.stderr
        except ValueError:
            return result.output

    said = await asyncio.to_thread(
        CliRunner().invoke,
        app,
        ["remember", "web", "cache", "Redis", "--tier", "asserted", "--json"],
        env=in_claude,
    )
    assert said.exit_code == 0, said.output
    assert "run from Claude Code's shell (CLAUDECODE is set)" in err(said)
    stored = json.loads(said.stdout[said.stdout.index("{") :])
    assert stored["tier"] == "inferred" and "evidence" in stored["tier_lowered"]
    keys = await asyncio.to_thread(
        CliRunner().invoke, app, ["keys", "create", "mine", "--role", "person"], env=in_claude
    )
    assert keys.exit_code == 2 and "KeysNotAllowed" in err(keys)
    assert err(keys).count("run it in your own terminal") == 1
    # A refused read says why too: listing keys is the person's alone.
    listed = await asyncio.to_thread(CliRunner().invoke, app, ["keys", "list"], env=in_claude)
    assert listed.exit_code == 2 and err(listed).count("run it in your own terminal") == 1
    sign_in = await asyncio.to_thread(
        CliRunner().invoke, app, ["ui", "--no-browser"], env=in_claude
    )
    assert sign_in.exit_code == 2 and "KeysNotAllowed" in err(sign_in)
    # The same command in the person's own terminal is the person's.
    own = json.loads(await served.ok("remember", "web", "queue", "SQS", "--json"))
    assert own["tier"] == "asserted"
    # A read says nothing of where it runs: reads are the same for everyone.
    for read_only in (["facts"], ["recall", "which cache"], ["block"]):
        read = await asyncio.to_thread(CliRunner().invoke, app, read_only, env=in_claude)
        assert read.exit_code == 0 and "shell" not in err(read), read_only
