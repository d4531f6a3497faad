"""`python -m twoclocks.hooks.capture CLIENT`: hand a tool event to the server, never waiting.

Installed as the PostToolUse hook (Claude Code, Codex) and the postToolUse /
afterShellExecution / afterFileEdit hooks (Cursor). It reads the event on stdin,
POSTs it to ``/v1/events`` within HTTP_TIMEOUT_S, prints nothing and exits 0,
whatever happens. Standard library only (platformdirs too, when it must find the
default data dir), like the session-start hook it shares its settings with.

When the server does not answer, the event is appended to ``spool.jsonl`` in the
data dir (one JSON line, fsynced). The spool is bounded (SPOOL_MAX_BYTES): the
oldest events are dropped first and counted in ``spool.dropped``. The next hook
that reaches the server sends the spool back in batches (``/v1/events/batch``),
at most DRAIN_BATCHES per run so one hook never takes long; ``drain`` sends all of
it. The server keeps each event once (its id comes from the client's own ids), so
an event sent twice, or spooled after a slow answer that did arrive, is harmless.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from twoclocks.client_file import Target
from twoclocks.hooks.claude_code import HookFailure, client_target, log_failure
from twoclocks.hooks.guard import Deadline, run_guarded, shelter

HTTP_TIMEOUT_S = 0.25
"""Total time for one request; a capture hook must not hold the agent up."""

DRAIN_TIMEOUT_S = 5.0
"""One batch of the spool, sent by ``drain`` (not by a hook)."""

HARD_STOP_S = 0.5
"""Backstop for the whole hook process (a signal timer)."""

CLIENTS = ("claude-code", "codex", "cursor")
SPOOL_NAME = "spool.jsonl"
DROPPED_NAME = "spool.dropped"
SPOOL_MAX_BYTES = 4 * 1024 * 1024
"""About a thousand events; past it the oldest are dropped (and counted)."""

BODY_MAX_BYTES = 60 * 1024
"""Under the server's 64 KB body limit, with room for the batch wrapper."""

STRING_MAX = 16_000
"""A longer string in an event (a command's output) keeps its head and tail only."""

DRAIN_BATCHES = 1
"""Spool batches a hook sends after its own event got through."""

STOP_BUDGET_S = 2.0
"""The Stop hook (end of a turn) drains the spool for at most this long, then leaves the
rest to the next hook; Codex runs it in turn, so it must not hold the agent up."""

STOP_BATCH_EVENTS = 20
"""Events per batch from the Stop hook: small enough that one answers within its budget
(the server writes a batch's facts before answering)."""

CHANNEL_HEADER = "X-Twoclocks-Channel"


def _shrink(value: Any, limit: int) -> Any:
    if isinstance(value, dict):
        return {k: _shrink(v, limit) for k, v in value.items()}
    if isinstance(value, list):
        return [_shrink(v, limit) for v in value]
    if isinstance(value, str) and len(value) > limit:
        head = limit // 4
        cut = len(value) - limit
        return f"{value[:head]}\n… [{cut} characters cut] …\n{value[-(limit - head) :]}"
    return value


def enrich_event(client: str | None, event: dict[str, Any]) -> dict[str, Any]:
    """The event, with what only this machine can read added under a ``twoclocks_`` key.

    The time the hook saw it (``twoclocks_seen_at``): a spooled event reaches the server
    later, and what it made true (a checkout, a test run) started when it happened.
    Codex sends a shell call's output without its exit status, which its rollout holds
    (``transcripts.codex_exit_code``): a failed command would pass for a success, and
    neither a repeated failure nor a failed test run without a summary would be seen.
    """
    from datetime import UTC, datetime

    # capture.events.SEEN_AT_KEY; not imported: the hook stays clear of pydantic.
    event = {**event, "twoclocks_seen_at": datetime.now(UTC).isoformat()}
    call = event.get("tool_use_id")
    if client != "codex" or event.get("hook_event_name") != "PostToolUse":
        return event
    if not isinstance(call, str) or not isinstance(event.get("tool_response"), str):
        return event
    from twoclocks.hooks.transcripts import codex_exit_code

    code = codex_exit_code(event.get("transcript_path"), call)
    return event if code is None else {**event, "twoclocks_exit_code": code}


def body_of(client: str | None, event: Mapping[str, Any]) -> bytes:
    """The request body for one event, its long strings cut until it fits BODY_MAX_BYTES."""
    limit = STRING_MAX
    while True:
        body = json.dumps({"client": client, "event": _shrink(event, limit)}, ensure_ascii=False)
        data = body.encode()
        if len(data) <= BODY_MAX_BYTES or limit < 200:
            return data
        limit //= 2


def post(target: Target, path: str, body: bytes, timeout: float) -> Any:
    """POST JSON with the key; the answer's JSON, or HookFailure."""
    from urllib.parse import urlsplit

    if not target.key:
        raise HookFailure("Unauthorized", "no API key: set TWOCLOCKS_KEY or run `twoclocks serve`")
    parts = urlsplit(target.url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise HookFailure("ConfigError", f"TWOCLOCKS_URL {target.url!r} is not an http(s) URL")
    headers = {
        "Authorization": f"Bearer {target.key}",
        "Content-Type": "application/json",
        CHANNEL_HEADER: "hook",
    }
    full_path = parts.path.rstrip("/") + path
    try:
        if parts.scheme == "https":
            status, raw = _post_https(parts.hostname, parts.port, full_path, headers, body, timeout)
        else:
            status, raw = _post_http(parts.hostname, parts.port, full_path, headers, body, timeout)
    except TimeoutError:
        raise HookFailure(
            "Timeout", f"no answer from {target.url} within {timeout:.2f} s"
        ) from None
    except OSError as exc:
        raise HookFailure(
            "StoreUnavailable", f"cannot reach twoclocks at {target.url}: {exc}"
        ) from None
    if status >= 500 or status == 401:
        # Kept for later: a server still starting, or a key that is not set up yet.
        raise HookFailure(f"HTTP{status}", "the server could not take the event now")
    try:
        return json.loads(raw)
    except ValueError:
        return None


def _post_http(
    host: str, port: int | None, path: str, headers: dict[str, str], body: bytes, timeout: float
) -> tuple[int, bytes]:
    """One HTTP/1.1 POST over a plain socket, connection closed after the answer.

    http.client would do the same, but importing it (and the email parser it pulls in)
    costs about a third of the hook's budget.
    """
    import socket

    deadline = time.monotonic() + timeout

    def left() -> float:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise TimeoutError()
        return remaining

    lines = [f"POST {path or '/'} HTTP/1.1", f"Host: {host}:{port or 80}", "Connection: close"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    lines.append(f"Content-Length: {len(body)}")
    request = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
    sock = socket.create_connection((host, port or 80), timeout=left())
    try:
        sock.settimeout(left())
        sock.sendall(request)
        chunks: list[bytes] = []
        while True:
            sock.settimeout(left())
            data = sock.recv(65536)
            if not data:
                break
            chunks.append(data)
    finally:
        sock.close()
    head, _, payload = b"".join(chunks).partition(b"\r\n\r\n")
    status_line = head.split(b"\r\n", 1)[0].split()
    if len(status_line) < 2 or not status_line[1].isdigit():
        raise OSError("the answer is not HTTP")
    if b"transfer-encoding: chunked" in head.lower():
        payload = _unchunk(payload)
    return int(status_line[1]), payload


def _unchunk(data: bytes) -> bytes:
    out: list[bytes] = []
    while data:
        size_line, _, rest = data.partition(b"\r\n")
        size = int(size_line.split(b";")[0] or b"0", 16)
        if size == 0:
            break
        out.append(rest[:size])
        data = rest[size + 2 :]
    return b"".join(out)


def _post_https(
    host: str, port: int | None, path: str, headers: dict[str, str], body: bytes, timeout: float
) -> tuple[int, bytes]:
    from http.client import HTTPSConnection

    conn = HTTPSConnection(host, port, timeout=timeout)
    try:
        conn.request("POST", path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


# -- the spool ---------------------------------------------------------------------------


def spool_path(data_dir: Path) -> Path:
    """Where events wait while the server is down."""
    return data_dir / SPOOL_NAME


def spool(data_dir: Path, line: bytes) -> None:
    """Append one event (one JSON line, fsynced); drop the oldest past SPOOL_MAX_BYTES."""
    data_dir.mkdir(parents=True, exist_ok=True)
    path = spool_path(data_dir)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    try:
        os.write(fd, line.rstrip(b"\n") + b"\n")
        os.fsync(fd)
    finally:
        os.close(fd)
    if path.stat().st_size > SPOOL_MAX_BYTES:
        _trim(data_dir)


def _trim(data_dir: Path) -> None:
    path = spool_path(data_dir)
    lines = path.read_bytes().splitlines(keepends=True)
    dropped = 0
    size = sum(map(len, lines))
    while lines and size > SPOOL_MAX_BYTES * 3 // 4:
        size -= len(lines.pop(0))
        dropped += 1
    _rewrite(path, lines)
    _count_dropped(data_dir, dropped)


def _rewrite(path: Path, lines: list[bytes]) -> None:
    temp = path.with_name(path.name + ".tmp")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.write(fd, b"".join(lines))
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(temp, path)


def _count_dropped(data_dir: Path, count: int) -> None:
    if count <= 0:
        return
    path = data_dir / DROPPED_NAME
    try:
        before = int(path.read_text().strip() or 0)
    except (OSError, ValueError):
        before = 0
    path.write_text(f"{before + count}\n")


def spool_depth(data_dir: Path) -> tuple[int, int]:
    """(events waiting, events dropped so far): what doctor shows."""
    try:
        waiting = len(spool_path(data_dir).read_bytes().splitlines())
    except OSError:
        waiting = 0
    try:
        dropped = int((data_dir / DROPPED_NAME).read_text().strip() or 0)
    except (OSError, ValueError):
        dropped = 0
    return waiting, dropped


def drain(
    target: Target,
    batches: int | None = None,
    timeout: float = DRAIN_TIMEOUT_S,
    budget: float | None = None,
    max_events: int | None = None,
) -> int:
    """Send spooled events in order, a batch per request; returns how many left the spool.

    A batch leaves the spool only once the server answered it; a batch that fails
    stops the drain, to be sent again next time (the server keeps each event once).
    With ``budget`` (seconds), no batch starts after it is spent; ``max_events`` caps a
    batch's length.
    """
    path = spool_path(target.data_dir)
    deadline = None if budget is None else time.monotonic() + budget
    sent = 0
    done = 0
    while batches is None or done < batches:
        if deadline is not None:
            left = deadline - time.monotonic()
            if left <= 0.05:
                return sent
            timeout = min(timeout, left)
        try:
            lines = path.read_bytes().splitlines(keepends=True)
        except OSError:
            return sent
        if not lines:
            return sent
        batch: list[bytes] = []
        size = 20
        for line in lines:
            if batch and size + len(line) + 1 > BODY_MAX_BYTES:
                break
            if max_events is not None and len(batch) >= max_events:
                break
            batch.append(line)
            size += len(line) + 1
        events = [_event_of(line) for line in batch]
        body = b'{"events": [' + b",".join(e for e in events if e) + b"]}"
        post(target, "/v1/events/batch", body, timeout)
        # Lines appended by other hooks while this batch was out stay in the spool.
        current = path.read_bytes().splitlines(keepends=True)
        _rewrite(path, current[len(batch) :])
        sent += len(batch)
        done += 1
    return sent


def _event_of(line: bytes) -> bytes | None:
    try:
        json.loads(line)
    except ValueError:
        return None  # a torn line (a crash mid-write) is dropped, not sent
    return line.strip()


# -- the hook ------------------------------------------------------------------------------


ALLOW_PROMPT = '{"continue": true}'
"""Cursor's beforeSubmitPrompt answer: the prompt goes on (its only documented field)."""


def capture(
    client: str | None,
    stdin: IO[str],
    env: Mapping[str, str],
    timeout: float = HTTP_TIMEOUT_S,
    stdout: IO[str] | None = None,
) -> str:
    """Send one event, or spool it; then drain a little. Returns what happened (for tests)."""
    started = time.monotonic()
    data_dir: Path | None = None
    payload: dict[str, Any] = {}
    try:
        raw = stdin.read() if not stdin.isatty() else ""
        payload = json.loads(raw or "{}")
        if not isinstance(payload, dict) or not payload:
            raise HookFailure("InvalidInput", "the hook input on stdin is not a JSON object")
        if stdout is not None and payload.get("hook_event_name") == "beforeSubmitPrompt":
            # Cursor waits on this hook and reads ``continue``: answer first, then capture.
            stdout.write(ALLOW_PROMPT + "\n")
            stdout.flush()
        target = client_target(env)
        data_dir = target.data_dir
        body = body_of(client, enrich_event(client, payload))
        try:
            post(target, "/v1/events", body, timeout)
        except HookFailure:
            spool(target.data_dir, body)
            return "spooled"
        except Deadline:
            # Cut short mid-request (backstop, or the client's SIGTERM at teardown): the
            # event is saved first, the timeout logged after; a copy the server did get
            # is stored once all the same (events carry their client's ids).
            shelter()
            spool(target.data_dir, body)
            log_failure(data_dir, f"{client or 'unknown'} capture", Deadline(), payload, started)
            return "spooled"
        if spool_path(target.data_dir).exists():
            left = timeout - (time.monotonic() - started)
            if left > 0.05:
                drain(target, DRAIN_BATCHES, left)
        return "sent"
    except (Exception, Deadline) as exc:
        log_failure(data_dir, f"{client or 'unknown'} capture", exc, payload, started)
        return "failed"


def main(argv: list[str] | None = None) -> int:
    """``CLIENT`` reads one event from stdin; ``drain`` sends the whole spool, ``stop`` (the
    Stop hook) what it can in STOP_BUDGET_S. Always exits 0."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["drain"]:
        # Run by hand or by the server's owner, not by a client: no backstop.
        return run_guarded(lambda: drain(client_target(os.environ)), 0)
    if args[:1] == ["stop"]:
        # The Stop event itself carries nothing to capture; stdin is left unread.
        return run_guarded(
            lambda: drain(
                client_target(os.environ), budget=STOP_BUDGET_S, max_events=STOP_BATCH_EVENTS
            ),
            STOP_BUDGET_S + 0.5,
        )
    client = args[0] if args and args[0] in CLIENTS else None
    return run_guarded(
        lambda: capture(client, sys.stdin, os.environ, stdout=sys.stdout), HARD_STOP_S
    )


if __name__ == "__main__":
    sys.exit(main())
