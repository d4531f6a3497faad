"""The kind of value a question asks for, and the kinds of a fact's value (issue 11)."""

from __future__ import annotations

import pytest

from twoclocks.domain.answer_kinds import (
    AnswerKind,
    asked_kind,
    kind_agreement,
    names_values_to_check,
    value_kinds,
)


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("who owns billing-api?", AnswerKind.PERSON),
        ("whose pager is it this week?", AnswerKind.PERSON),
        ("when is the daily sync?", AnswerKind.TIME),
        ("what time is standup?", AnswerKind.TIME),
        ("which day do we release?", AnswerKind.TIME),
        ("how often do we retro?", AnswerKind.TIME),
        ("how many approvals does a pull request need?", AnswerKind.NUMBER),
        ("how long do access tokens last?", AnswerKind.NUMBER),
        ("which Node version does web-app run on?", AnswerKind.VERSION),
        ("what am I working on right now?", AnswerKind.TASK),
        ("what is Ana focused on this sprint?", AnswerKind.TASK),
        ("what's in progress in orders-svc?", AnswerKind.TASK),
        ("who is working on billing?", AnswerKind.PERSON),  # who asks for the person
        ("what's pending for telemetry-ingest?", AnswerKind.TASK),
        ("firmware open items?", AnswerKind.TASK),  # no question word: the phrase says
        ("who can I ask about billing?", AnswerKind.PERSON),  # "can I" after who
        ("why did we move off FreeRTOS?", AnswerKind.REASON),
        ("what was the reasoning behind the maps vendor?", AnswerKind.REASON),
        ("can I deploy to production on a Friday?", AnswerKind.RULE),
        ("about to force-push, is that ok?", AnswerKind.RULE),
        ("anything I should know about code reviews?", AnswerKind.RULE),
        # before "version": the question asks for the convention, not a version
        ("what convention do we follow for a new version line?", AnswerKind.RULE),
    ],
)
def test_a_questions_form_says_what_kind_of_value_it_asks_for(
    question: str, kind: AnswerKind
) -> None:
    assert asked_kind(question) is kind


@pytest.mark.parametrize(
    "question",
    [
        "which CI do we use?",
        "what cache does billing-api use?",
        "where do I go when I work on site?",  # "when" is a conjunction here
        "what time zone is Aisha in?",  # a zone, not a time
        "what machine do I work on?",  # a machine, not a piece of work
        "how long have we been on Flutter?",  # since when: the window says, not a number
        "how long has Marta owned the api?",
    ],
)
def test_a_question_whose_form_names_no_kind_asks_for_none(question: str) -> None:
    assert asked_kind(question) is None


@pytest.mark.parametrize(
    ("predicate", "value", "kind"),
    [
        ("owner", "Mei Chen", AnswerKind.PERSON),
        ("on_call_engineer", "Jonas Berg", AnswerKind.PERSON),
        ("standup_time", "09:45 Lisbon time", AnswerKind.TIME),
        ("cadence", "every Wednesday", AnswerKind.TIME),
        ("retro", "Friday at 15:00", AnswerKind.TIME),
        ("max_replicas", "10", AnswerKind.NUMBER),
        ("coverage", "80%", AnswerKind.NUMBER),
        ("kubernetes", "1.30", AnswerKind.VERSION),
        ("runtime", "Node 20", AnswerKind.VERSION),
        ("python_version", "3.12", AnswerKind.VERSION),
        ("current_task", "move refunds onto Adyen webhooks", AnswerKind.TASK),
        ("working_on", "the Node 20 upgrade", AnswerKind.TASK),
        ("current_ticket", "PAY-1432", AnswerKind.TASK),
        ("rtos_decision", "chose Zephyr over FreeRTOS: built-in BLE stack", AnswerKind.REASON),
        ("node", "Node 20 because the PDF renderer needs it", AnswerKind.REASON),
        ("store_rule", "bump the build number on every store upload", AnswerKind.RULE),
        ("deploys", "no production deploys on Fridays after 15:00", AnswerKind.RULE),
        ("money", "amounts are integer cents, never floats", AnswerKind.RULE),
        # a span of time anywhere answers "how long": not only a value that starts with it
        ("branch_strategy", "trunk-based; branches are merged within 2 days", AnswerKind.NUMBER),
    ],
)
def test_a_facts_kind_comes_from_its_predicate_words_or_its_values_shape(
    predicate: str, value: str, kind: AnswerKind
) -> None:
    assert kind in value_kinds(predicate, value)


def test_a_product_name_is_of_no_kind_a_question_form_asks_for() -> None:
    assert value_kinds("cache", "Redis") == frozenset()
    assert AnswerKind.NUMBER not in value_kinds("standup_time", "09:45")


def test_who_agrees_with_the_owner_not_with_the_port_of_the_same_service() -> None:
    wants = asked_kind("who should I ask about billing-api?")
    assert kind_agreement(wants, "owner", "Mei Chen") == 1.0
    assert kind_agreement(wants, "http_port", "8080") == 0.0


def test_a_question_that_asks_for_no_kind_agrees_with_nothing() -> None:
    assert kind_agreement(None, "owner", "Mei Chen") == 0.0


def test_who_with_a_providers_verb_asks_for_no_kind() -> None:
    # "Who processes our card payments?" is answered by Stripe as often as by a person.
    assert asked_kind("who processes our card payments?") is None
    assert asked_kind("who hosts our DNS?") is None
    assert asked_kind("who owns billing-api?") is AnswerKind.PERSON
    assert asked_kind("who manages the platform team?") is AnswerKind.PERSON


@pytest.mark.parametrize("predicate", ["working_hours", "ticket_system", "issue_tracker"])
def test_a_slot_about_work_that_is_no_piece_of_work_is_not_a_task(predicate: str) -> None:
    assert AnswerKind.TASK not in value_kinds(predicate, "Jira")


@pytest.mark.parametrize(
    ("question", "yes_no"),
    [
        ("are we an AWS shop?", True),
        ("am I on Linux?", True),
        ("do we still use Black?", True),
        ("Is the docs site still on Jekyll?", True),
        ("which cloud do we use?", False),
        ("isolation level of the orders db?", False),  # "is" only as a whole word
    ],
)
def test_a_question_that_starts_with_a_verb_is_answered_by_yes_or_no(
    question: str, yes_no: bool
) -> None:
    assert names_values_to_check(question) is yes_no


@pytest.mark.parametrize(
    ("question", "choice"),
    [
        ("poetry or something else for telemetry-ingest?", True),
        ("Postgres or MySQL for billing?", True),
        ("GitHub Actions or CircleCI?", True),
        ("what or who decides the release day?", False),  # a question word, no thing named
        ("which db or cache does billing use?", False),
        ("orders service port?", False),  # "or" only as a whole word
    ],
)
def test_a_choice_between_named_things_is_checked_like_a_yes_or_no_question(
    question: str, choice: bool
) -> None:
    # The things it names are values to check: the slot holding that kind answers it.
    assert names_values_to_check(question) is choice


def test_when_agrees_with_a_value_holding_a_date_not_with_a_year_read_as_a_number() -> None:
    # "when's the load test?" of next_milestone = "holiday load test on 2026-12-10": the
    # date is the answer's kind. A freeze "2026-12-18 to 2027-01-04" was the number 2026,
    # a launch "March 3, 2027" a version.
    when = asked_kind("when's the load test?")
    assert kind_agreement(when, "next_milestone", "holiday load test on 2026-12-10") == 1.0
    assert value_kinds("code_window", "2026-12-18 to 2027-01-04") == {AnswerKind.TIME}
    assert value_kinds("launch", "March 3, 2027") == {AnswerKind.TIME}
    assert value_kinds("audit", "20 Dec") == {AnswerKind.TIME}
    # "may" is a month only capitalized.
    assert AnswerKind.TIME not in value_kinds("hiring_note", "may 2 people join")
