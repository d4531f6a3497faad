"""The secret check every write passes: known credential shapes, values introduced by a
credential word (in the text, or by the slot's own name), plus detect-secrets.

detect-secrets' entropy plugins are left out on purpose: they flag commit SHAs and
UUIDs, which are ordinary facts in a coding agent's memory.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache
from typing import Any

from twoclocks.domain.credentials import credential_kind, labelled_pair
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


def _scanner_findings(texts: list[str]) -> list[str | None]:
    """detect-secrets' verdict for each text; one settings switch for all of them, since
    entering ``transient_settings`` costs more than scanning a short fact."""
    from detect_secrets.core.scan import scan_line
    from detect_secrets.settings import transient_settings

    found: list[str | None] = []
    with transient_settings(_settings()):
        for text in texts:
            kinds = (str(f.type) for line in text.splitlines() or [text] for f in scan_line(line))
            found.append(next(kinds, None))
    return found


def secret_in(text: str) -> str | None:
    """Name the kind of credential in ``text``, or None when it looks clean."""
    return credential_kind(text) or _scanner_findings([text])[0]


def _labelled_by_slot(named: list[tuple[str, str]]) -> list[str | None]:
    """Per field: the kind of secret an object is once its slot names it (``db_password`` ->
    ``hunter2Sup3rS3cret!``), which neither field shows alone."""
    values = dict(named)
    kinds: list[str | None] = []
    for name, value in named:
        kind = None
        if name.endswith("object"):
            prefix = name.removesuffix("object")
            labels = (values.get(prefix + "predicate"), values.get(prefix + "subject"))
            kind = next((k for k in (labelled_pair(x, value) for x in labels if x) if k), None)
        kinds.append(kind)
    return kinds


def refuse_secrets(fields: Iterable[tuple[str, str | None]]) -> None:
    """Raise SecretRefused if any named field carries a credential; the value is never echoed."""
    named = [(name, value) for name, value in fields if value]
    kinds = [credential_kind(value) for _, value in named]
    if not any(kinds):
        kinds = _labelled_by_slot(named)
    if not any(kinds):
        kinds = _scanner_findings([value for _, value in named])
    for (name, _), kind in zip(named, kinds, strict=True):
        if kind:
            raise SecretRefused(
                f"{name} looks like a credential ({kind}); twoclocks never stores secrets. "
                "Store where the secret lives (e.g. 'in 1Password, item deploy-key') instead."
            )
