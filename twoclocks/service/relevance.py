"""How well a fact answers a question, from signals that cost no store round trip.

The signals, each from 0 to 1 (cosines may dip below 0):

* ``lexical``: the share of the question's content words found in the fact's predicate
  and value (its subject is left out: a walk reaches facts *because* they share it);
* ``slot``: the cosine of the question to the fact's slot name in words ("who is on call
  right now?" against "on call engineer"), from cached name embeddings;
* ``vector``: the cosine of the question to the whole fact, as the vector index scored it
  (absent when the fact was not in that leg's pool);
* ``kind``: 1 when the value is the kind the question's form asks for (a person for
  "who", a time for "when", ``domain.answer_kinds``), else 0;
* ``subject``: how surely the question is about the fact's subject, named, shortened or
  as "I" / "we" (``domain.named_subjects``);
* ``category``: the cosine of the question to what the value's kind of thing is for
  (``domain.category_glosses``: Stripe is a payment processor, "card payments, charges");
* ``kin``: 1 when the question names another thing of the value's kind (Jekyll, asked
  of a slot holding Docusaurus; ``domain.named_things``);
* ``former``: 1 when the question names a value the fact's slot held before ("do we still
  use Black?" of the formatter slot now holding Ruff).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from twoclocks.domain.slot_names import canonical_tokens
from twoclocks.graph.search_cypher import STOP_WORDS, words

# Question words that ask for a slot without naming it; they are not content to match.
_ASKING = frozenset(
    """
    currently current right today still again anymore config set setup value name
    """.split()
)


def content_words(text: str) -> set[str]:
    """A text's words that carry meaning, canonical (plurals, abbreviations) and unstopped.

    >>> sorted(content_words("Which DB does billing-api use right now?"))
    ['api', 'billing', 'database']
    """
    out: set[str] = set()
    for word in words(text):
        if word in STOP_WORDS or word in _ASKING:
            continue
        out.update(canonical_tokens(word))
    return out


KIN_EVIDENCE = 0.3
"""How much a question naming a thing of the value's kind counts as evidence that memory
holds an answer: above recall's relevance floor (0.24), like a slot name that close."""


@dataclass(frozen=True)
class Relevance:
    """The signals of one fact for one question."""

    lexical: float
    slot: float
    vector: float | None
    kind: float = 0.0
    subject: float = 0.0
    category: float = 0.0
    kin: float = 0.0
    former: float = 0.0

    @property
    def question_score(self) -> float:
        """What a walk orders its facts by: the slot and lexical signals together."""
        return self.slot + self.lexical

    @property
    def best(self) -> float:
        """The strongest single piece of evidence that the fact is on topic.

        A former value named outright is the strongest: "do we still use Black?" shares
        few words with anything stored now, yet its slot's current value answers it. A
        thing of the value's kind named ("Black", asked of a slot holding Ruff) is evidence
        too, as strong as a close slot name.
        """
        vector = self.vector if self.vector is not None else -1.0
        return max(self.lexical, self.slot, vector, self.former, KIN_EVIDENCE * self.kin)


def lexical_overlap(question: set[str], predicate: str, obj: str) -> float:
    """Share of the question's content words in the fact's predicate and value."""
    if not question:
        return 0.0
    found = content_words(predicate) | content_words(obj)
    return len(question & found) / len(question)


def dot(a: Sequence[float], b: Sequence[float]) -> float:
    """The cosine of two unit vectors."""
    return sum(x * y for x, y in zip(a, b, strict=True))


def by_question(items: Iterable[str], score: dict[str, float]) -> list[str]:
    """Items best score first; ties keep the order they came in (a stable sort)."""
    return sorted(items, key=lambda item: -score.get(item, 0.0))
