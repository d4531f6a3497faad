"""`twoclocks doctor`: one line per check, ✓ or ✗ and what to do; exit 0 only when all pass.

A session-start hook fails silently by design, and a broken memory looks exactly
like an empty one; this is where those failures become visible.
"""

from __future__ import annotations

import os
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from twoclocks import client_file
from twoclocks.client_file import Target
from twoclocks.clients.codex import TRUST_FIX, hook_trust
from twoclocks.clients.shells import AgentShell
from twoclocks.hooks.claude_code import LOG_NAME, UNEXPANDED, read_failures
from twoclocks.install import CLIENTS, installed

RECENT = timedelta(hours=24)
"""Hook failures older than this are shown but no longer fail the check."""

HTTP_TIMEOUT_S = 3.0


@dataclass(frozen=True)
class Check:
    """One line of the report; ``ok`` None is neutral (shown, never a failure)."""

    ok: bool | None
    text: str
    details: tuple[str, ...] = ()
    health: Mapping[str, Any] | None = field(default=None, compare=False, repr=False)
    """The server check's /healthz answer, so the load check reads it without asking again."""

    def lines(self) -> Iterator[str]:
        """The check as printed."""
        mark = {True: "✓", False: "✗", None: "–"}[self.ok]
        yield f"{mark} {self.text}"
        for line in self.details:
            yield f"    {line}"


def _answers(url: str) -> bool:
    import httpx

    try:
        httpx.get(url.rstrip("/") + "/healthz", timeout=HTTP_TIMEOUT_S)
    except httpx.HTTPError:
        return False
    return True


def check_server(url: str, url_from: str = "the default", data_dir: Path | None = None) -> Check:
    """The server answers /healthz and says it is ready."""
    import httpx

    try:
        answer = httpx.get(url.rstrip("/") + "/healthz", timeout=HTTP_TIMEOUT_S)
    except httpx.HTTPError as exc:
        recorded = client_file.read().get("url")
        if (
            url_from.startswith("TWOCLOCKS_")
            and recorded
            and recorded != url
            and _answers(recorded)
        ):
            names = url_from.replace("/", " ")
            return Check(
                False,
                f"nothing answers at {url} (from {url_from}), but `twoclocks serve` runs at "
                f"{recorded}: `unset {names}`, or point it at {recorded}",
            )
        if data_dir is not None and (note := client_file.still_starting(url, data_dir)):
            return Check(False, note)
        return Check(
            False,
            f"server not reachable at {url} (from {url_from}; {type(exc).__name__}): "
            "start it with `twoclocks serve`",
        )
    if answer.status_code == 200:
        body = answer.json()
        runtime = f" on {body['embedding_runtime']}" if body.get("embedding_runtime") else ""
        return Check(
            True,
            f"server ready at {url} (store {body.get('store')}, model {body.get('model')}"
            f"{runtime})",
            health=body if isinstance(body, dict) else None,
        )
    return Check(
        False,
        f"server at {url} is not ready (HTTP {answer.status_code}: "
        f"{answer.text[:200]}): wait, or read its log",
    )


def check_load(url: str, health: Mapping[str, Any] | None = None) -> Check | None:
    """What the store lost when the server loaded it (a damaged file), if anything.

    ``health``: the /healthz answer the server check already read (else it is asked).
    """
    import httpx

    notices: Any = health
    if notices is None:
        try:
            notices = httpx.get(url.rstrip("/") + "/healthz", timeout=HTTP_TIMEOUT_S).json()
        except (httpx.HTTPError, ValueError):
            return None  # the server check already said what is wrong with the server
    lost = notices.get("notices") if isinstance(notices, dict) else None
    if not lost:
        return None
    # It serves, but a load lost writes: a failure to act on, not a line to skim past.
    return Check(False, "the store lost writes when the server loaded it", tuple(lost))


def check_key(url: str, key: str | None, data_dir: Path) -> Check:
    """A key is configured and the server accepts it."""
    from urllib.parse import urlencode

    from twoclocks.client import Client
    from twoclocks.domain.errors import TwoclocksError, Unauthorized

    if not key:
        recorded = client_file.read().get("data_dir")
        if recorded and Path(recorded) != data_dir and (Path(recorded) / "key").exists():
            return Check(
                False,
                f"no API key in {data_dir / 'key'} (TWOCLOCKS_DATA_DIR), but `twoclocks serve` "
                f"keeps it in {Path(recorded) / 'key'}: `unset TWOCLOCKS_DATA_DIR`",
            )
        if note := client_file.still_starting(url, data_dir):
            return Check(False, f"no API key yet: the first `serve` writes it once ready; {note}")
        return Check(
            False,
            f"no API key reachable (none in TWOCLOCKS_KEY or {data_dir / 'key'}): "
            "run `twoclocks serve` once, it creates the key and tells clients where it is",
        )
    try:
        Client(url, key, timeout=HTTP_TIMEOUT_S).call(
            "GET", "/v1/facts?" + urlencode({"subject": "twoclocks doctor"})
        )
    except Unauthorized as exc:
        return Check(
            False,
            f"the server at {url} refuses the key ({exc.message}): `unset TWOCLOCKS_KEY` to use "
            f"{data_dir / 'key'}, or `twoclocks accounts create NAME` for a new one",
        )
    except TwoclocksError as exc:
        return Check(False, f"cannot check the key: {exc.name}: {exc.message}")
    return Check(True, "API key accepted")


def check_data_dir(data_dir: Path) -> Check:
    """The data dir exists and is writable; the key files (person and agent) are private."""
    if not data_dir.is_dir():
        return Check(
            False,
            f"data dir {data_dir} does not exist: run `twoclocks serve` once, "
            "or set TWOCLOCKS_DATA_DIR",
        )
    if not os.access(data_dir, os.W_OK):
        return Check(False, f"data dir {data_dir} is not writable: hooks cannot log there")
    for key in (data_dir / client_file.KEY_FILE, data_dir / client_file.AGENT_KEY_FILE):
        if key.exists() and key.stat().st_mode & 0o077:
            return Check(False, f"{key} is readable by others: chmod 600 {key}")
    return Check(True, f"data dir {data_dir}")


def check_hook_log(data_dir: Path, now: datetime | None = None) -> Check:
    """The last 5 hook failures; any in the last 24 hours fails the check."""
    failures = read_failures(data_dir, limit=200)
    path = data_dir / LOG_NAME
    if not failures:
        return Check(True, f"no hook failures logged ({path})")
    now = now or datetime.now(UTC)
    lines = tuple(
        f"{f.get('at')}  {f.get('hook')}  {f.get('error')}: {f.get('message')}"
        + (f"  (cwd {f['cwd']})" if f.get("cwd") else "")
        for f in failures[-5:]
    )
    recent = [f for f in failures if _when(f.get("at")) > now - RECENT]
    if recent:
        latest = str(recent[-1].get("error"))
        return Check(
            False,
            f"{len(recent)} hook failure(s) in the last 24 hours, the latest "
            f"{latest}: sessions started without memory (from {path}): "
            f"{HOOK_FIXES.get(latest, 'read the lines below')}",
            lines,
        )
    return Check(True, f"no hook failures in the last 24 hours (older ones in {path})", lines)


HOOK_FIXES = {
    "Unauthorized": "run `twoclocks serve` once (it writes the key file), then start a session",
    "StoreUnavailable": "start the server: `twoclocks serve`",
    "Timeout": "start the server (`twoclocks serve`) and wait for `twoclocks doctor` to pass",
    "UnexpandedWorkspace": "update Cursor, which must expand ${workspaceFolder} in "
    "~/.cursor/mcp.json; until then its MCP tools see only facts that apply everywhere",
}
"""The one thing to do for each failure a hook or `twoclocks mcp` logs."""


def check_unexpanded(data_dir: Path, now: datetime | None = None) -> Check | None:
    """A client variable (Cursor's ${workspaceFolder}) that arrived unexpanded lately."""
    now = now or datetime.now(UTC)
    seen = [
        f
        for f in read_failures(data_dir, limit=200)
        if f.get("error") == UNEXPANDED and _when(f.get("at")) > now - RECENT
    ]
    if not seen:
        return None
    return Check(
        False,
        f"cursor: {seen[-1].get('message')} ({seen[-1].get('at')}): " + HOOK_FIXES[UNEXPANDED],
    )


def _when(value: object) -> datetime:
    try:
        return datetime.strptime(str(value), "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)
    except ValueError:
        return datetime.min.replace(tzinfo=UTC)


def check_clients(home: Path | None = None) -> list[Check]:
    """One line per client: installed, partly installed (✗), or not installed (neutral)."""
    checks = []
    for client in CLIENTS:
        parts = installed(client, home)
        present = [p for p in parts if p.present]
        broken = [p for p in present if p.problem]
        if not present:
            checks.append(Check(None, f"{client}: not installed (`twoclocks install {client}`)"))
        elif broken:
            checks.append(
                Check(
                    False,
                    f"{client}: {broken[0].what} in {broken[0].path}: "
                    f"{broken[0].problem}: run `twoclocks install {client}` again",
                )
            )
        elif len(present) < len(parts):
            missing = ", ".join(p.what for p in parts if not p.present)
            checks.append(
                Check(False, f"{client}: {missing} missing: run `twoclocks install {client}`")
            )
        elif client == "codex" and not (trust := hook_trust(home or Path.home())).trusted:
            checks.append(
                Check(
                    False,
                    f"codex: twoclocks hooks not trusted ({trust.how}), so Codex "
                    f"skips them: {TRUST_FIX}",
                )
            )
        else:
            checks.append(
                Check(True, f"{client}: " + " and ".join(p.what for p in parts) + " installed")
            )
    if all(c.ok is None for c in checks):
        checks.append(
            Check(
                False, "no client is set up: run `twoclocks install claude-code` (or codex, cursor)"
            )
        )
    return checks


def check_spaces(spaces_file: Path) -> Check:
    """The spaces file, checked as the server checks it, with each space's reads_from."""
    from twoclocks.domain.errors import ConfigError
    from twoclocks.workspaces import SpacesConfig

    try:
        config = SpacesConfig.load(spaces_file)
    except ConfigError as exc:
        return Check(False, exc.message)
    reads = tuple(f"{s.id} reads_from: {', '.join(s.reads_from) or '-'}" for s in config.spaces)
    return Check(True, f"spaces file {spaces_file}: {len(config.spaces)} space(s)", reads)


def run(
    target: Target,
    home: Path | None = None,
    spaces_file: Path | None = None,
    shell: AgentShell | None = None,
) -> tuple[int, list[str]]:
    """Every check; (exit code, printed lines). ``shell``: the agent whose shell this is."""
    started = time.monotonic()
    server = check_server(target.url, target.url_from, target.data_dir)
    checks = [server]
    if server.ok and (lost := check_load(target.url, server.health)):
        checks.append(lost)
    checks.append(
        check_key(target.url, target.key, target.data_dir)
        if server.ok
        else Check(False, "API key not checked: the server is not reachable")
    )
    checks += [check_data_dir(target.data_dir), check_hook_log(target.data_dir)]
    unexpanded = check_unexpanded(target.data_dir)
    checks += [*([unexpanded] if unexpanded else []), *check_clients(home)]
    from twoclocks import doctor_capture

    capturing = [
        client
        for client in CLIENTS
        if any(p.present and p.what.startswith("capture") for p in installed(client, home))
    ]
    checks += doctor_capture.run(target, bool(server.ok), bool(checks[1].ok), capturing)
    if spaces_file is not None:
        checks.append(check_spaces(spaces_file))
    if shell is not None:  # not a problem, but why this shell's acts are not the person's
        checks.append(Check(None, shell.note()))
    lines = [line for check in checks for line in check.lines()]
    failed = sum(1 for c in checks if c.ok is False)
    lines.append(
        f"{'all good' if not failed else f'{failed} problem(s)'} "
        f"({time.monotonic() - started:.1f} s)"
    )
    return (1 if failed else 0), lines
