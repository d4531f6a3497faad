"""`twoclocks doctor`'s server check, against the real app served on a loopback port."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from live_server import serving

from twoclocks import bootstrap
from twoclocks.doctor import check_load, check_server
from twoclocks.embeddings.hashing import HashingEmbedder

pytestmark = [pytest.mark.anyio, pytest.mark.falkordb]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


async def test_doctor_names_the_store_and_model_of_a_ready_server(
    falkordb_server: Any, tmp_path: Path
) -> None:
    from twoclocks.graph.falkordb.store import FalkorDBStore

    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
    )
    try:
        async with serving(runtime) as url:
            # The check is a blocking client: off the loop that serves it.
            ready = await asyncio.to_thread(check_server, url)
            nothing_lost = await asyncio.to_thread(check_load, url)
            runtime.ready = False
            not_ready = await asyncio.to_thread(check_server, url)
    finally:
        await runtime.close()
    assert ready.ok is True and "store FalkorDBStore" in ready.text and "model" in ready.text
    assert nothing_lost is None
    assert not_ready.ok is False and "not ready (HTTP 503" in not_ready.text
    # Nothing listens there any more: the check says where it looked and what to do.
    gone = await asyncio.to_thread(check_server, url)
    assert gone.ok is False and url in gone.text and "twoclocks serve" in gone.text


def test_doctor_shows_each_spaces_reads_from_and_names_a_bad_one(tmp_path: Path) -> None:
    from twoclocks.doctor import check_spaces

    good = tmp_path / "spaces.toml"
    good.write_text(
        'default_space = "personal"\n[[space]]\nid = "work"\npaths = ["/w"]\n'
        'reads_from = ["personal"]\n'
    )
    check = check_spaces(good)
    assert check.ok is True and "work reads_from: personal" in check.details
    bad = tmp_path / "bad.toml"
    bad.write_text('[[space]]\nid = "work"\npaths = ["/w"]\nreads_from = ["home"]\n')
    check = check_spaces(bad)
    assert check.ok is False and 'space "work" reads_from unknown space "home"' in check.text


# -- each broken setup names the one command that fixes it ---------------------------------


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty HOME, and a PATH with no `codex` on it (the config is read instead)."""
    path = tmp_path / "home"
    path.mkdir()
    monkeypatch.setenv("HOME", str(path))
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    return path


def _codex_line(home: Path) -> str:
    from twoclocks.doctor import check_clients

    [line] = [c.text for c in check_clients(home) if c.text.startswith("codex")]
    return line


def test_doctor_asks_to_reinstall_claude_hooks_written_without_async_rewake(home: Path) -> None:
    # Hooks from an install before asyncRewake: a headless `claude -p` killed them at exit.
    import json

    from twoclocks.doctor import check_clients
    from twoclocks.install import install

    install("claude-code", home)
    [fresh] = [c for c in check_clients(home) if c.text.startswith("claude-code")]
    assert fresh.ok is True, fresh.text
    settings = home / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    for groups in data["hooks"].values():
        for group in groups:
            for handler in group["hooks"]:
                handler.pop("asyncRewake", None)
    settings.write_text(json.dumps(data))
    [old] = [c for c in check_clients(home) if c.text.startswith("claude-code")]
    assert old.ok is False and "asyncRewake" in old.text
    assert "twoclocks install claude-code" in old.text
    install("claude-code", home)
    [again] = [c for c in check_clients(home) if c.text.startswith("claude-code")]
    assert again.ok is True, again.text


def test_doctor_says_an_untrusted_codex_hook_is_skipped_and_how_to_trust_it(home: Path) -> None:
    from twoclocks.clients.codex import hook_keys
    from twoclocks.install import install

    install("codex", home)
    line = _codex_line(home)
    assert "not trusted" in line and "Trust all and continue" in line
    keys = hook_keys(home)
    assert keys == [
        f"{home}/.codex/hooks.json:{event}:0:0"
        for event in ("session_start", "post_tool_use", "user_prompt_submit", "stop")
    ]
    # What Codex writes once the person trusts it (0.171's config shape).
    with (home / ".codex" / "config.toml").open("a") as config:
        for key in keys:
            config.write(f'\n[hooks.state."{key}"]\ntrusted_hash = "sha256:{"0" * 64}"\n')
    assert "installed" in _codex_line(home)


def test_doctor_says_which_codex_capture_hooks_are_still_untrusted(home: Path) -> None:
    from twoclocks.clients.codex import hook_keys
    from twoclocks.install import install

    install("codex", home)
    session_start = hook_keys(home)[0]
    with (home / ".codex" / "config.toml").open("a") as config:
        config.write(f'\n[hooks.state."{session_start}"]\ntrusted_hash = "sha256:{"0" * 64}"\n')
    line = _codex_line(home)
    assert "not trusted" in line and "post_tool_use, user_prompt_submit, stop" in line
    assert "session_start" not in line


def test_doctor_says_a_codex_entry_without_env_vars_needs_a_reinstall(home: Path) -> None:
    from twoclocks.install import install

    install("codex", home)
    config = home / ".codex" / "config.toml"
    config.write_text(config.read_text().replace("env_vars", "# env_vars"))
    line = _codex_line(home)
    assert "env_vars does not pass TWOCLOCKS_URL" in line
    assert "run `twoclocks install codex` again" in line


def test_doctor_names_the_unset_that_fixes_a_wrong_url(tmp_path: Path) -> None:
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    from twoclocks import client_file

    class Ready(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(b'{"ready": true}')

        def log_message(self, *_args: Any) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Ready)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    running = f"http://127.0.0.1:{httpd.server_address[1]}"
    try:
        client_file.write(running, tmp_path)
        wrong = check_server("http://127.0.0.1:9", "TWOCLOCKS_URL")
        right = check_server(running, "the client file")
    finally:
        httpd.shutdown()
        httpd.server_close()
    assert wrong.ok is False
    assert f"`twoclocks serve` runs at {running}" in wrong.text
    assert "`unset TWOCLOCKS_URL`" in wrong.text
    assert right.ok is True


def test_doctor_says_a_server_still_starting_on_its_data_dir_is_starting(tmp_path: Path) -> None:
    from twoclocks import client_file

    client_file.mark_starting(tmp_path)  # as `serve` does until it listens
    check = check_server("http://127.0.0.1:9", "the client file", tmp_path)
    assert check.ok is False and "is still starting" in check.text
    client_file.clear_starting(tmp_path)
    check = check_server("http://127.0.0.1:9", "the client file", tmp_path)
    assert "start it with `twoclocks serve`" in check.text


def test_doctor_says_no_key_is_reachable_and_which_command_makes_one(tmp_path: Path) -> None:
    from twoclocks.doctor import check_key

    check = check_key("http://127.0.0.1:9", None, tmp_path)
    assert check.ok is False
    assert str(tmp_path / "key") in check.text and "run `twoclocks serve` once" in check.text


def test_doctor_says_the_key_comes_once_the_first_serve_is_ready(tmp_path: Path) -> None:
    from twoclocks import client_file
    from twoclocks.doctor import check_key

    client_file.mark_starting(tmp_path)  # a first `serve`, key file not written yet
    check = check_key("http://127.0.0.1:9", None, tmp_path)
    client_file.clear_starting(tmp_path)
    assert check.ok is False and "is still starting" in check.text
    assert "run `twoclocks serve` once" not in check.text


def test_doctor_shows_a_cursor_workspace_folder_that_arrived_unexpanded(tmp_path: Path) -> None:
    from twoclocks.doctor import check_unexpanded
    from twoclocks.mcp_server.stdio import stdio_cwd

    assert check_unexpanded(tmp_path) is None
    stdio_cwd("${workspaceFolder}", tmp_path)
    check = check_unexpanded(tmp_path)
    assert check is not None and check.ok is False
    assert "${workspaceFolder}" in check.text and "update Cursor" in check.text


# -- capture (issue 12 point 7) --------------------------------------------------------------


async def test_doctor_shows_each_clients_last_event_the_spool_and_refusals(
    falkordb_server: Any, tmp_path: Path
) -> None:
    import io
    import json
    import uuid

    from twoclocks import doctor_capture
    from twoclocks.client_file import Target
    from twoclocks.graph.falkordb.store import FalkorDBStore
    from twoclocks.hooks import capture

    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
    )
    key = await runtime.accounts.create(f"doc_{uuid.uuid4().hex[:12]}")
    commit = json.loads(
        (Path(__file__).parent / "capture" / "fixtures" / "claude_code.json").read_text()
    )["events"]["git_commit"]
    data_dir = settings.data_dir
    try:
        async with serving(runtime) as url:
            env = {"TWOCLOCKS_URL": url, "TWOCLOCKS_KEY": key, "TWOCLOCKS_DATA_DIR": str(data_dir)}
            sent = await asyncio.to_thread(
                capture.capture, "claude-code", io.StringIO(json.dumps(commit)), env, 5.0
            )
            assert sent == "sent"
            capture.spool(data_dir, capture.body_of("cursor", {"conversation_id": "c"}))
            target = Target(url, key, data_dir, "TWOCLOCKS_URL")
            lines = [
                c
                for c in await asyncio.to_thread(
                    doctor_capture.run, target, True, True, ["claude-code", "codex"]
                )
            ]
    finally:
        await runtime.close()
    texts = [c.text for c in lines]
    [spool] = [c for c in lines if "spool" in c.text]
    assert spool.ok is False and "1 event(s) waiting" in spool.text and "drain" in spool.text
    assert "capture on: tool events become observed facts" in texts
    [claude] = [t for t in texts if t.startswith("capture claude-code")]
    assert "last event" in claude and "stored 1" in claude
    [codex] = [t for t in texts if t.startswith("capture codex")]
    assert "no event since the server started" in codex


def test_doctor_says_capture_is_off_and_names_refused_facts_by_error() -> None:
    from datetime import UTC, datetime

    from twoclocks.doctor_capture import capture_checks

    now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    stats = {
        "capture": False,
        "since": "2026-12-01T09:00:00Z",
        "clients": [
            {
                "client": "cursor",
                "last_event_at": "2026-12-01T09:55:00Z",
                "events": {"stored": 4, "capture_off": 2},
            }
        ],
        "refused_facts": {"SecretRefused": 3},
    }
    texts = [c.text for c in capture_checks(stats, ["claude-code"], now)]
    assert texts[0].startswith("capture off") and "`twoclocks capture on`" in texts[0]
    assert any("capture claude-code: no event" in t for t in texts)
    assert "capture cursor: last event 2026-12-01T09:55+00:00 (5 min ago)" in "\n".join(texts)
    assert any("stored 4, capture_off 2" in t for t in texts)
    assert any("SecretRefused 3" in t for t in texts)


@pytest.mark.slow
async def test_doctor_says_whether_the_extractor_model_judges_slot_drift(
    falkordb_server: Any, tmp_path: Path
) -> None:
    import json
    import uuid

    from fake_llm import FakeLLM
    from fake_llm import serving as serving_llm

    from twoclocks import doctor_capture
    from twoclocks.client_file import Target
    from twoclocks.graph.falkordb.store import FalkorDBStore

    # Gemma 3 270M's way: every pair is "the same slot", the first control pair included.
    yes = (200, json.dumps({"same_slot": True, "reason": "same"}))
    async with serving_llm(FakeLLM(script=[yes])) as llm:
        settings = bootstrap.load_settings(
            data_dir=tmp_path / "data", extractor_url=llm.url, extractor_model="tiny",
            drift_judge=True,
        )  # fmt: skip
        runtime = await bootstrap.start_runtime(
            settings, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
        )
        key = await runtime.accounts.create(f"doc_{uuid.uuid4().hex[:12]}")
        try:
            async with serving(runtime) as url:
                target = Target(url, key, settings.data_dir, "TWOCLOCKS_URL")
                # No write: the server asks the control pairs as it starts.
                for _ in range(100):
                    checks = await asyncio.to_thread(doctor_capture.run, target, True, True, [])
                    [judge] = [c for c in checks if c.text.startswith("slot judge")]
                    if "not checked yet" not in judge.text:
                        break
                    await asyncio.sleep(0.1)
        finally:
            await runtime.close()
    [extractor] = [c for c in checks if c.text.startswith("turn extractor")]
    assert llm.url in extractor.text and "facts written 0" in extractor.text
    assert judge.ok is False and "model tiny got a control pair wrong" in judge.text
    assert "(on_call_engineer / release_manager: called the same slot)" in judge.text
    assert "unset TWOCLOCKS_DRIFT_JUDGE" in judge.text
    # One wrong control pair is enough. (The turn worker may also send turns other tests
    # left queued on the shared store; those are not the judge's.)
    asked = [r for r in llm.requests if "Existing attribute:" in r["messages"][-1]["content"]]
    assert len(asked) == 1


def test_doctor_says_the_turn_extractor_is_off_or_what_it_did() -> None:
    from datetime import UTC, datetime

    from twoclocks.doctor_capture import turn_checks

    now = datetime(2026, 12, 1, 10, 0, tzinfo=UTC)
    [off] = turn_checks({"extractor": None, "since": "2026-12-01T09:00:00Z"}, now)
    assert off.ok is None and "turn extractor: off" in off.text
    assert "TWOCLOCKS_EXTRACTOR_URL" in off.text
    stats = {
        "extractor": "http://127.0.0.1:11434/v1",
        "queue": {"extracted": 7, "queued": 1, "failed": 2},
        "facts_written": 5,
        "facts_dropped": {"not_in_turn": 3},
        "facts_refused": {"SecretRefused": 1},
        "since": "2026-12-01T09:00:00Z",
        "slot_judge": {"model": "qwen3:4b", "status": "trusted", "failed_control": None},
    }
    extractor, judge = turn_checks(stats, now)
    assert extractor.text == (
        "turn extractor http://127.0.0.1:11434/v1: turns extracted 7, queued 1, failed 2; "
        "facts written 5 since the server started (60 min ago)"
    )
    details = "\n".join(extractor.details)
    assert "2 turn(s) failed" in details and "not_in_turn 3" in details
    assert "SecretRefused 1" in details
    assert judge.ok is True and "model qwen3:4b answered the control pairs" in judge.text
    stats["slot_judge"] = {"model": "qwen3:4b", "status": "unchecked", "failed_control": None}
    unchecked = turn_checks(stats, now)[1]
    assert unchecked.ok is None and "not checked yet" in unchecked.text
    del stats["slot_judge"]
    assert len(turn_checks(stats, now)) == 1


def test_doctor_says_when_it_runs_in_an_agents_shell_without_counting_a_problem(
    tmp_path: Path,
) -> None:
    from twoclocks.client_file import Target
    from twoclocks.clients.shells import AgentShell
    from twoclocks.doctor import run

    target = Target("http://127.0.0.1:9", None, tmp_path, "TWOCLOCKS_URL")
    shell = AgentShell("Claude Code", "CLAUDECODE")
    _, alone = run(target, home=tmp_path)
    _, lines = run(target, home=tmp_path, shell=shell)
    assert f"– {shell.note()}" in lines
    assert not any("CLAUDECODE" in line for line in alone)
    # The same problems either way: the shell's line is news, not a failure.
    assert lines[-1].split(" (")[0] == alone[-1].split(" (")[0]


async def test_doctor_and_healthz_say_what_a_damaged_file_lost(tmp_path: Path) -> None:
    # The store starts without the write a damaged append-only file held; before, only
    # serve's stderr said so, and no one reads that once the terminal is closed.
    import httpx

    from twoclocks.graph.falkordb.server import EmbeddedFalkorDB
    from twoclocks.graph.falkordb.store import FalkorDBStore

    data = tmp_path / "db"
    with EmbeddedFalkorDB(data) as server:
        graph = server.client().select_graph("t")
        for name in ("one", "two", "three"):
            graph.query("CREATE (:Note {name: $name})", {"name": name})
    aof = next((data / "appendonlydir").glob("*.incr.aof"))
    aof.write_bytes(aof.read_bytes().replace(b'"two" CREATE', b'"two" CRE)TE'))
    settings = bootstrap.load_settings(data_dir=tmp_path / "data")
    runtime = await bootstrap.start_runtime(
        settings, store=FalkorDBStore.embedded(data), embedder=HashingEmbedder()
    )
    try:
        async with serving(runtime) as url:
            lost = await asyncio.to_thread(check_load, url)
            ready = await asyncio.to_thread(check_server, url)
            async with httpx.AsyncClient() as http:
                health = (await http.get(url + "/healthz")).json()
    finally:
        await runtime.close()
    assert health["ready"] is True  # it serves what it has
    assert lost is not None and lost.ok is False
    # doctor reads /healthz once: the server check's answer serves the load check (the
    # server is gone by now, so a second read could not have answered).
    assert check_load(url, ready.health) == lost
    assert "could not replay 1 command(s)" in lost.details[0]
    assert health["notices"] == list(lost.details)
