"""A tool event as it is kept: the episode text the facts it yields point to (DESIGN.md §5).

Scrubbed JSON: credentials out of URLs, an edit's content out (a ``.env`` edit is a
secret), long strings cut, and any line the secret check flags withheld.
"""

from __future__ import annotations

import json
from typing import Any

from twoclocks.capture.events import ToolEvent, clip
from twoclocks.capture.rules import strip_credentials
from twoclocks.secret_scan import secret_in

EPISODE_MAX = 4000
"""Characters of an event kept as its episode: JSON, long strings cut to head and tail."""

STRING_MAX = 1500
"""Longest single string inside a kept event (a command's output, a tool's answer)."""

WITHHELD = "[withheld: looks like a credential]"
EDIT_CONTENT_KEYS = frozenset(
    {"old_string", "new_string", "content", "edits", "patch", "input", "structuredPatch",
     "originalFile", "file", "diff", "newString", "oldString"}
)  # fmt: skip
"""Keys whose text is file content: an edit's content is never kept (a .env edit is a secret)."""


def _scrub(value: Any, in_edit: bool) -> Any:
    """Credentials out of URLs, edit content out, long strings cut."""
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, item in value.items():
            if in_edit and key in EDIT_CONTENT_KEYS:
                size = len(json.dumps(item, ensure_ascii=False)) if item is not None else 0
                out[key] = f"[edit content not kept: {size} characters]"
            else:
                out[key] = _scrub(item, in_edit)
        return out
    if isinstance(value, list):
        return [_scrub(item, in_edit) for item in value[:50]]
    if isinstance(value, str):
        return clip(strip_credentials(value), STRING_MAX)
    return value


def episode_text(raw: dict[str, Any], event: ToolEvent) -> str:
    """The event as kept: scrubbed JSON, at most EPISODE_MAX characters, secret lines withheld."""
    kept = _scrub({k: v for k, v in raw.items() if k != "transcript_path"}, event.kind == "edit")
    text = clip(json.dumps(kept, ensure_ascii=False, indent=1, sort_keys=True), EPISODE_MAX)
    # JSON escapes every control character, so the text is printable; each line is one key,
    # which is the unit the secret check reads ("password": "...").
    lines = [WITHHELD if secret_in(line) else line for line in text.splitlines()]
    return "\n".join(lines)
