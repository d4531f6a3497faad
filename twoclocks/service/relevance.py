"""How well a fact answers a question, from signals that cost no store round trip.

The signals, each from 0 to 1 (cosines may dip below 0):

* ``lexical``: the share of the question's content words found in the fact's predicate
  and value (its subject is left out: a walk reaches facts *because* they share it);
* ``slot``: the cosine of the question to the fact's slot name in words ("who is on call
  right now?" against "on call engineer"), or to the name the value was written as (slot
  drift, a merge), or to what the slot asks when ``domain.slot_glosses`` says it, the
  closest of these, from cached embeddings;
* ``vector``: the cosine of the question to the whole fact, as the vector index scored it
  (absent when the fact was not in that leg's pool);
* ``kind``: 1 when the value is the kind the question's form asks for (a person for
  "who", a time for "when", ``domain.answer_kinds``), else 0;
* ``subject``: how surely the question is about the fact's subject, named, shortened or
  as "I" / "we" (``domain.named_subjects``); -1 for another person's facts when the
  question asks of the person's own ("what's my job title?");
* ``category``: the cosine of the question to what the value's kind of thing is for
  (``domain.category_glosses``: Stripe is a payment processor, "card payments, charges");
* ``kin``: 1 when the question names another thing of the value's kind (Jekyll, asked
  of a slot holding Docusaurus; ``domain.named_things``);
* ``former``: 1 when the question names a value the fact's slot held before ("do we still
  use Black?" of the formatter slot now holding Ruff).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterable, Mapping, Sequence, Set
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.typing import ArrayLike

from twoclocks.domain.answer_kinds import asked_kind, kind_agreement
from twoclocks.domain.category_glosses import CATEGORY_GLOSSES, glosses
from twoclocks.domain.errors import ModelUnavailable
from twoclocks.domain.model import FactVersion
from twoclocks.domain.named_subjects import asks_of_the_person, subject_mentions
from twoclocks.domain.named_things import named_categories
from twoclocks.domain.question_sides import side_agreement
from twoclocks.domain.slot_glosses import slot_gloss
from twoclocks.domain.slot_names import canonical_tokens, humanize_predicate
from twoclocks.domain.value_categories import kinds_by_slot, value_categories
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.graph.search_terms import STOP_WORDS, words

log = logging.getLogger("twoclocks.recall")

# Question words that ask for a slot without naming it; they are not content to match.
_ASKING = frozenset(
    """
    currently current right today still again anymore config set setup value name
    """.split()
)


@lru_cache(maxsize=16384)  # every candidate's predicate and value, for every question
def content_words(text: str) -> frozenset[str]:
    """A text's words that carry meaning, canonical (plurals, abbreviations) and unstopped.

    >>> sorted(content_words("Which DB do the ingest workers use right now?"))
    ['database', 'ingest', 'worker']
    """
    out: set[str] = set()
    for word in words(text):
        if word in STOP_WORDS or word in _ASKING:
            continue
        out.update(canonical_tokens(word))
    return frozenset(out)


def shares_a_word(question: str, *texts: str | None) -> bool:
    """Whether a fact's ``texts`` (its subject, slot name, the name it was written as, its
    value) hold a content word of ``question``."""
    held = content_words(" ".join(t for t in texts if t))
    return not content_words(question).isdisjoint(held)


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
    side: float = 0.0
    """1 when the slot is the side of a pair of opposites the question asks for (the floor
    of "must always be up", ``min_replicas``), -1 for the other side."""

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


def slot_text(name: str) -> str | None:
    """What a slot name asks, said in words, when ``domain.slot_glosses`` has it."""
    gloss = slot_gloss(name)
    return None if gloss is None else f"{humanize_predicate(name)}: {gloss}"


def _names_of(fact: FactVersion) -> tuple[str, ...]:
    return (fact.predicate,) if fact.written_as is None else (fact.predicate, fact.written_as)


def lexical_overlap(question: Set[str], predicate: str, obj: str) -> float:
    """Share of the question's content words in the fact's predicate and value."""
    if not question:
        return 0.0
    found = content_words(predicate) | content_words(obj)
    return len(question & found) / len(question)


def dot(a: ArrayLike, b: ArrayLike) -> float:
    """The cosine of two unit vectors."""
    return dots(a, [b])[0]


def dots(vector: ArrayLike, rows: Sequence[ArrayLike]) -> list[float]:
    """The cosines of one unit vector to each of several, in order, in one product.

    Recall scores some forty names and glosses a question; a product in Python per pair
    was a tenth of a recall's time.
    """
    if not rows:
        return []
    matrix = np.asarray(rows, dtype=np.float32)
    return [float(x) for x in matrix @ np.asarray(vector, dtype=np.float32)]


def by_question(items: Iterable[str], score: dict[str, float]) -> list[str]:
    """Items best score first; ties keep the order they came in (a stable sort)."""
    return sorted(items, key=lambda item: -score.get(item, 0.0))


def warm_slot_matcher(matcher: SlotMatcher, names: Sequence[str]) -> int:
    """Put these slot names, what they ask and every category gloss in the matcher's cache.

    Blocking (the model runs): call it from a worker thread. Returns the texts encoded.
    """
    said = [text for n in names if (text := slot_text(n)) is not None]
    category = glosses(CATEGORY_GLOSSES)
    matcher.name_vectors(names)
    matcher.text_vectors([*category, *said])
    return len(names) + len(category) + len(said)


async def relevance_signals(
    text: str,
    said: frozenset[str],
    vector: list[float] | None,
    facts: Mapping[str, FactVersion],
    cosine: Mapping[str, float],
    slot_matcher: SlotMatcher | None,
    former_slots: Set[tuple[str, str]] = frozenset(),
) -> dict[str, Relevance]:
    """The relevance signals of every candidate fact (by version id) for this question.

    ``said`` is the question's ``question_words``, ``vector`` its embedding (None: no slot
    or category signal), ``cosine`` the vector leg's scores, ``former_slots`` the slots
    whose former value the question names.
    """
    asked = content_words(text)
    wants, kin = asked_kind(text), named_categories(text)
    # A long value names its kind inside it: "Cloud SQL for PostgreSQL 16" is a database.
    categories = kinds_by_slot(
        {vid: value_categories(v.object) | named_categories(v.object) for vid, v in facts.items()},
        {vid: v.predicate for vid, v in facts.items()},
    )
    slot_of: dict[str, float] = {}
    gloss_of: dict[str, float] = {}
    if vector is not None and slot_matcher is not None and facts:
        # A value written under another name (slot drift, a merge) answers to that name
        # too: "who is our payment provider?" of ``vendor`` written as ``provider``.
        names = sorted({n for v in facts.values() for n in _names_of(v)})
        said_of = {n: g for n in names if (g := slot_text(n)) is not None}
        texts = glosses(set().union(*categories.values())) + sorted(set(said_of.values()))
        matcher = slot_matcher
        try:
            # Both are cache hits almost always; a name or gloss not seen yet is encoded
            # in a worker thread, off the event loop.
            known = matcher.cached_vectors(names, texts)
            if known is None:
                known = await asyncio.to_thread(
                    lambda: (matcher.name_vectors(names), matcher.text_vectors(texts))
                )
            vectors, gloss_vectors = known
        except ModelUnavailable as exc:
            log.warning("recall without the slot leg, a name embedding failed: %s", exc)
        else:
            gloss_of = dict(zip(texts, dots(vector, gloss_vectors), strict=True))
            slot_of = {
                n: max(cos, gloss_of[said_of[n]] if n in said_of else -1.0)
                for n, cos in zip(names, dots(vector, vectors), strict=True)
            }
    mentions = subject_mentions(said, (v.subject for v in facts.values()), asks_of_the_person(text))
    return {
        vid: Relevance(
            lexical=lexical_overlap(asked, v.predicate, v.object),
            slot=max(slot_of.get(n, 0.0) for n in _names_of(v)),
            vector=cosine.get(vid),
            kind=kind_agreement(wants, v.predicate, v.object),
            subject=mentions[v.subject],
            category=max((gloss_of.get(g, 0.0) for g in glosses(categories[vid])), default=0.0),
            kin=1.0 if kin & categories[vid] else 0.0,
            former=1.0 if v.slot in former_slots else 0.0,
            side=side_agreement(said, v.predicate),
        )
        for vid, v in facts.items()
    }
