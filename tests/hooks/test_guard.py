"""The process guard every hook runs under (twoclocks.hooks.guard)."""

from __future__ import annotations

import io
import json
import os
import signal
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from twoclocks.hooks import capture, guard


@pytest.fixture
def silent_server() -> Iterator[str]:
    """A loopback port that accepts connections and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        listener.close()


def test_a_hook_that_outlives_its_backstop_is_stopped_and_exits_0() -> None:
    started = time.monotonic()
    code = guard.run_guarded(lambda: time.sleep(5), 0.2)
    assert code == 0
    assert time.monotonic() - started < 1.5


def test_nothing_escapes_a_hook_not_even_ctrl_c() -> None:
    def interrupted() -> None:
        raise KeyboardInterrupt

    assert guard.run_guarded(interrupted, 1.0) == 0


def test_the_backstop_is_disarmed_after_the_hook() -> None:
    guard.run_guarded(lambda: None, 0.1)
    time.sleep(0.2)  # an armed timer would raise Deadline here and fail the test


def test_a_capture_stopped_by_its_backstop_is_logged_as_a_timeout(
    tmp_path: Path, silent_server: str
) -> None:
    env = {"TWOCLOCKS_DATA_DIR": str(tmp_path), "TWOCLOCKS_URL": silent_server}
    env["TWOCLOCKS_KEY"] = "tck_x"
    event = io.StringIO(json.dumps({"session_id": "s", "hook_event_name": "PostToolUse"}))
    # The request's own timeout (5 s) is longer than the backstop: the backstop ends it.
    guard.run_guarded(lambda: capture.capture("claude-code", event, env, timeout=5.0), 0.3)
    entries = [json.loads(line) for line in (tmp_path / "hooks.log").read_text().splitlines()]
    assert [e["error"] for e in entries] == ["Timeout"]
    assert entries[0]["elapsed_ms"] < 1500
    assert capture.spool_depth(tmp_path) == (1, 0)  # saved, not lost


def test_an_event_cut_short_by_the_clients_sigterm_is_spooled_not_lost(
    tmp_path: Path, silent_server: str
) -> None:
    # Claude Code's ``-p`` kills async hooks still running at teardown (SIGTERM).
    env = {"TWOCLOCKS_DATA_DIR": str(tmp_path), "TWOCLOCKS_URL": silent_server}
    env["TWOCLOCKS_KEY"] = "tck_x"
    event = io.StringIO(json.dumps({"session_id": "s", "hook_event_name": "PostToolUse"}))
    teardown = threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGTERM))
    outcome: list[str] = []
    teardown.start()
    code = guard.run_guarded(
        lambda: outcome.append(capture.capture("claude-code", event, env, timeout=5.0)), 3.0
    )
    teardown.join()
    assert (code, outcome) == (0, ["spooled"])
    assert capture.spool_depth(tmp_path) == (1, 0)
    assert signal.getsignal(signal.SIGTERM) == signal.SIG_DFL  # the guard gives SIGTERM back
