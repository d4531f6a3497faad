"""The labelled sets of tests/data/, read into typed rows.

Each set is JSON lines written before any tuning and split once into ``tune`` (what
thresholds and rules may be fitted on) and ``heldout`` (reported, never fitted on).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

DATA_DIR = Path(__file__).resolve().parents[2] / "tests" / "data"
"""tests/data/ of a source checkout (the sets are not shipped in the wheel)."""

Split = Literal["tune", "heldout"]


class DriftPair(BaseModel):
    """Two predicate names of one subject, written a then b, and whether b should merge."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    a: str
    b: str
    value_a: str = "A"
    value_b: str = "B"
    merge: bool
    family: str = "other"
    split: Split = "tune"
    subject: str = "drift-subject"
    also_in_slot_pairs: bool = False
    """The same two names are in the older slot_pairs.jsonl the matcher was built with."""


class OlderValue(BaseModel):
    """A value the fact held before its current one, from ``valid_at`` on."""

    model_config = ConfigDict(extra="ignore")

    object: str
    valid_at: datetime


class RecallFact(BaseModel):
    """A fact to load: its current value (and older values first, each with its valid_at)."""

    model_config = ConfigDict(extra="ignore")

    id: str
    subject: str
    predicate: str
    object: str
    valid_at: datetime | None = None
    history: list[OlderValue] = Field(default_factory=list)


class RecallQuestion(BaseModel):
    """A question, the fact ids that answer it, its kind and its split."""

    model_config = ConfigDict(extra="ignore")

    id: str = ""
    question: str
    expect: list[str] = Field(default_factory=list)
    kind: Literal["single", "multi", "none"]
    split: Split = "tune"


class SlotWrite(BaseModel):
    """One write of a whole subject: a predicate name and the value written under it."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    predicate: str
    value: str


class Rename(SlotWrite):
    """A later write naming slot ``of`` under another name: it should land under ``of``."""

    of: str


class WholeSubject(BaseModel):
    """A subject's slots in write order, then renames and near-miss new slots (set E)."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    id: str
    subject: str
    kind: str
    split: Split
    slots: tuple[SlotWrite, ...]
    renames: tuple[Rename, ...]
    new_slots: tuple[SlotWrite, ...]


def _rows(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def _first(row: dict[str, Any], *names: str) -> Any:
    for name in names:
        if name in row:
            return row[name]
    return None


def drift_pairs(path: Path = DATA_DIR / "drift_pairs.jsonl") -> list[DriftPair]:
    """Every labelled predicate pair."""
    return [DriftPair.model_validate(row) for row in _rows(path)]


def recall_facts(path: Path = DATA_DIR / "recall_facts.jsonl") -> list[RecallFact]:
    """Every fact of the recall set."""
    return [RecallFact.model_validate(row) for row in _rows(path)]


def recall_questions(path: Path = DATA_DIR / "recall_questions.jsonl") -> list[RecallQuestion]:
    """Every question of the recall set (``question`` may also be spelled ``q``/``text``)."""
    out = []
    for row in _rows(path):
        text = _first(row, "question", "q", "text", "query")
        out.append(RecallQuestion.model_validate({**row, "question": text}))
    return out


def whole_subjects(path: Path = DATA_DIR / "set_e" / "subjects.jsonl") -> list[WholeSubject]:
    """Every whole subject of set E."""
    return [WholeSubject.model_validate(row) for row in _rows(path)]
