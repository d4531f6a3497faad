"""Credential shapes known by prefix, and values introduced by a credential word; the pure
half of the secret check.

The service adds a maintained scanner (detect-secrets) on top; both run at the one
point every write passes.

A credential word alone is not a secret: "rotate the token weekly" and "password manager
is 1Password" are the facts a team most needs remembered. What decides is what follows
the word (docs/SECURITY.md, "Secrets"): after an assignment (``=``), a colon or a
copula ("is", "are", "was") and in a bare ``bearer <x>``, a *value* (one token, no spaces,
mixed letters and digits, or a password-like string) is refused; an ordinary word, a
number, a duration, a version, a host name, a path, an environment variable's name or a
placeholder is not, and neither is a product the gazetteer names (1Password). The rule
is deterministic: no model, no randomness.
"""

from __future__ import annotations

import re
from enum import Enum

from twoclocks.domain.value_categories import categories_of_name

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
)

_URL_PASSWORD = re.compile(r"\b[a-z][a-z0-9+.\-]*://[^/\s:@]*:(?P<password>[^/\s@]+)@")
"""``scheme://user:password@host``, the user possibly empty (``redis://:pass@cache``)."""


class _Family(Enum):
    """What a credential word names: a password a person chose, or a machine-made key."""

    PASSWORD = "password"
    KEY = "key"


class _Link(Enum):
    """How the word introduces what follows it; the stronger the link, the less the value
    itself has to look like a secret."""

    ASSIGN = "assign"  # AWS_SECRET_ACCESS_KEY=..., token := ..., "password" => ...
    STATE = "state"  # password: ..., the token is ..., keys are ...
    BARE = "bare"  # bearer ..., --password ...


_SEP = r"[_\-\s]?"
_LABEL = re.compile(
    # A word boundary, a camelCase one (dbPassword) or an upper-case name (PGPASSWORD):
    # never inside a word (1Password).
    r"(?:(?<![A-Za-z0-9])|(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=(?:PASS|SECRET|TOKEN|APIKEY)))"
    r"(?P<word>(?i:"
    rf"secret{_SEP}access{_SEP}key|client{_SEP}secret|secret{_SEP}key|api{_SEP}key"
    rf"|access{_SEP}token|auth{_SEP}token|refresh{_SEP}token|private{_SEP}key"
    rf"|access{_SEP}key|passphrase|password|passwd|pwd|credentials?|secret|token|bearer|auth"
    r")s?"
    # In a URL's query, key= and sig= carry one (https://hooks.acme.io/in?key=...).
    r"|(?<=[?&])(?i:key|sig|signature)(?==))"
    # The word ends the name: token_expiry, passwordHash, auth-service are other things.
    r"(?![A-Za-z0-9_\-])"
)
_QUALIFIER = re.compile(
    r"\s+(?:for|of|on|in|at|to)\s+(?:the\s+|our\s+|a\s+)?[^\s:=]+(?:\s+[^\s:=]+)?(?=\s*[:=]|\s+is\b)"
)
_LINK = re.compile(
    r"""["'`\]]?(?:
        (?P<assign>\s*(?::=|=>|==?)\s*)
      | (?P<state>\s*:\s*|\s+(?:is|are|was|were|equals|becomes)
            (?:\s+(?:now|still|currently|(?:set|changed|updated|reset|rotated)\s+to))?\s*:?\s+
          | (?:\s+(?:set|changed|updated|reset|rotated))?\s+to\s+)
      | (?P<bare>\s+)
    )["'`]?(?P<value>[^\s"'`]+)""",
    re.VERBOSE,
)
_PASSWORD_WORDS = ("passphrase", "password", "passwd", "pwd", "credential")

_REFERENCE = re.compile(
    r"^(?:[$%<{\[]|~?/|\.\.?/|[a-z][a-z0-9+.\-]*://[^@\s]*$|(?:op|arn|ssm|vault|file):)"
)
"""Says where a secret is, not what it is: $VAR, ${{ secrets.X }}, <your key>, a path, a
URL without a password, a 1Password / ARN / SSM reference."""
_ENV_NAME = re.compile(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_CODE = re.compile(r"^[A-Za-z_][\w.]*[(\[]|^[A-Za-z_]+(?:\.[A-Za-z_]+)+$")
"""An expression that reads the secret: os.getenv(...), settings.DB_PASSWORD."""
_WORD = re.compile(r"^(?:[A-Za-z][a-z]*|[A-Z]+|(?:[A-Z][a-z]+){2,4})$")
_QUANTITY = re.compile(
    r"^\d+(?:[.,]\d+)?(?:ms|s|secs?|m|mins?|h|hrs?|d|days?|w|wks?|mo|y|k|kb|mb|gb|%|x)?$",
    re.IGNORECASE,
)
_VERSION = re.compile(r"^v?\d+(?:\.\d+){1,3}(?:[-+][0-9A-Za-z.]+)?$")
_HOSTNAME = re.compile(r"^(?:[a-z0-9\-]+\.)+[a-z]{2,}(?::\d+)?$")
_SEGMENT = r"(?:[A-Z]+|[A-Z]?[a-z]+\d{0,2}|\d{1,4})"
_SLUG = re.compile(rf"^{_SEGMENT}(?:[-_./]{_SEGMENT})+$")
_STRIP_AROUND = "\"'`([{<.,;:)]}>"


def _classes(value: str) -> int:
    """How many of lower case, upper case and digits a value mixes."""
    return sum(
        (
            any(c.islower() for c in value),
            any(c.isupper() for c in value),
            any(c.isdigit() for c in value),
        )
    )


def _names_a_place(value: str) -> bool:
    """A reference, an expression, an env variable's name or a placeholder (``****``)."""
    return bool(
        _REFERENCE.match(value)
        or _CODE.match(value)
        or _ENV_NAME.match(value.strip(_STRIP_AROUND))
        or re.fullmatch(r"(.)\1+", value.strip(_STRIP_AROUND))
    )


def _is_value(raw: str, family: _Family, link: _Link) -> bool:
    """True when ``raw``, introduced by a credential word through ``link``, is a secret."""
    value = raw.strip(_STRIP_AROUND)
    if len(value) < 6 or _names_a_place(raw):
        return False
    if categories_of_name(value.lower()):
        # "secrets: 1Password vault kestrel-dev" says where the secrets live, as the
        # refusal itself advises; a product the gazetteer names is no one's password.
        return False
    natural = bool(_WORD.match(value) or _VERSION.match(value) or _HOSTNAME.match(value))
    quantity = bool(_QUANTITY.match(value))
    slug = bool(_SLUG.match(value))
    random_looking = not (natural or quantity or slug)
    if family is _Family.PASSWORD:
        if link is _Link.ASSIGN:
            # password=swordfish is a password whatever it looks like; 15m is not.
            return value.isdigit() or not quantity
        if link is _Link.STATE:
            # A passphrase (correct-horse-battery-staple) counts; "required" does not.
            return random_looking or slug
        return random_looking and len(value) >= 8
    if link is _Link.ASSIGN:
        return len(value) >= 8 and (random_looking or value.isdigit())
    mixed = _classes(value) >= 2
    if link is _Link.STATE:
        return random_looking and mixed and len(value) >= 8
    return random_looking and mixed and len(value) >= 12


def _family(word: str) -> _Family:
    lowered = word.lower()
    return _Family.PASSWORD if lowered.startswith(_PASSWORD_WORDS) else _Family.KEY


def labelled_value(text: str) -> str | None:
    """The credential word that introduces a secret value in ``text``, or None.

    >>> labelled_value("db password is hunter2Sup3rS3cret!")
    'password'
    >>> labelled_value("password manager is 1Password") is None
    True
    >>> labelled_value("rotate the token weekly") is None
    True
    """
    for label in _LABEL.finditer(text):
        rest = text[label.end() :]
        qualifier = _QUALIFIER.match(rest)
        link = _LINK.match(rest[qualifier.end() :] if qualifier else rest)
        if link is None or (qualifier and link.group("bare") is not None):
            continue
        how = _Link.ASSIGN if link.group("assign") else _Link.BARE
        if link.group("state") is not None:
            how = _Link.STATE
        if _is_value(link.group("value"), _family(label.group("word")), how):
            return re.sub(r"[_\-\s]+", " ", label.group("word").lower())
    return None


def _url_password(text: str) -> bool:
    return any(not _names_a_place(m.group("password")) for m in _URL_PASSWORD.finditer(text))


def credential_kind(text: str) -> str | None:
    """Name the kind of credential ``text`` carries, or None; never the credential itself.

    >>> credential_kind("key is sk-abcdefghijklmnopqrstuv")
    'OpenAI/Anthropic-style key'
    >>> credential_kind("api_key=12345678")
    'value labelled api key'
    >>> credential_kind("the deploy target is Render, Oregon") is None
    True
    """
    for name, pattern in KNOWN_PATTERNS:
        if pattern.search(text):
            return name
    if _url_password(text):
        return "URL with a password"
    label = labelled_value(text)
    return f"value labelled {label}" if label else None


def labelled_pair(label: str, value: str) -> str | None:
    """The kind of credential a slot name (``db_password``) gives the value stored under it."""
    word = labelled_value(f"{label.strip()}: {value.strip()}")
    return f"value labelled {word}" if word else None
