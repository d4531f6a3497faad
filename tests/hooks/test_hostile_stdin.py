"""Every hook fed hostile stdin (issue 15 point 6): always silent, exit 0, bounded time and memory.

Each hook runs as the client runs it, a subprocess of ``python -m``, with stdin that is
malformed, truncated, huge (10 MB), of the wrong JSON type, or not UTF-8 at all; and once
against a server that answers nonsense. Nothing may reach stdout or stderr (the client
would show it to the model or the person), the exit status is 0, the run ends within
HOOK_BOUND_S (python start included) and no hook holds more than MAX_RSS_MB.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

HOOK_BOUND_S = 5.0
"""Python start (~0.1-0.5 s on a loaded machine) plus each hook's own hard stop (< 1 s)."""
MAX_RSS_MB = 200
TEN_MB = 10 * 1024 * 1024

HOOKS = {
    "claude-code session-start": ["twoclocks.hooks.claude_code", "session-start"],
    "cursor session-start": ["twoclocks.hooks.cursor", "session-start"],
    "capture claude-code": ["twoclocks.hooks.capture", "claude-code"],
    "capture codex": ["twoclocks.hooks.capture", "codex"],
    "capture cursor": ["twoclocks.hooks.capture", "cursor"],
}

GOOD_EVENT = {
    "session_id": "s1",
    "hook_event_name": "PostToolUse",
    "cwd": "/tmp/work",
    "tool_name": "Bash",
    "tool_input": {"command": "git push origin main"},
    "tool_response": {"stdout": "ok", "exit_code": 0},
    "source": "startup",
    "workspace_roots": ["/tmp/work"],
}

WRONG_TYPES = {
    "cwd": 123, "source": ["startup"], "tool_name": {"x": 1}, "tool_input": "rm -rf /",
    "tool_response": 7, "workspace_roots": "/tmp", "hook_event_name": None, "session_id": 1.5,
}  # fmt: skip

HOSTILE: dict[str, bytes] = {
    "empty": b"",
    "malformed": b"{not json at all",
    "truncated": json.dumps(GOOD_EVENT).encode()[:40],
    "huge 10 MB string": json.dumps({**GOOD_EVENT, "cwd": "/" + "a" * TEN_MB}).encode(),
    "huge 10 MB of garbage": b"\x00\xff" * (TEN_MB // 2),
    "deeply nested": b"[" * 100_000 + b"]" * 100_000,
    "a JSON array": b"[1, 2, 3]",
    "a JSON number": b"42",
    "a JSON string": b'"startup"',
    "null": b"null",
    "wrong-typed fields": json.dumps(WRONG_TYPES).encode(),
    "not UTF-8": b'{"cwd": "/tmp/\xff\xfe", "source": "startup"}',
    "a lone surrogate escape": b'{"cwd": "/tmp/\\ud800", "source": "startup"}',
}


def closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def run_hook(
    module_args: list[str], stdin: bytes, url: str, home: Path
) -> tuple[float, int, float]:
    """Run one hook as the client does; assert silence; its wall time, exit status and peak
    memory in MB (of that process alone: ``wait4``, not every child this test run reaped)."""
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CONFIG_HOME": str(home / ".config"),
        "TWOCLOCKS_URL": url,
        "TWOCLOCKS_KEY": "tck_hostile",
        "TWOCLOCKS_DATA_DIR": str(home / "data"),
    }
    given, said, warned = home / "stdin", home / "stdout", home / "stderr"
    given.write_bytes(stdin)
    started = time.monotonic()
    with given.open("rb") as i, said.open("wb") as o, warned.open("wb") as e:
        process = subprocess.Popen(
            [sys.executable, "-m", *module_args], stdin=i, stdout=o, stderr=e, env=env
        )
        stopper = threading.Timer(30, process.kill)
        stopper.start()
        _, status, usage = os.wait4(process.pid, 0)
        stopper.cancel()
    took = time.monotonic() - started
    assert said.read_bytes() == b"", said.read_bytes()[:300]
    assert warned.read_bytes() == b"", warned.read_bytes()[:300]
    return took, os.waitstatus_to_exitcode(status), usage.ru_maxrss / 1024


def peak_of_a_bare_python(home: Path) -> float:
    """A child's ru_maxrss starts at this test process's size when it was forked (it survives
    exec), so a hook's own memory is its peak less that of a bare Python started the same way."""
    return run_hook(["string"], b"", "", home)[2]  # runs, prints nothing


@pytest.mark.parametrize("stdin_name", list(HOSTILE))
@pytest.mark.parametrize("hook", list(HOOKS))
def test_a_hook_fed_hostile_stdin_is_silent_exits_0_in_bounded_time(
    hook: str, stdin_name: str, tmp_path: Path
) -> None:
    took, rc, peak_mb = run_hook(HOOKS[hook], HOSTILE[stdin_name], closed_port_url(), tmp_path)
    assert rc == 0
    assert took < HOOK_BOUND_S, f"{hook} took {took:.2f} s on {stdin_name}"
    own_mb = peak_mb - peak_of_a_bare_python(tmp_path)
    assert own_mb < MAX_RSS_MB, f"{hook} held {own_mb:.0f} MB more than Python on {stdin_name}"


class _Nonsense(BaseHTTPRequestHandler):
    """A server that answers every call with the wrong shape, or a lie about its length."""

    answers = (
        (200, b'{"text": 12345}'),
        (200, b"[]"),
        (200, b'{"text": "' + b"x" * 200_000 + b'"}'),
        (500, b"<html>boom</html>"),
        (200, b"\xff\xfe not json"),
    )
    calls = 0

    def _answer(self) -> None:
        status, body = self.answers[type(self).calls % len(self.answers)]
        type(self).calls += 1
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self) -> None:
        self._answer()

    def do_POST(self) -> None:
        length = int(self.headers.get("Content-Length") or 0)
        self.rfile.read(min(length, 20_000_000))
        self._answer()

    def log_message(self, *_: object) -> None:
        pass


@pytest.fixture
def nonsense_url() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Nonsense)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.mark.parametrize("hook", list(HOOKS))
def test_a_hook_whose_server_answers_nonsense_is_silent_and_exits_0(
    hook: str, nonsense_url: str, tmp_path: Path
) -> None:
    for _ in range(len(_Nonsense.answers)):
        event = json.dumps(GOOD_EVENT).encode()
        took, rc, peak_mb = run_hook(HOOKS[hook], event, nonsense_url, tmp_path)
        assert rc == 0 and took < HOOK_BOUND_S
        assert peak_mb - peak_of_a_bare_python(tmp_path) < MAX_RSS_MB
