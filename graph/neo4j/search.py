"""The recall legs on Neo4j 5.26: Lucene fulltext and the relationship vector index.

One database holds every account, so each index spans all of them and the shared Cypher
filters on ``group_id`` after the CALL; the vector leg over-fetches for that reason. Our
fulltext indexes use Lucene's English analyzer (lowercase, stop words, Porter stemming),
apart from graphiti-core's (standard, unstemmed), which stay for graphiti's own search.
"""

from __future__ import annotations

import re

from twoclocks.graph.search_cypher import EMBEDDING_DIMENSION, Dialect, FulltextSyntax

_ENGLISH = "OPTIONS {indexConfig: {`fulltext.analyzer`: 'english'}}"

SCHEMA = (
    "CREATE FULLTEXT INDEX twoclocks_edge_text IF NOT EXISTS "
    f"FOR ()-[e:RELATES_TO]-() ON EACH [e.search_text] {_ENGLISH}",
    "CREATE FULLTEXT INDEX twoclocks_entity_name IF NOT EXISTS "
    f"FOR (n:Entity) ON EACH [n.name] {_ENGLISH}",
    "CREATE FULLTEXT INDEX twoclocks_episode_text IF NOT EXISTS "
    f"FOR (n:Episodic) ON EACH [n.content] {_ENGLISH}",
    "CREATE VECTOR INDEX twoclocks_edge_embedding IF NOT EXISTS "
    "FOR ()-[e:RELATES_TO]-() ON (e.fact_embedding) OPTIONS {indexConfig: {"
    f"`vector.dimensions`: {EMBEDDING_DIMENSION}, `vector.similarity_function`: 'cosine'}}}}",
)
"""Our recall indexes (all IF NOT EXISTS)."""

_LUCENE_SPECIAL = re.compile(r'([+\-&|!(){}\[\]^"~*?:\\/])')


def escape(term: str) -> str:
    """A term with Lucene's query syntax characters escaped (query_terms leaves none, but a
    Dialect must be safe for any input)."""
    return _LUCENE_SPECIAL.sub(r"\\\1", term)


DIALECT = Dialect(
    text_call=(
        "CALL db.index.fulltext.queryRelationships('twoclocks_edge_text', $ftq, "
        "{limit: $fetch}) YIELD relationship AS e, score"
    ),
    text_limited=True,  # the $fetch best by score, over every account
    vector_call=(
        "CALL db.index.vector.queryRelationships('twoclocks_edge_embedding', $fetch, $vector) "
        "YIELD relationship AS e, score"
    ),
    vector_order="DESC",  # Neo4j's score is a similarity, (1 + cos) / 2: higher is nearer
    vector_cosine=lambda similarity: 2.0 * similarity - 1.0,
    # Normalised to [0, 1] as the index's own score is.
    vector_score="vector.similarity.cosine(e.fact_embedding, $vector)",
    entity_call=(
        "CALL db.index.fulltext.queryNodes('twoclocks_entity_name', $ftq) YIELD node AS n, score"
    ),
    episode_call=(
        "CALL db.index.fulltext.queryNodes('twoclocks_episode_text', $ftq) YIELD node AS n, score"
    ),
    fulltext=FulltextSyntax("{field}:({body})", " AND ", " OR ", escape),
)
