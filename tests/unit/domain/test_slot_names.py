"""Slot names (DESIGN.md §3 "Slot drift"): humanizing and the lexical half of matching."""

from __future__ import annotations

import doctest
import json
from pathlib import Path

import pytest

from twoclocks.domain import slot_names
from twoclocks.domain.slot_names import (
    canonical_tokens,
    humanize_predicate,
    lexical_verdict,
    predicate_tokens,
    should_merge,
)

PAIRS_FILE = Path(__file__).resolve().parents[2] / "data" / "slot_pairs.jsonl"

# Abbreviations and spelling variants: lexically the same slot, whatever the model says.
SAME = [
    ("db_engine", "database_engine"),
    ("deploy_target", "deployment_target"),
    ("package_manager", "pkg_manager"),
    ("test_command", "test_cmd"),
    ("repo_url", "repository_url"),
    ("config_file", "configuration_file"),
    ("env_name", "environment_name"),
    ("ciProvider", "ci_provider"),
    ("deploy-target", "deploy_target"),
    ("deploy.target", "DeployTarget"),
    ("on_call", "oncall"),
    ("timezone", "time_zone"),
    ("maintainers", "maintainer"),
    ("k8s_namespace", "kubernetes_namespace"),
    ("pr_reviewer", "pull_request_reviewer"),
    ("former_owner", "previous_owner"),
    ("test_framework", "testing_framework"),
    ("on_call_rotation", "oncall_rotation"),
]

# Names that differ by a contrasting qualifier: never one slot, whatever the model says.
DIFFERENT = [
    ("deploy_target", "deploy_region"),
    ("primary_db", "replica_db"),
    ("frontend_port", "backend_port"),
    ("owner", "previous_owner"),
    ("test_command", "build_command"),
    ("lint_command", "format_command"),
    ("min_replicas", "max_replicas"),
    ("source_branch", "target_branch"),
    ("staging_url", "production_url"),
    ("db_host", "db_port"),
    ("start_date", "end_date"),
    ("current_sprint", "next_sprint"),
    ("former_ci_provider", "ci_provider"),
    ("ci_provider", "cd_provider"),
    ("python_version", "node_version"),
    ("db_name", "db_user"),
    ("log_level", "log_format"),
    ("monthly_budget", "daily_budget"),
    ("on_call", "on_call_backup"),
    ("min_python_version", "python_version"),
    ("feature_flag_service", "feature_flag_name"),
]

# Left to the embedding: synonyms the rules cannot know, and near-names they cannot rule out.
UNKNOWN = [
    ("ci_provider", "ci_platform"),
    ("on_call_engineer", "on_call"),
    ("hosting_provider", "hosting_platform"),
    ("error_tracker", "issue_tracker"),
    ("search_engine", "search_backend"),
    ("cache_backend", "queue_backend"),
]


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


@pytest.mark.parametrize(("a", "b"), SAME)
def test_lexical_same_in_both_directions(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "same"
    assert lexical_verdict(b, a) == "same"


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_lexical_different_in_both_directions(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "different"
    assert lexical_verdict(b, a) == "different"


@pytest.mark.parametrize(("a", "b"), UNKNOWN)
def test_lexical_unknown_in_both_directions(a: str, b: str) -> None:
    assert lexical_verdict(a, b) == "unknown"
    assert lexical_verdict(b, a) == "unknown"


def test_identical_names_are_the_same() -> None:
    assert lexical_verdict("ci_provider", "ci_provider") == "same"


@pytest.mark.parametrize(("a", "b"), DIFFERENT)
def test_must_not_merge_pairs_never_merge_even_at_similarity_one(a: str, b: str) -> None:
    assert not should_merge(a, b, similarity=1.0, threshold=0.5)
    assert not should_merge(b, a, similarity=1.0, threshold=0.5)


@pytest.mark.parametrize(("a", "b"), SAME)
def test_same_pairs_merge_even_at_similarity_zero(a: str, b: str) -> None:
    assert should_merge(a, b, similarity=0.0, threshold=0.99)
    assert should_merge(b, a, similarity=0.0, threshold=0.99)


def test_unknown_pairs_follow_the_threshold_inclusively() -> None:
    assert should_merge("ci_provider", "ci_platform", similarity=0.7, threshold=0.7)
    assert not should_merge("ci_provider", "ci_platform", similarity=0.69, threshold=0.7)


def _labelled_pairs() -> list[tuple[str, str, bool]]:
    rows = [json.loads(line) for line in PAIRS_FILE.read_text().splitlines() if line.strip()]
    return [(row["a"], row["b"], bool(row["merge"])) for row in rows]


def test_labelled_set_is_large_and_balanced() -> None:
    pairs = _labelled_pairs()
    merges = sum(merge for _, _, merge in pairs)
    assert len(pairs) >= 70
    assert 0.4 <= merges / len(pairs) <= 0.6


def test_lexical_verdict_is_symmetric_on_the_labelled_set() -> None:
    for a, b, _ in _labelled_pairs():
        assert lexical_verdict(a, b) == lexical_verdict(b, a), (a, b)


def test_lexical_same_never_fires_on_a_labelled_must_not_merge_pair() -> None:
    # The rules may miss synonyms (the embedding is there for those), but a lexical
    # "same" overrides the model, so it must never be wrong.
    wrong = [
        (a, b) for a, b, merge in _labelled_pairs() if not merge and lexical_verdict(a, b) == "same"
    ]
    assert wrong == []


def test_docstring_examples() -> None:
    result = doctest.testmod(slot_names, raise_on_error=False)
    assert result.attempted > 0
    assert result.failed == 0
