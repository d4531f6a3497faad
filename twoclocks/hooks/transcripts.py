"""What a hook reads from its client's transcript on this machine (standard library only).

A hook's input names the transcript (``transcript_path``: Claude Code's session log,
Codex's rollout). The server never sees that file, so the hook reads what the event
lacks from its end: the turn's texts (``hooks.turn``) and, for Codex, a shell command's
exit status (``codex_exit_code``).
"""

from __future__ import annotations

import json
import os

TAIL_BYTES = 1024 * 1024
"""Only the end of a transcript is read: what just happened is there."""


def tail_lines(path: str | None, max_bytes: int = TAIL_BYTES) -> list[str]:
    """The last ``max_bytes`` of a transcript as lines; none when it cannot be read.

    Only a path string is opened: the hook input is untrusted, and ``open`` would read a
    number as a file descriptor (``"transcript_path": 0`` is the hook's own stdin).
    """
    if not isinstance(path, str) or not path:
        return []
    try:
        with open(path, "rb") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            handle.seek(max(0, size - max_bytes))
            return handle.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return []


def codex_exit_code(path: str | None, call_id: str) -> int | None:
    """The exit status Codex recorded for the shell call ``call_id``, from its rollout.

    Codex 0.171's PostToolUse sends a shell command's output as a bare string, without
    its status; the rollout has it, in the ``item_completed`` event of that call::

        {"type": "event_msg", "payload": {"type": "item_completed", "item":
          {"type": "CommandExecution", "id": "call_1", "status": "failed", "exit_code": 3}}}
    """
    for line in reversed(tail_lines(path)):
        if call_id not in line:  # a cheap test before parsing
            continue
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        payload = entry.get("payload") if isinstance(entry, dict) else None
        if not isinstance(payload, dict) or payload.get("type") != "item_completed":
            continue
        item = payload.get("item")
        if (
            isinstance(item, dict)
            and item.get("id") == call_id
            and isinstance(item.get("exit_code"), int)
            and not isinstance(item.get("exit_code"), bool)
        ):
            return int(item["exit_code"])
    return None
