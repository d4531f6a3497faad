"""`twoclocks ui`: open the web screen already signed in, without the key in the URL."""

from __future__ import annotations

import webbrowser
from typing import Annotated

import typer

from twoclocks.domain.errors import TwoclocksError


def ui(
    no_browser: Annotated[
        bool, typer.Option("--no-browser", help="Print the sign-in link instead of opening it")
    ] = False,
) -> None:
    """Open the web screen signed in (a one-time 60 s token; the server must be on loopback)."""
    from twoclocks import bootstrap
    from twoclocks.client import Client

    client = Client.from_environment(channel=bootstrap.cli_channel())
    try:
        token = client.call("POST", "/v1/ui-token")["token"]
    except TwoclocksError as exc:
        typer.echo(f"{exc.name}: {exc.message}", err=True)
        if (shell := bootstrap.agent_shell()) is not None:
            typer.echo(shell.note(), err=True)
        raise typer.Exit(2) from None
    link = f"{client.url}/#token={token}"
    if no_browser or not webbrowser.open(link):
        typer.echo(f"open this link within 60 s (it works once): {link}")
