"""The one secret check every write passes (DESIGN.md §3): domain patterns + detect-secrets."""

from __future__ import annotations

import pytest

from twoclocks.domain.errors import SecretRefused
from twoclocks.secret_scan import refuse_secrets, secret_in

MAILCHIMP = "key 0123456789abcdef0123456789abcdef-us12"  # only detect-secrets knows this shape
SLACK = "xoxb-123456789012-1234567890123-abcdefghijklmnopqrstuvwx"


def test_secrets_are_refused_naming_the_field_and_never_echoing_the_value() -> None:
    for fields, field in (
        ([("subject", "prod"), ("object", SLACK)], "object"),
        ([("subject", "prod"), ("predicate", "api_key"), ("evidence", MAILCHIMP)], "evidence"),
    ):
        with pytest.raises(SecretRefused) as refused:
            refuse_secrets(fields)
        assert refused.value.message.startswith(field)
        assert SLACK not in refused.value.message and MAILCHIMP not in refused.value.message


def test_detect_secrets_finds_what_the_domain_patterns_do_not() -> None:
    assert secret_in(MAILCHIMP) == "Mailchimp Access Key"
    assert secret_in("SK0123456789abcdef0123456789abcdef") == "Twilio API Key"


def test_ordinary_facts_pass_including_shas_and_uuids() -> None:
    refuse_secrets(
        [
            ("subject", "billing-api"),
            ("object", "deployed at commit 3f2a9c1e8b7d6a5f4e3d2c1b0a9f8e7d6c5b4a39"),
            ("evidence", "request id 123e4567-e89b-12d3-a456-426614174000, multi\nline"),
            ("predicate", None),
        ]
    )
    assert secret_in("we deploy to Render, Oregon region") is None
