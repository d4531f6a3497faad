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
    from twoclocks.cli_client import cli_client, fail

    client = cli_client(acts=True)
    try:
        token = client.call("POST", "/v1/ui-token")["token"]
    except TwoclocksError as exc:
        fail(exc, noted=True)
    link = f"{client.url}/#token={token}"
    if no_browser or not webbrowser.open(link):
        typer.echo(f"open this link within 60 s (it works once): {link}")
