"""`twoclocks doctor`, capture part: the switch, each client's last event, the spool, refusals.

A capture hook never says anything to the agent, so a memory that stopped filling
looks like a quiet week; these lines say which hooks sent what and when, what waits
in the spool, and what the server refused and why (GET /v1/events/stats), and what
the extractor model made of turns and whether it judges slot drift (GET /v1/turns/stats).
"""

from __future__ import annotations

import shlex
import sys
from datetime import UTC, datetime
from typing import Any

from twoclocks.client_file import Target
from twoclocks.doctor import HTTP_TIMEOUT_S, Check
from twoclocks.hooks.capture import spool_depth

DRAIN_COMMAND = f"{shlex.quote(sys.executable)} -m twoclocks.hooks.capture drain"


def _ago(when: datetime, now: datetime) -> str:
    seconds = max(0, int((now - when).total_seconds()))
    if seconds < 120:
        return f"{seconds} s ago"
    if seconds < 2 * 3600:
        return f"{seconds // 60} min ago"
    if seconds < 2 * 86400:
        return f"{seconds // 3600} h ago"
    return f"{seconds // 86400} days ago"


def _counts(counts: dict[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in sorted(counts.items(), key=lambda kv: -kv[1]))


def fetch_stats(target: Target, path: str = "/v1/events/stats") -> dict[str, Any]:
    """GET one of the stats routes with the client's key."""
    from twoclocks.client import Client

    stats: dict[str, Any] = Client(target.url, target.key, timeout=HTTP_TIMEOUT_S).call("GET", path)
    return stats


def check_spool(target: Target, server_up: bool) -> Check:
    """Events the hooks kept while the server was down; waiting ones with a live server fail."""
    waiting, dropped = spool_depth(target.data_dir)
    details = (
        (f"{dropped} event(s) dropped so far: the spool was full (oldest go first)",)
        if dropped
        else ()
    )
    where = target.data_dir / "spool.jsonl"
    if not waiting:
        return Check(True, f"capture spool empty ({where})", details)
    if not server_up:
        return Check(
            False,
            f"capture spool: {waiting} event(s) waiting in {where} while the server is down: "
            "start it (`twoclocks serve`); the next tool event sends them",
            details,
        )
    return Check(
        False,
        f"capture spool: {waiting} event(s) waiting in {where} although the server answers: "
        f"the next tool event sends them, or now: `{DRAIN_COMMAND}`",
        details,
    )


def capture_checks(
    stats: dict[str, Any], installed: list[str], now: datetime | None = None
) -> list[Check]:
    """The switch, one line per client (installed or heard from), and refusals by error."""
    now = now or datetime.now(UTC)
    checks = [
        Check(True, "capture on: tool events become observed facts")
        if stats.get("capture", True)
        else Check(
            None,
            "capture off for this account: tool events store nothing "
            "(`twoclocks capture on` to resume)",
        )
    ]
    since = datetime.fromisoformat(str(stats["since"]))
    heard = {str(c["client"]): c for c in stats.get("clients", [])}
    for client in [*installed, *sorted(set(heard) - set(installed))]:
        seen = heard.get(client)
        if seen is None or not seen.get("last_event_at"):
            checks.append(
                Check(
                    None,
                    f"capture {client}: no event since the server started "
                    f"({_ago(since, now)}); the first tool call in a session sends one",
                )
            )
            continue
        last = datetime.fromisoformat(str(seen["last_event_at"]))
        checks.append(
            Check(
                None,
                f"capture {client}: last event {last.isoformat(timespec='minutes')} "
                f"({_ago(last, now)}); events {_counts(seen.get('events') or {})}",
            )
        )
    refused = stats.get("refused_facts") or {}
    if refused:
        checks.append(
            Check(
                None,
                f"capture: facts refused since the server started: {_counts(refused)} "
                "(the events are kept; a secret or bad text is never stored)",
            )
        )
    return checks


def turn_checks(stats: dict[str, Any], now: datetime | None = None) -> list[Check]:
    """The turn extractor's counts, and whether its model judges slot drift's grey zone."""
    now = now or datetime.now(UTC)
    url = stats.get("extractor")
    if not url:
        return [
            Check(
                None,
                "turn extractor: off: finished turns are kept, no facts are taken from them "
                "(TWOCLOCKS_EXTRACTOR_URL, docs/capture.md)",
            )
        ]
    queue = stats.get("queue") or {}
    since = datetime.fromisoformat(str(stats["since"]))
    details = []
    if queue.get("failed"):
        details.append(
            f"{queue['failed']} turn(s) failed: the model gave no answer, or the turn could "
            "not be read (the server log names each)"
        )
    for what, counts in (("dropped", stats.get("facts_dropped")),
                         ("refused by the write path", stats.get("facts_refused"))):  # fmt: skip
        if counts:
            details.append(f"facts {what}: {_counts(counts)}")
    checks = [
        Check(
            None,
            f"turn extractor {url}: turns extracted {queue.get('extracted', 0)}, queued "
            f"{queue.get('queued', 0)}, failed {queue.get('failed', 0)}; facts written "
            f"{stats.get('facts_written', 0)} since the server started ({_ago(since, now)})",
            tuple(details),
        )
    ]
    judge = stats.get("slot_judge")
    if judge is None:
        return checks
    model = judge["model"]
    if judge["status"] == "trusted":
        trusted = f"slot judge: model {model} answered the control pairs; it judges the grey zone"
        checks.append(Check(True, trusted))
    elif judge["status"] == "failed_control":
        checks.append(
            Check(
                False,
                f"slot judge: model {model} got a control pair wrong "
                f"({judge.get('failed_control')}), so it is not used and grey-zone names "
                "stay apart: configure a stronger model, or unset TWOCLOCKS_DRIFT_JUDGE",
            )
        )
    else:
        checks.append(
            Check(
                None,
                f"slot judge: model {model} not checked yet: the server asks the control "
                "pairs at start, and at the first grey-zone write if the model gave no "
                "answer then (the server log says why)",
            )
        )
    return checks


def run(target: Target, server_up: bool, key_ok: bool, installed: list[str]) -> list[Check]:
    """Every capture line doctor prints."""
    checks = [check_spool(target, server_up)]
    if not (server_up and key_ok):
        checks.append(Check(None, "capture counts not checked: the server or the key is not OK"))
        return checks
    from twoclocks.domain.errors import TwoclocksError

    try:
        stats = fetch_stats(target)
    except TwoclocksError as exc:
        return [*checks, Check(False, f"capture counts: {exc.name}: {exc.message}")]
    checks += capture_checks(stats, installed)
    try:
        turns = fetch_stats(target, "/v1/turns/stats")
    except TwoclocksError as exc:
        return [*checks, Check(False, f"turn extractor: {exc.name}: {exc.message}")]
    return [*checks, *turn_checks(turns)]
