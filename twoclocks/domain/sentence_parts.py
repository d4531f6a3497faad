"""A fact typed as one sentence, read into the three parts ``remember`` takes, to suggest them.

A person's first ``twoclocks remember "the shop frontend uses Next.js 14"`` gives one part
where three are needed. Nothing is stored from such a guess: the command says what the
three parts are and shows them filled from the person's words, with the slot named by
what the value is to its subject: such a slot holds one value and a new one closes the
old, where a verb ("uses") holds many, so a change of framework would leave both
current. Pure: a sentence in, parts or nothing out.

Example: "Anna owns the checkout flow" -> subject "checkout flow", slot "owner", value
"Anna"; "the shop frontend uses Next.js 14" -> "shop frontend", no slot (the person names
it), "Next.js 14"; "we deploy to Vercel" -> nothing (no subject to name).
"""

from __future__ import annotations

from dataclasses import dataclass

# A verb naming who holds a role: the value is the person before it, the subject after.
_ROLE_VERBS = {
    "owns": "owner",
    "maintains": "maintainer",
    "leads": "lead",
    "reviews": "reviewer",
}
# Verbs that relate a subject to its value and name no slot: the person names it.
_PLAIN_VERBS = (
    ("runs", "on"),
    ("is", "on"),
    ("is", "at"),
    ("is", "in"),
    ("lives", "in"),
    ("uses",),
    ("use",),
    ("is",),
    ("are",),
)
_LEADING_WORDS = frozenset({"the", "our", "my", "a", "an", "this", "that", "its", "their"})
_NO_SUBJECT = frozenset({"we", "i", "you", "they", "he", "she", "it", "us", "me"})


@dataclass(frozen=True)
class SentenceParts:
    """The three parts a sentence gives: ``slot`` is None when its verb names none."""

    subject: str
    slot: str | None
    value: str


def _named(words: list[str]) -> str | None:
    """The words as a name: leading articles and possessives dropped; None when no name."""
    while words and words[0].lower() in _LEADING_WORDS:
        words = words[1:]
    if not words or (len(words) == 1 and words[0].lower() in _NO_SUBJECT):
        return None
    return " ".join(words)


def sentence_parts(sentence: str) -> SentenceParts | None:
    """The subject, slot and value ``sentence`` states, or None when it reads as none."""
    words = sentence.strip().rstrip(".!").split()
    folded = [w.lower() for w in words]
    for at, word in enumerate(folded):
        if word in _ROLE_VERBS:
            holder, subject = _named(words[:at]), _named(words[at + 1 :])
            if holder is None or subject is None:
                return None
            return SentenceParts(subject, _ROLE_VERBS[word], holder)
        for verb in _PLAIN_VERBS:
            if tuple(folded[at : at + len(verb)]) == verb:
                subject, value = _named(words[:at]), _named(words[at + len(verb) :])
                if subject is None or value is None:
                    return None
                return SentenceParts(subject, None, value)
    return None
