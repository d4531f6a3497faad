"""The `twoclocks` command. Server commands wire a Runtime; client commands speak HTTP v1.

Every client command is a thin call to the same endpoint the MCP tools and hooks use,
so there is one code path per operation.
"""

from __future__ import annotations

import asyncio
import signal
import socket
from pathlib import Path
from typing import Annotated

import typer

from twoclocks import bootstrap, client_file
from twoclocks.cli_agents import app as agents_app
from twoclocks.cli_client import fail as _fail
from twoclocks.cli_client import register as register_client_commands
from twoclocks.cli_eval import app as eval_app
from twoclocks.cli_keys import app as keys_app
from twoclocks.cli_review import held_app, review_app
from twoclocks.cli_ui import ui
from twoclocks.config import Settings
from twoclocks.domain.errors import ConfigError, TwoclocksError
from twoclocks.listen_socket import bind_listen_socket

app = typer.Typer(
    help="twoclocks: bi-temporal memory for coding agents.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
accounts_app = typer.Typer(help="Manage accounts and their API keys.", no_args_is_help=True)
app.add_typer(accounts_app, name="accounts")
app.add_typer(agents_app)
app.add_typer(eval_app, name="eval")
app.add_typer(held_app, name="held")
app.add_typer(review_app, name="review")
app.add_typer(keys_app, name="keys")
app.command()(ui)

DataDir = Annotated[
    Path | None, typer.Option("--data-dir", help="Data directory (default: user data dir)")
]
Store = Annotated[
    str | None, typer.Option("--store", help="'embedded' or a neo4j:// / bolt:// URI")
]


def exposure_warning(host: str) -> str | None:
    """What `serve` says when bound off loopback: the key and every fact then cross the
    network in clear, since twoclocks serves plain HTTP (docs/SECURITY.md)."""
    import ipaddress

    name = host.strip("[]")
    if name == "localhost":
        return None
    try:
        if ipaddress.ip_address(name).is_loopback:
            return None
    except ValueError:
        pass  # a host name other than localhost: it may resolve anywhere
    return (
        f"listening on {host}, not loopback, over plain HTTP: anyone who reaches this port "
        "can try keys, and keys and facts cross the network in clear; put a TLS proxy in "
        "front or bind 127.0.0.1 (docs/SECURITY.md)"
    )


def _say(line: str) -> None:
    """A progress line of `serve`, on stderr beside uvicorn's own."""
    typer.echo(f"twoclocks: {line}", err=True)


@app.command()
def serve(
    data_dir: DataDir = None,
    host: Annotated[str | None, typer.Option(help="Listen address")] = None,
    port: Annotated[int | None, typer.Option(help="Listen port")] = None,
    store: Store = None,
) -> None:
    """Run the HTTP API (and /mcp) on the embedded store, or on Neo4j with --store."""
    settings = bootstrap.load_settings(data_dir=data_dir, host=host, port=port, store=store)
    url = f"http://{settings.host}:{settings.port}"
    if warning := exposure_warning(settings.host):
        _say(warning)
    try:
        sock = bind_listen_socket(settings.host, settings.port)
    except TwoclocksError as exc:
        _fail(exc)
    # Until it listens, a client that finds no server says this one is starting.
    client_file.mark_starting(settings.data_dir)
    before = client_file.read()
    # SIGTERM (a service manager, `kill`, a check's harness) ends `serve` as Ctrl-C does.
    # uvicorn shuts down on it, then raises it again under the handler it found at start:
    # the default one ended the process before these cleanups ran.
    on_term = signal.signal(signal.SIGTERM, _interrupt)
    try:
        _serve(settings, url, sock)
    finally:
        signal.signal(signal.SIGTERM, on_term)
        client_file.clear_starting(settings.data_dir)
        sock.close()
        listen = client_file.listen_url(settings.host, settings.port)
        if client_file.hand_back(listen, settings.data_dir, before):
            _say(f"clients point at {before['url']} again, the server they named before this one")


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


def _serve(settings: Settings, url: str, sock: socket.socket) -> None:
    """`serve` from the model's load on; the caller keeps the starting note."""
    import uvicorn

    from twoclocks.api.app import create_app

    # The model loads before the server starts, so a model that cannot be loaded
    # stops `serve` with one line naming its path rather than a traceback. Each slow step
    # says what it is doing: a silent minute reads as a hang.
    _say(f"loading the embedding model {settings.model} (the first run takes longest)")
    try:
        bootstrap.quiet_libraries()
        embedder = bootstrap.load_embedder(settings)
    except TwoclocksError as exc:
        _fail(exc)

    async def start() -> bootstrap.Runtime:
        # A URI's user:password@ is never printed.
        where = settings.store.rsplit("@", 1)[-1]
        _say(f"model loaded; starting the store ({where}, data in {settings.data_dir})")
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
        # Every client (CLI, hooks, `twoclocks mcp`, a GUI-started editor) reads this file,
        # so none needs TWOCLOCKS_* exports to find this server and its key file.
        typer.echo(f"clients find this server through {bootstrap.announce(settings)}")
        client_file.clear_starting(settings.data_dir)
        return runtime

    async def run() -> None:
        # The store starts before uvicorn does, not in its lifespan: a store that cannot
        # start (another server holds the data directory) stops `serve` with its one line,
        # where uvicorn's failed startup printed a page of traceback after it.
        runtime = await start()
        handed = False

        async def started() -> bootstrap.Runtime:
            # "ready:" is said here, inside uvicorn's startup, where uvicorn already handles
            # SIGTERM: said before (while the app was still being built), a SIGTERM from
            # whoever waited for it broke the build off half-way and `serve` exited 1.
            nonlocal handed
            handed = True  # the app's lifespan owns the runtime from here and closes it
            _say(f"ready: {url} (API docs at {url}/docs, MCP at {url}/mcp)")
            return runtime

        try:
            config = uvicorn.Config(
                create_app(start=started), host=settings.host, port=settings.port, log_level="info"
            )
            await uvicorn.Server(config).serve(sockets=[sock])
        finally:
            if not handed:  # stopped before uvicorn started: nobody else closes the store
                await runtime.close()

    try:
        asyncio.run(run())
    except KeyboardInterrupt:
        pass  # Ctrl-C: uvicorn has shut down and closed the store already
    except TwoclocksError as exc:
        _fail(exc)


@accounts_app.command("create")
def accounts_create(
    name: Annotated[str, typer.Argument(help="1-64 letters, digits, '_' or '-'")],
    data_dir: DataDir = None,
    store: Store = None,
) -> None:
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
    typer.echo(f"account {name!r} created; its person key (the CLI's and the web screen's):")
    typer.echo(key)


admin_app = typer.Typer(
    help="Operator commands, run on the server's machine.", no_args_is_help=True
)
app.add_typer(admin_app, name="admin")


@admin_app.command("purge-fact")
def admin_purge_fact(
    fact_id: Annotated[str, typer.Argument(help="The fact's full id")],
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


register_client_commands(app)


def main() -> None:
    """Console entry point."""
    try:
        app()
    except ConfigError as exc:
        # Settings are read inside most commands; a bad one is the person's to fix, not a crash.
        typer.echo(f"{exc.name}: {exc.message}", err=True)
        raise SystemExit(2) from None
