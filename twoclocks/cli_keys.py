"""`twoclocks keys list|create|rotate|revoke`: the account's API keys, through /v1/keys.

Run with the person's key (the CLI's key file): only that key manages keys. A new or
rotated key's secret is printed once, as the last line, and never again.
"""

from __future__ import annotations

from typing import Annotated, Any
from urllib.parse import quote

import typer

from twoclocks.cli_client import AccountZone, AsJson, call, show
from twoclocks.cli_render import shown
from twoclocks.domain.trust import KeyRole

app = typer.Typer(
    name="keys",
    help="The account's API keys: person keys (may assert) and agent keys (MCP and hooks).",
    no_args_is_help=True,
)

KeyName = Annotated[str, typer.Argument(help="The key's name, e.g. laptop-agents")]


def key_line(key: dict[str, Any], zone: AccountZone) -> str:
    """One key as a person reads it: name, role, live or REVOKED, created, last use.

    The state stands beside the name because a revoked key keeps its name, and a new key
    may take it (`twoclocks install` after the last client's uninstall makes ``agents``
    again): the two rows differ by that column.
    """
    used = shown(key["last_used_at"], zone.info) if key["last_used_at"] else "never"
    state = "REVOKED" if key["revoked_at"] else "live"
    line = f"{key['name']:<20} {key['role']:<7} {state:<7} created "
    line += f"{shown(key['created_at'], zone.info)}  last used {used}"
    if key["revoked_at"]:
        line += f"  revoked {shown(key['revoked_at'], zone.info)}"
    return line


def _secret(answer: dict[str, Any], as_json: bool, what: str) -> None:
    show(answer, as_json, [f"{what} {answer['role']} key {answer['name']!r}; its secret "
                           "(shown once, keep it in a 0600 file):", answer["key"]])  # fmt: skip


@app.command("list")
def list_keys(as_json: AsJson = False) -> None:
    """Every key of the account by name, role and last use (never a secret)."""
    answer = call("GET", "/v1/keys")
    zone = AccountZone()
    lines = [key_line(k, zone) for k in answer["keys"]] if not as_json else None
    show(answer, as_json, lines)


@app.command("create")
def create_key(
    name: KeyName,
    role: Annotated[
        KeyRole,
        typer.Option(help="person (may assert: CLI, web screen) or agent (MCP, hooks)"),
    ] = KeyRole.AGENT,
    as_json: AsJson = False,
) -> None:
    """Make a key with a role fixed for its life; prints its secret as the last line."""
    _secret(call("POST", "/v1/keys", {"name": name, "role": role.value}), as_json, "created")


@app.command("rotate")
def rotate_key(name: KeyName, as_json: AsJson = False) -> None:
    """A new secret for a key (same name and role); the old secret stops working at once."""
    _secret(call("POST", f"/v1/keys/{quote(name, safe='')}/rotate"), as_json, "rotated")


@app.command("revoke")
def revoke_key(name: KeyName, as_json: AsJson = False) -> None:
    """Revoke the live key of that name for good: every server over the store refuses it."""
    answer = call("POST", f"/v1/keys/{quote(name, safe='')}/revoke")
    if as_json:
        show(answer, as_json)
        return
    zone = AccountZone()
    line = (
        f"revoked the live {answer['role']} key {answer['name']!r} "
        f"(created {shown(answer['created_at'], zone.info)})"
    )
    # Keys revoked before keep the name too; say so, or the list reads as if two were live.
    before = [
        k
        for k in call("GET", "/v1/keys")["keys"]
        if k["name"] == name and k["revoked_at"] != answer["revoked_at"]
    ]
    if before:
        were = "1 other key named" if len(before) == 1 else f"{len(before)} other keys named"
        line += f"; {were} {name!r} had been revoked before"
    show(answer, as_json, [line])
