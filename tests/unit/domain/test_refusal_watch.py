"""The refusal watch's rules (DESIGN.md §5, issue 13 point 4), one test per rule."""

from datetime import UTC, datetime, timedelta

from twoclocks.domain.refusal_watch import WINDOW, Answered, Sighting, hold_back

NOW = datetime(2026, 3, 30, 12, 0, tzinfo=UTC)


def seen(turn: str, days_ago: float, answered: Answered = Answered.REFUSED) -> Sighting:
    return Sighting(turn_id=turn, at=NOW - timedelta(days=days_ago), answered=answered)


TWO_REFUSED = [seen("t1", 3), seen("t2", 1)]


def test_a_model_fact_on_two_separate_refused_turns_is_held_back() -> None:
    assert hold_back("agent", TWO_REFUSED, NOW, restored_before=False)
    assert hold_back("extractor", TWO_REFUSED, NOW, restored_before=False)


def test_a_fact_the_person_or_a_tool_rule_wrote_is_never_held_back() -> None:
    for writer in ("person", "tool_rule", None):
        assert not hold_back(writer, TWO_REFUSED, NOW, restored_before=False)


def test_one_refused_turn_holds_nothing_back() -> None:
    assert not hold_back("agent", [seen("t1", 1)], NOW, restored_before=False)


def test_the_same_refused_turn_twice_is_one_turn() -> None:
    assert not hold_back("agent", [seen("t1", 2), seen("t1", 1)], NOW, restored_before=False)


def test_a_turn_that_carried_it_with_a_normal_answer_keeps_it() -> None:
    vouched = [*TWO_REFUSED, seen("t3", 5, Answered.NORMAL)]
    assert not hold_back("agent", vouched, NOW, restored_before=False)


def test_a_cut_short_turn_neither_vouches_nor_counts() -> None:
    cut = [seen("t1", 1), seen("t2", 2, Answered.CUT_SHORT)]
    assert not hold_back("agent", cut, NOW, restored_before=False)
    assert hold_back("agent", [*TWO_REFUSED, seen("t3", 2, Answered.CUT_SHORT)], NOW, False)


def test_only_turns_within_30_days_count() -> None:
    old = WINDOW.days + 1
    assert not hold_back("agent", [seen("t1", old), seen("t2", 1)], NOW, restored_before=False)
    # An old normal answer no longer vouches for it either.
    vouched_long_ago = [*TWO_REFUSED, seen("t3", old, Answered.NORMAL)]
    assert hold_back("agent", vouched_long_ago, NOW, restored_before=False)


def test_a_fact_the_person_restored_is_never_held_back_again() -> None:
    assert not hold_back("agent", TWO_REFUSED, NOW, restored_before=True)
