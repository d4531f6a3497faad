"""An attribute word that names what a slot's values already are (slot drift, issue 11).

``office = Berlin`` and ``office_location = Munich`` are one slot: "location" only says
what an office's value is, and both values are places. ``sprint_start = Monday`` and
``sprint_start_day = Wednesday``: both values are days. The same added word says which
one when the values are something else: ``db = Postgres`` is not ``db_location =
eu-west-1``. So the word restates only when both sides' values are of the kind it names.
Pure: names and values in, a yes or no out.
"""

from __future__ import annotations

from collections.abc import Sequence

from twoclocks.domain.name_core import written_words
from twoclocks.domain.value_categories import value_categories

_PLACES = frozenset({"city", "country", "region"})

# Attribute words and the categories of value (domain.value_categories) each one names.
_NAMED_BY: dict[str, frozenset[str]] = {
    "location": _PLACES,
    "place": _PLACES,
    "city": frozenset({"city"}),
    "country": frozenset({"country"}),
    "day": frozenset({"weekday"}),
    "weekday": frozenset({"weekday"}),
}


def names_what_the_values_are(a: str, b: str, value: str, held: Sequence[str]) -> bool:
    """True when one name is the other plus an attribute word both sides' values are.

    >>> names_what_the_values_are("office_location", "office", "Munich", ["Berlin"])
    True
    >>> names_what_the_values_are("sprint start", "sprint start day", "Monday", ["Wednesday"])
    True
    >>> names_what_the_values_are("db_location", "db", "eu-west-1", ["Postgres"])
    False
    >>> names_what_the_values_are("backup_city", "city", "Munich", ["Berlin"])
    False
    """
    if not held:
        return False
    words_a, words_b = written_words(a), written_words(b)
    longer, shorter = (words_a, words_b) if len(words_a) > len(words_b) else (words_b, words_a)
    if not shorter or longer[:-1] != shorter:
        return False
    named = _NAMED_BY.get(longer[-1])
    if named is None:
        return False
    return all(value_categories(v) & named for v in (value, *held))
