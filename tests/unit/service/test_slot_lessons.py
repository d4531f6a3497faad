"""What the person's merges and keep-aparts teach slot drift (``service.slot_naming``),
without a store: which slot a new name joins, which slots it must not."""

from __future__ import annotations

from twoclocks.domain.trust import Writer
from twoclocks.graph.port import SlotAlias
from twoclocks.service.slot_naming import (
    PERSON_APART,
    PERSON_MERGE,
    apart_pair,
    held_apart,
    kept_apart_by,
    taught_slot,
)

MERGED = SlotAlias(
    subject="billing", alias="ticketing", canonical="tracker", decided_by=PERSON_MERGE
)
SLOTS = {"tracker": "tracker", "cache": "cache"}


def test_slot_drift_a_pair_kept_apart_for_the_subject_holds_whoever_kept_it() -> None:
    by_agent = apart_pair("web", "tracker", "ticketing", kept_apart_by(Writer.AGENT))
    assert (by_agent.first, by_agent.second) == ("ticketing", "tracker")
    assert held_apart("web", "ticketing", SLOTS, [by_agent]) == {"tracker"}
    assert held_apart("web", "tracker", {"Ticketing": "Ticketing"}, [by_agent]) == {"Ticketing"}
    # An agent's word stays with its subject: another subject is left to drift.
    assert held_apart("search", "ticketing", SLOTS, [by_agent]) == set()


def test_slot_drift_the_persons_apart_teaches_every_subject_unless_a_merge_disagrees() -> None:
    by_person = apart_pair("web", "tracker", "ticketing", PERSON_APART)
    assert held_apart("search", "ticketing", SLOTS, [by_person]) == {"tracker"}
    assert held_apart("search", "ticketing", SLOTS, [by_person], [MERGED]) == set()
    # Nor does the merge teach while the person keeps the same names apart elsewhere.
    assert taught_slot("ticketing", SLOTS, [MERGED]) is not None
    assert taught_slot("ticketing", SLOTS, [MERGED], [by_person]) is None
    by_agent = by_person.model_copy(update={"decided_by": kept_apart_by(Writer.AGENT)})
    assert taught_slot("ticketing", SLOTS, [MERGED], [by_agent]) is not None


def test_slot_drift_only_the_pair_itself_is_held_apart() -> None:
    by_person = apart_pair("web", "tracker", "ticketing", PERSON_APART)
    assert held_apart("web", "ticketing", {"cache": "cache"}, [by_person]) == set()
    assert held_apart("web", "cache_ttl", SLOTS, [by_person]) == set()
