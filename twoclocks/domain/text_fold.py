"""When two pieces of text count as one: the folds that values are compared under.

Two folds, on purpose. ``fold_case_and_spacing`` is for measuring wording
(``restatement.bigram_overlap``): punctuation is part of what was written, and the
restatement threshold (0.7) was set on text that keeps it. ``fold_value`` is for asking
whether two values are equal (``slot_values.holds_same_value``): "Redis." and "redis" are
one value, so quotes, brackets and a closing full stop fold away too. Pure.
"""

from __future__ import annotations

# Quotes, brackets and a closing full stop around a value do not make another value.
_EDGE_PUNCTUATION = " \t\n\"'`.,;:!?()[]{}"


def fold_case_and_spacing(text: str) -> str:
    """``text`` in one case, each run of whitespace one space, no space at either end.

    >>> fold_case_and_spacing("  Render,\\tOREGON ")
    'render, oregon'
    """
    return " ".join(text.casefold().split())


def fold_value(text: str) -> str:
    """``fold_case_and_spacing``, then quotes, brackets and edge punctuation stripped.

    >>> fold_value('"Mary  BARRA."')
    'mary barra'
    """
    return fold_case_and_spacing(text).strip(_EDGE_PUNCTUATION)
