"""Slot names (DESIGN.md §3 "Slot drift"): predicate names as words, one spelling each."""

from __future__ import annotations

import doctest

import pytest

from twoclocks.domain import slot_names
from twoclocks.domain.slot_names import canonical_tokens, humanize_predicate, predicate_tokens


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("ciProvider", "ci provider"),
        ("ci_provider", "ci provider"),
        ("deploy-target", "deploy target"),
        ("deploy.target", "deploy target"),
        ("DeployTarget", "deploy target"),
        ("HTTPServerPort", "http server port"),
        ("dbURL", "db url"),
        ("s3Bucket", "s3 bucket"),
        ("oauth2_provider", "oauth2 provider"),
        ("__ci__provider__", "ci provider"),
        ("  on call  ", "on call"),
        ("", ""),
    ],
)
def test_humanize_predicate(name: str, expected: str) -> None:
    assert humanize_predicate(name) == expected


def test_predicate_tokens_are_the_humanized_words() -> None:
    assert predicate_tokens("on_call-engineerName") == ["on", "call", "engineer", "name"]
    assert humanize_predicate("on_call-engineerName") == "on call engineer name"


def test_canonical_tokens_expand_abbreviations_and_plurals() -> None:
    assert canonical_tokens("db_envs") == ["database", "environment"]
    assert canonical_tokens("replicas") == ["replica"]
    assert canonical_tokens("retries") == ["retry"]
    # Words that only look plural keep their "s".
    assert canonical_tokens("redis_status") == ["redis", "status"]
    assert canonical_tokens("kubernetes") == ["kubernetes"]


def test_docstring_examples() -> None:
    result = doctest.testmod(slot_names, raise_on_error=False)
    assert result.attempted > 0
    assert result.failed == 0
