"""What a slot's values say about whether two names are one slot (slot drift, issue 11).

Two names of one slot hold the same kind of value: two CI products, two cities, two
versions of one thing. A version beside a URL, or a number beside a person, is two slots
whatever the names' similarity. One value held under both names says nothing either way
(see ``holds_same_value``). Pure: the value arrives as text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from twoclocks.domain.calendar_words import MONTH_STEM_PATTERN
from twoclocks.domain.text_fold import fold_value

ValueKind = Literal[
    "number",
    "quantity",
    "version",
    "url",
    "email",
    "path",
    "date",
    "time",
    "boolean",
    "decision",
    "text",
]

_NUMBER = re.compile(r"^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?%?$")
_QUANTITY = re.compile(
    r"^[-+]?\d+(\.\d+)?\s*(ms|s|sec|secs|seconds?|m|min|mins|minutes?|h|hrs?|hours?|d|days?|"
    r"w|weeks?|months?|years?|b|kb|mb|gb|tb|kib|mib|gib|tib|k|x|cores?|cpus?|rps|qps|%|"
    r"replicas?|nodes?|pods?|workers?|threads?|attempts?|retries|times|items?|users?|"
    r"requests?|px|em|rem|chars?|characters?|lines?|ghz|mhz)$",
    re.IGNORECASE,
)
_VERSION = re.compile(r"^(v|version\s*)?\d+(\.\d+){1,3}([-+.]?[0-9a-z.]+)?$", re.IGNORECASE)
_NAMED_VERSION = re.compile(r"^[a-z][\w.+-]*\s+v?\d+(\.\d+)*$", re.IGNORECASE)
_URL = re.compile(r"^([a-z][a-z0-9+.-]*://\S+|(www\.)?[\w-]+(\.[\w-]+)*\.[a-z]{2,}(/\S*)?)$", re.I)
_EMAIL = re.compile(r"^[\w.+-]+@[\w-]+(\.[\w-]+)+$")
_PATH = re.compile(
    r"^(~|\.{1,2})?/[^\s]*$|^[\w.-]+(/[\w.-]+)+/?$|^[\w-]+\.(ya?ml|json|toml|ini|env|cfg|conf|txt|md|py|ts|js|sh|lock)$|^\.[\w.-]+$",
    re.I,
)
_DATE = re.compile(
    r"^\d{4}-\d{2}-\d{2}([t ]\d{2}:\d{2}(:\d{2})?(\.\d+)?(z|[+-]\d{2}:?\d{2})?)?$"
    r"|^(mon|tue|wed|thu|fri|sat|sun)[a-z]*(days)?$"
    rf"|^({MONTH_STEM_PATTERN})[a-z]*\s+\d{{1,2}}(,?\s+\d{{4}})?$",
    re.IGNORECASE,
)
_TIME = re.compile(r"^\d{1,2}(:\d{2}){1,2}\s*(am|pm)?(\s*[a-z]{2,5})?$|^\d{1,2}\s*(am|pm)$", re.I)
DECISION_WORDS = frozenset({"decision", "rationale", "reason", "why", "adr"})
"""Words that make a slot name a decision about a thing (``db_decision``, ``ci_rationale``),
not the thing."""
_DECISION = re.compile(
    r"^(we\s+)?(chose|picked|decided|selected|went with|opted for)\b|\bover\b[^:]{1,60}:\s", re.I
)
"""A value that states a decision and its reason ("chose Postgres over DynamoDB: PostGIS"),
not the thing chosen: a slot holding one is not the slot of the thing."""
_BOOLEAN = frozenset(
    {"true", "false", "yes", "no", "on", "off", "enabled", "disabled", "none", "null"}
)


def value_kind(value: str) -> ValueKind:
    """The shape of a value: a number, a version, a URL, ... or plain ``text``.

    >>> [value_kind(v) for v in ("42", "30s", "3.11.4", "https://x.io", "ops@x.io")]
    ['number', 'quantity', 'version', 'url', 'email']
    >>> [value_kind(v) for v in ("./ci.yml", "2026-01-05", "09:30", "true", "CircleCI")]
    ['path', 'date', 'time', 'boolean', 'text']
    >>> value_kind("Python 3.12")
    'version'
    >>> value_kind("chose Zephyr over FreeRTOS: built-in BLE stack")
    'decision'
    """
    v = value.strip()
    low = v.lower()
    if low in _BOOLEAN:
        return "boolean"
    checks: tuple[tuple[re.Pattern[str], ValueKind], ...] = (
        (_NUMBER, "number"),
        (_QUANTITY, "quantity"),
        (_DATE, "date"),
        (_TIME, "time"),
        (_VERSION, "version"),
        (_EMAIL, "email"),
        (_URL, "url"),
        (_PATH, "path"),
        (_NAMED_VERSION, "version"),
        (_DECISION, "decision"),
    )
    for pattern, kind in checks:
        if pattern.match(v):
            return kind
    return "text"


ValueVerdict = Literal["same_kind", "different_kind", "unknown"]


def values_verdict(value: str, others: Iterable[str]) -> ValueVerdict:
    """Whether ``value`` is of the kind an existing slot holds (its current ``others``).

    ``different_kind``: the kinds differ and at least one is not plain text (a version
    beside a URL, a number beside a name). ``same_kind``: both are the same kind other
    than text. ``unknown``: both text, or nothing to compare with.

    >>> values_verdict("3.12", ["3.11"])
    'same_kind'
    >>> values_verdict("Lyon", ["42"])
    'different_kind'
    >>> values_verdict("Lyon", ["Paris"])
    'unknown'
    >>> values_verdict("30", ["45s"])
    'same_kind'
    """
    kinds = {_family(value_kind(o)) for o in others}
    if not kinds:
        return "unknown"
    mine = _family(value_kind(value))
    if mine in kinds:
        return "unknown" if mine == "text" else "same_kind"
    return "different_kind"


def one_states_a_decision(value: str, others: Iterable[str]) -> bool:
    """True when one side states a decision and the other does not: ``framework`` Flutter
    3.24 and ``framework_choice`` "chose Flutter over React Native: one BLE stack" are the
    thing and the decision about it, whatever the names say.

    >>> one_states_a_decision("chose Flutter over React Native: one BLE stack", ["Flutter 3.24"])
    True
    >>> one_states_a_decision("Flutter 3.27", ["Flutter 3.24"])
    False
    """
    mine = value_kind(value) == "decision"
    return any((value_kind(o) == "decision") != mine for o in others)


def holds_same_value(value: str, others: Iterable[str]) -> bool:
    """True when ``value`` is one of ``others`` once case, spacing and edge punctuation fold.

    An identical value is no evidence that two names are one slot: one person holds two
    roles (chairperson and CEO), one service uses one tool for two jobs (Redis as cache and
    as queue). And the costs are lopsided: a merge that is wrong closes a value that is
    still true, while a missed one leaves nothing stale, since both slots hold the same
    value. So two names holding one value are judged on the names alone.

    >>> holds_same_value("Mary Barra", ["mary  barra."])
    True
    >>> holds_same_value("Redis 7", ["Redis 6"])
    False
    """
    mine = fold_value(value)
    return bool(mine) and any(fold_value(o) == mine for o in others)


def _family(kind: ValueKind) -> str:
    # A bare number is often a quantity or a version written short ("30" for "30s",
    # "3" for "3.0"): kinds that one slot may hold either way count as one.
    return "numeric" if kind in ("number", "quantity", "version") else kind
