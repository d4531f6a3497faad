"""Is an incoming value a restatement of a stored one, or a change?

A restatement has character-bigram overlap >= 0.7 with the stored value and no new
content. New content is any word of the incoming value that the stored value lacks,
other than filler words: so "3 attempts" -> "5 attempts" is a change (the 5 is new),
while "CI runs on CircleCI" -> "our CI runs on CircleCI" is a restatement.
"""

from __future__ import annotations

import re
from collections import Counter

from twoclocks.domain.text_fold import fold_case_and_spacing

RESTATEMENT_OVERLAP = 0.7

FILLER_WORDS: frozenset[str] = frozenset(
    """
    a an the and or of on in at to for with by from is are was were be been being it
    its this that these those our my your their we i you they now still currently
    also just really actually already again then there here as so very
    """.split()
)

_WORD = re.compile(r"[\w./:@#+-]+", re.UNICODE)


def bigram_overlap(a: str, b: str) -> float:
    """Dice coefficient of character bigrams, case- and space-insensitive.

    Punctuation counts (``fold_case_and_spacing``, not ``fold_value``): it is wording.

    >>> bigram_overlap("Render, Oregon", "render, oregon")
    1.0
    >>> round(bigram_overlap("3 attempts", "5 attempts"), 2)
    0.89
    """
    x, y = fold_case_and_spacing(a), fold_case_and_spacing(b)
    if x == y:
        return 1.0
    if len(x) < 2 or len(y) < 2:
        return 0.0
    bx = Counter(x[i : i + 2] for i in range(len(x) - 1))
    by = Counter(y[i : i + 2] for i in range(len(y) - 1))
    common = sum((bx & by).values())
    return 2.0 * common / (sum(bx.values()) + sum(by.values()))


def _content_words(text: str) -> set[str]:
    words = {w.strip(".,;:!?'\"()[]").lower() for w in _WORD.findall(text)}
    return {w for w in words if w and w not in FILLER_WORDS}


def new_content(stored: str, incoming: str) -> set[str]:
    """Words of ``incoming`` that ``stored`` does not have (filler words aside).

    >>> sorted(new_content("3 attempts", "5 attempts"))
    ['5']
    >>> new_content("CI runs on CircleCI", "our CI runs on CircleCI")
    set()
    """
    return _content_words(incoming) - _content_words(stored)


def is_restatement(stored: str, incoming: str) -> bool:
    """True when ``incoming`` says what ``stored`` says: close wording and no new content."""
    return bigram_overlap(stored, incoming) >= RESTATEMENT_OVERLAP and not new_content(
        stored, incoming
    )
