"""Refit recall's final-order shares on tune parts pooled; print tune and held-out.

    .venv/bin/python bench/recall_signals.py --out /tmp/sig_a.pickle
    .venv/bin/python bench/recall_signals.py --out /tmp/sig_b.pickle --data tests/data/set_b
    .venv/bin/python bench/recall_fit.py /tmp/sig_a.pickle /tmp/sig_b.pickle --fit

Rescores the captured candidates of single-fact questions as ``recall_order.by_score``
does (the service's order, reproduced exactly with the shares as they are), then, with
``--fit``, walks every share over a grid one at a time (coordinate ascent) on the tune
questions alone, maximising hit@1 + MRR / 2. Held-out hit@1 / MRR are printed for the
shares as they are and for the fitted ones: read them once, after the fit, and do not
refit on what they say.
"""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twoclocks.domain.answer_kinds import asks_yes_or_no
from twoclocks.service import recall_order

GRID = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7)
ROUNDS = 3

SHARES: Mapping[str, float] = {
    "slot": recall_order.SLOT_SHARE,
    "fusion": recall_order.FUSION_SHARE,
    "kind": recall_order.KIND_SHARE,
    "subject": recall_order.SUBJECT_SHARE,
    "category": recall_order.CATEGORY_SHARE,
    "kin": 0.0,
    "yes_no_kin": recall_order.YES_NO_KIN_SHARE,
    "former": recall_order.FORMER_SHARE,
    "named": recall_order.NAMED_SHARE,
    "lexical": 0.0,
}
"""The shares as the service has them; ``kin`` (plain questions) and ``lexical`` are
signals the service computes and gives no share."""


@dataclass(frozen=True)
class Question:
    """One captured single-fact question: its candidates, signals and the ids it wants."""

    row: Mapping[str, Any]
    ids: Mapping[str, str]
    want: frozenset[str]
    yes_no: bool


def load(paths: Sequence[Path], split: str) -> list[Question]:
    """The single-fact questions of ``split`` with candidates, from every capture."""
    out = []
    for path in paths:
        capture = pickle.loads(path.read_bytes())
        for row in capture["rows"]:
            q = row["question"]
            if q.kind == "single" and q.split == split and row["fused"] and row["cosine"]:
                want = frozenset(q.expect)
                out.append(Question(row, capture["set_ids"], want, asks_yes_or_no(q.question)))
    return out


def reciprocal_rank(shares: Mapping[str, float], q: Question, k: int = 5) -> float:
    """1 / rank of the first wanted fact among the k best, as ``by_score`` orders them."""
    rel, cosine, fused, named = q.row["relevance"], q.row["cosine"], q.row["fused"], q.row["named"]
    unreached = min(cosine.values())
    best = max(score for _, score in fused) or 1.0
    kin = shares["yes_no_kin"] if q.yes_no else shares["kin"]
    scored = sorted(
        (
            (
                cosine.get(vid, unreached)
                + shares["slot"] * rel[vid].slot
                + shares["fusion"] * rank_score / best
                + shares["kind"] * rel[vid].kind
                + shares["subject"] * rel[vid].subject
                + shares["category"] * rel[vid].category
                + kin * rel[vid].kin
                + shares["former"] * rel[vid].former
                + shares["lexical"] * rel[vid].lexical
                + (shares["named"] if vid in named else 0.0),
                vid,
            )
            for vid, rank_score in fused
        ),
        key=lambda pair: pair[0],
        reverse=True,
    )
    for rank, (_, vid) in enumerate(scored[:k], start=1):
        if q.ids.get(vid) in q.want:
            return 1.0 / rank
    return 0.0


def measure(shares: Mapping[str, float], questions: Sequence[Question]) -> tuple[float, float]:
    """hit@1 and MRR of ``questions`` under ``shares``."""
    ranks = [reciprocal_rank(shares, q) for q in questions]
    return sum(r == 1.0 for r in ranks) / len(ranks), sum(ranks) / len(ranks)


def fit(questions: Sequence[Question]) -> dict[str, float]:
    """Coordinate ascent over ``GRID`` from the service's shares, on ``questions``."""
    shares = dict(SHARES)

    def objective(s: Mapping[str, float]) -> float:
        hit, mrr = measure(s, questions)
        return hit + mrr / 2

    best = objective(shares)
    for _ in range(ROUNDS):
        moved = False
        for name in SHARES:
            for value in GRID:
                trial = {**shares, name: value}
                if (score := objective(trial)) > best + 1e-9:
                    best, shares, moved = score, trial, True
        if not moved:
            break
    return shares


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("captures", nargs="+", type=Path, help="bench/recall_signals.py pickles")
    parser.add_argument("--fit", action="store_true", help="refit the shares on the tune parts")
    args = parser.parse_args()
    tune, held = load(args.captures, "tune"), load(args.captures, "heldout")
    print(f"{len(tune)} tune and {len(held)} held-out single-fact questions")
    print("as they are  tune", _figures(SHARES, tune))
    if args.fit:
        fitted = fit(tune)
        print("fitted       tune", _figures(fitted, tune))
        print("  changed:", {k: v for k, v in fitted.items() if v != SHARES[k]} or "nothing")
        print("fitted       held-out", _figures(fitted, held))
    print("as they are  held-out", _figures(SHARES, held))


def _figures(shares: Mapping[str, float], questions: Sequence[Question]) -> str:
    hit, mrr = measure(shares, questions)
    return f"hit@1 {hit:.3f} MRR {mrr:.3f}"


if __name__ == "__main__":
    main()
