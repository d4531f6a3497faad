"""The words the keyword leg reads and asks for: a version's ``search_text``, a question's units.

Pure text, shared by both engines' fulltext indexes (``search_cypher`` builds the Cypher).
A version's words are split at ``_ - . /`` and camelCase as well as kept whole, so "which CI
do we use?" reaches ``ci_provider = "CircleCI"`` through the word ``ci``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from twoclocks.domain.slot_names import case_split_words

MAX_TERMS = 32
"""Most query words sent to a fulltext index (Lucene refuses over 1,024 clauses)."""

# Words that carry no subject matter in a question about one's own project. Includes the
# stop lists of RediSearch and of Lucene's English analyzer, so no query is left holding
# only words the index dropped.
STOP_WORDS = frozenset(
    """
    a about above after again against all also am an and any are as at be because been
    before being below between both but by can could did do does doing done down during
    each either else ever every few for from further get gets got had has have having he
    her here hers herself him himself his how i if in into is it its itself just let lets
    me more most much must my myself no nor not now of off on once only or other our ours
    ourselves out over own please same shall she should so some such than that the their
    theirs them themselves then there these they this those through to too under until
    up upon us use used uses using very was we were what whats when where whether which
    while who whom whose why will with would yes yet you your yours yourself yourselves
    tell know remember recall show find give list s t
    """.split()
)

_WORD = re.compile(r"[^\W_]+")


def words(text: str) -> list[str]:
    """Lowercase words of any text, split at punctuation, ``_`` and camelCase.

    >>> words("CircleCI runs ci_provider.yml on api-gateway")
    ['circle', 'ci', 'runs', 'ci', 'provider', 'yml', 'on', 'api', 'gateway']
    """
    return list(_words(text))


@lru_cache(maxsize=16384)  # recall reads every candidate entity's name, for every question
def _words(text: str) -> tuple[str, ...]:
    return tuple(w for chunk in _WORD.findall(text) for w in case_split_words(chunk) if w)


def plain_words(text: str) -> list[str]:
    """Lowercase words split at punctuation and ``_`` only ("CircleCI" stays whole)."""
    return [w.lower() for w in _WORD.findall(text)]


_NAME = re.compile(r"[^\W_]+(?:[-_][^\W_]+)*")
"""A run of words joined by ``-`` or ``_``: one name (``billing-api-17``, ``search_api``)."""

Unit = tuple[str, ...]
"""Words a fulltext match must hold all of: one word, or the words of one name."""

UNIT_WORDS = 8
"""Most words of one name kept in its unit: 45 pairs of two such units stay well under
Lucene's 1,024 clauses."""


def query_units(text: str) -> list[Unit]:
    """The question's words to look up, as units: a name joined by ``-`` or ``_`` is one
    unit (every word of it must match), any other word its own, then camelCase parts.

    >>> query_units("which auth provider does billing-api-17 use?")
    [('auth',), ('provider',), ('billing', 'api', '17')]
    >>> query_units("what's our CircleCI config?")
    [('circleci',), ('config',), ('circle',), ('ci',)]
    """
    units: list[Unit] = []
    parts: list[Unit] = []
    for name in _NAME.findall(text):
        plain = tuple(w for w in plain_words(name) if w not in STOP_WORDS)[:UNIT_WORDS]
        if len(plain) > 1:
            units.append(plain)
            continue
        units += [(w,) for w in plain]
        split = words(name)
        if len(split) > 1:  # CircleCI: also "circle" and "ci"; iOS: also "os"
            parts += [(w,) for w in split if w not in STOP_WORDS]
    return list(dict.fromkeys([*units, *parts]))[:MAX_TERMS]


def query_terms(text: str) -> list[str]:
    """The words of a question worth looking up, each once: those of ``query_units``.

    >>> query_terms("Which CI do we use?")
    ['ci']
    >>> query_terms("what's our CircleCI config?")
    ['circleci', 'config', 'circle', 'ci']
    """
    return list(dict.fromkeys(w for unit in query_units(text) for w in unit))[:MAX_TERMS]


def search_text(subject: str, predicate: str, obj: str, fact: str) -> str:
    """What the keyword index reads for one version: the fact plus its split words.

    >>> search_text("ci", "ci_provider", "CircleCI", "ci ci provider CircleCI")
    'ci ci provider circleci circle'
    """
    base = fact.lower()
    seen = set(plain_words(base))
    extra = [w for w in (*words(subject), *words(predicate), *words(obj)) if w not in seen]
    return " ".join([base, *dict.fromkeys(extra)])
