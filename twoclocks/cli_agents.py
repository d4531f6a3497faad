"""The agent-facing commands: `mcp`, `hook`, `install`, `uninstall`, `doctor`.

Registered on the main CLI with ``app.add_typer(agents_app)`` (no name: the commands
join the top level). Each is a thin call into its module, imported when run, so
`twoclocks --help` stays quick.
"""

from __future__ import annotations

import sys
from enum import StrEnum
from typing import Annotated

import typer

from twoclocks.domain.errors import TwoclocksError

app = typer.Typer(no_args_is_help=True)
hook_app = typer.Typer(help="Client hooks (run by the client, not by hand).", no_args_is_help=True)
claude_code_app = typer.Typer(help="Claude Code (and Codex) hooks.", no_args_is_help=True)
cursor_app = typer.Typer(help="Cursor hooks.", no_args_is_help=True)
hook_app.add_typer(claude_code_app, name="claude-code")
hook_app.add_typer(cursor_app, name="cursor")
app.add_typer(hook_app, name="hook")


class ClientName(StrEnum):
    """The clients `install` knows."""

    CLAUDE_CODE = "claude-code"
    CODEX = "codex"
    CURSOR = "cursor"


def _fail(exc: TwoclocksError) -> None:
    typer.echo(f"{exc.name}: {exc.message}", err=True)
    raise typer.Exit(2)


@app.command()
def mcp(
    cwd: Annotated[
        str | None,
        typer.Option(
            help="The session's directory (default: where this process starts); "
            "Cursor passes ${workspaceFolder}"
        ),
    ] = None,
) -> None:
    """Serve the MCP tools over stdio, forwarding to the running server."""
    from twoclocks.mcp_server.stdio import run_stdio

    try:
        run_stdio(cwd)
    except TwoclocksError as exc:
        _fail(exc)


@claude_code_app.command("session-start")
def claude_code_session_start() -> None:
    """Print the first-turn block for Claude Code or Codex; silent on any failure."""
    from twoclocks.hooks.claude_code import main

    sys.exit(main(["session-start"]))


@cursor_app.command("session-start")
def cursor_session_start() -> None:
    """Print the first-turn block for Cursor; silent on any failure."""
    from twoclocks.hooks.cursor import main

    sys.exit(main(["session-start"]))


@app.command()
def install(
    client: Annotated[ClientName, typer.Argument(help="Which client to set up")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would change")] = False,
) -> None:
    """Add the MCP server, the hooks and an agent key to a client's config (merged, backed up).

    The person's key stays with the CLI and the web screen; the client sends the agent key.
    """
    from twoclocks import bootstrap
    from twoclocks.agent_key import ensure_agent_key
    from twoclocks.install import install as run_install

    try:
        for line in run_install(client.value, dry_run=dry_run):
            typer.echo(line)
        typer.echo(ensure_agent_key(bootstrap.client_settings(), dry_run=dry_run))
    except TwoclocksError as exc:
        _fail(exc)


@app.command()
def uninstall(
    client: Annotated[ClientName, typer.Argument(help="Which client to take twoclocks out of")],
    dry_run: Annotated[bool, typer.Option("--dry-run", help="Show what would change")] = False,
) -> None:
    """Remove only twoclocks's MCP server and hooks from a client's config (backed up).

    The agent key is revoked when no other installed client sends it.
    """
    from twoclocks import bootstrap
    from twoclocks.uninstall import release_agent_key
    from twoclocks.uninstall import uninstall as run_uninstall

    try:
        for line in run_uninstall(client.value, dry_run=dry_run):
            typer.echo(line)
        typer.echo(release_agent_key(client.value, bootstrap.client_settings(), dry_run=dry_run))
    except TwoclocksError as exc:
        _fail(exc)


@app.command()
def doctor() -> None:
    """Check the server, the key, the data dir, hook failures and client configs."""
    from twoclocks import bootstrap
    from twoclocks.doctor import run

    settings = bootstrap.load_settings()
    code, lines = run(
        bootstrap.client_settings(),
        spaces_file=settings.spaces_file,
        shell=bootstrap.agent_shell(),
    )
    for line in lines:
        typer.echo(line)
    raise typer.Exit(code)
