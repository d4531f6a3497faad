"""The month names, once, for every pattern that reads a date or a time in words.

Three readers share them: the shape of a value (``slot_values``: "March 3, 2027" is a
date), a value that states a time (``answer_kinds``: a freeze "20 Dec"), and a question
that names a past time (``named_times``: "what did we use in March?"). Pure.
"""

from __future__ import annotations

import re
from typing import NamedTuple

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


class DayNamed(NamedTuple):
    """A calendar day a text names by its month: "December 15", "the 3rd of March 2027"."""

    said: str
    month: int
    day: int
    year: int | None
    """None when no year is said: which one is meant is the reader's to decide."""


MONTH_WORD_PATTERN = rf"(?:{MONTH_STEM_PATTERN})[a-z]*\.?"
"""A month's name or short form, as one regex (no group): "March", "Sept.", "dec"."""
_MONTH_DAY = re.compile(
    rf"\b(?P<month>{MONTH_WORD_PATTERN})\s+(?P<day>\d{{1,2}})(?:st|nd|rd|th)?\b"
    rf"(?:,?\s+(?P<year>(?:19|20)\d\d)\b)?"
    rf"|\b(?:the\s+)?(?P<day_first>\d{{1,2}})(?:st|nd|rd|th)?\s+(?:of\s+)?"
    rf"(?P<month_after>{MONTH_WORD_PATTERN})(?:,?\s+(?P<year_after>(?:19|20)\d\d)\b)?",
    re.IGNORECASE,
)


def days_named(text: str) -> list[DayNamed]:
    """Every day the text names by month and day, a year with it or not.

    >>> [tuple(d) for d in days_named("on December 15, or the 3rd of March 2027?")]
    [('December 15', 12, 15, None), ('the 3rd of March 2027', 3, 3, 2027)]
    >>> days_named("we need 3 maybe")
    []
    """
    found: list[DayNamed] = []
    for match in _MONTH_DAY.finditer(text):
        number = month_number(match["month"] or match["month_after"])
        day = int(match["day"] or match["day_first"])
        year = match["year"] or match["year_after"]
        if number is not None and 1 <= day <= 31:
            found.append(DayNamed(match[0].rstrip(","), number, day, int(year) if year else None))
    return found
