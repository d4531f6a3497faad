"""The secret check every write passes: known credential shapes plus detect-secrets.

detect-secrets' entropy plugins are left out on purpose: they flag commit SHAs and
UUIDs, which are ordinary facts in a coding agent's memory.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from twoclocks.domain.credentials import credential_kind
from twoclocks.domain.errors import SecretRefused

_PLUGINS = (
    "ArtifactoryDetector",
    "AWSKeyDetector",
    "AzureStorageKeyDetector",
    "BasicAuthDetector",
    "CloudantDetector",
    "DiscordBotTokenDetector",
    "GitHubTokenDetector",
    "GitLabTokenDetector",
    "IbmCloudIamDetector",
    "IbmCosHmacDetector",
    "JwtTokenDetector",
    "KeywordDetector",
    "MailchimpDetector",
    "NpmDetector",
    "OpenAIDetector",
    "PrivateKeyDetector",
    "PypiTokenDetector",
    "SendGridDetector",
    "SlackDetector",
    "SoftlayerDetector",
    "SquareOAuthDetector",
    "StripeDetector",
    "TelegramBotTokenDetector",
    "TwilioKeyDetector",
)


@cache
def _settings() -> dict[str, Any]:
    return {"plugins_used": [{"name": name} for name in _PLUGINS]}


def _scanner_finding(text: str) -> str | None:
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    with transient_settings(_settings()):
        for line in text.splitlines() or [text]:
            for finding in scan_line(line):
                return str(finding.type)
    return None


def secret_in(text: str) -> str | None:
    """Name the kind of credential in ``text``, or None when it looks clean."""
    return credential_kind(text) or _scanner_finding(text)


def refuse_secrets(fields: Iterable[tuple[str, str | None]]) -> None:
    """Raise SecretRefused if any named field carries a credential; the value is never echoed."""
    for name, value in fields:
        if value and (kind := secret_in(value)):
            raise SecretRefused(
                f"{name} looks like a credential ({kind}); twoclocks never stores secrets. "
                "Store where the secret lives (e.g. 'in 1Password, item deploy-key') instead."
            )
