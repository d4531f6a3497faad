"""Session fixtures shared by the whole test suite."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest
from falkordb_fixture import falkordb_server  # noqa: F401  (session fixture)
from neo4j_server import Neo4jUnavailable, TestNeo4j

# The server's default zone is the machine's (config.machine_zone); the suite's expected
# times are written in UTC, so it runs in UTC wherever it runs (servers it starts inherit it).
os.environ.setdefault("TWOCLOCKS_TIMEZONE", "UTC")


@pytest.fixture(autouse=True)
def no_client_file(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every test gets its own empty user config dir: a real ~/.config/twoclocks/client.json
    (left by a `twoclocks serve` on this machine) must not steer where tests' clients look."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("xdg-config")))


@pytest.fixture(autouse=True)
def not_in_an_agents_shell(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite run from Claude Code's or Codex's shell must not make the CLI the agent's:
    the variables those clients set there are cleared (tests that want them set them)."""
    from twoclocks.clients.shells import SHELL_VARIABLES

    for variables in SHELL_VARIABLES.values():
        for variable in variables:
            monkeypatch.delenv(variable, raising=False)


@pytest.fixture(scope="session")
def neo4j_uri() -> Iterator[str]:
    """Bolt URI of a real Neo4j 5.26: $TWOCLOCKS_TEST_NEO4J_URI, else one from ci/neo4j/start.

    Started on first use only, one of this pytest process's own (a clean database), and
    stopped at session end. When it cannot be had, the test is skipped, or fails under CI=true.
    """
    try:
        server = TestNeo4j.acquire()
    except Neo4jUnavailable as e:
        reason = f"no test Neo4j: {e}"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    try:
        yield server.uri
    finally:
        server.release()
