"""How many current values a slot holds: the writer's declaration, then a registry, else one."""

from __future__ import annotations

from twoclocks.domain.model import Cardinality, Kind

MANY_VALUED_PREDICATES: frozenset[str] = frozenset(
    {
        # symmetric or collective relations: one value never replaces another
        "works_with",
        "related_to",
        "depends_on",
        "uses",
        "knows",
        "collaborates_with",
        "member_of",
        "has_member",
        "speaks",
        "tag",
        "label",
        "alias",
        "contributor",
        "maintainer",
        # a person's rules told one by one under one name ("team rule ..."): each a rule
        "rule",
        "rules",
        "convention",
        "conventions",
        "guideline",
        "guidelines",
        # session events
        "happened",
        "did",
        "committed",
        "pushed",
        "opened_pr",
        "edited",
        "ran",
        "tool_error",
        "subagent_task",
    }
)
"""Predicates that hold many values unless a writer says otherwise."""


def resolve_cardinality(declared: Cardinality | None, predicate: str, kind: Kind) -> Cardinality:
    """Pick a slot's cardinality.

    >>> resolve_cardinality(None, "deploy_target", Kind.FACT)
    <Cardinality.ONE: 'one'>
    >>> resolve_cardinality(None, "deploy_target", Kind.EVENT)
    <Cardinality.MANY: 'many'>
    >>> resolve_cardinality(Cardinality.ONE, "works_with", Kind.FACT)
    <Cardinality.ONE: 'one'>
    """
    if declared is not None:
        return declared
    if kind is Kind.EVENT or predicate.lower() in MANY_VALUED_PREDICATES:
        return Cardinality.MANY
    return Cardinality.ONE
