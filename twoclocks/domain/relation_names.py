"""A slot named as a relation to the thing its values are (slot drift, issue 11).

Writers name a slot by the thing it holds (``hosting = Netlify``) or by the relation to it
(``deployed_to = Vercel``, ``authenticates_with = Okta``). A relation that only says the
subject is served by the thing names no role: when its value is a thing of the one
specific category the other slot's values are (two hosting platforms, two identity
providers), the two names are one slot. Two relations (``reads_from`` / ``writes_to``) are
two roles, and so is a relation with any word beyond a verb of use (``migrating_to``,
``mirrors_to``, ``alerts_sent_to``), or one beside a name that says which one of several
it is (``staging_cloud``, ``docs_hosting``). One more relation names the slot: one whose
object is the plain name's own word and whose verb is an ordinary use of it
(``images_pushed_to`` / ``container_registry``, ``logs_sent_to`` / ``log_destination``),
and so does one whose object is what a thing of the values' category holds, in the words
of its gloss (``keeps_credentials_in`` beside ``secrets_manager``, two secrets managers;
``deals_tracked_in`` beside ``crm``). Pure: names in, a yes or no out; the caller checks
the values' categories and passes the one they share.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Set
from functools import lru_cache

from twoclocks.domain.category_glosses import CATEGORY_GLOSSES
from twoclocks.domain.name_verbs import TRAILING_PARTICLES, is_verb_phrase
from twoclocks.domain.slot_names import canonical_tokens, predicate_tokens, singular
from twoclocks.domain.slot_verdict import says_which_one

_USE_VERBS = (
    "host", "deploy", "run", "serve", "power", "built", "build", "authenticat", "monitor",
    "provision", "schedul", "manag",
)  # fmt: skip
"""Verb starts of a relation that only says the subject is served by the thing (``hosted_on``,
``deployed_to``, ``runs_on``, ``managed_by``). A relation with any other word names a role of
its own, whether a verb (``replicates_to``, ``backs_up_to``, ``mirrors_to``) or an object
(``alerts_sent_to``, ``scripts_written_in``): written to break this rule, 9 of 20 such
pairs merged when any relation was read as the slot (docs/benchmarks.md). The one exception
is an object that is the plain name's own word, with a verb of ``_ORDINARY_USE``."""


# Verbs of what one does with the thing a slot names: push images to a registry, send
# logs to a log destination, track bugs in a tracker. Not a mirror, a backup, a copy.
_ORDINARY_USE = frozenset(
    """
    send sends sent sending push pushes pushed pull pulls pulled log logs logged
    track tracks tracked keep keeps kept store stores stored handle handles handled
    live lives lived living work works worked working based
    """.split()
)

# Categories whose things hold several roles at once: one subject sends its logs to Loki
# and its metrics to Prometheus, two monitoring products in two slots. A relation's object
# found in their gloss ("logs_sent_to") names one role of several, not the slot.
_MANY_ROLES = frozenset({"monitoring"})


def relation_names_the_slot(a: str, b: str, categories: Iterable[str] = ()) -> bool:
    """True when one name is a relation to its value and the other a plain name, and the
    relation names no role of its own. ``categories``: the specific categories both
    names' values share, whose glosses say what such a thing holds.

    >>> relation_names_the_slot("deployed_to", "hosting")
    True
    >>> relation_names_the_slot("authentication", "authenticates_with")
    True
    >>> relation_names_the_slot("migrating_to", "hosting")
    False
    >>> relation_names_the_slot("hosted_on", "staging_cloud")
    False
    >>> relation_names_the_slot("reads_from", "writes_to")
    False
    >>> relation_names_the_slot("images_pushed_to", "container_registry")
    True
    >>> relation_names_the_slot("mirrors_images_to", "container_registry")
    False
    >>> relation_names_the_slot("keeps_credentials_in", "secrets_manager", ["secrets"])
    True
    >>> relation_names_the_slot("traces_sent_to", "monitoring", ["monitoring"])
    False
    """
    words_a, words_b = predicate_tokens(a), predicate_tokens(b)
    relation_a, relation_b = is_verb_phrase(words_a), is_verb_phrase(words_b)
    if relation_a == relation_b:
        return False
    relation, plain = (words_a, b) if relation_a else (words_b, a)
    words = [w for w in relation if w not in TRAILING_PARTICLES]
    if words and all(word.startswith(_USE_VERBS) for word in words):
        # staging_cloud, docs_hosting: one of several, not the one in use
        return not says_which_one(plain)
    if _names_its_object(words, plain, frozenset(canonical_tokens(plain))):
        return True
    return any(
        _names_its_object(words, plain, _gloss_words(c)) for c in categories if c not in _MANY_ROLES
    )


def _names_its_object(words: list[str], plain: str, other: Set[str]) -> bool:
    """True when the relation's object is one of ``other`` (the plain name's own words, or
    the words of the gloss of what its values are) and its other words are verbs of an
    ordinary use or of use: ``images_pushed_to`` / ``container_registry``,
    ``logs_sent_to`` / ``log_destination``, ``pipelines_run_on`` / ``ci``; the plain
    name's other words may not say which one."""
    said = [w for w in words if _said_in(w, other)]
    verbs = [w for w in words if w not in said]
    if not said or any(w not in _ORDINARY_USE and not w.startswith(_USE_VERBS) for w in verbs):
        return False
    named = {c for w in said for c in canonical_tokens(w)}
    rest = [w for w in canonical_tokens(plain) if w not in named]
    return not says_which_one("_".join(rest))


@lru_cache(maxsize=256)
def _gloss_words(category: str) -> frozenset[str]:
    """The words of a category's gloss, singular: what a thing of that kind holds."""
    words = re.findall(r"[a-z]+", CATEGORY_GLOSSES.get(category, "").lower())
    return frozenset(singular(w) for w in words)


def _said_in(word: str, other: Set[str]) -> bool:
    return singular(word) in other or set(canonical_tokens(word)) <= other
