"""What a question names besides its subject (issue 11): things of a kind, former values."""

from __future__ import annotations

from twoclocks.domain.named_things import named_categories, names_value


def test_a_question_naming_a_product_names_its_kind() -> None:
    assert named_categories("is the docs site still on Jekyll?") == {"docs_generator"}
    assert named_categories("are we on Elasticsearch or OpenSearch for search?") >= {"search"}


def test_the_longest_name_wins() -> None:
    # "GitHub Actions" is a CI product; "GitHub" alone would be the code host.
    assert named_categories("do we build on GitHub Actions?") == {"ci"}


def test_an_everyday_word_names_a_product_only_when_capitalized() -> None:
    assert named_categories("where do we go after standup?") == frozenset()
    assert named_categories("which Go version does ingest run?") == {"programming_language"}
    assert named_categories("who holds the vault key?") == frozenset()


def test_people_and_places_name_no_kind_of_slot() -> None:
    # A subject has many people and cities: naming one says nothing about which slot.
    assert named_categories("does Priya Raman live in Lisbon?") == frozenset()


def test_a_former_value_is_named_by_its_words_in_a_row() -> None:
    assert names_value("do we still use Black?", "Black")
    assert names_value("still on Node 16 or newer?", "Node 16")
    assert names_value("is it still elasticsearch?", "Elasticsearch 7.10")
    assert not names_value("do we format with ruff?", "Ruff format")


def test_numbers_and_function_words_are_never_named_values() -> None:
    assert not names_value("how many replicas, 2 or 3?", "2")
    assert not names_value("is it on or off?", "on")


def test_a_hyphenated_former_value_is_named_by_its_first_part() -> None:
    assert names_value("is inventory still on actix?", "actix-web")
    assert not names_value("is it still on web?", "actix-web")  # the generic part names nothing


def test_a_long_value_names_its_kind_inside_it() -> None:
    # Recall reads a value's kind this way too: "Cloud SQL for PostgreSQL 16" is a database.
    assert "database" in named_categories("Cloud SQL for PostgreSQL 16")
    assert named_categories("Terraform 1.9 (chosen over Pulumi)") == {"iac"}


def test_a_qualified_former_value_is_named_by_its_head() -> None:
    # The README's own example: "Render, Oregon region" is replaced by "Fly.io, Frankfurt".
    assert names_value("do we still deploy to Render?", "Render, Oregon region")
    assert names_value("are we still on GCP?", "GCP (Azure only for data-pipeline)")
    assert names_value("is it still Notion?", "Notion - the team space")
    assert not names_value("is the region still Oregon?", "Render, Oregon region")
    assert not names_value("do we pay USD 4?", "USD 4,200")  # a number's comma splits nothing


def test_a_former_person_is_named_by_their_first_name() -> None:
    assert names_value("is Kwame still the infrastructure owner?", "Kwame Mensah")
    assert not names_value("is kwame still the owner?", "Kwame Mensah")  # written as a name
    assert not names_value("is Mensah still the owner?", "Kwame Mensah")
    assert not names_value("is Jenkins still our CI?", "GitHub Actions")


def test_a_first_name_followed_by_another_surname_names_another_person() -> None:
    # FactConsolidation: "Charles Darwin" read as the former author Charles Dickens.
    assert not names_value("Who is Charles Darwin married to?", "Charles Dickens")
    assert names_value("is Kwame Mensah still the owner?", "Kwame Mensah")
    assert names_value("does Kwame still own ingest?", "Kwame Mensah")


def test_a_former_value_is_named_by_a_thing_and_its_version_inside_it() -> None:
    assert names_value("is the ingestor still on OTP 26?", "Elixir 1.15 on OTP 26")
    assert names_value("still on Python 3.11?", "Python 3.11 with uv")
    assert not names_value("is it still OTP 27?", "Elixir 1.15 on OTP 26")
    assert not names_value("which OTP is it on?", "Elixir 1.15 on OTP 26")  # no version named


def test_a_question_opening_with_a_verb_that_is_also_a_first_name_names_no_one() -> None:
    assert not names_value("Will the deploy run tonight?", "Will Smith")
    assert not names_value("May we ship on Friday?", "May Chen")
    assert names_value("is Will still on call?", "Will Smith")
    assert names_value("Will Smith still on call?", "Will Smith")


def test_a_version_alone_is_named_when_the_question_holds_it_whole() -> None:
    # "Are we on Rust 1.82?" after 1.82 was corrected to 1.83 named nothing: a number was
    # never a value a question names. A count still is not.
    assert names_value("are we on Rust 1.82?", "1.82")
    assert names_value("is node on v20.11 still?", "20.11")
    assert not names_value("are we on 1.821?", "1.82")
    assert not names_value("do we run 2 replicas?", "2")
