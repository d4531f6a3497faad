"""Credential shapes (DESIGN.md §5): known prefixes are refused, ordinary facts are not."""

from __future__ import annotations

import pytest

from twoclocks.domain.credentials import credential_kind, labelled_pair

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


LABELLED = {
    "env assignment": "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "spaced assignment": "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    "stated password": "db password is hunter2Sup3rS3cret!",
    "unknown token prefix": "the token: ghx_7Qw9ZtR2mK4pL8vN3xB6",
    "glued upper-case name": "PGPASSWORD=Falcon41Battery%",
    "camelCase JSON key": '{"clientSecret": "8Q~xYz12AbCdEfGhIjKlMn"}',
    "qualified": "the password for prod db is Tr0ub4dor&3",
    "bare bearer": "Authorization: Bearer abcDEF123456ghiJKL",
    "set to": "set the deploy token to 70ba99852412f06bc1c45b4e607f1472",
    "URL query key": "https://hooks.acme.io/in?key=UcW4ugfntu3Rfy7JUBzUPCjp",
    "redis URL, empty user": "redis://:c4cheP4ss@cache:6379",
    "mongodb URL, one-letter password": "mongodb+srv://u:p@cluster0.example.mongodb.net",
}

MENTIONS = {
    "rotation": "rotate the token weekly",
    "a product": "password manager is 1Password",
    "where secrets live": "secrets: 1Password vault 'kestrel-dev', loaded with op run",
    "a vault product": "deploy token: 1Password, item deploy-key",
    "a place": "API keys are stored in AWS Secrets Manager",
    "a duration": "token expiry is 15 minutes",
    "a policy": "password policy requires 12 characters",
    "another sense": "the auth service owns login",
    "an env name": "the token is in GITHUB_TOKEN",
    "an expression": "password=os.getenv('DB_PASSWORD')",
    "a placeholder": "connect with postgres://app:${DB_PASSWORD}@db/app",
    "an LLM setting": "max_tokens=4096",
}


@pytest.mark.parametrize("text", LABELLED.values(), ids=LABELLED.keys())
def test_a_value_introduced_by_a_credential_word_is_a_credential(text: str) -> None:
    assert credential_kind(text) is not None


@pytest.mark.parametrize("text", MENTIONS.values(), ids=MENTIONS.keys())
def test_a_credential_word_followed_by_no_value_is_not_a_credential(text: str) -> None:
    assert credential_kind(text) is None


def test_a_slot_named_for_a_credential_labels_its_value_and_the_kind_never_holds_it() -> None:
    assert labelled_pair("db_password", "hunter2Sup3rS3cret!") == "value labelled password"
    assert labelled_pair("password_manager", "1Password") is None
    assert labelled_pair("secrets", "1Password vault 'kestrel-dev', loaded with op run") is None
    assert labelled_pair("token", "rotated weekly") is None
