"""The month names, once, for every pattern that reads a date or a time in words.

Three readers share them: the shape of a value (``slot_values``: "March 3, 2027" is a
date), a value that states a time (``answer_kinds``: a freeze "20 Dec"), and a question
that names a past time (``named_times``: "what did we use in March?"). Pure.
"""

from __future__ import annotations

MONTH_STEMS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
"""Each month's first three letters: a word starting with one reads as that month."""

MONTH_STEM_PATTERN = "|".join(MONTH_STEMS)
"""The stems as one regex alternation (no group): ``(?:jan|feb|...)[a-z]*`` is a month."""

WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
"""The days of the week in ``date.weekday()`` order."""

_FULL = (
    "january", "february", "march", "april", "may", "june",
    "july", "august", "september", "october", "november", "december",
)  # fmt: skip


def month_number(word: str) -> int | None:
    """1-12 for a month's full name or its short form ("Mar", "Sept."), else None.

    >>> month_number("March"), month_number("sept."), month_number("marching")
    (3, 9, None)
    """
    folded = word.lower().rstrip(".")
    for number, name in enumerate(_FULL, start=1):
        if folded == name or folded == name[:3] or (number == 9 and folded == "sept"):
            return number
    return None


def month_name(number: int) -> str:
    """The month's English name, capitalised, whatever the process locale: 3 -> "March"."""
    return _FULL[number - 1].capitalize()
