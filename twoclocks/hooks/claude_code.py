"""`twoclocks hook claude-code session-start`: the first-turn block, before the first prompt.

Claude Code (and Codex, which reads the same shape) blocks session start on this
hook, so it has 800 ms for everything: it imports only the standard library
(platformdirs too, to find the client file and the data dir), and its HTTP exchange
gets HTTP_TIMEOUT_S in total. It reads the hook JSON on stdin and, for ``startup``,
``clear``, ``compact`` and ``resume``, prints::

    {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "..."}}

with the block for the hook's ``cwd`` (not this process's). Any failure prints
nothing and exits 0: a broken memory must never block unrelated work. Failures
are appended to ``hooks.log`` in the data dir, where ``twoclocks doctor`` shows them.

``twoclocks hook claude-code session-start`` starts as fast as
``python -m twoclocks.hooks.claude_code session-start``: ``twoclocks.console`` hands it
to this module before the CLI is imported.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from twoclocks.client_file import Target, target_of
from twoclocks.hooks.guard import Deadline, run_guarded

HTTP_TIMEOUT_S = 0.6
"""Total time for connect + request + answer; the hook's budget is 800 ms."""

HARD_STOP_S = 0.75
"""Backstop for the whole process (a signal timer), should a socket outlive its timeout."""

SOURCES = frozenset({"startup", "clear", "compact", "resume"})
"""After a compaction (or on resume) the model has lost the block, so it comes again.
Codex also sends ``fork``, whose history still holds the parent's block: nothing then."""

MAX_CONTEXT = 10_000
"""Claude Code's cap on additionalContext; past it the model sees a 2,000-character preview."""

LOG_NAME = "hooks.log"
UNEXPANDED = "UnexpandedWorkspace"
"""The log's name for a client variable (Cursor's ${workspaceFolder}) that arrived as is."""
LOG_MAX_BYTES = 256 * 1024


class HookFailure(Exception):
    """A reason the hook printed nothing; its name goes to hooks.log."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


def data_dir_of(env: Mapping[str, str]) -> Path:
    """TWOCLOCKS_DATA_DIR, else the client file's, else the user data dir, as bootstrap does."""
    return client_target(env).data_dir


def client_target(env: Mapping[str, str]) -> Target:
    """URL, key and data dir as ``bootstrap.client_settings`` finds them for an agent: the
    agent key `twoclocks install` wrote, else the person's (lowered to a tool rule here)."""
    return target_of(env, agent=True)


def fetch_block(target: Target, cwd: str, timeout: float = HTTP_TIMEOUT_S) -> dict[str, Any]:
    """POST /v1/block for ``cwd``; every socket step gets only what is left of ``timeout``."""
    from http.client import HTTPConnection, HTTPSConnection
    from urllib.parse import urlsplit

    if not target.key:
        raise HookFailure("Unauthorized", "no API key: set TWOCLOCKS_KEY or run `twoclocks serve`")
    deadline = time.monotonic() + timeout

    def left() -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise HookFailure("Timeout", f"no answer from {target.url} within {timeout:.2f} s")
        return remaining

    parts = urlsplit(target.url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise HookFailure("ConfigError", f"TWOCLOCKS_URL {target.url!r} is not an http(s) URL")
    kind = HTTPSConnection if parts.scheme == "https" else HTTPConnection
    conn = kind(parts.hostname, parts.port, timeout=left())
    body = json.dumps({"cwd": cwd}).encode()
    try:
        conn.connect()
        conn.request(
            "POST",
            parts.path.rstrip("/") + "/v1/block",
            body=body,
            headers={
                "Authorization": f"Bearer {target.key}",
                "Content-Type": "application/json",
            },
        )
        # The answer's reads get what is left; a server trickling bytes past it is cut
        # off by the process's backstop timer (see main).
        if conn.sock is not None:
            conn.sock.settimeout(left())
        response = conn.getresponse()
        raw = response.read()
    except TimeoutError:
        raise HookFailure(
            "Timeout", f"no answer from {target.url} within {timeout:.2f} s"
        ) from None
    except OSError as exc:
        raise HookFailure(
            "StoreUnavailable", f"cannot reach twoclocks at {target.url}: {exc}"
        ) from None
    finally:
        conn.close()
    try:
        answer = json.loads(raw)
    except ValueError:
        raise HookFailure("BadAnswer", f"HTTP {response.status}: the answer is not JSON") from None
    if response.status != 200:
        error = answer if isinstance(answer, dict) else {}
        raise HookFailure(
            str(error.get("error") or f"HTTP{response.status}"),
            str(error.get("message") or f"HTTP {response.status}"),
        )
    if not isinstance(answer, dict) or not isinstance(answer.get("text"), str):
        raise HookFailure("BadAnswer", "the /v1/block answer has no text")
    return answer


def render(text: str) -> str:
    """The one shape Claude Code reads additionalContext from (a flat one is silently dropped)."""
    output = {"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": text}}
    # ASCII escapes: the hook's stdout encoding is whatever the client's locale says.
    return json.dumps(output, ensure_ascii=True)


def session_start(
    stdin: IO[str], stdout: IO[str], env: Mapping[str, str], timeout: float = HTTP_TIMEOUT_S
) -> None:
    """Read the hook input, print the block for SOURCES; any failure prints nothing."""
    started = time.monotonic()
    payload: dict[str, Any] = {}
    data_dir: Path | None = None
    try:
        payload = _payload(stdin)
        if payload.get("source") not in SOURCES:
            return
        cwd = payload.get("cwd")
        if not isinstance(cwd, str) or not os.path.isabs(cwd):
            raise HookFailure("InvalidInput", f"the hook input has no absolute cwd: {cwd!r}")
        target = client_target(env)
        data_dir = target.data_dir
        answer = fetch_block(target, cwd, timeout)
        text = answer["text"]
        if len(text) > MAX_CONTEXT:
            # Past the cap the model gets a preview and a file path; better nothing, logged.
            raise HookFailure("BlockTooLarge", f"{len(text)} characters, over {MAX_CONTEXT}")
        stdout.write(render(text) + "\n")
        stdout.flush()
        if answer.get("status") == "unavailable":
            raise HookFailure("StoreUnavailable", "the server answered, but its store did not")
    except (Exception, Deadline) as exc:
        log_failure(data_dir, "claude-code session-start", exc, payload, started)


def _payload(stdin: IO[str]) -> dict[str, Any]:
    if stdin.isatty():
        raise HookFailure("InvalidInput", "no hook input on stdin (Claude Code sends it)")
    try:
        payload = json.loads(stdin.read() or "{}")
    except ValueError:
        raise HookFailure("InvalidInput", "the hook input on stdin is not JSON") from None
    if not isinstance(payload, dict):
        raise HookFailure("InvalidInput", "the hook input on stdin is not a JSON object")
    return payload


# -- the failure log -------------------------------------------------------------------


def log_failure(
    data_dir: Path | None, hook: str, exc: BaseException, payload: Mapping[str, Any], started: float
) -> None:
    """Append one JSON line to hooks.log; logging must never fail the hook either."""
    try:
        directory = data_dir or data_dir_of(os.environ)
        name, message = (
            (exc.name, exc.message)
            if isinstance(exc, HookFailure)
            else ("Timeout" if isinstance(exc, Deadline) else type(exc).__name__, str(exc))
        )
        entry = {
            "at": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
            "hook": hook,
            "error": name,
            "message": message[:500],
            "source": payload.get("source"),
            "cwd": payload.get("cwd"),
            "session_id": payload.get("session_id"),
            "elapsed_ms": round((time.monotonic() - started) * 1000),
        }
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / LOG_NAME
        if path.exists() and path.stat().st_size > LOG_MAX_BYTES:
            path.replace(path.with_name(LOG_NAME + ".1"))
        with path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(entry, ensure_ascii=True) + "\n")
    except Exception:
        pass


def read_failures(data_dir: Path, limit: int = 5) -> list[dict[str, Any]]:
    """The newest ``limit`` entries of hooks.log, oldest first; unreadable lines are skipped."""
    path = data_dir / LOG_NAME
    try:
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
    except OSError:
        return []
    entries: list[dict[str, Any]] = []
    for line in reversed(lines):
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if isinstance(entry, dict):
            entries.append(entry)
        if len(entries) >= limit:
            break
    return list(reversed(entries))


# -- the process entry -----------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    """Run a hook event; always exits 0, whatever happens."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] != ["session-start"]:
        return 0
    return run_guarded(lambda: session_start(sys.stdin, sys.stdout, os.environ), HARD_STOP_S)


if __name__ == "__main__":
    sys.exit(main())
