"""The session-start hooks: the output shape, the sources they answer, and silence on failure.

The server side is a stub that answers POST /v1/block with the §8 shape and records
what it was asked; the hook's own code (stdin, config, HTTP, stdout, log) is real.
No test times the hook: the budget is checked by the timeout setting, and measured
by a script, not by a pass/fail test.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from twoclocks.hooks import claude_code, cursor

BLOCK = "[[CM-MEM]] rules: ...\nresult: rows\n- ci · ci provider: CircleCI ✗"


class StubServer:
    """A loopback HTTP server standing in for POST /v1/block."""

    def __init__(self, status: int = 200, answer: Any = None, delay: float = 0.0) -> None:
        self.status = status
        self.answer = (
            answer
            if answer is not None
            else {"status": "rows", "text": BLOCK, "rows": 1, "more": 0}
        )
        self.delay = delay
        self.requests: list[dict[str, Any]] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                length = int(self.headers.get("content-length") or 0)
                stub.requests.append(
                    {
                        "path": self.path,
                        "auth": self.headers.get("authorization"),
                        "body": json.loads(self.rfile.read(length) or b"{}"),
                    }
                )
                time.sleep(stub.delay)
                data = json.dumps(stub.answer).encode()
                self.send_response(stub.status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *_args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def __enter__(self) -> StubServer:
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def data_dir(tmp_path: Path) -> Path:
    """A data dir holding the local key file, as `twoclocks serve` leaves it."""
    path = tmp_path / "data"
    path.mkdir()
    (path / "key").write_text("tck_local-key\n")
    return path


@pytest.fixture
def session_dir(tmp_path: Path) -> Path:
    """The session's directory, deliberately not this process's cwd."""
    path = tmp_path / "project"
    path.mkdir()
    return path


@pytest.fixture
def server() -> Iterator[StubServer]:
    """A stub server answering with a block."""
    with StubServer() as stub:
        yield stub


def _closed_port_url() -> str:
    stub = StubServer()
    url = stub.url
    stub.httpd.server_close()
    return url


def run_hook(
    payload: Any,
    env: dict[str, str],
    module: Any = claude_code,
    timeout: float = claude_code.HTTP_TIMEOUT_S,
) -> str:
    """Run a hook in-process and return what it printed."""
    stdin = io.StringIO(payload if isinstance(payload, str) else json.dumps(payload))
    stdout = io.StringIO()
    module.session_start(stdin, stdout, env, timeout=timeout)
    return stdout.getvalue()


def _env(url: str, data_dir: Path) -> dict[str, str]:
    return {"TWOCLOCKS_URL": url, "TWOCLOCKS_DATA_DIR": str(data_dir)}


def _log(data_dir: Path) -> list[dict[str, Any]]:
    return claude_code.read_failures(data_dir, limit=100)


def test_the_http_timeout_leaves_room_in_the_800ms_budget() -> None:
    assert claude_code.HTTP_TIMEOUT_S <= 0.6
    assert claude_code.HTTP_TIMEOUT_S < claude_code.HARD_STOP_S < 0.8


@pytest.mark.parametrize("source", ["startup", "clear", "compact", "resume"])
def test_startup_clear_compact_and_resume_print_the_nested_shape_for_the_hooks_cwd(
    source: str, server: StubServer, data_dir: Path, session_dir: Path
) -> None:
    out = run_hook(
        {"source": source, "cwd": str(session_dir), "session_id": "s1"}, _env(server.url, data_dir)
    )
    assert json.loads(out) == {
        "hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": BLOCK}
    }
    [request] = server.requests
    assert request["path"] == "/v1/block"
    assert request["body"] == {"cwd": str(session_dir)}
    assert str(session_dir) != os.getcwd()
    assert request["auth"] == "Bearer tck_local-key"
    assert _log(data_dir) == []


@pytest.mark.parametrize("source", ["fork", None])
def test_a_fork_keeps_its_parents_block_and_prints_nothing(
    source: str | None, server: StubServer, data_dir: Path, session_dir: Path
) -> None:
    out = run_hook({"source": source, "cwd": str(session_dir)}, _env(server.url, data_dir))
    assert out == ""
    assert server.requests == []
    assert _log(data_dir) == []


def test_server_down_prints_nothing_and_logs(data_dir: Path, session_dir: Path) -> None:
    out = run_hook(
        {"source": "startup", "cwd": str(session_dir), "session_id": "s2"},
        _env(_closed_port_url(), data_dir),
    )
    assert out == ""
    [entry] = _log(data_dir)
    assert entry["error"] == "StoreUnavailable"
    assert entry["hook"] == "claude-code session-start"
    assert entry["session_id"] == "s2" and entry["cwd"] == str(session_dir)


def test_server_down_as_a_process_exits_0_silently(data_dir: Path, session_dir: Path) -> None:
    env = {**os.environ, **_env(_closed_port_url(), data_dir)}
    done = subprocess.run(
        [sys.executable, "-m", "twoclocks.hooks.claude_code", "session-start"],
        input=json.dumps({"source": "startup", "cwd": str(session_dir)}),
        capture_output=True,
        text=True,
        env=env,
        timeout=30,
    )
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    assert [e["error"] for e in _log(data_dir)] == ["StoreUnavailable"]


@pytest.mark.parametrize(
    ("status", "answer", "error"),
    [
        (
            401,
            {"error": "Unauthorized", "message": "this API key names no account"},
            "Unauthorized",
        ),
        (200, {"status": "rows", "text": "x" * 10_001, "rows": 1, "more": 0}, "BlockTooLarge"),
        (200, ["not", "an", "object"], "BadAnswer"),
    ],
)
def test_bad_answers_print_nothing_and_are_logged(
    status: int, answer: Any, error: str, data_dir: Path, session_dir: Path
) -> None:
    with StubServer(status, answer) as stub:
        out = run_hook({"source": "startup", "cwd": str(session_dir)}, _env(stub.url, data_dir))
    assert out == ""
    assert [e["error"] for e in _log(data_dir)] == [error]


def test_a_slow_server_is_abandoned_at_the_timeout(data_dir: Path, session_dir: Path) -> None:
    with StubServer(delay=1.0) as stub:
        out = run_hook(
            {"source": "startup", "cwd": str(session_dir)}, _env(stub.url, data_dir), timeout=0.2
        )
    assert out == ""
    assert [e["error"] for e in _log(data_dir)] == ["Timeout"]


def test_an_unavailable_store_still_prints_the_block_and_is_logged(
    data_dir: Path, session_dir: Path
) -> None:
    answer = {
        "status": "unavailable",
        "text": "[[CM-MEM]]\nresult: unavailable",
        "rows": 0,
        "more": 0,
    }
    with StubServer(answer=answer) as stub:
        out = run_hook({"source": "startup", "cwd": str(session_dir)}, _env(stub.url, data_dir))
    assert "result: unavailable" in json.loads(out)["hookSpecificOutput"]["additionalContext"]
    assert [e["error"] for e in _log(data_dir)] == ["StoreUnavailable"]


@pytest.mark.parametrize(
    "stdin",
    [
        "",
        "not json",
        "[1, 2]",
        '{"source": "startup"}',
        '{"source": "startup", "cwd": "relative/dir"}',
    ],
)
def test_bad_input_prints_nothing(stdin: str, server: StubServer, data_dir: Path) -> None:
    assert run_hook(stdin, _env(server.url, data_dir)) == ""
    assert server.requests == []


def test_no_key_prints_nothing_and_says_why(
    server: StubServer, tmp_path: Path, session_dir: Path
) -> None:
    empty = tmp_path / "empty"
    out = run_hook({"source": "startup", "cwd": str(session_dir)}, _env(server.url, empty))
    assert out == ""
    assert [e["error"] for e in _log(empty)] == ["Unauthorized"]
    assert server.requests == []


@pytest.mark.parametrize("with_client_file", [False, True])
@pytest.mark.parametrize(
    "env",
    [
        {},
        {"TWOCLOCKS_URL": "http://memory.internal:9000"},
        {"TWOCLOCKS_HOST": "10.0.0.5", "TWOCLOCKS_PORT": "9999"},
        {"TWOCLOCKS_KEY": "tck_from-env"},
        {"twoclocks_key": "tck_lowercase", "TWOCLOCKS_URL": ""},
    ],
)
def test_the_hook_finds_server_and_key_as_bootstrap_does(
    env: dict[str, str],
    with_client_file: bool,
    data_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from twoclocks import bootstrap, client_file

    for name in list(os.environ):
        if name.lower().startswith("twoclocks_"):
            monkeypatch.delenv(name)
    if with_client_file:
        served = tmp_path / "served"
        served.mkdir()
        (served / "key").write_text("tck_served-key\n")
        client_file.write("http://127.0.0.1:9311", served)
    full = {"TWOCLOCKS_DATA_DIR": str(data_dir), **env}
    for name, value in full.items():
        monkeypatch.setenv(name, value)
    target = claude_code.client_target(full)
    assert target == bootstrap.client_settings()


def test_the_hook_imports_nothing_heavy() -> None:
    code = (
        "import sys, twoclocks.hooks.claude_code, twoclocks.hooks.cursor; "
        "print(' '.join(sorted(sys.modules)))"
    )
    loaded = set(
        subprocess.run(
            [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=30
        ).stdout.split()
    )
    heavy = {
        "torch",
        "graphiti_core",
        "fastapi",
        "starlette",
        "httpx",
        "httpx2",
        "pydantic",
        "pydantic_settings",
        "typer",
        "mcp",
        "neo4j",
        "falkordb",
        "sentence_transformers",
        "twoclocks.bootstrap",
        "twoclocks.config",
    }
    assert not loaded & heavy


def test_cursor_prints_its_flat_shape_for_the_first_workspace_root(
    server: StubServer, data_dir: Path, session_dir: Path
) -> None:
    payload = {"hook_event_name": "sessionStart", "workspace_roots": [str(session_dir)]}
    out = run_hook(payload, _env(server.url, data_dir), module=cursor)
    assert json.loads(out) == {"additional_context": BLOCK}
    assert server.requests[0]["body"] == {"cwd": str(session_dir)}


def test_an_unexpanded_cursor_workspace_is_never_read_as_a_path_and_is_logged(
    server: StubServer, data_dir: Path, session_dir: Path
) -> None:
    payload = {"workspace_roots": ["${workspaceFolder}"], "cwd": str(session_dir)}
    out = run_hook(payload, _env(server.url, data_dir), module=cursor)
    assert json.loads(out) == {"additional_context": BLOCK}
    [request] = server.requests
    assert request["body"] == {"cwd": str(session_dir)}
    [entry] = _log(data_dir)
    assert entry["error"] == claude_code.UNEXPANDED
    assert "${workspaceFolder}" in entry["message"]


def test_cursor_server_down_prints_nothing_and_logs(data_dir: Path, session_dir: Path) -> None:
    out = run_hook(
        {"workspace_roots": [str(session_dir)]}, _env(_closed_port_url(), data_dir), module=cursor
    )
    assert out == ""
    assert [e["hook"] for e in _log(data_dir)] == ["cursor session-start"]


def test_the_documented_hook_command_starts_without_the_cli() -> None:
    # `twoclocks hook claude-code session-start` as the console script runs it.
    code = (
        "import sys, runpy\n"
        "sys.argv = ['twoclocks', 'hook', 'claude-code', 'session-start']\n"
        "try:\n"
        "    runpy.run_module('twoclocks.console', run_name='__main__')\n"
        "except SystemExit as exit:\n"
        "    code = exit.code\n"
        "print(code, ' '.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        input='{"source": "fork"}',
        capture_output=True,
        text=True,
        timeout=30,
    )
    status, *loaded = done.stderr.split()
    assert status == "0" and done.stdout == ""
    assert "twoclocks.hooks.claude_code" in loaded
    assert not {"typer", "twoclocks.cli", "pydantic_settings", "mcp"} & set(loaded)
