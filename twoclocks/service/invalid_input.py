"""How one invalid field of a request reads, at every edge (HTTP, MCP, and the CLI through HTTP).

A length bound on an optional one-line field (``Line | None = Field(None, max_length=500)``)
is checked after the field's own validator, and pydantic then words it for a collection:
"Value should have at most 500 items after validation, not 600". Of a text it means
characters, and a required field already says so; this says it the same way for both.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def field_message(error: Mapping[str, Any]) -> str:
    """The message of one pydantic error, a text's length said in characters.

    >>> field_message({"type": "too_long", "msg": "Value should have at most 2 items",
    ...                "input": "abc", "ctx": {"max_length": 2, "actual_length": 3}})
    'String should have at most 2 characters'
    >>> field_message({"type": "too_short", "msg": "...", "input": "", "ctx": {"min_length": 1}})
    'String should have at least 1 character'
    >>> field_message({"type": "too_long", "msg": "List should have at most 5 items",
    ...                "input": [1, 2, 3, 4, 5, 6], "ctx": {"max_length": 5}})
    'List should have at most 5 items'
    """
    message = str(error.get("msg", "invalid"))
    ctx = error.get("ctx") or {}
    if not isinstance(error.get("input"), str):
        return message
    if error.get("type") == "too_long" and "max_length" in ctx:
        return f"String should have at most {_characters(ctx['max_length'])}"
    if error.get("type") == "too_short" and "min_length" in ctx:
        return f"String should have at least {_characters(ctx['min_length'])}"
    return message


def _characters(count: int) -> str:
    return f"{count} character" if count == 1 else f"{count} characters"
