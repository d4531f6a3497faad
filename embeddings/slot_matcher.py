"""Slot drift: find the existing predicate a new predicate should be written under.

The lexical rules of ``twoclocks.domain.slot_names`` decide first (abbreviations merge,
contrasting qualifiers never do); only names they leave open are compared by the
cosine similarity of their humanized embeddings, or of their words as the lexicon
spells them when that is closer (``slot_verdict.lexicon_wording``).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from twoclocks.domain.person_roles import another_role_of_people
from twoclocks.domain.relation_names import relation_names_the_slot
from twoclocks.domain.slot_names import humanize_predicate
from twoclocks.domain.slot_values import holds_same_value, one_states_a_decision, values_verdict
from twoclocks.domain.slot_verdict import (
    lexical_verdict,
    lexicon_wording,
    narrowed_by_a_qualifier,
    same_only_by_a_loose_reading,
)
from twoclocks.domain.tool_languages import for_another_language, narrowed_to_its_language
from twoclocks.domain.value_attributes import names_what_the_values_are
from twoclocks.domain.value_categories import (
    categories_verdict,
    shared_categories,
    value_categories,
)

from .port import Embedder

Vector = NDArray[np.float64]
"""A cached embedding. Kept as an array, not a list: recall multiplies some forty of
them by the question each time, and turning lists of floats into a matrix was half a
millisecond of each recall."""

# Measured with all-MiniLM-L6-v2 on the humanized names in tests/data/slot_pairs.jsonl
# (211 pairs, 105 merges): at 0.66 precision 0.952, recall 0.762. Lower buys recall
# with wrong merges (0.63: precision 0.913, recall 0.800); higher loses synonyms fast
# (0.77: precision 1.0, recall 0.59). A wrong merge closes another slot's current
# value, a missed one only leaves two slots, so the cut favours precision. MiniLM
# scores bare slot names poorly both ways ("pkg manager" / "package manager" 0.53,
# "frontend port" / "backend port" 0.89), which is why the lexical rules go first.
# Valid for this model only: re-measure before changing it.
DEFAULT_THRESHOLD = 0.66

SAME_KIND_MARGIN = 0.06
"""How far below the threshold two names may score when both slots hold the same kind of
value (two versions, two URLs, two durations) or things of a category many slots share
(two people, two cities): the values vouch for the names a little."""

SAME_CATEGORY_MARGIN = 0.1
"""How far below the threshold two names may score when both slots hold a thing of one
specific category (two CI products, two caches): the strongest evidence values give, and
weaker than it looks. Two slots of one subject often hold two things of one kind in two
roles (``monitoring`` Datadog and ``logging`` Loki, ``database`` and ``analytics_db``).
Chosen on the tune parts of tests/data/set_c (same-kind values, 60 pairs): at 0.2,
precision 0.750 and recall 0.600 (6 wrong merges of 30); at 0.1, 0.857 and 0.600 (3); at
0.0, 0.842 and 0.533. Sets A and B's tune parts lose one merge between 0.2 and 0.1."""

SIMILAR_VALUES = 0.5
SIMILAR_VALUES_MARGIN = 0.06
"""Plain-text values whose embeddings are at least SIMILAR_VALUES alike (two CI products,
two cities) let the names score SIMILAR_VALUES_MARGIN below the threshold."""


DEFAULT_GREY_FLOOR = 0.30
"""The bottom of the grey zone: names scoring between it and the threshold (margins
included) are neither merged nor plainly apart, and a configured model may judge them
(``service.slot_judge``)."""
# How far under the threshold a name narrowed by a qualifier is held, however alike the
# names score: it may be the grey zone's closest slot (a hint, the judge's question),
# never a merge on the names alone.
_BELOW = 1e-6


@dataclass(frozen=True)
class SlotMatch:
    """What the matcher made of a new name: the slot to write under, or the grey-zone slot."""

    name: str | None
    """The existing slot to write under; None for a new slot."""
    grey: str | None = None
    """When ``name`` is None: the closest slot, if it scored in the grey zone."""
    similarity: float = 0.0
    """The grey slot's similarity to the new name, margins from the values included."""
    vouched: bool = False
    """The grey slot holds the new value itself, a thing of its own category (two CI
    products) or of its kind (two versions): what makes a grey pair worth a person's look.
    Names alone in the grey zone are mostly two slots of one subject (``name`` / ``shell``
    0.34, ``sprint_length`` / ``team_size`` 0.46)."""


class SlotMatcher:
    """Matches a predicate against a subject's existing predicates; safe to share."""

    def __init__(
        self,
        embedder: Embedder,
        threshold: float = DEFAULT_THRESHOLD,
        cache_size: int = 4096,
        grey_floor: float = DEFAULT_GREY_FLOOR,
    ) -> None:
        if not 0.0 <= threshold <= 1.0:
            raise ValueError(f"threshold must be between 0 and 1, got {threshold}")
        if not 0.0 <= grey_floor <= 1.0:
            raise ValueError(f"grey_floor must be between 0 and 1, got {grey_floor}")
        if cache_size < 1:
            raise ValueError(f"cache_size must be at least 1, got {cache_size}")
        self.embedder = embedder
        self.threshold = threshold
        # A floor above the threshold would make a zone of nothing: there is no grey zone.
        self.grey_floor = min(grey_floor, threshold)
        self._cache_size = cache_size
        self._vectors: OrderedDict[str, Vector] = OrderedDict()
        self._lock = threading.Lock()

    def match(
        self,
        predicate: str,
        existing: Sequence[str],
        value: str | None = None,
        values: Mapping[str, Sequence[str]] | None = None,
    ) -> str | None:
        """Return the existing predicate to write ``predicate`` under, or None for a new slot.

        ``value`` is the value being written and ``values`` the current values of the
        existing slots, when the caller knows them.

        An exact name wins; then names the lexical rules call the same; then the most
        similar name the embedding accepts at ``threshold``.
        """
        return self.decide(predicate, existing, value, values).name

    def decide(
        self,
        predicate: str,
        existing: Sequence[str],
        value: str | None = None,
        values: Mapping[str, Sequence[str]] | None = None,
        subject: str = "",
    ) -> SlotMatch:
        """``match``, with the closest slot named when it fell in the grey zone.

        ``subject`` names whose slots these are: a role named by its own words is its
        role ("lead" / "security_lead" of the security team).
        """
        if predicate in existing:
            return SlotMatch(predicate)
        same: list[str] = []
        open_names: list[str] = []
        margin: dict[str, float] = {}
        vouching: set[str] = set()
        narrowed: set[str] = set()
        for name in dict.fromkeys(existing):
            held = list((values or {}).get(name, ()))
            if value is not None and for_another_language(predicate, [value], name, held):
                continue  # formatter Prettier beside python_formatter Black: two roles
            if value is not None and narrowed_to_its_language(predicate, [value], name, held):
                same.append(name)  # test_runner Jest, then typescript_test_runner
                continue
            if (
                value is not None
                and _people(value, held)
                and another_role_of_people(predicate, name, subject)
            ):
                continue  # manager Dana beside product_manager Sam: two people, two roles
            if value is not None and names_what_the_values_are(predicate, name, value, held):
                same.append(name)  # office Berlin, then office_location Munich
                continue
            if value is not None and one_states_a_decision(value, held):
                continue  # framework Flutter beside framework_choice "chose Flutter over ..."
            verdict = lexical_verdict(predicate, name, subject)
            if verdict == "same":
                if (
                    value is not None
                    and categories_verdict(value, held) == "different_category"
                    and same_only_by_a_loose_reading(predicate, name, subject)
                ):
                    continue  # wiki_tool Confluence beside documentation_tool Docusaurus
                same.append(name)
            elif verdict == "unknown":
                if value is not None and holds_same_value(value, held):
                    open_names.append(name)  # one value under both names: the names decide
                    vouching.add(name)
                    continue
                things = categories_verdict(value, held) if value is not None else "unknown"
                if (
                    things == "same_category"
                    and value is not None
                    and relation_names_the_slot(predicate, name, shared_categories(value, held))
                ):
                    same.append(name)  # hosting Netlify, then deployed_to Vercel
                    continue
                kinds = values_verdict(value, held) if value is not None else "unknown"
                vouched = things in ("same_category", "same_broad_category")
                if things == "different_category" or (kinds == "different_kind" and not vouched):
                    continue  # a version beside a URL, a city beside a person: two slots
                if things != "same_category" and narrowed_by_a_qualifier(predicate, name, subject):
                    # "timeout" / "idle_timeout": two settings unless the values say one;
                    # never merged on the names, at most the grey zone's close slot.
                    narrowed.add(name)
                open_names.append(name)
                if things == "same_category" or kinds == "same_kind":
                    vouching.add(name)
                if things == "same_category":
                    margin[name] = SAME_CATEGORY_MARGIN
                elif kinds == "same_kind" or things == "same_broad_category":
                    margin[name] = SAME_KIND_MARGIN
                elif value is not None and held:
                    margin[name] = -1.0  # decided below, once the values are encoded
        # A lexical "same" is a stronger signal than any similarity score, so it is
        # preferred even over an open name that happens to score higher.
        if len(same) == 1:
            return SlotMatch(same[0])
        candidates = same or open_names
        if not candidates:
            return SlotMatch(None)
        scores = self.similarities(predicate, candidates)
        if same:
            return SlotMatch(max(zip(candidates, scores, strict=True), key=lambda p: p[1])[0])
        if value is not None and any(m < 0 for m in margin.values()):
            margin.update(self._value_margins(value, values or {}, margin))
        allowed = [
            (score - self.threshold + max(margin.get(name, 0.0), 0.0), name)
            for name, score in zip(candidates, scores, strict=True)
        ]
        allowed = [(min(gap, -_BELOW) if n in narrowed else gap, n) for gap, n in allowed]
        best_gap, best_name = max(allowed)
        if best_gap >= 0:
            return SlotMatch(best_name)
        scored = self.threshold + best_gap
        if scored >= self.grey_floor:
            return SlotMatch(None, grey=best_name, similarity=scored, vouched=best_name in vouching)
        return SlotMatch(None)

    def _value_margins(
        self, value: str, values: Mapping[str, Sequence[str]], margin: dict[str, float]
    ) -> dict[str, float]:
        """SIMILAR_VALUES_MARGIN for each open name whose values resemble ``value``."""
        names = [n for n, m in margin.items() if m < 0]
        held = [list(values[n]) for n in names]
        texts = [value, *(v for vs in held for v in vs)]
        vectors = self._embed(texts)
        head, rest = vectors[0], iter(vectors[1:])
        out: dict[str, float] = {}
        for name, vs in zip(names, held, strict=True):
            best = max(_dot(head, next(rest)) for _ in vs)
            out[name] = SIMILAR_VALUES_MARGIN if best >= SIMILAR_VALUES else 0.0
        return out

    def similarity(self, a: str, b: str) -> float:
        """Cosine similarity of the names ``a`` and ``b`` (see ``similarities``)."""
        return self.similarities(a, [b])[0]

    def similarities(self, predicate: str, others: Sequence[str]) -> list[float]:
        """Cosine of ``predicate`` to each of ``others``, in order, written or lexicon words."""
        texts = [humanize_predicate(predicate), *(humanize_predicate(o) for o in others)]
        # The lexicon's synonyms count too: the closer of the written and canonical words.
        worded = {i: w for i, o in enumerate(others) if (w := lexicon_wording(predicate, o))}
        vectors = self._embed(texts + [t for pair in worded.values() for t in pair])
        head, canon = vectors[0], vectors[len(texts) :]
        scores = [_dot(head, v) for v in vectors[1 : len(texts)]]
        for n, i in enumerate(worded):
            scores[i] = max(scores[i], _dot(canon[2 * n], canon[2 * n + 1]))
        return scores

    def name_vectors(self, names: Sequence[str]) -> list[Vector]:
        """The embeddings of predicate names in words, in order (cached like matches)."""
        return self._embed([humanize_predicate(n) for n in names])

    def text_vectors(self, texts: Sequence[str]) -> list[Vector]:
        """The embeddings of fixed texts seen often (category glosses), cached like names."""
        return self._embed(list(texts))

    def cached_vectors(
        self, names: Sequence[str], texts: Sequence[str]
    ) -> tuple[list[Vector], list[Vector]] | None:
        """``name_vectors`` and ``text_vectors`` when every one is cached, else None.

        Recall asks this first: the answer is almost always cached, and a worker thread's
        hop for it cost more than the lookup (bench/recall.py at 100k).
        """
        wanted = [humanize_predicate(n) for n in names]
        known = self._cached([*wanted, *texts])
        if len(known) < len(set(wanted) | set(texts)):
            return None
        return [known[t] for t in wanted], [known[t] for t in texts]

    def _cached(self, texts: Sequence[str]) -> dict[str, Vector]:
        """The vectors of ``texts`` the cache holds, each marked as just used."""
        with self._lock:
            known = {t: self._vectors[t] for t in dict.fromkeys(texts) if t in self._vectors}
            for text in known:
                self._vectors.move_to_end(text)
        return known

    def _embed(self, texts: list[str]) -> list[Vector]:
        unique = list(dict.fromkeys(texts))
        known = self._cached(unique)
        missing = [t for t in unique if t not in known]
        # Embedded outside the lock: a model call is slow and must not block cache hits.
        encoded = self.embedder.embed_documents(missing)
        fresh = {t: np.asarray(v, dtype=np.float64) for t, v in zip(missing, encoded, strict=True)}
        if fresh:
            with self._lock:
                self._vectors.update(fresh)
                while len(self._vectors) > self._cache_size:
                    self._vectors.popitem(last=False)
        table = known | fresh
        return [table[t] for t in texts]


def _people(value: str, held: Sequence[str]) -> bool:
    """True when the value and every value a slot holds name people."""
    return bool(held) and all("person" in value_categories(v) for v in (value, *held))


def _dot(a: Vector, b: Vector) -> float:
    # Embedder vectors are unit length, so the dot product is the cosine.
    return float(a @ b)
