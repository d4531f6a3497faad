"""Whether a question is about a fact's subject: named, shortened, or "I" and "we".

"what cache does the billing service use?" is about ``billing-api`` (its distinctive word
is there; "service" and "api" are what every service is called), "which Go version does
the ingestion service use?" about ``ingest`` (a word of the question starts with it),
"who do I report to?" about the person the memory calls ``user`` or ``me``, and "which
wiki do we use?" about the ``team``. Pure: words in, a number out.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache

from twoclocks.domain.slot_names import canonical_tokens, predicate_tokens
from twoclocks.domain.value_categories import value_categories

GENERIC_NAME_WORDS = frozenset(
    """
    api service svc app application site server backend frontend worker
    project repo repository the of and
    """.split()
)
"""Words many subjects' names share: alone they name none of them."""

PERSON_SELF = frozenset({"user", "me", "myself", "i", "self", "person"})
"""Names a memory gives the person it belongs to."""

TEAM_SELF = frozenset({"team", "we", "us", "our team", "company", "org", "organisation"})
"""Names a memory gives the group the person works in."""

ENVIRONMENT_ALIASES: dict[str, frozenset[str]] = {
    "production": frozenset({"live"}),
    "development": frozenset({"local", "locally", "developing"}),
}
"""Words people use for an environment instead of its name: "the live shop" is production,
"when developing locally" is development (names are canonical: ``prod`` is production)."""

_FIRST_PERSON = frozenset({"i", "me", "my", "mine", "myself", "im", "ive"})
_FIRST_PLURAL = frozenset({"we", "us", "our", "ours", "ourselves"})
_CHUNK = re.compile(r"[^\W_]+")
_MIN_STEM = 4
"""A question word this long or longer that starts a name's word names it ("ingestion")."""


def question_words(question: str) -> frozenset[str]:
    """The question's words, lowercase, canonical (``prod`` -> ``production``) and raw."""
    text = question.replace("'s ", " ").replace("'", "")
    raw = [w for chunk in _CHUNK.findall(text) for w in predicate_tokens(chunk)]
    out = set(raw)
    for word in raw:
        out.update(canonical_tokens(word))
    return frozenset(out)


def self_names(asked: frozenset[str]) -> frozenset[str]:
    """The names a memory may give whoever the question speaks of as "I" or "we".

    "What am I working on?" names no subject a store can find by its words, yet it is
    about the person's own facts (``user · current_task``).

    >>> sorted(self_names(question_words("what am I working on?")))
    ['i', 'me', 'myself', 'person', 'self', 'user']
    >>> self_names(question_words("which CI does billing use?"))
    frozenset()
    """
    names: frozenset[str] = frozenset()
    if asked & _FIRST_PERSON:
        names |= PERSON_SELF
    if asked & _FIRST_PLURAL or "team" in asked:
        names |= TEAM_SELF
    return names


def _said(word: str, asked: frozenset[str]) -> bool:
    if word in asked:
        return True
    if len(word) < _MIN_STEM:
        return False
    return any(a.startswith(word) or (len(a) >= _MIN_STEM and word.startswith(a)) for a in asked)


def subject_mention(asked: frozenset[str], subject: str) -> float:
    """How surely the question (its ``question_words``) is about ``subject``, 0 to 1.

    1 when every distinctive word of the name is there; the share of them otherwise;
    0.5 for the person ("I", "my") or the team ("we", "our") when the subject is named
    like them, since those words also appear in questions about anything else.

    >>> subject_mention(question_words("what cache does the billing service use?"), "billing-api")
    1.0
    >>> subject_mention(question_words("which Go version does ingestion use?"), "ingest")
    1.0
    >>> subject_mention(question_words("who do I report to?"), "user")
    0.5
    >>> subject_mention(question_words("who owns ingest?"), "auth-service")
    0.0
    """
    name = subject.lower().strip()
    if name in PERSON_SELF:
        return 0.5 if asked & _FIRST_PERSON else 0.0
    if name in TEAM_SELF:
        if "team" in asked:
            return 1.0
        return 0.5 if asked & _FIRST_PLURAL else 0.0
    words = _distinctive_words(name)
    if not words:
        return 0.0
    return sum(
        _said(w, asked) or bool(ENVIRONMENT_ALIASES.get(w, set()) & asked) for w in words
    ) / len(words)


_ASKS_OF_THE_PERSON = re.compile(r"\b(what|which|who|where|when)(\s+is|\s+are|'s|s)?\s+my\b", re.I)


def asks_of_the_person(question: str) -> bool:
    """True when the question asks for something of the person's own: "what's my job
    title?", "which is my editor?" ("my" right after the question word), not "who should
    approve my change?" or "why was my merge blocked?", which ask of the change or the team.

    >>> asks_of_the_person("what's my job title?"), asks_of_the_person("why was my merge blocked?")
    (True, False)
    """
    return bool(_ASKS_OF_THE_PERSON.search(question))


def subject_mentions(
    asked: frozenset[str], subjects: Iterable[str], of_the_person: bool = False
) -> dict[str, float]:
    """``subject_mention`` of each subject, where a subject named whole claims its words.

    A question that names one subject whole is about it, not in part about a longer name
    that shares those words: "the capital of United Kingdom" says nothing of ``United
    Kingdom of Great Britain and Ireland`` when ``United Kingdom`` is a subject too, and
    "which queue does billing-worker use?" nothing of ``billing-reports``. Nor about a
    shorter name inside it: "who develops Windows Server 2008?" is not about ``Windows
    Server``.

    >>> m = subject_mentions(question_words("what is the capital of United Kingdom?"),
    ...     ["United Kingdom", "United Kingdom of Great Britain and Ireland"])
    >>> m["United Kingdom"], m["United Kingdom of Great Britain and Ireland"]
    (1.0, 0.0)
    >>> subject_mentions(question_words("what is the capital of United Kingdom?"),
    ...     ["United Kingdom of Great Britain and Ireland"])
    {'United Kingdom of Great Britain and Ireland': 0.4}
    """
    scores = {s: subject_mention(asked, s) for s in dict.fromkeys(subjects)}
    if of_the_person:
        # "What's my job title?" is about me: a colleague's job_title, however close its
        # name, answers another question.
        for s in scores:
            if s.lower().strip() in PERSON_SELF:
                scores[s] = 1.0
            elif scores[s] == 0.0 and "person" in value_categories(s):
                scores[s] = -1.0
    said = {s: _said_words(s, asked) for s, m in scores.items() if m > 0.0}
    whole = [said[s] for s, m in scores.items() if m == 1.0 and said[s]]
    for subject, words in said.items():
        part = scores[subject] < 1.0
        if words and any(words < w or (part and words <= w) for w in whole):
            scores[subject] = 0.0
    return scores


def named_by_slot_words(subject: str, asked: frozenset[str], slots: Iterable[str]) -> bool:
    """Whether every word the question (its ``question_words``) says of ``subject``'s name
    is a word of a slot name in ``slots`` it names: a slot named whole claims its words, as
    a subject named whole does.

    >>> asked = question_words("when did the deploy target change?")
    >>> named_by_slot_words("no deploys", asked, ["deploy_target"])
    True
    >>> named_by_slot_words("ledger", question_words("did ledger's database change?"), ["database"])
    False
    """
    said = _said_words(subject, asked)
    words = frozenset(t for slot in slots for t in canonical_tokens(slot))
    return bool(said) and all(_said(w, words) for w in said)


def _said_words(subject: str, asked: frozenset[str]) -> frozenset[str]:
    """The distinctive words of an ordinary subject's name the question says ("I" and
    "we" name the person and the team, which claim no words of other names)."""
    name = subject.lower().strip()
    if name in PERSON_SELF or name in TEAM_SELF:
        return frozenset()
    return frozenset(w for w in _distinctive_words(name) if _said(w, asked))


@lru_cache(maxsize=4096)  # subjects repeat across candidates and questions
def _distinctive_words(name: str) -> tuple[str, ...]:
    # Generic words are dropped as written: "site" would otherwise come back as "url".
    kept = [w for w in predicate_tokens(name) if w not in GENERIC_NAME_WORDS]
    return tuple(c for w in kept for c in canonical_tokens(w)) or tuple(canonical_tokens(name))
