"""Credential shapes (DESIGN.md §5): known prefixes are refused, ordinary facts are not."""

from __future__ import annotations

import pytest

from twoclocks.domain.credentials import credential_kind

SECRETS = {
    "OpenAI key": "the key is sk-proj-4fJ9kQ2mXv7LpR8sT1uW3yZ6",
    "Anthropic key": "sk-ant-api03-Zx8vB2nM4qL6kJ9hG1fD3sA5",
    "GitHub token": "token ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    "npm token": "npm_a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "api_key label": "api_key=9f8e7d6c5b4a",
    "api-key label with quotes": 'API-KEY: "q8w7e6r5t4y3"',
    "AWS access key id": "aws id AKIAIOSFODNN7EXAMPLE",
    "private key block": "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA",
    "RSA private key block": "-----BEGIN RSA PRIVATE KEY-----",
    "JWT": (
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0."
        "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
    ),
    "URL with a password": "DATABASE_URL is postgres://app:hunter2secret@db.internal:5432/app",
}

ORDINARY = {
    "deploy target": "deploy target is Render, Oregon",
    "a person": "on call is Selin Aydin",
    "a commit sha": "fixed in 9fceb02d0ae598e95dc970b74767f19372d61af8",
    "a UUID": "workspace 123e4567-e89b-12d3-a456-426614174000",
    "a file path": "/home/selin/code/acme-api/src/auth/token_store.py",
    "a URL with a port": "health check at http://localhost:8080/healthz",
    "sk- inside a word": "ask-before-merging-anything-to-main-please",
    "a git remote": "git@github.com:acme/api.git",
    "a predicate about keys": "api keys rotate every 90 days",
}


@pytest.mark.parametrize("text", SECRETS.values(), ids=SECRETS.keys())
def test_known_credential_shapes_are_caught(text: str) -> None:
    assert credential_kind(text) is not None


@pytest.mark.parametrize("text", ORDINARY.values(), ids=ORDINARY.keys())
def test_ordinary_facts_are_not_flagged(text: str) -> None:
    assert credential_kind(text) is None


def test_the_kind_names_what_was_found() -> None:
    assert credential_kind(SECRETS["GitHub token"]) == "GitHub token"
    assert credential_kind(SECRETS["AWS access key id"]) == "AWS access key id"
    assert credential_kind(SECRETS["URL with a password"]) == "URL with a password"
