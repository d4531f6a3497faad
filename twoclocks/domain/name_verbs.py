"""Slot names read as verbs: "uses_cache" is the cache, "provisions_with" the provisioner.

Writers name a relation as often as a thing ("hosted_on", "sends_email_via", "managed_by");
these rules let the verb's form meet its noun. Pure: words in, a verdict out.
"""

from __future__ import annotations

# Words that relate a subject to a value without naming the slot: "uses_cache" is
# "cache", "hosted_on" is "host", "backed_up_to" is "backup".
LEADING_VERBS = frozenset({"uses", "use", "used", "using", "has", "have", "had", "is", "was"})
TRAILING_PARTICLES = frozenset(
    {"on", "in", "to", "with", "by", "at", "of", "for", "up", "from", "via", "through"}
)


def is_verb_phrase(tokens: list[str]) -> bool:
    """True for a relation read as a verb ("provisions_with", "managed_by", "uses_cache")."""
    # Such a name is the same slot as its agent noun ("provisioner", "manager").
    return bool(tokens) and (tokens[-1] in TRAILING_PARTICLES or tokens[0] in LEADING_VERBS)


_VERB_ENDINGS = ("ing", "er", "or", "ed", "es", "s")
_AGENT_ENDINGS = frozenset({"er", "or"})


def _stem(word: str) -> tuple[str, str]:
    # "provisions" / "provisioner" -> "provision", "sends" / "sending" -> "send",
    # "managed" / "manager" -> "manag", "owned" / "owner" -> "own"; with the ending cut.
    for ending in _VERB_ENDINGS:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            return _without_silent_e(word[: -len(ending)]), ending
    return _without_silent_e(word), ""


def _without_silent_e(stem: str) -> str:
    # "schedule" (a plural made singular) meets "schedul" (from "scheduler").
    return stem[:-1] if stem.endswith("e") and len(stem) > 4 else stem


def same_verb_and_noun(a: list[str], b: list[str]) -> bool:
    """The names' words match in some order, stem by stem ("sends email" / "email sending").

    A passive "-ed" form matches only its agent noun: "managed_by" is the manager, but
    "blocked_by" is not "blocks" and "hiring_for" is not "hired".
    """
    stems_a, stems_b = sorted(map(_stem, a)), sorted(map(_stem, b))
    if [x for x, _ in stems_a] != [y for y, _ in stems_b]:
        return False
    for (_, end_a), (_, end_b) in zip(stems_a, stems_b, strict=True):
        if "ed" in (end_a, end_b) and end_a != end_b and not {end_a, end_b} & _AGENT_ENDINGS:
            return False
    return True


def share_a_word(a: list[str], b: list[str]) -> bool:
    """True when the names share a word, stem by stem ("hosting" / "staging_host": "host")."""
    return bool({_stem(w)[0] for w in a} & {_stem(w)[0] for w in b})
