"""`twoclocks hook cursor session-start`: the first-turn block for Cursor's sessionStart hook.

Same fetch, budget and silence-on-failure as the Claude Code hook; only the shapes
differ. Cursor names the workspace in ``workspace_roots`` and reads the context from
a flat ``additional_context`` field (Cursor's hooks documentation; not yet tested
against Cursor itself). Its sessionStart is fire-and-forget, so the block may land
after the first prompt.

``twoclocks hook cursor session-start`` starts as fast as
``python -m twoclocks.hooks.cursor session-start``: ``twoclocks.console`` hands it
to this module before the CLI is imported.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import IO, Any

from twoclocks.hooks.claude_code import (
    HARD_STOP_S,
    HTTP_TIMEOUT_S,
    MAX_CONTEXT,
    UNEXPANDED,
    HookFailure,
    client_target,
    fetch_block,
    log_failure,
)
from twoclocks.hooks.guard import Deadline, run_guarded


def workspace_of(payload: Mapping[str, Any]) -> str | None:
    """The first workspace root Cursor reports (or a cwd, should it send one).

    A root still holding ``${...}`` is skipped (never read as a path); see ``unexpanded``.
    """
    roots = payload.get("workspace_roots")
    candidates = list(roots) if isinstance(roots, list) else []
    candidates.append(payload.get("cwd"))
    for value in candidates:
        if isinstance(value, str) and "${" not in value and os.path.isabs(value):
            return value
    return None


def unexpanded(payload: Mapping[str, Any]) -> list[str]:
    """Workspace values Cursor sent with a variable left in them."""
    roots = payload.get("workspace_roots")
    values = [*(roots if isinstance(roots, list) else []), payload.get("cwd")]
    return [v for v in values if isinstance(v, str) and "${" in v]


def session_start(
    stdin: IO[str], stdout: IO[str], env: Mapping[str, str], timeout: float = HTTP_TIMEOUT_S
) -> None:
    """Read Cursor's hook input, print ``{"additional_context": block}``; failures print nothing."""
    started = time.monotonic()
    payload: dict[str, Any] = {}
    data_dir: Path | None = None
    try:
        loaded = json.loads(stdin.read() or "{}")
        payload = loaded if isinstance(loaded, dict) else {}
        target = client_target(env)
        data_dir = target.data_dir
        cwd = workspace_of(payload)
        if unexpanded(payload):
            # Logged, not fatal: the hook's own cwd (or the next root) is still the session's.
            log_failure(
                data_dir,
                "cursor session-start",
                HookFailure(UNEXPANDED, f"workspace arrived as {unexpanded(payload)[0]!r}"),
                payload,
                started,
            )
        if cwd is None:
            raise HookFailure("InvalidInput", "the hook input names no absolute workspace root")
        text = fetch_block(target, cwd, timeout)["text"]
        if len(text) > MAX_CONTEXT:
            raise HookFailure("BlockTooLarge", f"{len(text)} characters, over {MAX_CONTEXT}")
        stdout.write(json.dumps({"additional_context": text}, ensure_ascii=True) + "\n")
        stdout.flush()
    except (Exception, Deadline) as exc:
        log_failure(data_dir, "cursor session-start", exc, payload, started)


def main(argv: list[str] | None = None) -> int:
    """Run a hook event; always exits 0."""
    args = sys.argv[1:] if argv is None else argv
    if args[:1] != ["session-start"]:
        return 0
    return run_guarded(lambda: session_start(sys.stdin, sys.stdout, os.environ), HARD_STOP_S)


if __name__ == "__main__":
    sys.exit(main())
