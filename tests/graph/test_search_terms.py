"""The keyword leg's words (graph/search_terms.py): pure text, no engine."""

from __future__ import annotations

from twoclocks.graph.search_terms import MAX_TERMS, query_terms, query_units, search_text


def test_a_question_of_stop_words_only_asks_for_nothing() -> None:
    # The indexes drop these words; a query holding only them would match everything
    # (Lucene) or fail (RediSearch).
    assert query_terms("what is it that we use?") == []


def test_a_long_question_sends_at_most_max_terms_words() -> None:
    question = " ".join(f"word{i}" for i in range(100))
    assert len(query_terms(question)) == MAX_TERMS
    assert len(query_units(question)) == MAX_TERMS


def test_the_search_text_holds_a_values_split_words_once() -> None:
    text = search_text("api", "deploy_target", "FlyIO", "api deploy target FlyIO")
    assert text.split() == ["api", "deploy", "target", "flyio", "fly", "io"]
