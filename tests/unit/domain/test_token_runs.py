"""Runs of words (DESIGN.md §3 "Slot drift"): the longest known run at each word is replaced."""

from __future__ import annotations

from twoclocks.domain.token_runs import replace_longest_runs

_TABLE = {
    ("site",): ("url",),
    ("site", "reliability"): ("sre",),
    ("site", "reliability", "engineer"): ("sre", "engineer"),
}


def test_the_longest_known_run_starting_at_a_word_wins() -> None:
    assert replace_longest_runs(["site", "reliability", "engineer"], _TABLE.get, 3) == [
        "sre",
        "engineer",
    ]
    assert replace_longest_runs(["site", "reliability", "team"], _TABLE.get, 3) == ["sre", "team"]
    assert replace_longest_runs(["site", "owner"], _TABLE.get, 3) == ["url", "owner"]


def test_runs_longer_than_the_limit_are_not_looked_up() -> None:
    assert replace_longest_runs(["site", "reliability"], _TABLE.get, 1) == ["url", "reliability"]


def test_unknown_words_are_kept_and_replaced_runs_do_not_overlap() -> None:
    table = {("a", "b"): ("x",), ("b", "c"): ("y",)}
    assert replace_longest_runs(["a", "b", "c", "d"], table.get, 2) == ["x", "c", "d"]
    assert replace_longest_runs([], table.get, 2) == []
    assert replace_longest_runs(["a"], table.get, 0) == ["a"]
