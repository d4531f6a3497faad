"""The PNG beside an eval's table (matplotlib, from the optional ``eval`` extra)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from twoclocks.domain.errors import ConfigError
from twoclocks.eval.store_eval import ArmResult


def store_chart(results: Sequence[ArmResult], path: Path) -> Path:
    """Bars per arm and variant: stale in block, hit@1, 3-fact all, as-of right (as shares)."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display: the chart is a file
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError(
            "the chart needs matplotlib: pip install 'twoclocks[eval]' (or drop --chart)"
        ) from None
    measures: dict[str, Callable[[ArmResult], float]] = {
        "old values current (of changes)": lambda r: r.old_values_current / _changes(r),
        "block: stale shown (of changes)": lambda r: r.block_stale / _changes(r),
        "recall hit@1": lambda r: r.hit1,
        "recall MRR": lambda r: r.mrr,
        "3-fact: all current in top 10": lambda r: r.multi_all / max(r.multi_questions, 1),
        "as-of questions right": lambda r: r.date_right / max(r.date_questions, 1),
    }
    fig, ax = plt.subplots(figsize=(11, 4.5))
    width = 0.8 / max(len(results), 1)
    for i, result in enumerate(results):
        xs = [j + i * width for j in range(len(measures))]
        ax.bar(xs, [m(result) for m in measures.values()], width,
               label=f"{result.arm} ({result.variant})")  # fmt: skip
    ax.set_xticks([j + width * (len(results) - 1) / 2 for j in range(len(measures))])
    ax.set_xticklabels(list(measures), rotation=15, fontsize=8)
    ax.set_ylim(0, 1.05)
    ax.set_title("twoclocks store eval: 24 facts, 38 changes (first two: lower is better)")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def _changes(result: ArmResult) -> int:
    return max(result.date_questions, 1)
