"""Slot names (DESIGN.md §3 "Slot drift"): predicate names as words, one spelling each."""

from __future__ import annotations

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


@pytest.mark.parametrize(
    ("short", "long"),
    [
        ("sso_provider", "single_sign_on_provider"),
        ("lb_host", "load_balancer_host"),
        ("surname", "family_name"),
        ("ci_provider", "continuous_integration_provider"),
        ("postmortem_doc", "incident_review_doc"),
        ("pg_version", "postgresql_version"),
    ],
)
def test_an_abbreviation_or_a_synonym_names_the_same_words(short: str, long: str) -> None:
    assert canonical_tokens(short) == canonical_tokens(long)


def test_first_and_last_name_stay_two_names_through_their_synonyms() -> None:
    assert canonical_tokens("surname") != canonical_tokens("given_name")
    assert canonical_tokens("forename") == canonical_tokens("given_name") == ["first", "name"]


def test_a_strict_reading_leaves_the_loose_synonyms_as_written() -> None:
    assert canonical_tokens("smtp_provider") == ["email", "provider"]
    assert canonical_tokens("smtp_provider", loose=False) == ["smtp", "provider"]
    assert canonical_tokens("knowledge_base", loose=False) == ["knowledge", "base"]
    # Abbreviations and plurals are read either way.
    assert canonical_tokens("db_hosts", loose=False) == ["database", "host"]


def test_slot_drift_a_word_spelt_with_capitals_inside_is_one_word() -> None:
    # "IdP" read as "id p" put an attribute noun ("id") in the name: "different" from the
    # SSO provider it is. A case change that strands one letter, or splits a product's
    # name, is spelling.
    assert predicate_tokens("IdP") == ["idp"]
    assert predicate_tokens("OAuth_scopes") == ["oauth", "scopes"]
    assert predicate_tokens("iOS_version") == ["ios", "version"]
    assert predicate_tokens("GitHubToken") == ["github", "token"]
    assert predicate_tokens("preferredTypeScriptVersion") == ["preferred", "typescript", "version"]
    # Real word boundaries still split.
    assert predicate_tokens("deployTargetURL") == ["deploy", "target", "url"]
    assert predicate_tokens("userID") == ["user", "id"]
    # An acronym's plural is one word too: "URLs", not "UR Ls".
    assert predicate_tokens("allowedURLs") == ["allowed", "urls"]
    assert predicate_tokens("getAPIsList") == ["get", "apis", "list"]
    assert predicate_tokens("HTTPServerPort") == ["http", "server", "port"]
    # Keyword search indexes every case change, so "circle ci" still finds CircleCI.
    assert slot_names.case_split_words("CircleCI") == ["circle", "ci"]
