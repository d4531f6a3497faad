"""Secrets by label (issue 9, point 8), measured on a labelled corpus the tests generate.

Run with ``pytest -s tests/test_secret_corpus.py`` to see both rates; docs/SECURITY.md
quotes them.
"""

from __future__ import annotations

import time

from secret_corpus import SEED, Item, corpus

from twoclocks.domain.errors import SecretRefused
from twoclocks.secret_scan import refuse_secrets

MIN_SECRETS_REFUSED = 0.98
MAX_ORDINARY_REFUSED = 0.02


def refused(item: Item) -> bool:
    """Whether the one write path's check refuses this write."""
    try:
        refuse_secrets(item.fields)
    except SecretRefused as error:
        # The refusal names a field and never echoes what it found.
        field = error.message.split(" ", 1)[0]
        assert field in dict(item.fields) and dict(item.fields)[field] not in error.message
        return True
    return False


def test_the_corpus_is_labelled_generated_and_the_same_for_the_same_seed() -> None:
    items = corpus()
    secrets = [i for i in items if i.secret]
    ordinary = [i for i in items if not i.secret]
    assert len(secrets) >= 100 and len(ordinary) >= 100
    assert corpus(SEED) == items and corpus(SEED + 1) != items


def test_a_value_labelled_as_a_credential_is_refused_and_ordinary_mentions_are_not() -> None:
    items = corpus()
    started = time.perf_counter()
    verdicts = [(item, refused(item)) for item in items]
    elapsed = time.perf_counter() - started
    secrets = [r for i, r in verdicts if i.secret]
    ordinary = [r for i, r in verdicts if not i.secret]
    secret_rate = sum(secrets) / len(secrets)
    false_rate = sum(ordinary) / len(ordinary)
    print(
        f"\nsecret corpus (seed {SEED}): secrets refused {sum(secrets)}/{len(secrets)} = "
        f"{secret_rate:.3f}; ordinary refused {sum(ordinary)}/{len(ordinary)} = "
        f"{false_rate:.3f}; {1000 * elapsed / len(items):.2f} ms a write"
    )
    missed = [i.text for i, r in verdicts if i.secret and not r]
    wrongly = [i.text for i, r in verdicts if not i.secret and r]
    assert secret_rate >= MIN_SECRETS_REFUSED, missed
    assert false_rate <= MAX_ORDINARY_REFUSED, wrongly


def test_the_issue_examples_are_refused_and_its_ordinary_facts_are_stored() -> None:
    def check(text: str) -> bool:
        return refused(Item((("object", text),), secret=True, template="issue"))

    for secret in (
        "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "db password is hunter2Sup3rS3cret!",
        "the token: ghx_7Qw9ZtR2mK4pL8vN3xB6",
        "postgres://user:pass@host",
        "mongodb+srv://u:p@cluster0.example.mongodb.net",
        "redis://:pass@cache:6379",
    ):
        assert check(secret), secret
    for fact in (
        "rotate the token weekly",
        "password manager is 1Password",
        "secrets live in Vault",
        "API keys are stored in AWS Secrets Manager",
        "token expiry is 15 minutes",
        "password policy requires 12 characters",
        "the auth service owns login",
    ):
        assert not check(fact), fact


def test_a_slot_named_for_a_credential_labels_the_value_stored_under_it() -> None:
    def write(predicate: str, obj: str) -> Item:
        fields = (("subject", "prod"), ("predicate", predicate), ("object", obj))
        return Item(fields, secret=True, template="slot")

    assert refused(write("db_password", "hunter2Sup3rS3cret!"))
    assert refused(write("apiKey", "9f8e7d6c5b4a3f2e1d0c"))
    assert not refused(write("password_manager", "1Password"))
    assert not refused(write("token", "rotated weekly"))
    replacement = (("replacement.object", "Tr0ub4dor&3x"), ("replacement.predicate", "password"))
    assert refused(Item(replacement, secret=True, template="revise"))
