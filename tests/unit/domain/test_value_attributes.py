"""An attribute word that names what both slots' values are restates the slot."""

from __future__ import annotations

import pytest

from twoclocks.domain.value_attributes import names_what_the_values_are


@pytest.mark.parametrize(
    ("a", "b", "value", "held"),
    [
        ("office_location", "office", "Munich", ["Berlin"]),
        ("officeLocation", "office", "Munich", ["Berlin"]),
        ("sprint_start", "sprint start day", "Monday", ["Wednesday"]),
        ("release", "release_weekday", "Thursday", ["Tuesday"]),
        ("works_from", "work_location", "Lisbon", ["Porto"]),
        ("hq", "hq_country", "Portugal", ["Spain"]),
    ],
)
def test_slot_drift_an_attribute_word_the_values_already_are_restates(
    a: str, b: str, value: str, held: list[str]
) -> None:
    assert names_what_the_values_are(a, b, value, held)
    assert names_what_the_values_are(b, a, held[0], [value])


@pytest.mark.parametrize(
    ("a", "b", "value", "held", "why"),
    [
        ("db_location", "db", "eu-west-1", ["Postgres"], "a database is not a place"),
        ("office_location", "office", "Munich", ["Floor 3"], "a value the word does not name"),
        ("backup_city", "city", "Munich", ["Berlin"], "backup says which one"),
        ("home_city", "work_city", "Munich", ["Berlin"], "neither is the other plus a word"),
        ("city", "city_country", "Portugal", ["Lisbon"], "a city is not a country"),
        ("office", "office_location", "Munich", [], "nothing held to compare"),
        ("standup", "standup_time", "09:30", ["10:00"], "time is not one of the words"),
    ],
)
def test_an_attribute_word_says_which_one_when_the_values_are_something_else(
    a: str, b: str, value: str, held: list[str], why: str
) -> None:
    assert not names_what_the_values_are(a, b, value, held), why
