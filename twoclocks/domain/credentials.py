"""Credential shapes known by prefix or label; the pure half of the secret check.

The service adds a maintained scanner (detect-secrets) on top; both run at the one
point every write passes.
"""

from __future__ import annotations

import re

KNOWN_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "OpenAI/Anthropic-style key",
        re.compile(r"\bsk-(?:ant-|proj-|live-|test-)?[A-Za-z0-9_\-]{16,}"),
    ),
    ("GitHub token", re.compile(r"\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}")),
    ("GitHub fine-grained token", re.compile(r"\bgithub_pat_[A-Za-z0-9_]{22,}")),
    ("npm token", re.compile(r"\bnpm_[A-Za-z0-9]{30,}")),
    ("Slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("AWS access key id", re.compile(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b")),
    ("Google API key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}\b")),
    ("Stripe key", re.compile(r"\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}")),
    ("private key block", re.compile(r"-----BEGIN [A-Z ]*PRIVATE KEY-----")),
    (
        "JSON web token",
        re.compile(r"\beyJ[A-Za-z0-9_-]{10,}\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}"),
    ),
    (
        "labelled secret",
        re.compile(
            r"(?i)\b(?:api[_-]?key|secret|password|passwd|token|access[_-]?key|auth)"
            r"\s*[=:]\s*['\"]?[^\s'\"]{6,}"
        ),
    ),
    ("URL with a password", re.compile(r"\b[a-z][a-z0-9+.-]*://[^/\s:@]+:[^/\s@]{3,}@")),
)


def credential_kind(text: str) -> str | None:
    """Name the kind of credential ``text`` carries, or None.

    >>> credential_kind("key is sk-abcdefghijklmnopqrstuv")
    'OpenAI/Anthropic-style key'
    >>> credential_kind("api_key=12345678") is not None
    True
    >>> credential_kind("the deploy target is Render, Oregon") is None
    True
    """
    for name, pattern in KNOWN_PATTERNS:
        if pattern.search(text):
            return name
    return None
