"""The client commands: each is one call to the HTTP v1 endpoint the MCP tools and hooks use.

Registered on the main CLI by ``register``. Every command takes ``--json`` for the API's
raw answer (RFC 3339 times); without it, times are in the account's zone to the minute.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from enum import StrEnum
from functools import cached_property
from pathlib import Path
from shlex import quote as quote_arg
from typing import TYPE_CHECKING, Annotated, Any, NoReturn
from urllib.parse import quote, urlencode
from zoneinfo import ZoneInfo

import typer

from twoclocks.cli_render import (
    WHEN_HELP,
    empty_line,
    fact_line,
    facts_lines,
    line_of,
    mended_rows,
    parse_when,
    placed,
    remember_lines,
    retract_lines,
    revise_lines,
    three_parts_message,
    timeline_line,
)
from twoclocks.domain.block import DEFAULT_BUDGET, MIN_BUDGET
from twoclocks.domain.errors import TwoclocksError
from twoclocks.domain.fact_text import TOLD_LATER_HEAD
from twoclocks.domain.model import FactClass, Kind, Tier
from twoclocks.graph.port import Clock

if TYPE_CHECKING:
    from twoclocks.client import Client

AsJson = Annotated[
    bool, typer.Option("--json", help="Print the API's raw JSON answer (times in RFC 3339)")
]
AllWorkspaces = Annotated[
    bool,
    typer.Option(
        "--all-workspaces", help="Every workspace of the account, not only this directory's"
    ),
]
FactId = Annotated[
    str, typer.Argument(help="The fact's id, or any unique start of it (at least 4 characters)")
]
MAX_BUDGET = 10_000


class ReviseReason(StrEnum):
    """The reasons `revise` takes (retracting is its own command)."""

    ENDED = "ended"
    CORRECTED = "corrected"


def fail(exc: TwoclocksError, noted: bool = False) -> NoReturn:
    """Print a typed error as `Name: what to do` and exit 2.

    A refusal for the agent says why it applies, unless the shell's note was ``noted``.
    """
    typer.echo(f"{exc.name}: {exc.message}", err=True)
    if exc.name == "KeysNotAllowed" and not noted:
        from twoclocks import bootstrap

        if (shell := bootstrap.agent_shell()) is not None:
            typer.echo(shell.note(), err=True)
    raise typer.Exit(2)


READS_BY_POST = frozenset({"/v1/recall", "/v1/block"})
"""Reads whose question travels in a POST body: the same for everyone, nothing to say."""


def cli_client(acts: bool) -> Client:
    """The client the CLI calls with, as the person or, in an agent's shell, as the agent.

    There, a command that ``acts`` (anything but a read) first says that it is the agent's
    (``clients.shells``), so whoever reads the output knows why a fact came back lowered.
    """
    from twoclocks import bootstrap
    from twoclocks.client import Client
    from twoclocks.clients.shells import cli_channel

    shell = bootstrap.agent_shell()
    if acts and shell is not None:
        typer.echo(shell.note(), err=True)
    return Client.from_environment(channel=cli_channel(shell))


def call(method: str, path: str, body: Any = None) -> Any:
    """One API call; a typed error ends the command with its message."""
    acts = method != "GET" and path not in READS_BY_POST
    try:
        return cli_client(acts).call(method, path, body)
    except TwoclocksError as exc:
        fail(exc, noted=acts)


class AccountZone:
    """The zone the account's times are shown in, asked of the server once per command
    and only when a command needs it (a date typed, or times to show)."""

    @cached_property
    def name(self) -> str:
        """The IANA name, e.g. Europe/Istanbul."""
        return str(call("GET", "/v1/settings").get("timezone_in_use") or "UTC")

    @property
    def info(self) -> ZoneInfo:
        """The zone itself."""
        return ZoneInfo(self.name)

    def when(self, value: str | None, option: str) -> str | None:
        """A time option as RFC 3339 (see ``parse_when``), or None when not given."""
        return parse_when(value, self.name, option) if value else None


def show(answer: Any, as_json: bool, lines: list[str] | None = None) -> None:
    """The raw answer with --json, else the lines a person reads."""
    if as_json or lines is None:
        typer.echo(json.dumps(answer, indent=2, ensure_ascii=False))
    else:
        for line in lines:
            typer.echo(line)


def query_string(values: dict[str, Any]) -> str:
    """The URL query of the options given (unset ones left out).

    An option given empty (``--subject ""``) is sent: the server says what is wrong with
    it, where leaving it out would read everything.
    """
    return urlencode({k: v for k, v in values.items() if v is not None and v is not False})


def remember(
    subject: Annotated[str, typer.Argument(help="What the fact is about, e.g. api")],
    predicate: Annotated[
        str | None,
        typer.Argument(
            metavar="predicate", help="The slot name, e.g. deploy_target", show_default=False
        ),
    ] = None,
    value: Annotated[
        list[str] | None,
        typer.Argument(metavar="object", help="The value, e.g. Render", show_default=False),
    ] = None,
    valid_at: Annotated[
        str | None,
        typer.Option(
            help="When it became true (default: now, read as known since then, not as its "
            f"start): {WHEN_HELP}"
        ),
    ] = None,
    until: Annotated[
        str | None,
        typer.Option(
            help="When it stops being true, if known now (a freeze until a day; the value it "
            f"interrupts holds again from then): {WHEN_HELP}"
        ),
    ] = None,
    kind: Annotated[
        Kind, typer.Option(help="fact (holds until changed) or event (happened once)")
    ] = Kind.FACT,
    tier: Annotated[
        Tier | None,
        typer.Option(help="Who could witness it (default: yours, asserted when you type it here)"),
    ] = None,
    fact_class: Annotated[
        FactClass | None, typer.Option("--class", help="What it is about; sets where it applies")
    ] = None,
    category: Annotated[str | None, typer.Option(help="A free label, e.g. env, git, build")] = None,
    many: Annotated[
        bool, typer.Option(help="The slot holds many values at once (a new one closes none)")
    ] = False,
    evidence: Annotated[
        str | None, typer.Option(help="Your own words the fact comes from, kept as an episode")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Store a fact for this working directory: its subject, slot and value."""
    if predicate is None or not value:
        given = [part for part in (subject, predicate) if part is not None]
        raise typer.BadParameter(three_parts_message(given), param_hint="SUBJECT PREDICATE OBJECT")
    if len(value) > 1:
        # `remember shop deploy_target Cloudflare Pages`: the value is most likely the rest,
        # but "checkout flow owner Anna" would store a wrong fact; shown, not guessed.
        joined = quote_arg(" ".join(value))
        raise typer.BadParameter(
            f"remember takes three parts and got {len(value) + 2}: quote a part of several "
            f"words, e.g. twoclocks remember {quote_arg(subject)} {quote_arg(predicate)} {joined}",
            param_hint="SUBJECT PREDICATE OBJECT",
        )
    obj = value[0]
    zone = AccountZone()
    body = {
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "valid_at": zone.when(valid_at, "--valid-at"),
        "invalid_at": zone.when(until, "--until"),
        "kind": kind.value,
        "tier": tier.value if tier else None,
        "class": fact_class.value if fact_class else None,
        "category": category,
        "cardinality": "many" if many else None,
        "evidence": evidence,
        "cwd": str(Path.cwd()),
    }
    answer = call("POST", "/v1/facts", {k: v for k, v in body.items() if v is not None})
    lines = remember_lines(answer, subject, body["class"], body["valid_at"], body["invalid_at"])
    show(answer, as_json, lines)


def facts(
    subject: Annotated[str | None, typer.Option(help="Only this subject")] = None,
    predicate: Annotated[str | None, typer.Option(help="Only this slot name")] = None,
    as_of: Annotated[str | None, typer.Option(help=f"What was true then: {WHEN_HELP}")] = None,
    as_believed: Annotated[
        str | None, typer.Option(help=f"What the store held then: {WHEN_HELP}")
    ] = None,
    history: Annotated[
        bool,
        typer.Option("--history", "--include-history", help="Every version, not only current"),
    ] = False,
    later: Annotated[
        bool,
        typer.Option(
            "--later/--no-later",
            help="With no clock given, also what starts later (listed after what holds now)",
        ),
    ] = True,
    all_workspaces: AllWorkspaces = False,
    as_json: AsJson = False,
) -> None:
    """List facts now (and what starts later), as of a valid time, or as believed then."""
    zone = AccountZone()
    now_read = not (as_of or as_believed or history)
    query = {
        "subject": subject,
        "predicate": predicate,
        "as_of": zone.when(as_of, "--as-of"),
        "as_believed": zone.when(as_believed, "--as-believed"),
        "include_history": "true" if history else None,
        "include_later": "true" if later and now_read else None,
        "all_workspaces": "true" if all_workspaces else None,
        "cwd": str(Path.cwd()),
    }
    asked_at = datetime.now(UTC)
    answer = call("GET", "/v1/facts?" + query_string(query))
    told = [fact_line(f, zone.info) for f in answer.get("told_later") or []]
    if told:
        # Facts told later with no start may have held then: said apart, not left out.
        told = [f"{TOLD_LATER_HEAD}):", *told]
    if as_json:
        show(answer, True)
    elif not answer["facts"]:
        show(answer, False, [empty_line(answer.get("elsewhere")), *told])
    elif now_read:
        show(answer, False, facts_lines(answer["facts"], zone.info, asked_at, all_workspaces))
    else:
        mended = mended_rows(answer["facts"])
        lines = [line_of(f, zone.info, all_workspaces, mended) for f in answer["facts"]]
        show(answer, False, [*lines, *told])


def revise(
    fact_id: FactId,
    reason: Annotated[
        ReviseReason,
        typer.Option(help="ended (the world changed) or corrected (it was never true)"),
    ],
    at: Annotated[
        str | None, typer.Option(help=f"For ended: when it stopped being true: {WHEN_HELP}")
    ] = None,
    replacement: Annotated[str | None, typer.Option(help="The new value, if there is one")] = None,
    tier: Annotated[
        Tier | None,
        typer.Option(help="The replacement's tier (default: yours)"),
    ] = None,
    evidence: Annotated[
        str | None, typer.Option(help="Your own words, for an asserted replacement")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """End or correct a fact, optionally with its successor.

    A correction without a replacement believes again the value the mistake had replaced.
    """
    body: dict[str, Any] = {"reason": reason.value}
    if at:
        body["at"] = AccountZone().when(at, "--at")
    if replacement:
        extra = {"tier": tier.value if tier else None, "evidence": evidence}
        body["replacement"] = {"object": replacement} | {k: v for k, v in extra.items() if v}
    elif tier or evidence:
        raise typer.BadParameter("--tier and --evidence describe a --replacement: give one")
    answer = call("POST", f"/v1/facts/{quote(fact_id, safe='')}/revise", body)
    show(answer, as_json, revise_lines(answer, reason.value, body.get("at")))


def retract(fact_id: FactId, as_json: AsJson = False) -> None:
    """Forget a fact (kept as history; `reopen` undoes it)."""
    answer = call("POST", f"/v1/facts/{quote(fact_id, safe='')}/retract", {})
    show(answer, as_json, retract_lines(answer))


def reopen(fact_id: FactId, as_json: AsJson = False) -> None:
    """Undo a retract."""
    answer = call("POST", f"/v1/facts/{quote(fact_id, safe='')}/reopen", {})
    show(answer, as_json, [f"reopened {answer['fact_id']}"])


def block(
    query: Annotated[
        str | None, typer.Option(help="The first prompt, to rank what it asks about first")
    ] = None,
    budget: Annotated[
        int,
        typer.Option(
            min=MIN_BUDGET,
            max=MAX_BUDGET,
            help=f"Most characters the block may take ({MIN_BUDGET}-{MAX_BUDGET})",
        ),
    ] = DEFAULT_BUDGET,
    as_json: AsJson = False,
) -> None:
    """Print the first-turn block for this working directory."""
    body: dict[str, Any] = {"cwd": str(Path.cwd()), "budget": budget}
    if query:
        body["query"] = query
    answer = call("POST", "/v1/block", body)
    show(answer, as_json, [answer["text"]])


def timeline(
    clock: Annotated[
        Clock,
        typer.Option(
            help="world: when facts were true (valid_at -> invalid_at); "
            "system: when the store held them (created_at -> expired_at)"
        ),
    ] = Clock.WORLD,
    since: Annotated[str | None, typer.Option(help=f"From (inclusive): {WHEN_HELP}")] = None,
    until: Annotated[str | None, typer.Option(help=f"Until (exclusive): {WHEN_HELP}")] = None,
    subject: Annotated[str | None, typer.Option(help="Only this subject")] = None,
    predicate: Annotated[str | None, typer.Option(help="Only this slot name")] = None,
    all_workspaces: AllWorkspaces = False,
    as_json: AsJson = False,
) -> None:
    """Every version in time order on one clock, each with that clock's window."""
    zone = AccountZone()
    q = {
        "clock": clock.value,
        "since": zone.when(since, "--since"),
        "until": zone.when(until, "--until"),
        "subject": subject,
        "predicate": predicate,
        "all_workspaces": "true" if all_workspaces else None,
        "cwd": str(Path.cwd()),
    }
    answer = call("GET", "/v1/timeline?" + query_string(q))
    if as_json or not answer["facts"]:
        show(answer, as_json, [empty_line(answer.get("elsewhere"), "version")])
        return
    mended = mended_rows(answer["facts"])
    lines = [timeline_line(f, clock.value, zone.info, mended) for f in answer["facts"]]
    if all_workspaces:
        lines = [placed(line, f) for line, f in zip(lines, answer["facts"], strict=True)]
    show(answer, False, lines)


def settings(
    timezone: Annotated[
        str | None, typer.Option(help="IANA zone times are shown in, e.g. Europe/Istanbul")
    ] = None,
    place: Annotated[
        list[str] | None, typer.Option(help="CLASS=PLACE, e.g. decision=project (repeatable)")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Show this account's settings, or change its time zone and per-class places."""
    current = call("GET", "/v1/settings")
    if timezone is not None or place:
        current.pop("timezone_in_use", None)  # read-only: the server works it out
        if timezone is not None:
            current["timezone"] = timezone
        for item in place or []:
            klass, _, where = item.partition("=")
            current.setdefault("places", {})[klass.strip()] = where.strip()
        current = call("PUT", "/v1/settings", current)
    places = ", ".join(f"{k} -> {v}" for k, v in (current.get("places") or {}).items())
    zone = current.get("timezone") or f"server default ({current.get('timezone_in_use', 'UTC')})"
    show(current, as_json, [f"timezone: {zone}", f"places: {places or 'the defaults'}"])


class CaptureState(StrEnum):
    ON = "on"
    OFF = "off"


def capture(
    state: Annotated[CaptureState | None, typer.Argument(help="on or off; omit to show")] = None,
    as_json: AsJson = False,
) -> None:
    """Turn capture from tool events on or off for this account (off stores nothing)."""
    current = call("GET", "/v1/settings")
    if state is not None:
        current.pop("timezone_in_use", None)  # read-only: the server works it out
        current = call("PUT", "/v1/settings", {**current, "capture": state is CaptureState.ON})
    on = current.get("capture", True)
    line = f"capture: {'on' if on else 'off'}" + ("" if on else " (tool events store nothing)")
    show(current, as_json, [line])


def register(app: typer.Typer) -> None:
    """Add the client commands to the main CLI, in the order `--help` lists them."""
    from twoclocks.cli_backup import export, import_  # they import this module
    from twoclocks.cli_recall import recall
    from twoclocks.cli_slots import (
        aliases,
        close_slots,
        keep_apart,
        merge,
        split,
    )

    for command in (
        remember,
        recall,
        facts,
        revise,
        retract,
        reopen,
        aliases,
        split,
        merge,
        close_slots,
        keep_apart,
        block,
        timeline,
        export,
        settings,
        capture,
    ):
        app.command()(command)
    app.command("import")(import_)
