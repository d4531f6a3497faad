"""The whole-subject drift bench's arithmetic: which merges are right, which are wrong."""

from __future__ import annotations

from twoclocks.eval.data import WholeSubject
from twoclocks.eval.subject_drift import Landing, scores

SUBJECT = WholeSubject(
    id="e00", subject="checkout-api", kind="service", split="tune", slots=(), renames=(),
    new_slots=(),
)  # fmt: skip


def landing(step: str, predicate: str, landed: str, want: str | None = None) -> Landing:
    return Landing(SUBJECT, step, predicate, landed, landed != predicate, want)  # type: ignore[arg-type]


def test_only_a_rename_landing_under_its_own_slot_is_a_right_merge() -> None:
    s = scores(
        [
            landing("slot", "database", "database"),
            landing("slot", "analytics_db", "database"),  # wrong: closes the database
            landing("rename", "db", "database", want="database"),  # right
            landing("rename", "ci_tool", "ci_tool", want="ci"),  # missed
            landing("rename", "error_tracker", "logging", want="error_tracking"),  # wrong, missed
            landing("new_slot", "previous_owner", "previous_owner"),
        ]
    )
    assert (s.pairs, s.true_merges, s.false_merges, s.missed_merges) == (6, 1, 2, 2)
    assert s.precision == 1 / 3 and s.recall == 1 / 3


def test_no_merges_made_is_full_precision_and_no_renames_full_recall() -> None:
    s = scores([landing("slot", "database", "database")])
    assert s.precision == 1.0 and s.recall == 1.0
