"""Slot drift on whole subjects (tests/data/set_e): precision and recall as it runs.

    .venv/bin/python bench/subject_drift.py --tune-only --show   # while deciding
    .venv/bin/python bench/subject_drift.py                       # both parts, to report

Each subject's slots are written in order through ``MemoryService.remember`` on an
embedded FalkorDB with the real MiniLM model, then its renames and its near-miss new
slots in the order listed (twoclocks/eval/subject_drift.py). A write landing under a name
the subject already held is a merge; only a rename landing under its own slot is right.
"""

from __future__ import annotations

import argparse
import asyncio
import platform
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.eval import data, subject_drift
from twoclocks.eval.scratch_store import scratch_store

DEFAULT_DATA = data.DATA_DIR / "set_e" / "subjects.jsonl"


def table(landings: Sequence[subject_drift.Landing], splits: Sequence[str]) -> None:
    """Precision / recall per split, and the wrong merges per step."""
    print(f"\n{'whole subjects':<22} {'writes':>6} {'renames':>7} {'prec':>6} {'recall':>6}"
          f"  wrong merges (slots / renames / new slots)")  # fmt: skip
    for split in splits:
        part = [x for x in landings if x.subject.split == split]
        s = subject_drift.scores(part)
        wrong = [
            subject_drift.scores(x for x in part if x.step == step).false_merges
            for step in ("slot", "rename", "new_slot")
        ]
        renames = s.true_merges + s.missed_merges
        print(f"{split:<22} {s.pairs:>6} {renames:>7} {s.precision:>6.3f} {s.recall:>6.3f}"
              f"  {s.false_merges} ({wrong[0]} / {wrong[1]} / {wrong[2]})")  # fmt: skip


def errors(landings: Sequence[subject_drift.Landing], split: str) -> None:
    """Every wrong merge and missed rename of one split, to read while deciding."""
    for x in landings:
        if x.subject.split != split:
            continue
        if x.wrong:
            print(f"  WRONG  {x.subject.subject}: {x.predicate!r} -> {x.landed!r} ({x.step})")
        elif x.step == "rename" and not x.right:
            print(f"  missed {x.subject.subject}: {x.predicate!r} should be {x.want!r}")


async def main(args: argparse.Namespace) -> None:
    """Load the model, write every subject of the chosen parts, print the figures."""
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, "
          f"Python {platform.python_version()}")  # fmt: skip
    splits = ("tune",) if args.tune_only else ("tune", "heldout")
    subjects = [s for s in data.whole_subjects(args.data) if s.split in splits]
    matcher = SlotMatcher(SentenceTransformerEmbedder().load())
    async with scratch_store("subjects") as store:
        landings = await subject_drift.through_service(store, matcher, subjects)
    table(landings, splits)
    if args.show:
        errors(landings, "tune")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, default=DEFAULT_DATA, help="the subjects file")
    parser.add_argument(
        "--tune-only", action="store_true", help="measure the tune part alone (while deciding)"
    )
    parser.add_argument("--show", action="store_true", help="list the tune part's errors")
    asyncio.run(main(parser.parse_args()))
    sys.exit(0)
