"""The PNG beside an eval's table (matplotlib, from the optional ``eval`` extra)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from twoclocks.domain.errors import ConfigError
from twoclocks.eval.fc_eval import FcResult
from twoclocks.eval.store_eval import ArmResult


def _pyplot() -> Any:
    """matplotlib's pyplot on the file-only backend (ConfigError when it is not installed)."""
    try:
        import matplotlib

        matplotlib.use("Agg")  # no display: the chart is a file
        import matplotlib.pyplot as plt
    except ImportError:
        raise ConfigError(
            "the chart needs matplotlib: pip install 'twoclocks[eval]' (or drop --chart)"
        ) from None
    return plt


R = TypeVar("R")


def _grouped_bars(
    ax: Any, results: Sequence[R], measures: dict[str, Callable[[R], float]],
    label: Callable[[R], str],
) -> float:  # fmt: skip
    """One group of bars per measure, one bar per result in each; returns the bar width."""
    width = 0.8 / max(len(results), 1)
    for i, result in enumerate(results):
        xs = [j + i * width for j in range(len(measures))]
        ax.bar(xs, [m(result) for m in measures.values()], width, label=label(result))
    ax.set_xticks([j + width * (len(results) - 1) / 2 for j in range(len(measures))])
    return width


def store_chart(results: Sequence[ArmResult], path: Path) -> Path:
    """Bars per arm and variant: stale in block, hit@1, 3-fact all, as-of right (as shares)."""
    plt = _pyplot()
    measures: dict[str, Callable[[ArmResult], float]] = {
        "old values current (of changes)": lambda r: r.old_values_current / _changes(r),
        "block: stale shown (of changes)": lambda r: r.block_stale / _changes(r),
        "recall hit@1": lambda r: r.hit1,
        "recall MRR": lambda r: r.mrr,
        "3-fact: all current in top 10": lambda r: r.multi_all / max(r.multi_questions, 1),
        "as-of questions right": lambda r: r.date_right / max(r.date_questions, 1),
    }
    fig, ax = plt.subplots(figsize=(11, 4.5))
    _grouped_bars(ax, results, measures, lambda r: f"{r.arm} ({r.variant})")
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


FC_PUBLISHED_SINGLE_HOP = (("HippoRAG-v2", 0.54), ("BM25", 0.48), ("Mem0", 0.18), ("Zep", 0.07))
"""MemoryAgentBench's end-to-end single-hop figures, drawn as reference lines."""


def fc_chart(results: Sequence[FcResult], path: Path) -> Path:
    """Bars per store and size: SH hit@1, SH stale first, SH in top 10, MH in top 10."""
    plt = _pyplot()
    measures: dict[str, Callable[[FcResult], float]] = {
        "single-hop hit@1": lambda r: r.hit1,
        "single-hop stale first": lambda r: r.stale_first / max(r.single_hop, 1),
        "single-hop in top 10": lambda r: r.hit10,
        "multi-hop in top 10": lambda r: r.multi_top10,
    }
    fig, ax = plt.subplots(figsize=(10, 4.5))
    width = _grouped_bars(ax, results, measures, lambda r: f"{r.store} {r.size}")
    ax.set_xticklabels(list(measures), fontsize=8)
    # The published lines span the single-hop hit@1 group only, labelled left of it.
    left, group_end = -1.1, 0.8 - width / 2
    for name, score in FC_PUBLISHED_SINGLE_HOP:
        ax.hlines(score, left, group_end, linestyles="--", linewidth=0.8, color="grey")
        ax.text(left + 0.02, score + 0.005, f"{name} {score:.0%}", fontsize=7, color="dimgrey",
                va="bottom")  # fmt: skip
    ax.set_xlim(left, len(measures) - 0.1)
    ax.set_ylim(0, 1.2)  # headroom for the legend
    ax.set_title(
        "twoclocks on MemoryAgentBench FactConsolidation: retrieval-level scores\n"
        "(dashed: published end-to-end single-hop accuracy, for context)",
        fontsize=9,
    )
    ax.legend(fontsize=7, ncol=2, loc="upper center")  # over the near-empty stale group
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path
