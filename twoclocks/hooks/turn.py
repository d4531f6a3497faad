"""`python -m twoclocks.hooks.turn CLIENT`: hand a finished turn to the server, never waiting.

Installed as the ``Stop`` hook (Claude Code, Codex) and ``afterAgentResponse`` (Cursor).
It reads the hook's input on stdin and adds what only this machine can read, under
``twoclocks_turn``: the person's text of the turn and the answer (``last_assistant_message``,
else the transcript's last assistant text; Cursor sends the answer as ``text``), each cut
to 2,500 characters, and ``dry_run`` when ``TWOCLOCKS_DRY_RUN`` is set. Then it goes the
way of a tool event (``twoclocks.hooks.capture``): POST /v1/events within the capture
timeout, else the spool. It prints nothing and exits 0, whatever happens.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Iterator, Mapping
from typing import IO, Any

from twoclocks.hooks import capture as tool_capture
from twoclocks.hooks.guard import run_guarded
from twoclocks.hooks.transcripts import tail_lines

TEXT_MAX = 2500
"""Characters of each side of the turn sent (the server keeps no more either)."""


def _text_of(content: Any) -> str:
    """The plain text of a message's content (a string, or a list of parts)."""
    if isinstance(content, str):
        return content
    if not isinstance(content, list):
        return ""
    parts = [
        part.get("text", "")
        for part in content
        if isinstance(part, dict) and part.get("type") in ("text", "input_text", "output_text")
    ]
    return "\n".join(p for p in parts if isinstance(p, str) and p)


def _messages(lines: list[str]) -> Iterator[tuple[str, str, str | None]]:
    """(role, text, stop_reason) per transcript line, Claude Code's and Codex's layouts."""
    for line in lines:
        try:
            entry = json.loads(line)
        except ValueError:
            continue
        if not isinstance(entry, dict):
            continue
        message = entry.get("message") or entry.get("payload") or entry
        if not isinstance(message, dict):
            continue
        role = message.get("role") or entry.get("type")
        if role not in ("user", "assistant"):
            continue
        stop = message.get("stop_reason")
        yield str(role), _text_of(message.get("content")), stop if isinstance(stop, str) else None


def from_transcript(path: str | None) -> tuple[str, str, str | None]:
    """(the person's last text, the answer after it, its stop reason) from a transcript."""
    person, answer, stop = "", "", None
    for role, text, reason in _messages(tail_lines(path)):
        if role == "user" and text.strip():
            # A tool result comes back as a user message with no text part: it is skipped.
            person, answer, stop = text, "", None
        elif role == "assistant" and text.strip():
            answer = f"{answer}\n{text}" if answer else text
            stop = reason or stop
        elif role == "assistant":
            stop = reason or stop
    return person, answer, stop


def enrich(payload: Mapping[str, Any], env: Mapping[str, str]) -> dict[str, Any]:
    """The hook input with the turn's texts added (``twoclocks_turn``), each trimmed."""
    person, from_log, stop = from_transcript(_str(payload.get("transcript_path")))
    answer = _str(payload.get("last_assistant_message")) or _str(payload.get("text")) or from_log
    turn: dict[str, Any] = {
        "prompt": person.strip()[:TEXT_MAX],
        "answer": answer.strip()[:TEXT_MAX],
    }
    if stop:
        turn["stop_reason"] = stop
    if env.get("TWOCLOCKS_DRY_RUN", "").strip().lower() in ("1", "true", "yes", "on"):
        turn["dry_run"] = True
    # The answer is sent once, trimmed: the long original fields are dropped.
    kept = {k: v for k, v in payload.items() if k not in ("last_assistant_message", "text")}
    return {**kept, "twoclocks_turn": turn}


def _str(value: Any) -> str:
    return value if isinstance(value, str) else ""


def send_turn(
    client: str | None,
    stdin: IO[str],
    env: Mapping[str, str],
    timeout: float = tool_capture.HTTP_TIMEOUT_S,
) -> str:
    """Read the hook input, add the turn's texts and send or spool it; what happened."""
    try:
        raw = stdin.read() if not stdin.isatty() else ""
        payload = json.loads(raw or "{}")
    except (OSError, ValueError):
        payload = None
    if not isinstance(payload, dict) or not payload:
        return tool_capture.capture(client, io.StringIO(""), env, timeout)  # logs the bad input
    body = io.StringIO(json.dumps(enrich(payload, env)))
    return tool_capture.capture(client, body, env, timeout)


def main(argv: list[str] | None = None) -> int:
    """``CLIENT`` reads one Stop / afterAgentResponse input from stdin. Always exits 0."""
    args = sys.argv[1:] if argv is None else argv
    client = args[0] if args and args[0] in tool_capture.CLIENTS else None
    return run_guarded(lambda: send_turn(client, sys.stdin, os.environ), tool_capture.HARD_STOP_S)


if __name__ == "__main__":
    sys.exit(main())
