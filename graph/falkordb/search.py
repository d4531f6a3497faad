"""The recall legs on FalkorDB: RediSearch fulltext and the HNSW vector index per graph.

Each account is its own graph, so an index holds only that account's rows. The fulltext
index of a label is one RediSearch index over every field added to it (graphiti-core's
``name, fact, group_id`` plus our ``search_text``): a query must name its field, or a word
equal to the account name (``group_id``) would match every edge. RediSearch lowercases,
stems (English) and drops its default stop words; ``search_cypher.query_terms`` leaves
only plain words, so nothing in a query needs escaping.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from twoclocks.graph.search_cypher import EMBEDDING_DIMENSION, Dialect, Rows, Unit

if TYPE_CHECKING:
    from twoclocks.graph.falkordb.guarded import GuardedGraph

INDEXES = (
    # Joins graphiti-core's RELATES_TO fulltext index (created before this one).
    "CREATE FULLTEXT INDEX FOR ()-[e:RELATES_TO]-() ON (e.search_text)",
    "CREATE VECTOR INDEX FOR ()-[e:RELATES_TO]-() ON (e.fact_embedding) "
    f"OPTIONS {{dimension: {EMBEDDING_DIMENSION}, similarityFunction: 'cosine'}}",
)
"""Our recall indexes, created per account graph after graphiti-core's own."""


def _any_of(field: str, terms: Sequence[str]) -> str:
    return f"@{field}:({'|'.join(terms)})"


def _all_of(field: str, terms: Sequence[str]) -> str:
    return f"@{field}:({' '.join(terms)})"


def _unit(unit: Unit) -> str:
    return unit[0] if len(unit) == 1 else f"({' '.join(unit)})"


def _any_unit(field: str, units: Sequence[Unit]) -> str:
    return f"@{field}:({'|'.join(_unit(u) for u in units)})"


def _two_units(field: str, units: Sequence[Unit]) -> str:
    whole = [_unit(u) for u in units if len(u) > 1]
    pairs = [f"({_unit(a)} {_unit(b)})" for i, a in enumerate(units) for b in units[i + 1 :]]
    return f"@{field}:({'|'.join([*whole, *pairs])})"


DIALECT = Dialect(
    text_call=(
        "CALL db.idx.fulltext.queryRelationships('RELATES_TO', $ftq) YIELD relationship AS e, score"
    ),
    text_limited=False,  # every match of this account's graph, unordered
    vector_call=(
        "CALL db.idx.vector.queryRelationships('RELATES_TO', 'fact_embedding', $fetch, "
        "vecf32($vector)) YIELD relationship AS e, score"
    ),
    vector_order="ASC",  # FalkorDB's score is a cosine distance: lower is nearer
    vector_cosine=lambda distance: 1.0 - distance,
    entity_call="CALL db.idx.fulltext.queryNodes('Entity', $ftq) YIELD node AS n, score",
    episode_call="CALL db.idx.fulltext.queryNodes('Episodic', $ftq) YIELD node AS n, score",
    any_of=_any_of,
    all_of=_all_of,
    any_unit=_any_unit,
    two_units=_two_units,
)


def reader(graph: GuardedGraph) -> Rows:
    """A read-only query runner over one account's graph, positional rows."""

    async def rows(statement: str, params: dict[str, Any]) -> list[list[Any]]:
        result: list[list[Any]] = (await graph.ro_query(statement, params)).result_set
        return result

    return rows
