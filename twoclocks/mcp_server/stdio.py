"""`twoclocks mcp`: the MCP tools over stdio, forwarded to the running server."""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import TYPE_CHECKING

from twoclocks.mcp_server.backends import HttpBackend
from twoclocks.mcp_server.tools import build_server

if TYPE_CHECKING:
    from twoclocks.client import Client as V1Client


def stdio_cwd(option: str | None, log_to: Path | None = None) -> str | None:
    """The session's directory for stdio: --cwd when it is a real path, else the process's.

    An unexpanded ``${workspaceFolder}`` (an older Cursor) is no directory at all, and the
    process's own directory is not the session's either: it is logged to ``hooks.log`` in
    ``log_to`` and the session gets no directory (only facts that apply everywhere).
    """
    if option and "${" in option:
        from twoclocks.hooks.claude_code import UNEXPANDED, HookFailure, log_failure

        log_failure(
            log_to,
            "mcp stdio",
            HookFailure(UNEXPANDED, f"--cwd arrived as {option!r}: the client did not expand it"),
            {},
            time.monotonic(),
        )
        return None
    if option and os.path.isabs(os.path.expanduser(option)):
        return os.path.expanduser(option)
    return os.getcwd()


def check_reachable(client: V1Client) -> None:
    """The server answers and takes the key; else the TwoclocksError saying which and why.

    `twoclocks mcp` runs this before serving, so a client lists a broken setup as failed
    (stderr, non-zero exit) instead of as connected.
    """
    client.call("GET", "/v1/settings")


def run_stdio(cwd: str | None = None) -> None:
    """`twoclocks mcp`: the tools over stdio, forwarded to the running server."""
    from twoclocks.client import Client

    client = Client.from_environment(channel="mcp")
    session_dir = stdio_cwd(cwd, client.data_dir)
    check_reachable(client)
    build_server(HttpBackend(client, session_dir)).run("stdio")
