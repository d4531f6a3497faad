"""Refit recall's final-order shares on tune parts pooled; print tune and held-out.

    .venv/bin/python bench/recall_signals.py --out /tmp/sig_a.pickle
    .venv/bin/python bench/recall_signals.py --out /tmp/sig_b.pickle --data tests/data/set_b
    .venv/bin/python bench/recall_fit.py /tmp/sig_a.pickle /tmp/sig_b.pickle --fit

Ranks the captured candidates of single-fact questions through ``recall_order.by_score``
(the service's order, reproduced exactly with the service's shares), then, with
``--fit``, walks every share over a grid one at a time (coordinate ascent) on the tune
questions alone, maximising hit@1 + MRR / 2. Held-out hit@1 / MRR are printed for the
shares as they are and for the fitted ones: read them once, after the fit, and do not
refit on what they say.
"""

from __future__ import annotations

import argparse
import dataclasses
import pickle
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from twoclocks.domain.answer_kinds import names_values_to_check
from twoclocks.service.recall_order import CHECK_KIN_SHARE, SERVICE_SHARES, Shares, by_score

GRID = (0.0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.4, 0.5, 0.7)
ROUNDS = 3


@dataclass(frozen=True)
class Fit:
    """The shares ``by_score`` takes, and the kin share for each kind of question."""

    shares: Shares = SERVICE_SHARES
    kin: float = 0.0
    """For a question naming no values to check (the service gives none)."""
    check_kin: float = CHECK_KIN_SHARE

    def moved(self, name: str, value: float) -> Fit:
        """This fit with one share set to ``value``."""
        if name in ("kin", "check_kin"):
            return dataclasses.replace(self, **{name: value})
        return dataclasses.replace(self, shares=dataclasses.replace(self.shares, **{name: value}))

    def named(self) -> dict[str, float]:
        """Every share by name."""
        return {**dataclasses.asdict(self.shares), "kin": self.kin, "check_kin": self.check_kin}


@dataclass(frozen=True)
class Question:
    """One captured single-fact question: its candidates, signals and the ids it wants."""

    row: Mapping[str, Any]
    ids: Mapping[str, str]
    want: frozenset[str]
    checks_values: bool


def load(paths: Sequence[Path], split: str) -> list[Question]:
    """The single-fact questions of ``split`` with candidates, from every capture."""
    out = []
    for path in paths:
        capture = pickle.loads(path.read_bytes())
        for row in capture["rows"]:
            q = row["question"]
            if q.kind == "single" and q.split == split and row["fused"] and row["cosine"]:
                want = frozenset(q.expect)
                out.append(
                    Question(row, capture["set_ids"], want, names_values_to_check(q.question))
                )
    return out


def reciprocal_rank(fit: Fit, q: Question, k: int = 5) -> float:
    """1 / rank of the first wanted fact among the k best, as ``by_score`` orders them."""
    row = q.row
    kin = fit.check_kin if q.checks_values else fit.kin
    ranked = by_score(
        row["fused"], row["relevance"], row["cosine"], row["own"], row["named"], kin, fit.shares
    )
    for rank, (vid, _) in enumerate(ranked[:k], start=1):
        if q.ids.get(vid) in q.want:
            return 1.0 / rank
    return 0.0


def measure(fit: Fit, questions: Sequence[Question]) -> tuple[float, float]:
    """hit@1 and MRR of ``questions`` under ``fit``."""
    ranks = [reciprocal_rank(fit, q) for q in questions]
    return sum(r == 1.0 for r in ranks) / len(ranks), sum(ranks) / len(ranks)


def refit(questions: Sequence[Question]) -> Fit:
    """Coordinate ascent over ``GRID`` from the service's shares, on ``questions``."""
    fit = Fit()

    def objective(f: Fit) -> float:
        hit, mrr = measure(f, questions)
        return hit + mrr / 2

    best = objective(fit)
    for _ in range(ROUNDS):
        moved = False
        for name in fit.named():
            for value in GRID:
                trial = fit.moved(name, value)
                if (score := objective(trial)) > best + 1e-9:
                    best, fit, moved = score, trial, True
        if not moved:
            break
    return fit


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("captures", nargs="+", type=Path, help="bench/recall_signals.py pickles")
    parser.add_argument("--fit", action="store_true", help="refit the shares on the tune parts")
    args = parser.parse_args()
    tune, held = load(args.captures, "tune"), load(args.captures, "heldout")
    print(f"{len(tune)} tune and {len(held)} held-out single-fact questions")
    print("as they are  tune", _figures(Fit(), tune))
    if args.fit:
        fitted = refit(tune)
        print("fitted       tune", _figures(fitted, tune))
        before, after = Fit().named(), fitted.named()
        print("  changed:", {k: v for k, v in after.items() if v != before[k]} or "nothing")
        print("fitted       held-out", _figures(fitted, held))
    print("as they are  held-out", _figures(Fit(), held))


def _figures(fit: Fit, questions: Sequence[Question]) -> str:
    hit, mrr = measure(fit, questions)
    return f"hit@1 {hit:.3f} MRR {mrr:.3f}"


if __name__ == "__main__":
    main()
