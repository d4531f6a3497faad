"""The `twoclocks` console entry point: hook events start before the CLI is imported.

A session-start hook has 800 ms, and importing the whole CLI (typer, pydantic-settings,
the MCP SDK) costs most of it. `twoclocks hook claude-code session-start` (and the
Cursor one) therefore goes straight to the hook module, as fast as
``python -m twoclocks.hooks.claude_code session-start``; everything else, ``--help``
included, goes to the typer app in ``twoclocks.cli``.
"""

from __future__ import annotations

import sys

HOOK_MODULES = {"claude-code": "twoclocks.hooks.claude_code", "cursor": "twoclocks.hooks.cursor"}
HOOK_EVENTS = frozenset({"session-start"})


def main() -> None:
    """Dispatch `hook <client> <event>` at once; hand anything else to the CLI."""
    args = sys.argv[1:]
    if len(args) == 3 and args[0] == "hook" and args[1] in HOOK_MODULES and args[2] in HOOK_EVENTS:
        from importlib import import_module

        sys.exit(import_module(HOOK_MODULES[args[1]]).main(args[2:]))
    from twoclocks.cli import main as cli_main

    cli_main()


if __name__ == "__main__":
    main()
