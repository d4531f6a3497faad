"""The `twoclocks` command. Server commands wire a Runtime; client commands speak HTTP v1.

Every client command is a thin call to the same endpoint the MCP tools and hooks use,
so there is one code path per operation.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

from twoclocks import bootstrap
from twoclocks.cli_agents import app as agents_app
from twoclocks.cli_ui import ui
from twoclocks.domain.errors import TwoclocksError
from twoclocks.domain.model import on_one_line

app = typer.Typer(
    help="twoclocks: bi-temporal memory for coding agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
accounts_app = typer.Typer(help="Manage accounts and their API keys.", no_args_is_help=True)
app.add_typer(accounts_app, name="accounts")
app.add_typer(agents_app)
app.command()(ui)

DataDir = Annotated[
    Path | None, typer.Option("--data-dir", help="Data directory (default: user data dir)")
]
Store = Annotated[
    str | None, typer.Option("--store", help="'embedded' or a neo4j:// / bolt:// URI")
]
AsJson = Annotated[bool, typer.Option("--json", help="Print the raw JSON answer")]


def _fail(exc: TwoclocksError) -> None:
    typer.echo(f"{exc.name}: {exc.message}", err=True)
    raise typer.Exit(2)


@app.command()
def serve(
    data_dir: DataDir = None,
    host: Annotated[str | None, typer.Option(help="Listen address")] = None,
    port: Annotated[int | None, typer.Option(help="Listen port")] = None,
    store: Store = None,
) -> None:
    """Run the HTTP API (and /mcp) on the embedded store, or on Neo4j with --store."""
    import uvicorn

    from twoclocks.api.app import create_app

    settings = bootstrap.load_settings(data_dir=data_dir, host=host, port=port, store=store)
    # The model loads before the server starts, so a model that cannot be loaded
    # stops `serve` with one line naming its path rather than a traceback.
    try:
        bootstrap.quiet_libraries()
        embedder = bootstrap.load_embedder(settings)
    except TwoclocksError as exc:
        _fail(exc)

    async def start() -> bootstrap.Runtime:
        try:
            runtime = await bootstrap.start_runtime(settings, embedder=embedder)
        except TwoclocksError as exc:
            typer.echo(f"{exc.name}: {exc.message}", err=True)
            raise SystemExit(2) from None
        key = await bootstrap.ensure_local_account(runtime)
        if key:
            typer.echo(
                f"created account 'local'; its key is in {bootstrap.key_file(settings.data_dir)}"
            )
        return runtime

    try:
        uvicorn.run(
            create_app(start=start), host=settings.host, port=settings.port, log_level="info"
        )
    except TwoclocksError as exc:
        _fail(exc)


@accounts_app.command("create")
def accounts_create(name: str, data_dir: DataDir = None, store: Store = None) -> None:
    """Create an account; prints its new API key as the last line (shown once)."""
    settings = bootstrap.load_settings(data_dir=data_dir, store=store)

    async def create() -> str:
        runtime = await bootstrap.start_runtime(settings, load_model=False, attach=True)
        try:
            return await runtime.accounts.create(name)
        finally:
            await runtime.close()

    try:
        key = asyncio.run(create())
    except TwoclocksError as exc:
        _fail(exc)
    typer.echo(f"account {name!r} created; its key:")
    typer.echo(key)


admin_app = typer.Typer(
    help="Operator commands, run on the server's machine.", no_args_is_help=True
)
app.add_typer(admin_app, name="admin")


@admin_app.command("purge-fact")
def admin_purge_fact(
    fact_id: str,
    account: Annotated[str, typer.Option(help="the account the fact belongs to")],
    data_dir: DataDir = None,
    store: Store = None,
    yes: Annotated[bool, typer.Option("--yes", help="really delete, no undo")] = False,
) -> None:
    """Physically delete every version of a fact. Agents can only retract; this erases."""
    if not yes:
        typer.echo("purge-fact erases history for good; add --yes to confirm", err=True)
        raise typer.Exit(2)
    settings = bootstrap.load_settings(data_dir=data_dir, store=store)

    async def purge() -> int:
        runtime = await bootstrap.start_runtime(settings, load_model=False, attach=True)
        try:
            return await runtime.store.delete_fact(account, fact_id)
        finally:
            await runtime.close()

    try:
        removed = asyncio.run(purge())
    except TwoclocksError as exc:
        _fail(exc)
    typer.echo(f"removed {removed} version(s) of {fact_id} from {account!r}")


def _client() -> Any:
    from twoclocks.client import Client

    return Client.from_environment(channel="cli")


def _show(answer: Any, as_json: bool, lines: list[str] | None = None) -> None:
    if as_json or lines is None:
        typer.echo(json.dumps(answer, indent=2, ensure_ascii=False))
    else:
        for line in lines:
            typer.echo(line)


def _fact_line(f: dict[str, Any]) -> str:
    end = f" until {f['invalid_at']}" if f.get("invalid_at") else ""
    gone = f" [{f['retired_reason']}]" if f.get("expired_at") else ""
    # Escaped even though writes refuse them now: a row stored before the rule, or imported,
    # must not print as two lines.
    subject, predicate, obj = (on_one_line(f[k]) for k in ("subject", "predicate", "object"))
    return (
        f"{f['fact_id'][:12]}  {subject} · {predicate}: {obj}"
        f"  (from {f['valid_at']}{end}, {f.get('tier') or 'no tier'}){gone}"
    )


def _call(method: str, path: str, body: Any = None) -> Any:
    try:
        return _client().call(method, path, body)
    except TwoclocksError as exc:
        _fail(exc)


@app.command()
def remember(
    subject: str,
    predicate: str,
    obj: Annotated[str, typer.Argument(metavar="OBJECT")],
    valid_at: Annotated[str | None, typer.Option(help="RFC 3339 with offset")] = None,
    tier: Annotated[str | None, typer.Option(help="asserted / observed / inferred")] = None,
    fact_class: Annotated[
        str | None, typer.Option("--class", help="user, rule, project, ...")
    ] = None,
    category: Annotated[str | None, typer.Option()] = None,
    many: Annotated[bool, typer.Option(help="the slot holds many values")] = False,
    as_json: AsJson = False,
) -> None:
    """Store a fact for this working directory."""
    body = {
        "subject": subject,
        "predicate": predicate,
        "object": obj,
        "valid_at": valid_at,
        "tier": tier,
        "class": fact_class,
        "category": category,
        "cardinality": "many" if many else None,
        "cwd": str(Path.cwd()),
    }
    answer = _call("POST", "/v1/facts", {k: v for k, v in body.items() if v is not None})
    lines = [f"{answer['outcome']}: {answer['fact_id']} ({answer['predicate']}, {answer['tier']})"]
    if answer.get("tier_lowered"):
        lines.append(f"tier lowered: {answer['tier_lowered']}")
    _show(answer, as_json, lines)


@app.command()
def recall(query: str, k: int = 10, as_json: AsJson = False) -> None:
    """Hybrid recall of current facts for this working directory."""
    answer = _call("POST", "/v1/recall", {"query": query, "k": k, "cwd": str(Path.cwd())})
    _show(
        answer, as_json, [f"result: {answer['status']}"] + [_fact_line(f) for f in answer["facts"]]
    )


@app.command()
def facts(
    subject: str | None = None,
    predicate: str | None = None,
    as_of: str | None = None,
    as_believed: str | None = None,
    history: Annotated[bool, typer.Option("--history")] = False,
    as_json: AsJson = False,
) -> None:
    """List facts now, as of a valid time, or as believed at a record time."""
    from urllib.parse import urlencode

    query = {
        "subject": subject,
        "predicate": predicate,
        "as_of": as_of,
        "as_believed": as_believed,
        "include_history": "true" if history else None,
        "cwd": str(Path.cwd()),
    }
    answer = _call("GET", "/v1/facts?" + urlencode({k: v for k, v in query.items() if v}))
    _show(answer, as_json, [_fact_line(f) for f in answer["facts"]])


@app.command()
def revise(
    fact_id: str,
    reason: Annotated[
        str, typer.Option(help="ended (the world changed) or corrected (never true)")
    ],
    at: Annotated[str | None, typer.Option(help="for ended: when, RFC 3339")] = None,
    replacement: Annotated[str | None, typer.Option(help="the new value")] = None,
    tier: Annotated[
        str | None,
        typer.Option(
            help="the replacement's tier: asserted / observed / inferred (default: yours)"
        ),
    ] = None,
    evidence: Annotated[
        str | None, typer.Option(help="the person's own words, for an asserted replacement")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """End or correct a fact, optionally with its successor.

    A correction without a replacement believes again the value the mistake had replaced.
    """
    body: dict[str, Any] = {"reason": reason}
    if at:
        body["at"] = at
    if replacement:
        extra = {"tier": tier, "evidence": evidence}
        body["replacement"] = {"object": replacement} | {k: v for k, v in extra.items() if v}
    elif tier or evidence:
        raise typer.BadParameter("--tier and --evidence describe a --replacement: give one")
    answer = _call("POST", f"/v1/facts/{fact_id}/revise", body)
    lines = [f"{reason}: {fact_id}; successor {answer.get('successor_id') or '-'}"]
    if answer.get("successor_tier"):
        lines[0] += f" ({answer['successor_tier']})"
    if answer.get("tier_lowered"):
        lines.append(f"tier lowered: {answer['tier_lowered']}")
    if answer.get("restored"):
        lines.append("believed again: " + ", ".join(answer["restored"]))
    _show(answer, as_json, lines)


@app.command()
def retract(fact_id: str) -> None:
    """Forget a fact (kept as history; `reopen` undoes it)."""
    _call("POST", f"/v1/facts/{fact_id}/retract", {})
    typer.echo(f"retracted {fact_id}")


@app.command()
def reopen(fact_id: str) -> None:
    """Undo a retract."""
    _call("POST", f"/v1/facts/{fact_id}/reopen", {})
    typer.echo(f"reopened {fact_id}")


@app.command()
def block(query: str | None = None, budget: int = 8000, as_json: AsJson = False) -> None:
    """Print the first-turn block for this working directory."""
    body: dict[str, Any] = {"cwd": str(Path.cwd()), "budget": budget}
    if query:
        body["query"] = query
    answer = _call("POST", "/v1/block", body)
    _show(answer, as_json, [answer["text"]])


@app.command()
def timeline(
    clock: Annotated[str, typer.Option(help="world (valid_at) or system (created_at)")] = "world",
    since: str | None = None,
    until: str | None = None,
    subject: str | None = None,
    as_json: AsJson = False,
) -> None:
    """Every version in time order on one clock."""
    from urllib.parse import urlencode

    q = {"clock": clock, "since": since, "until": until, "subject": subject}
    answer = _call("GET", "/v1/timeline?" + urlencode({k: v for k, v in q.items() if v}))
    _show(answer, as_json, [_fact_line(f) for f in answer["facts"]])


@app.command()
def export(
    output: Annotated[Path | None, typer.Option("-o", help="file (default: stdout)")] = None,
) -> None:
    """Every version with both clocks, as NDJSON."""
    try:
        client = _client()
        if output is None:
            for line in client.stream_lines("/v1/export"):
                sys.stdout.write(line + "\n")
            return
        count = 0
        with (
            output.open("w") as sink,
            typer.progressbar(
                client.stream_lines("/v1/export"), label="exporting", file=sys.stderr
            ) as lines,
        ):
            for line in lines:
                sink.write(line + "\n")
                count += 1
        typer.echo(f"{count} versions written to {output}", err=True)
    except TwoclocksError as exc:
        _fail(exc)


@app.command()
def settings(
    timezone: Annotated[str | None, typer.Option(help="IANA zone, e.g. Europe/Istanbul")] = None,
    place: Annotated[
        list[str] | None, typer.Option(help="CLASS=PLACE, e.g. decision=project (repeatable)")
    ] = None,
    as_json: AsJson = False,
) -> None:
    """Show this account's settings, or change its time zone and per-class places."""
    current = _call("GET", "/v1/settings")
    if timezone is not None or place:
        if timezone is not None:
            current["timezone"] = timezone
        for item in place or []:
            klass, _, where = item.partition("=")
            current.setdefault("places", {})[klass.strip()] = where.strip()
        current = _call("PUT", "/v1/settings", current)
    places = ", ".join(f"{k} -> {v}" for k, v in (current.get("places") or {}).items())
    _show(
        current,
        as_json,
        [
            f"timezone: {current.get('timezone') or 'server default'}",
            f"places: {places or 'the defaults'}",
        ],
    )


def main() -> None:
    """Console entry point."""
    app()
