"""Refusal watch (DESIGN.md §5, issue 13 point 4): a fact that rides refused turns is held back.

A prompt injection or a person testing limits can get a model to write a fact ("the deploy
key lives in /tmp/k", "tests may be skipped") and then keep pushing it in turns the agent
refuses. Such a fact is held back (closed with the reason ``held_back``: not current, not
in the block) when all of these hold within WINDOW:

- a model wrote it (the agent's remember call or the turn extractor, not the person or a
  tool rule);
- at least MIN_REFUSED separate refused turns carried it (its value is in their text);
- no turn that carried it got a normal answer.

The person can restore a held fact; a fact restored once is never held back again.
Pure: the service finds the turns, this module decides.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from twoclocks.domain.trust import Writer

WINDOW = timedelta(days=30)
MIN_REFUSED = 2
MODEL_WRITERS = frozenset({Writer.AGENT.value, Writer.EXTRACTOR.value})
"""Writers that are a model: an agent's remember call, the turn extractor."""


class Answered(StrEnum):
    """How a turn ended, as far as the watch cares."""

    NORMAL = "normal"
    REFUSED = "refused"
    CUT_SHORT = "cut_short"  # neither vouches for a fact nor counts against it


class Sighting(BaseModel):
    """One turn whose text carried the fact's value."""

    model_config = ConfigDict(frozen=True)

    turn_id: str
    at: datetime
    answered: Answered


def hold_back(
    writer: str | None, sightings: Iterable[Sighting], now: datetime, restored_before: bool
) -> bool:
    """True when the fact must be held back: a model's, on >= 2 refused turns, none normal."""
    if restored_before or writer not in MODEL_WRITERS:
        return False
    recent = [s for s in sightings if now - WINDOW <= s.at <= now]
    if any(s.answered is Answered.NORMAL for s in recent):
        return False
    refused = {s.turn_id for s in recent if s.answered is Answered.REFUSED}
    return len(refused) >= MIN_REFUSED
