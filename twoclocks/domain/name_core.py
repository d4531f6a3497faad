"""A slot name's core: its words without a leading verb, a trailing particle or a generic head.

"uses_cache" is "cache", "ci_tool" is "ci", "hosted_on" is "host": what is left names the
slot's subject matter, and two names are compared on that. Also the words of a subject's own
name, which a slot name may repeat without saying which one. Pure: words in, words out.
"""

from __future__ import annotations

from functools import lru_cache

from twoclocks.domain.name_verbs import LEADING_VERBS, TRAILING_PARTICLES
from twoclocks.domain.slot_names import canonical_tokens, predicate_tokens, singular

# Head nouns that say only "the thing used for": "ci_tool" / "ci_provider" / "ci_platform",
# "issue_tracker" / "bug_tracker" / "ticketing_system" ("design system" and "operating
# system" are made one word by the lexicon's phrases first). As the last word of a name
# they are dropped before two names are compared, so what is left (the slot's subject
# matter) decides.
GENERIC_HEADS = frozenset(
    {
        "tool", "platform", "provider", "service", "solution", "software",
        "product", "vendor", "technology", "tracker", "utility", "app", "application",
        "suite", "stack", "setup", "choice", "option", "preference", "used",
        "destination", "network", "system", "layer",
    }
)  # fmt: skip


def core_words(tokens: list[str]) -> list[str]:
    """The name's words without a leading verb, a trailing particle or a generic head.

    A name that is nothing but such words keeps one, so it still has a word to compare.

    >>> core_words(["ci", "tool"]), core_words(["uses", "cache"]), core_words(["tool"])
    (['ci'], ['cache'], ['tool'])
    """
    out = list(tokens)
    while len(out) > 1 and out[0] in LEADING_VERBS:
        out.pop(0)
    while len(out) > 1 and (out[-1] in GENERIC_HEADS or out[-1] in TRAILING_PARTICLES):
        out.pop()
    return out


def written_words(name: str) -> list[str]:
    """A name's core words as typed, singular: no lexicon reading added.

    The lexicon's readings ("vault" -> "secret manager") would add words nobody wrote;
    rules about a word a name adds to another compare these.

    >>> written_words("office_locations"), written_words("uses_vault")
    (['office', 'location'], ['vault'])
    """
    return core_words([singular(w) for w in predicate_tokens(name)])


@lru_cache(maxsize=1024)  # one subject's name, read again for each of its slots
def subject_words(subject: str) -> frozenset[str]:
    """The words of a subject's name and their shortenings ("data-engineering": "eng").

    A role or qualifier named by the subject's own domain is the subject's own of that
    name, so it does not tell two slots apart.
    """
    words = name_words(subject)
    short = {w[:n] for w in words for n in (3, 4) if len(w) > n + 2}
    return frozenset(words | short)


@lru_cache(maxsize=1024)
def name_words(subject: str) -> frozenset[str]:
    """The words of a subject's name, as written and as the lexicon reads them.

    >>> sorted(name_words("billing-api"))
    ['api', 'billing']
    """
    return frozenset(set(canonical_tokens(subject)) | set(predicate_tokens(subject)))


def without_the_subject(core: list[str], subject: str) -> list[str]:
    """A name's core words less the subject's own name, when any word is left.

    ``billing_api_port`` of billing-api is its ``port``; a name that is nothing but the
    subject's words keeps them.

    >>> without_the_subject(["billing", "api", "port"], "billing-api")
    ['port']
    >>> without_the_subject(["api"], "billing-api")
    ['api']
    """
    own = name_words(subject)
    return [w for w in core if w not in own] or core
