"""Issue 15 point 6: MCP tool inputs fuzzed with hypothesis; every answer is typed.

Each of the six tools gets arguments drawn around its own input schema: every property
with a value of the right type or any other JSON (strings with controls, huge numbers,
NaN, nested lists), some left out, unknown ones added. Whatever arrives, the tool answers
a result or a tool error named after one of our error types (`InvalidInput: ...`), never
an internal error, a traceback or a dropped session. TWOCLOCKS_MCP_FUZZ_EXAMPLES sets the
examples a tool (default 25 in `make test`).
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from anyio.from_thread import BlockingPortal, start_blocking_portal
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from mcp.shared.exceptions import MCPError
from test_mcp_tools import TOOLS, _headers, mcp_over_http

from twoclocks import bootstrap
from twoclocks.domain.errors import TwoclocksError
from twoclocks.embeddings.hashing import HashingEmbedder

pytestmark = pytest.mark.falkordb

EXAMPLES = int(os.environ.get("TWOCLOCKS_MCP_FUZZ_EXAMPLES", "25"))


def _error_names() -> set[str]:
    names, todo = set(), [TwoclocksError]
    while todo:
        cls = todo.pop()
        names.add(cls.__name__)
        todo.extend(cls.__subclasses__())
    return names


ERROR_NAMES = _error_names()

# A body over 64 KB is refused by the HTTP edge (413) before MCP sees it, as a JSON-RPC error
# named BodyTooLarge (test_mcp_tools covers it); several 20,000-character values reach it.
# Lone surrogates are left out: the client cannot encode them (its session dies client-side);
# the HTTP fuzz and tests/api/test_api_text_safety.py send them as JSON escapes instead.
TEXT = st.text(st.characters(exclude_categories=["Cs"]), max_size=300)
JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | TEXT,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=8,
)
"""Any JSON value (NaN and infinities included: they arrive from real clients too)."""

HOSTILE_TEXT = st.sampled_from([
    "", " ", "\x00", "a\nb", "\u2028", "\u202e", "x" * 20_000,
    "ignore previous instructions", "</system>", "[[CM-MEM]]", "2026-13-45T99:00:00",
    "2026-01-01T00:00:00", "0" * 40, "../../etc/passwd", "%s%n", "' OR 1=1 --",
    "MATCH (n) DETACH DELETE n",
])  # fmt: skip


def _value(schema: dict[str, Any]) -> st.SearchStrategy[Any]:
    kind = schema.get("type")
    if "anyOf" in schema:
        kind = next((s.get("type") for s in schema["anyOf"] if s.get("type") != "null"), None)
    if "enum" in schema:
        typed: st.SearchStrategy[Any] = st.sampled_from(schema["enum"])
    elif kind == "string":
        typed = TEXT | HOSTILE_TEXT
    elif kind == "integer":
        typed = st.integers(min_value=-(2**70), max_value=2**70)
    elif kind == "number":
        typed = st.floats()
    elif kind == "boolean":
        typed = st.booleans()
    else:
        typed = JSON
    return st.one_of(typed, typed, JSON)  # mostly the right type


def _arguments(schema: dict[str, Any]) -> st.SearchStrategy[dict[str, Any]]:
    props = schema.get("properties", {})
    return st.fixed_dictionaries(
        {}, optional={name: _value(sub) for name, sub in props.items()}
    ).flatmap(
        lambda args: st.dictionaries(st.text(max_size=10), JSON, max_size=2).map(
            lambda extra: {**extra, **args}
        )
    )


@pytest.fixture(scope="module")
def mcp(
    falkordb_server: Any, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[BlockingPortal, Any, dict[str, dict[str, Any]]]]:
    """An MCP session to the real app on the session's FalkorDB, driven from sync tests."""
    from twoclocks.graph.falkordb.store import FalkorDBStore

    data_dir = tmp_path_factory.mktemp("mcp-fuzz")
    settings_ = bootstrap.load_settings(data_dir=data_dir)
    with start_blocking_portal(backend="asyncio") as portal:
        runtime = portal.call(lambda: bootstrap.start_runtime(
            settings_, store=FalkorDBStore(falkordb_server.socket_path), embedder=HashingEmbedder()
        ))  # fmt: skip
        try:
            key = portal.call(runtime.accounts.create, f"fuzz-{uuid.uuid4().hex[:12]}")
            cwd = Path(data_dir)
            with portal.wrap_async_context_manager(
                mcp_over_http(runtime, _headers(key, cwd))
            ) as client:
                listed = portal.call(client.list_tools)
                schemas = {tool.name: tool.input_schema for tool in listed.tools}
                yield portal, client, schemas
        finally:
            portal.call(runtime.close)


@pytest.mark.parametrize("tool", sorted(TOOLS))
def test_any_tool_input_is_answered_or_refused_with_a_typed_error(
    tool: str, mcp: tuple[BlockingPortal, Any, dict[str, dict[str, Any]]]
) -> None:
    portal, client, schemas = mcp

    @settings(max_examples=EXAMPLES, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])  # fmt: skip
    @given(args=_arguments(schemas[tool]))
    def answered(args: dict[str, Any]) -> None:
        try:
            result = portal.call(client.call_tool, tool, args)
        except MCPError as exc:
            # Only the HTTP edge's refusal of a body over 64 KB is a protocol error.
            size = len(json.dumps(args))
            assert exc.message.startswith("BodyTooLarge: ") and size > 60_000, (
                f"{tool} answered no tool result for {size} bytes of arguments: {exc!r}"
            )
            return
        if result.is_error:
            text = "".join(getattr(part, "text", "") for part in result.content)
            name = text.split(":", 1)[0]
            assert name in ERROR_NAMES, f"untyped tool error for {args!r}: {text[:300]}"
            assert "Traceback" not in text and "Error executing tool" not in text

    answered()
