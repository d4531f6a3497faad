"""Predicate names as words: splitting, humanizing and canonical spelling.

Writers name one slot in many ways (``ci_provider``, ``ciPlatform``, ``ci-provider``).
This module turns a name into words (``predicate_tokens``), words a person reads
(``humanize_predicate``) and words with one spelling per meaning (``canonical_tokens``,
through ``slot_lexicon`` and ``slot_phrases``). Whether two names are one slot is
``slot_verdict``'s concern.

Everything here is pure: no model, no I/O.
"""

from __future__ import annotations

import re
from functools import lru_cache

from twoclocks.domain.gazetteer import GAZETTEER
from twoclocks.domain.slot_lexicon import CANONICAL, LOOSE_WORDS, NOT_PLURAL
from twoclocks.domain.slot_phrases import LOOSE_PHRASES, PHRASES
from twoclocks.domain.token_runs import replace_longest_runs

# Splits "ciProvider" and "HTTPServerPort" at case changes but keeps digits on the
# word they follow, so "s3Bucket" stays "s3 bucket" and "oauth2" stays whole.
_CAMEL_LOWER_UPPER = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_CAMEL_ACRONYM_END = re.compile(r"(?<=[A-Z])(?=[A-Z][a-z])")
# In a name, an acronym's plural stays whole: "allowedURLs" is allowed URLs, not "UR Ls".
_ACRONYM_END_NOT_PLURAL = re.compile(r"(?<=[A-Z])(?=[A-Z][a-z])(?![A-Z]s(?:[^a-z]|$))")
_SEPARATORS = re.compile(r"[\s_.\-/:]+")


@lru_cache(maxsize=16384)  # recall words every candidate's slot name, for every question
def humanize_predicate(name: str) -> str:
    """Turn a predicate name into lowercase words: "ciProvider" -> "ci provider".

    >>> humanize_predicate("ciProvider")
    'ci provider'
    >>> humanize_predicate("deploy-target.v2")
    'deploy target v2'
    >>> humanize_predicate("HTTPServerPort")
    'http server port'
    >>> humanize_predicate("s3Bucket")
    's3 bucket'
    """
    return " ".join(predicate_tokens(name))


def predicate_tokens(name: str) -> list[str]:
    """Split a predicate name into lowercase words on ``_ - .``, spaces and camelCase.

    >>> predicate_tokens("on_call-engineer")
    ['on', 'call', 'engineer']
    >>> predicate_tokens("dbURL")
    ['db', 'url']
    >>> predicate_tokens("IdP"), predicate_tokens("OAuth_scopes")
    (['idp'], ['oauth', 'scopes'])
    >>> predicate_tokens("GitHubToken"), predicate_tokens("preferredTypeScriptVersion")
    (['github', 'token'], ['preferred', 'typescript', 'version'])
    >>> predicate_tokens("allowedURLs")
    ['allowed', 'urls']
    """
    words: list[str] = []
    for part in _SEPARATORS.split(name):
        if not part:
            continue
        pieces = _case_pieces(part, _ACRONYM_END_NOT_PLURAL)
        if any(len(piece) == 1 and piece.isalpha() for piece in pieces):
            # A case change that leaves a lone letter is how a word is spelt, not where
            # two meet: "IdP", "PaaS", "OAuth", "iOS", "IPv6", "VMware", "LaTeX".
            pieces = [part]
        lowered = [piece.lower() for piece in pieces]
        # A product spelt with capitals inside is one word: "GitHub", "TypeScript".
        words.extend(replace_longest_runs(lowered, _one_word_product, _LONGEST_PRODUCT))
    return words


def case_split_words(text: str) -> list[str]:
    """Every case change a split, lowercased: "CircleCI" -> circle, ci; "iOS" -> i, os.

    What keyword search indexes beside the whole word, so a question that spells a
    product in two words still finds it; names are read by ``predicate_tokens``.

    >>> case_split_words("CircleCI_config")
    ['circle', 'ci', 'config']
    """
    return [
        piece.lower() for part in _SEPARATORS.split(text) if part for piece in _case_pieces(part)
    ]


def _case_pieces(part: str, acronym_end: re.Pattern[str] = _CAMEL_ACRONYM_END) -> list[str]:
    return acronym_end.sub(" ", _CAMEL_LOWER_UPPER.sub(" ", part)).split()


_ONE_WORD_PRODUCTS = frozenset(
    name for names in GAZETTEER.values() for name in names if name.isalnum()
)
_LONGEST_PRODUCT = 4


def _one_word_product(pieces: tuple[str, ...]) -> tuple[str, ...] | None:
    joined = "".join(pieces)
    return (joined,) if len(pieces) > 1 and joined in _ONE_WORD_PRODUCTS else None


_IRREGULAR_PLURALS = {
    "indices": "index", "matrices": "matrix", "vertices": "vertex", "appendices": "appendix",
    "analyses": "analysis", "statuses": "status", "aliases": "alias", "buses": "bus",
    "caches": "cache", "niches": "niche", "criteria": "criterion", "schemata": "schema",
}  # fmt: skip
"""Plurals the light rule below would stem wrongly ("caches" is not "cach")."""


def singular(word: str) -> str:
    """A word's singular by a light rule: "maintainers" -> "maintainer", "caches" -> "cache"."""
    # A light plural rule, applied to both names alike, so "maintainers" meets
    # "maintainer"; a wrong stem is harmless because it is never shown or embedded.
    if word in _IRREGULAR_PLURALS:
        return _IRREGULAR_PLURALS[word]
    if word in NOT_PLURAL or len(word) < 3 or not word.endswith("s"):
        return word
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "xes", "zes", "ches", "shes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is", "os")):
        return word
    return word[:-1]


_PER_UNITS = {"min": "minute", "sec": "second", "hr": "hour", "mo": "month", "yr": "year"}


def canonical_tokens(name: str, loose: bool = True) -> list[str]:
    """Predicate words with plurals, abbreviations and spelling variants made canonical.

    With ``loose`` False the lexicon's loose readings (``LOOSE_WORDS``, ``LOOSE_PHRASES``:
    a wiki as documentation) are left as written.

    >>> canonical_tokens("pkg_managers")
    ['package', 'manager']
    >>> canonical_tokens("prReviewer")
    ['pull', 'request', 'reviewer']
    >>> canonical_tokens("wiki_tool"), canonical_tokens("wiki_tool", loose=False)
    (['documentation', 'tool'], ['wiki', 'tool'])
    """
    return list(_canonical(name, loose))  # a fresh list: the cached tuple is shared


# Drift compares every new name with each of a subject's slots, and recall and the
# close-slots list ask again for the same few hundred names: worth remembering.
@lru_cache(maxsize=8192)
def _canonical(name: str, loose: bool = True) -> tuple[str, ...]:
    table = CANONICAL if loose else _STRICT
    out: list[str] = []
    words = predicate_tokens(name)
    if "end" in words and "to" in words:  # "end_to_end" is "e2e", not an end and a "to"
        text = " ".join(words).replace("end to end", "e2e")
        words = text.split()
    # Phrases are looked up on the words as written too: "site" alone is a URL, but
    # "site reliability" is SRE.
    words = _phrases([w if w in table else singular(w) for w in words], loose)
    for i, word in enumerate(words):
        if i and words[i - 1] == "per" and word in _PER_UNITS:  # "per min" is per minute
            out.append(_PER_UNITS[word])
            continue
        if word in table:
            out.extend(table[word])
            continue
        single = singular(word)
        out.extend(table.get(single, (single,)))
    return tuple(_dedupe(_phrases(out, loose)))


_STRICT = {word: reading for word, reading in CANONICAL.items() if word not in LOOSE_WORDS}
_STRICT_PHRASES = {run: reading for run, reading in PHRASES.items() if run not in LOOSE_PHRASES}
_LONGEST_PHRASE = max(len(p) for p in PHRASES)


def _phrases(tokens: list[str], loose: bool = True) -> list[str]:
    # "mother tongue" -> "native language": the longest phrase starting at each word wins.
    table = PHRASES if loose else _STRICT_PHRASES
    return replace_longest_runs(tokens, table.get, _LONGEST_PHRASE)


def _dedupe(tokens: list[str]) -> list[str]:
    # "daily standup" becomes "daily daily sync": a word repeated by expansion says it once.
    return [t for i, t in enumerate(tokens) if i == 0 or tokens[i - 1] != t]


def fact_text(subject: str, predicate: str, obj: str) -> str:
    """The sentence a fact is searched and embedded by (Graphiti's ``fact``).

    >>> fact_text("production", "deploy_target", "Render")
    'production deploy target Render'
    """
    return f"{subject} {humanize_predicate(predicate)} {obj}"
