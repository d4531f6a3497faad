"""A question asking what replaced a value (domain.after_questions)."""

from __future__ import annotations

from test_named_times import version

from twoclocks.domain.after_questions import (
    replaced_slots,
    rows_of_slots_first,
    what_was_replaced,
)


def test_recall_a_question_asking_what_replaced_a_value_asks_of_the_slots_it_held() -> None:
    assert what_was_replaced("what replaced Expo?") == "Expo"
    assert what_was_replaced("what has replaced the old Jenkins box?") == "the old Jenkins box"
    assert what_was_replaced("what did we replace Heroku with?") == "Heroku"
    assert what_was_replaced("which tracker do we use in place of Jira") == "Jira"
    assert what_was_replaced("what came after Travis?") == "Travis"
    assert what_was_replaced("what replaced it?") is None  # names no value
    assert what_was_replaced("who replaced the cache keys?") is None  # not "what"
    assert what_was_replaced("which CI do we use?") is None
    expo = version("Expo", "2026-01-01", "2026-11-30")
    mixpanel = version("Mixpanel", "2026-01-01", None).model_copy(update={"predicate": "analytics"})
    native = version("React Native CLI", "2026-11-30", None)
    assert replaced_slots("what replaced Expo?", [expo]) == {expo.slot}
    assert replaced_slots("what replaced Parcel?", [expo]) == set()
    ranked = [(mixpanel, 0.61), (native, 0.48)]
    assert rows_of_slots_first(ranked, {expo.slot}) == [(native, 0.61), (mixpanel, 0.61)]
    assert rows_of_slots_first(ranked, set()) == ranked
