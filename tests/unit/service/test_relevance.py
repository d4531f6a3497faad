"""How strongly a fact's signals say memory holds an answer (``Relevance.best``, issue 11)."""

from __future__ import annotations

from twoclocks.service.recall_legs import RELEVANCE_FLOOR
from twoclocks.service.relevance import Relevance


def test_a_former_value_or_a_thing_of_the_values_kind_named_is_evidence_enough() -> None:
    # "do we still use Black?" shares few words with "python formatter: Ruff format".
    weak = Relevance(lexical=0.0, slot=0.1, vector=0.15)
    assert weak.best < RELEVANCE_FLOOR
    assert Relevance(lexical=0.0, slot=0.1, vector=0.15, former=1.0).best >= RELEVANCE_FLOOR
    assert Relevance(lexical=0.0, slot=0.1, vector=0.15, kin=1.0).best >= RELEVANCE_FLOOR
