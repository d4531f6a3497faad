"""Which side of a pair of opposite slots a question asks about (recall, issue 11).

``min_replicas`` and ``max_replicas``, ``input_topic`` and ``output_topic`` are written
alike and embed alike, so a question about one ranks both side by side. Its words often
say which: "how many pods must always be up?" asks for the floor, "what stream does ingest
emit onto?" for the output. Pure: a question and a slot name in, -1, 0 or 1 out.
"""

from __future__ import annotations

from typing import NamedTuple

from twoclocks.domain.slot_names import predicate_tokens


class Side(NamedTuple):
    """One side of a pair: the words that name it in a slot, and those asking for it."""

    slot_words: frozenset[str]
    cues: frozenset[str]


def _side(slot_words: str, cues: str) -> Side:
    return Side(frozenset(slot_words.split()), frozenset(cues.split()))


OPPOSITE_SIDES: tuple[tuple[Side, Side], ...] = (
    (
        _side("min minimum floor lowest least", "min minimum least fewest lowest floor always "
              "oldest earliest"),
        _side("max maximum ceiling highest most cap", "max maximum most highest ceiling cap "
              "largest biggest newest latest"),
    ),
    (
        _side("input inbound incoming ingress source consumer", "read reads reading "
              "consume consumes consumed input inbound incoming ingress ingests"),
        _side("output outbound outgoing egress sink destination producer",
              "write writes writing emit emits emitted publish publishes published produce "
              "produces output outbound outgoing egress onto sink"),
    ),
    (
        _side("current active checked", "current currently checked am now"),
        _side("default", "default defaults main trunk"),
    ),
)  # fmt: skip
"""Pairs of sides, each written from general usage. "target" is left out: a deploy target
or a target SDK is no output; "to" and "from" are left out as too common in questions. The
branch checked out and the default branch embed alike, and the default's short value
("main") sits closer to "which branch am I on?" than a long feature branch's name does;
"primary" is left out of the default side (a primary region is no default)."""


def side_agreement(said: frozenset[str], predicate: str) -> int:
    """1 when the slot is the side of a pair the question asks for, -1 when it is the
    other side, 0 when the question or the slot says nothing of sides. ``said`` is the
    question's ``named_subjects.question_words``, read once per question by recall.

    >>> from twoclocks.domain.named_subjects import question_words
    >>> up = question_words("how many billing pods must always be up?")
    >>> side_agreement(up, "min_replicas"), side_agreement(up, "max_replicas")
    (1, -1)
    >>> side_agreement(question_words("what stream does ingest emit onto?"), "input_topic")
    -1
    >>> both = question_words("which topics does ingest read from and write to?")
    >>> side_agreement(both, "input_topic")
    0
    >>> side_agreement(question_words("how many replicas does billing run?"), "min_replicas")
    0
    >>> on = question_words("which branch am I on?")
    >>> side_agreement(on, "current_branch"), side_agreement(on, "default_branch")
    (1, -1)
    """
    slot = frozenset(predicate_tokens(predicate))
    for one, other in OPPOSITE_SIDES:
        for mine, theirs in ((one, other), (other, one)):
            if not slot & mine.slot_words or slot & theirs.slot_words:
                continue
            wants_mine, wants_theirs = bool(said & mine.cues), bool(said & theirs.cues)
            if wants_mine != wants_theirs:
                return 1 if wants_mine else -1
    return 0
