"""The recall legs on FalkorDB: RediSearch fulltext and the HNSW vector index per graph.

Each account is its own graph, so an index holds only that account's rows. The fulltext
index of a label is one RediSearch index over every field added to it (graphiti-core's
``name, fact, group_id`` plus our ``search_text``): a query must name its field, or a word
equal to the account name (``group_id``) would match every edge. RediSearch lowercases,
stems (English) and drops its default stop words; ``search_terms.query_terms`` leaves
only plain words, so nothing in a query needs escaping.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from twoclocks.graph.search_cypher import EMBEDDING_DIMENSION, Dialect, FulltextSyntax, Rows

if TYPE_CHECKING:
    from twoclocks.graph.falkordb.guarded import GuardedGraph

INDEXES = (
    # Joins graphiti-core's RELATES_TO fulltext index (created before this one).
    "CREATE FULLTEXT INDEX FOR ()-[e:RELATES_TO]-() ON (e.search_text)",
    "CREATE VECTOR INDEX FOR ()-[e:RELATES_TO]-() ON (e.fact_embedding) "
    f"OPTIONS {{dimension: {EMBEDDING_DIMENSION}, similarityFunction: 'cosine'}}",
)
"""Our recall indexes, created per account graph after graphiti-core's own."""


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
    vector_score="vec.cosineDistance(e.fact_embedding, vecf32($vector))",
    entity_call="CALL db.idx.fulltext.queryNodes('Entity', $ftq) YIELD node AS n, score",
    episode_call="CALL db.idx.fulltext.queryNodes('Episodic', $ftq) YIELD node AS n, score",
    fulltext=FulltextSyntax("@{field}:({body})", " ", "|"),
)


def reader(graph: GuardedGraph) -> Rows:
    """A read-only query runner over one account's graph, positional rows."""

    async def rows(statement: str, params: dict[str, Any]) -> list[list[Any]]:
        result: list[list[Any]] = (await graph.ro_query(statement, params)).result_set
        return result

    return rows
