"""The test Neo4j from ci/neo4j answers Bolt: write a node, read it back, delete it."""

from __future__ import annotations

import uuid

import pytest
from neo4j import GraphDatabase

pytestmark = pytest.mark.neo4j


def test_bolt_round_trip(neo4j_uri: str) -> None:
    marker = f"probe-{uuid.uuid4()}"
    with GraphDatabase.driver(neo4j_uri, auth=None) as driver:
        driver.verify_connectivity()
        created = driver.execute_query(
            "CREATE (n:TwoclocksProbe {marker: $marker}) RETURN n.marker AS marker",
            marker=marker,
        )
        assert [r["marker"] for r in created.records] == [marker]

        found = driver.execute_query(
            "MATCH (n:TwoclocksProbe {marker: $marker}) RETURN n.marker AS marker",
            marker=marker,
        )
        assert [r["marker"] for r in found.records] == [marker]

        deleted = driver.execute_query(
            "MATCH (n:TwoclocksProbe {marker: $marker}) DELETE n", marker=marker
        )
        assert deleted.summary.counters.nodes_deleted == 1
        left = driver.execute_query(
            "MATCH (n:TwoclocksProbe {marker: $marker}) RETURN count(n) AS c", marker=marker
        )
        assert left.records[0]["c"] == 0
