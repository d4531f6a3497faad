"""The Neo4j driver the store runs on packs and unpacks Bolt messages in Rust."""

from __future__ import annotations


def test_the_neo4j_driver_packs_bolt_messages_in_rust() -> None:
    # neo4j-rust-ext is a dependency because the pure-Python packstream cost 20-30% of a
    # store call (docs/benchmarks.md); the driver falls back silently when it is missing.
    from neo4j._codec.packstream import RUST_AVAILABLE

    assert RUST_AVAILABLE
