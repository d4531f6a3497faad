"""Reciprocal rank fusion: merge ranked lists from the recall legs into one ranking.

Each leg contributes ``1 / (k + rank)`` (rank from 1) for every item it returns;
an item found by several legs adds up. With k = 60, an item ranked 1st by one leg
(1/61 = 0.0164) loses to one ranked 3rd by two legs (2/63 = 0.0317).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import TypeVar

RRF_K = 60

T = TypeVar("T", bound=Hashable)


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[T]], k: int = RRF_K, weights: Sequence[float] | None = None
) -> list[tuple[T, float]]:
    """Fuse rankings (best first) into ``(item, score)`` pairs, best first; ties keep order.

    ``weights`` scales each ranking's votes (one weight per ranking, default 1 each).

    >>> reciprocal_rank_fusion([["a", "b"], ["b", "c"]])
    [('b', 0.03252247488101534), ('a', 0.01639344262295082), ('c', 0.016129032258064516)]
    >>> reciprocal_rank_fusion([["a"], ["b"]], weights=[1.0, 2.0])[0][0]
    'b'
    """
    if weights is not None and len(weights) != len(rankings):
        raise ValueError(f"{len(weights)} weights for {len(rankings)} rankings")
    scores: dict[T, float] = {}
    for index, ranking in enumerate(rankings):
        weight = 1.0 if weights is None else weights[index]
        seen: set[T] = set()
        for rank, item in enumerate(ranking, start=1):
            if item in seen:
                continue
            seen.add(item)
            scores[item] = scores.get(item, 0.0) + weight / (k + rank)
    return sorted(scores.items(), key=lambda pair: pair[1], reverse=True)
