"""The drift bench's arithmetic: precision / recall, and the always-right judge's bound."""

from __future__ import annotations

from twoclocks.eval.data import DriftPair
from twoclocks.eval.drift import DriftOutcome, scores, with_a_right_judge


def pair(a: str, b: str, merge: bool) -> DriftPair:
    return DriftPair(a=a, b=b, merge=merge)


def test_precision_counts_wrong_merges_and_recall_counts_missed_ones() -> None:
    s = scores(
        [
            DriftOutcome(pair("owner", "maintainer", True), True),
            DriftOutcome(pair("city", "hometown", False), True),
            DriftOutcome(pair("tracker", "ticketing", True), False),
            DriftOutcome(pair("cache", "queue", False), False),
        ]
    )
    assert (s.true_merges, s.false_merges, s.missed_merges) == (1, 1, 1)
    assert s.precision == 0.5 and s.recall == 0.5


def test_a_right_judge_changes_only_the_grey_pairs_to_their_label() -> None:
    grey_merge = pair("tracker", "ticketing", True)
    grey_apart = pair("city", "hometown", False)
    outside = pair("notes_app", "second_brain", True)
    outcomes = [
        DriftOutcome(grey_merge, False),
        DriftOutcome(grey_apart, True),
        DriftOutcome(outside, False),
    ]
    # Pairs read again from the file are equal to the ones the matcher saw.
    judged = with_a_right_judge(outcomes, [pair("tracker", "ticketing", True), grey_apart])
    assert [o.merged for o in judged] == [True, False, False]
