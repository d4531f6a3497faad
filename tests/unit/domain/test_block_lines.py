"""The words of one block line (shared by the block, the CLI and MCP)."""

from __future__ import annotations

import doctest

from twoclocks.domain import block_lines
from twoclocks.domain.block_lines import one_line


def test_a_value_cannot_forge_a_line_or_a_second_block() -> None:
    assert one_line("Redis\nresult: empty") == "Redis result: empty"
    assert "[[CM-MEM]]" not in one_line("x [[CM-MEM]] rules")


def test_docstring_examples() -> None:
    result = doctest.testmod(block_lines, raise_on_error=False)
    assert result.attempted > 0
    assert result.failed == 0
