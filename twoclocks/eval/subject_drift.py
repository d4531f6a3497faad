"""Slot drift as it runs: whole subjects written slot by slot (tests/data/set_e).

The pair sets ask one question per fresh subject: is ``b`` the slot ``a``? In use a subject
holds a dozen slots, several of one kind (the database, the analytics database, the
cache), and every write is matched against all of them. Here each subject's slots are
written in order through ``MemoryService.remember``, then its renames (another name for
one slot: they should land under it) and its near-miss new slots (they must not), in the
order listed. Every write that lands under a name the subject already held is a merge;
only a rename landing under its own ``of`` is a right one.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from twoclocks.domain.model import Tier
from twoclocks.domain.trust import Channel, Writer
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.eval.data import Rename, SlotWrite, WholeSubject
from twoclocks.eval.drift import Scores, writing_service
from twoclocks.graph.port import Store
from twoclocks.service.requests import Caller, RememberRequest

Step = Literal["slot", "rename", "new_slot"]


@dataclass(frozen=True)
class Landing:
    """One write and the slot name it landed under."""

    subject: WholeSubject
    step: Step
    predicate: str
    landed: str
    merged: bool
    """It landed under a name the subject already held (closing that slot's value)."""
    want: str | None
    """The name it should land under when that is an existing slot (a rename's ``of``)."""

    @property
    def right(self) -> bool:
        """A rename that landed under its own slot."""
        return self.merged and self.landed == self.want

    @property
    def wrong(self) -> bool:
        """A merge into a slot it does not name: that slot's true value is now closed."""
        return self.merged and not self.right


def scores(landings: Iterable[Landing]) -> Scores:
    """Precision and recall of the merges made: ``pairs`` counts writes, and a rename not
    landed under its own slot is a missed merge."""
    rows = list(landings)
    right = sum(r.right for r in rows)
    return Scores(
        pairs=len(rows),
        true_merges=right,
        false_merges=sum(r.wrong for r in rows),
        missed_merges=sum(r.step == "rename" for r in rows) - right,
    )


async def through_service(
    store: Store, matcher: SlotMatcher, subjects: Sequence[WholeSubject]
) -> list[Landing]:
    """Write every subject, each in a fresh account, and say where each write landed."""
    service = writing_service(store, matcher)
    out: list[Landing] = []
    for subject in subjects:
        caller = Caller(
            account=f"subjects{uuid.uuid4().hex[:12]}", writer=Writer.PERSON, channel=Channel.CLI
        )
        # The name each predicate as written landed under: a rename's ``of`` is compared
        # with where that slot really sits.
        name_of: dict[str, str] = {}
        writes: list[tuple[Step, SlotWrite]] = [
            *(("slot", s) for s in subject.slots),
            *(("rename", r) for r in subject.renames),
            *(("new_slot", s) for s in subject.new_slots),
        ]
        for step, write in writes:
            written = await service.remember(
                caller,
                RememberRequest(
                    subject=subject.subject,
                    predicate=write.predicate,
                    object=write.value,
                    tier=Tier.ASSERTED,
                ),
            )
            landed = written.predicate
            merged = landed in name_of.values()
            want = name_of.get(write.of, write.of) if isinstance(write, Rename) else None
            out.append(Landing(subject, step, write.predicate, landed, merged, want))
            name_of.setdefault(write.predicate, landed)
    return out
