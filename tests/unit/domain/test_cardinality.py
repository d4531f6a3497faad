"""Cardinality (DESIGN.md §3): the writer's declaration decides, then a registry, else one."""

from __future__ import annotations

import pytest

from twoclocks.domain.cardinality import MANY_VALUED_PREDICATES, resolve_cardinality
from twoclocks.domain.model import Cardinality, Kind


def test_cardinality_writer_declaration_then_registry_then_one() -> None:
    # 1. the writer's declaration wins over the registry, both ways
    assert resolve_cardinality(Cardinality.ONE, "works_with", Kind.FACT) is Cardinality.ONE
    assert resolve_cardinality(Cardinality.MANY, "deploy_target", Kind.FACT) is Cardinality.MANY
    assert resolve_cardinality(Cardinality.ONE, "deploy_target", Kind.EVENT) is Cardinality.ONE
    # 2. no declaration: the registry (symmetric relations and events are many)
    assert resolve_cardinality(None, "works_with", Kind.FACT) is Cardinality.MANY
    assert resolve_cardinality(None, "deploy_target", Kind.EVENT) is Cardinality.MANY
    # 3. else one
    assert resolve_cardinality(None, "deploy_target", Kind.FACT) is Cardinality.ONE


@pytest.mark.parametrize("predicate", sorted(MANY_VALUED_PREDICATES))
def test_every_registry_predicate_is_many_valued(predicate: str) -> None:
    assert resolve_cardinality(None, predicate, Kind.FACT) is Cardinality.MANY


def test_registry_lookup_ignores_case() -> None:
    assert resolve_cardinality(None, "Works_With", Kind.FACT) is Cardinality.MANY


def test_symmetric_relations_and_events_are_in_the_registry() -> None:
    expected = {"works_with", "related_to", "committed", "pushed", "tool_error"}
    assert expected <= MANY_VALUED_PREDICATES


def test_rules_told_one_by_one_under_one_name_each_hold() -> None:
    # "team rule A" then "team rule B" closed A: a person's rules are many.
    for name in ("rule", "rules", "convention", "guidelines"):
        assert resolve_cardinality(None, name, Kind.FACT) is Cardinality.MANY
