"""How recall's legs vote: each leg's ranking of what it found, fused by weighted
reciprocal rank, then ordered by the question (``recall_order.by_score``).

A leg votes with its own order. A walk reaches facts by where they sit in the graph, not
by what was asked, so it votes with the question's order of what it reached instead
(issue 11: billing-api's other facts outvoted its cache); the ``slot`` leg reads nothing
and votes with how well each candidate's slot name matches the question.
"""

from __future__ import annotations

from collections.abc import Mapping

from twoclocks.domain.answer_kinds import names_values_to_check
from twoclocks.domain.fusion import reciprocal_rank_fusion
from twoclocks.domain.model import FactVersion
from twoclocks.service.named_entities import Named
from twoclocks.service.recall_order import CHECK_KIN_SHARE, by_score
from twoclocks.service.relevance import Relevance, by_question

LEGS = ("keyword", "vector", "entity_walk", "workspace_walk", "former", "slot")
"""The recall legs by name, in the order they are fused. ``former`` reads the current
value of each slot whose earlier value the question names ("do we still use Black?"),
from the closed versions the keyword search found. ``slot`` ranks what the other legs
found by how well its slot name matches the question; it reads nothing itself."""


def fuse_legs(
    text: str,
    found_by: Mapping[str, list[FactVersion]],
    by_id: Mapping[str, FactVersion],
    relevance: Mapping[str, Relevance],
    cosine: Mapping[str, float],
    weights: Mapping[str, float],
    named: Named,
    pool: int,
) -> list[tuple[str, float]]:
    """The candidates (``by_id``, the tiered facts the legs found, by version id), best
    first with their scores: each leg in ``found_by`` votes by ``weights``, and the
    question's signals (``relevance``, the vector leg's ``cosine``) order the result."""
    question_order = {vid: r.question_score for vid, r in relevance.items()}
    rankings: dict[str, list[str]] = {}
    for leg, reached in found_by.items():
        ids = [v.version_id for v in reached if v.version_id in by_id]
        # A walk reaches facts by where they sit in the graph, not by what was asked:
        # its store order says nothing, so it ranks them by the question instead.
        rankings[leg] = by_question(ids, question_order) if leg.endswith("walk") else ids
    if "entity_walk" in rankings and named.by_self:
        # Candidates, not votes: with a vote, the person's facts outvoted the legs that
        # read the question for "who do I ping about the notifier?".
        del rankings["entity_walk"]
    if weights["slot"] > 0 and relevance:
        slot_score = {vid: r.slot for vid, r in relevance.items()}
        rankings["slot"] = by_question(by_id, slot_score)[:pool]
    legs = [leg for leg in LEGS if leg in rankings]
    fused = reciprocal_rank_fusion(
        [rankings[leg] for leg in legs], weights=[weights[leg] for leg in legs]
    )
    if not cosine:
        return fused
    own = set(rankings.get("workspace_walk", []))
    named_subjects = {e.lower() for e in named.names}
    by_name = {vid for vid, v in by_id.items() if v.subject.lower() in named_subjects}
    kin_share = CHECK_KIN_SHARE if names_values_to_check(text) else 0.0
    return by_score(fused, relevance, cosine, own, by_name, kin_share)
