"""How one slot name spells another's words: abbreviations, acronyms, numeronyms and
words run together or apart ("db" / "database", "sre" / "site reliability", "i18n" /
"internationalization", "dbname" / "database_name", "on call" / "oncall").

Used by ``slot_verdict`` before it compares two names word by word.
"""

from __future__ import annotations

import re
from functools import lru_cache

from twoclocks.domain.slot_names import canonical_tokens
from twoclocks.domain.token_runs import replace_longest_runs

_INFLECTIONS = frozenset({"ed", "d", "s", "es", "ing", "er", "ers", "ings", "ee", "or"})


def _is_abbreviation(short: str, long: str) -> bool:
    # "tf" / "terraform", "gh" / "github", "req" / "request": the short word's letters
    # appear in order in the long one, starting with its first letter.
    if len(short) < 2 or len(long) < len(short) + 2 or short[0] != long[0] or short.isdigit():
        return False
    if long.startswith(short) and long[len(short) :] in _INFLECTIONS:
        return False  # "block" / "blocked", "lead" / "leader": another form, another role
    if len(short) <= 3 and not long.startswith(short):
        return False  # "dns" / "deployment": three scattered letters prove nothing
    rest = iter(long[1:])
    return all(ch in rest for ch in short[1:])


def _collapse_acronyms(tokens: list[str], other: list[str]) -> list[str]:
    # "site reliability contact" meets "sre contact": a run of words whose initials are a
    # word of the other name is that word.
    acronyms = {word for word in other if len(word) >= 2}

    def acronym(run: tuple[str, ...]) -> tuple[str] | None:
        initials = "".join(t[0] for t in run)
        return (initials,) if initials in acronyms else None

    return replace_longest_runs(tokens, acronym, max(map(len, acronyms), default=0))


def abbreviates(a: list[str], b: list[str]) -> bool:
    """True when the names match word by word, each pair equal or one abbreviating the other
    (acronyms of several words included)."""
    a, b = _collapse_acronyms(a, b), _collapse_acronyms(b, a)
    if len(a) != len(b) or a == b:
        return a == b
    return all(
        x == y or _is_abbreviation(x, y) or _is_abbreviation(y, x)
        for x, y in zip(a, b, strict=True)
    )


_NUMERONYM = re.compile(r"^([a-z])(\d{1,2})([a-z])$")


def spell_numeronyms(tokens: list[str], other: list[str]) -> list[str]:
    """A numeronym becomes the word of the other name it counts out: "i18n" meets
    "internationalization", "a11y" "accessibility", "o11y" "observability" (first letter,
    how many letters between, last letter). Its digits are then no number of the name."""
    return [_spelt(token, other) for token in tokens]


def _spelt(token: str, other: list[str]) -> str:
    found = _NUMERONYM.match(token)
    if found is None:
        return token
    first, between, last = found[1], int(found[2]), found[3]
    counted = (w for w in other if len(w) == between + 2 and w[0] == first and w[-1] == last)
    return next(counted, token)


_MIN_PART = 2
"""The shortest piece a run-together word splits into ("db" of "dbname")."""

_MAX_COMPOUND = 24
"""The longest word tried as two run together: real ones are short, and every cut costs
two lexicon lookups per existing slot name."""


def split_compounds(
    tokens: list[str], other: set[str], qualifiers: frozenset[str], loose: bool = True
) -> list[str]:
    """The name's run-together words cut into the other name's words (or ``qualifiers``).

    Each piece is read as ``canonical_tokens`` reads a word, loose readings only when
    ``loose`` (a strict comparison does not let "wikidocs" become documentation twice).
    """
    # "dbname" meets "database_name", "pyver" "python_version": a word the other name lacks
    # that is two abbreviations or words run together is those words, when each of them
    # (made canonical) is a word of the other name, or one is and the other is a qualifier
    # ("username" meets "user": a user and a name, not an abbreviation of "user").
    out: list[str] = []
    for token in tokens:
        runs_together = token not in other and len(token) <= _MAX_COMPOUND
        out.extend(_split_into(token, other, qualifiers, loose) if runs_together else [token])
    return out


def _split_into(token: str, other: set[str], qualifiers: frozenset[str], loose: bool) -> list[str]:
    for parts in _cuts(token, loose):
        known = [part in other for part in parts]
        if all(known) or (any(known) and all(p in other or p in qualifiers for p in parts)):
            return list(parts)
    return [token]


@lru_cache(maxsize=4096)  # a subject's names are compared again at every write
def _cuts(token: str, loose: bool) -> tuple[tuple[str, ...], ...]:
    # Every way to read the word as two, each half made canonical, left to right.
    return tuple(
        (*canonical_tokens(token[:cut], loose), *canonical_tokens(token[cut:], loose))
        for cut in range(_MIN_PART, len(token) - _MIN_PART + 1)
    )


def join_compounds(tokens: list[str], other: set[str]) -> list[str]:
    """Neighbouring words joined where the other name writes them as one word."""
    # "on call rotation" meets "oncall schedule": two neighbours whose concatenation is
    # a word of the other name are that word, so only real differences remain.
    out: list[str] = []
    i = 0
    while i < len(tokens):
        if i + 1 < len(tokens) and tokens[i] + tokens[i + 1] in other:
            out.append(tokens[i] + tokens[i + 1])
            i += 2
        else:
            out.append(tokens[i])
            i += 1
    return out
