"""Whether a question is about a fact's subject, under its name or another (issue 11)."""

from __future__ import annotations

import pytest

from twoclocks.domain.named_subjects import (
    asks_of_the_person,
    named_by_slot_words,
    question_words,
    subject_mention,
    subject_mentions,
)


def mention(question: str, subject: str) -> float:
    return subject_mention(question_words(question), subject)


@pytest.mark.parametrize(
    ("question", "subject"),
    [
        ("what cache does billing-api use?", "billing-api"),
        ("where does the billing service run?", "billing-api"),  # generic words dropped
        ("which Go version does the ingestion service use?", "ingest"),  # a longer form
        ("what's the address of the prod DB?", "production"),  # an abbreviation
        ("what chat tool does the team use?", "team"),
    ],
)
def test_a_subject_named_in_other_words_is_named(question: str, subject: str) -> None:
    assert mention(question, subject) == 1.0


def test_a_generic_word_alone_names_no_subject() -> None:
    assert mention("which service mesh do we run?", "auth-service") == 0.0


def test_one_word_of_a_two_word_name_is_half_a_mention() -> None:
    assert mention("what is Mei's role?", "Mei Chen") == 0.5


def test_i_and_we_name_the_person_and_the_team_weakly() -> None:
    assert mention("who do I report to?", "user") == 0.5
    assert mention("what is my job title?", "me") == 0.5
    assert mention("which wiki do we use?", "team") == 0.5
    assert mention("which wiki do we use?", "user") == 0.0
    assert mention("who do I report to?", "team") == 0.0


def test_a_look_alike_name_with_another_number_is_only_half_named() -> None:
    asked = question_words("which CI does billing-api-17 use?")
    assert subject_mention(asked, "billing-api-17") == 1.0
    assert subject_mention(asked, "billing-api-3") == 0.5


def test_punctuation_does_not_hide_a_name() -> None:
    assert mention("who is the on call engineer of the team?", "team") == 1.0
    assert mention("what is billing-api's cache?", "billing-api") == 1.0


def test_live_names_production_and_locally_names_development() -> None:
    assert subject_mention(question_words("where's the live shop?"), "prod") == 1.0
    assert subject_mention(question_words("which database do I get locally?"), "dev") == 1.0
    assert subject_mention(question_words("where's the live shop?"), "staging") == 0.0


def test_a_subject_named_whole_claims_its_words_from_longer_names() -> None:
    asked = question_words("what is the capital of United Kingdom?")
    whole, longer = "United Kingdom", "United Kingdom of Great Britain and Ireland"
    assert subject_mentions(asked, [whole, longer]) == {whole: 1.0, longer: 0.0}
    assert subject_mentions(asked, [longer]) == {longer: 0.4}  # alone, still a part mention
    named = subject_mentions(question_words("which CI does billing-api-17 use?"),
                             ["billing-api-17", "billing-api-3"])  # fmt: skip
    assert named == {"billing-api-17": 1.0, "billing-api-3": 0.0}


def test_a_longer_name_said_whole_claims_the_shorter_name_inside_it() -> None:
    asked = question_words("Who is the developer of Windows Server 2008?")
    named = subject_mentions(asked, ["Windows Server", "Windows Server 2008"])
    assert named == {"Windows Server": 0.0, "Windows Server 2008": 1.0}
    asked = question_words("where is postgres-replica hosted?")
    assert subject_mentions(asked, ["postgres", "postgres-replica"])["postgres"] == 0.0


def test_i_and_we_claim_no_words() -> None:
    # "team" names the team the way "we" does: weaker evidence than a name of its own.
    asked = question_words("which framework does the team use?")
    assert subject_mentions(asked, ["team", "team-portal"]) == {"team": 1.0, "team-portal": 0.5}


def test_what_is_my_asks_of_the_person_not_of_a_colleague() -> None:
    question = "what's my job title?"
    assert asks_of_the_person(question)
    subjects = ["user", "Kenji Watanabe", "ride-api"]
    mentions = subject_mentions(question_words(question), subjects, asks_of_the_person(question))
    # Me surely; a colleague not named counts against; a service is left alone.
    assert mentions == {"user": 1.0, "Kenji Watanabe": -1.0, "ride-api": 0.0}
    # "my" inside another question asks of the change or the team, not of me.
    for other in ("who should approve my change?", "why was my merge blocked?"):
        assert not asks_of_the_person(other)
    assert subject_mentions(question_words(question), subjects)["user"] == 0.5


def test_a_slot_named_whole_claims_its_words_from_a_name() -> None:
    # "When did the deploy target change?" was read as about the value "no deploys".
    asked = question_words("when did the deploy target change?")
    assert named_by_slot_words("no deploys", asked, ["deploy_target"])
    assert not named_by_slot_words("no deploys", asked, ["ci"])
    # A name said in words beside the slot's is named: ledger's database is ledger's.
    asked = question_words("did ledger's database change?")
    assert not named_by_slot_words("ledger", asked, ["database"])
