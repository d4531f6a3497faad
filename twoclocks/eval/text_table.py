"""The eval tables as terminal text: columns padded to their widest cell."""

from __future__ import annotations

from collections.abc import Sequence


def aligned(rows: Sequence[Sequence[str]], labels: int = 2) -> str:
    """Rows as lines: the first ``labels`` columns left-aligned, the figures right-aligned."""
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]

    def line(row: Sequence[str]) -> str:
        cells = zip(row, widths, strict=True)
        return "  ".join(
            c.ljust(w) if i < labels else c.rjust(w) for i, (c, w) in enumerate(cells)
        ).rstrip()

    return "\n".join(line(row) for row in rows)
