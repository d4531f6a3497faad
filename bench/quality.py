"""Quality on the labelled sets: slot drift (precision / recall) and recall (hit@1, MRR).

    .venv/bin/python bench/quality.py                 # both, through the service
    .venv/bin/python bench/quality.py --only drift --fast   # the matcher alone, for iterating
    .venv/bin/python bench/quality.py --only drift --judge local --judge-model qwen3:4b

Drift: for every pair of tests/data/drift_pairs.jsonl, a fresh subject gets a = value_a,
then b = value_b through ``MemoryService.remember`` on an embedded FalkorDB with the real
MiniLM model; merged = b was written under a's slot name. Recall: the facts of
tests/data/recall_facts.jsonl are loaded through the service (history first), then every
question of recall_questions.jsonl is asked through ``RecallService.recall`` (k 5, no cwd);
single: hit@1 and MRR, multi: all expected in the top 5, none: came back ``empty``. Then
each leg alone and each leg removed, for the contribution table. Figures per split
(``tune`` is what rules and thresholds may be fitted on; ``heldout`` is only reported).

The grey zone: pairs whose names score between the matcher's grey floor and threshold go
to the slot judge when an extractor is configured. Without ``--judge`` the table shows
how many pairs that is and what a judge that is always right would reach (a bound); with
``--judge URL`` (an OpenAI-compatible base URL, or ``local`` for Ollama) the drift rows
are that model's. The near_slot table counts, of the pairs kept apart, the answers that
named the other slot as close (``RememberResult.near_slot``): on missed merges the writer
is shown what to merge, on pairs that are two slots the hint is one to ignore.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
import time
from dataclasses import asdict
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from twoclocks import bootstrap
from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.eval import data, drift, recall
from twoclocks.eval.scratch_store import scratch_store
from twoclocks.graph.falkordb.store import FalkorDBStore

DATA = data.DATA_DIR
SPLITS: tuple[str, ...] = ("tune", "heldout")
"""The parts measured; ``--tune-only`` leaves the held-out part unread while deciding."""
FLOORS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5)


def drift_table(outcomes: list[drift.DriftOutcome]) -> dict[str, Any]:
    """Print precision / recall / F1 per split and per family; return them as a dict."""
    print(f"\n{'drift':<34} {'pairs':>5} {'prec':>6} {'recall':>6} {'F1':>6}  wrong/missed")
    out: dict[str, Any] = {}
    fresh = [o for o in outcomes if not o.pair.also_in_slot_pairs]
    groups = [
        ("split", drift.by_group(outcomes, lambda p: p.split)),
        ("not in slot_pairs", drift.by_group(fresh, lambda p: p.split)),
    ]
    for split in SPLITS:
        part = [o for o in outcomes if o.pair.split == split]
        groups.append((f"{split} family", drift.by_group(part, lambda p: p.family)))
    for title, table in groups:
        for name, s in table.items():
            label = f"{title} {name}"
            out[label] = asdict(s) | {"precision": s.precision, "recall": s.recall, "f1": s.f1}
            print(
                f"{label:<34} {s.pairs:>5} {s.precision:>6.3f} {s.recall:>6.3f} {s.f1:>6.3f}"
                f"  {s.false_merges}/{s.missed_merges}"
            )
    return out


def grey_table(outcomes: list[drift.DriftOutcome], grey: list[data.DriftPair]) -> dict[str, Any]:
    """Per split: pairs in the grey zone, and precision / recall with an always-right judge."""
    print(f"\n{'grey zone':<34} {'pairs':>5} {'merge':>6}  right judge: prec recall")
    out: dict[str, Any] = {}
    bound = drift.by_group(drift.with_a_right_judge(outcomes, grey), lambda p: p.split)
    for split, s in bound.items():
        asked = [p for p in grey if p.split == split]
        wanted = sum(p.merge for p in asked)
        out[split] = {
            "grey": len(asked),
            "grey_merges": wanted,
            "right_judge_precision": s.precision,
            "right_judge_recall": s.recall,
        }
        print(f"{split:<34} {len(asked):>5} {wanted:>6}  {s.precision:>17.3f} {s.recall:>6.3f}")
    return out


def near_table(outcomes: list[drift.DriftOutcome]) -> dict[str, Any]:
    """Per split: of the pairs kept apart, how many answers named the other slot (near_slot)."""
    head = f"{'missed':>6} {'named':>6} {'apart':>6} {'named':>6}"
    print(f"\n{'kept apart, near_slot named':<34} {head}")
    out: dict[str, Any] = {}
    for split in SPLITS:
        h = drift.near_hints(o for o in outcomes if o.pair.split == split)
        out[split] = asdict(h)
        print(f"{split:<34} {h.missed:>6} {h.missed_named:>6} {h.apart:>6} {h.apart_named:>6}")
    return out


def drift_errors(outcomes: list[drift.DriftOutcome], split: str) -> None:
    """List the pairs of a split the matcher got wrong (tune only: heldout stays unread)."""
    for o in outcomes:
        if o.pair.split == split and o.merged != o.pair.merge:
            what = "WRONG MERGE" if o.merged else "missed    "
            print(f"  {what} {o.pair.a!r:>34} <- {o.pair.b!r:<34} "
                  f"[{o.pair.family}] {o.pair.value_a!r} / {o.pair.value_b!r}")  # fmt: skip


def recall_row(label: str, s: recall.RecallScores) -> dict[str, Any]:
    """Print one line of the recall table; return it as a dict."""
    print(
        f"{label:<34} {s.single:>4} {s.hit1:>6.3f} {s.mrr:>6.3f} {s.multi:>4} {s.multi_all:>6.3f}"
        f" {s.none:>4} {s.none_empty:>6.3f} {s.answered_empty:>5}"
    )
    return asdict(s)


async def run_recall(
    store: FalkorDBStore, embedder: SentenceTransformerEmbedder, legs: bool, show: str | None
) -> dict[str, Any]:
    """Load the facts, ask every question, print the tables."""
    facts = data.recall_facts(DATA / "recall_facts.jsonl")
    questions = [
        q for q in data.recall_questions(DATA / "recall_questions.jsonl") if q.split in SPLITS
    ]
    started = time.perf_counter()
    loaded = await recall.load(store, embedder, SlotMatcher(embedder), facts)
    print(f"\nloaded {len(facts)} facts in {time.perf_counter() - started:.1f} s; "
          f"lost to drift at load: {loaded.lost or 'none'}")  # fmt: skip
    out: dict[str, Any] = {"lost_at_load": loaded.lost}
    print(f"\n{'recall':<34} {'1':>4} {'hit@1':>6} {'MRR':>6} {'n':>4} {'all@5':>6}"
          f" {'none':>4} {'empty':>6} {'lost':>5}")  # fmt: skip
    started = time.perf_counter()
    answers = await recall.ask(recall.recall_service(store, embedder, loaded, None), loaded,
                               questions)  # fmt: skip
    elapsed = (time.perf_counter() - started) / max(1, len(questions))
    for split in SPLITS:
        out[split] = recall_row(
            split, recall.score(a for a in answers if a.question.split == split)
        )
    print(f"  ({elapsed * 1000:.0f} ms a question)")
    if show:
        for a in answers:
            if a.question.split == show and (
                (a.question.kind == "none") != (a.status == "empty") or
                (a.question.kind == "single" and a.rank != 1)
            ):  # fmt: skip
                print(f"  {a.question.kind:<6} {a.question.question!r} want {a.question.expect}"
                      f" got {a.status} {list(a.ranked)}")  # fmt: skip
    if legs:
        service = recall.recall_service(store, embedder, loaded, None)
        for floor in FLOORS:
            service.legs.relevance_floor = floor
            got = await recall.ask(service, loaded, questions)
            part = recall.score(a for a in got if a.question.split == "tune")
            out[f"floor {floor:.2f} tune"] = recall_row(f"floor {floor:.2f} (tune)", part)
        for name, weights in recall.leg_variants().items():
            service = recall.recall_service(store, embedder, loaded, weights)
            got = await recall.ask(service, loaded, questions)
            for split in SPLITS:
                part = recall.score(a for a in got if a.question.split == split)
                out[f"{name} {split}"] = recall_row(f"{name} ({split})", part)
    return out


async def main(args: argparse.Namespace) -> dict[str, Any]:
    """Start the embedded store and the model, run what was asked, return every figure."""
    print(f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, "
          f"Python {platform.python_version()}")  # fmt: skip
    embedder = SentenceTransformerEmbedder().load()
    matcher = SlotMatcher(embedder)
    results: dict[str, Any] = {}
    pairs = data.drift_pairs(DATA / "drift_pairs.jsonl") if args.only in (None, "drift") else []
    pairs = [p for p in pairs if p.split in SPLITS]
    grey = drift.in_grey_zone(matcher, pairs)
    if args.fast:
        outcomes = drift.match_directly(matcher, pairs)
        results["drift"] = drift_table(outcomes)
        results["grey"] = grey_table(outcomes, grey)
        if args.show:
            drift_errors(outcomes, args.show)
        return results
    judge = None
    if args.judge:
        # The server's own wiring, with room for a slow local model.
        judge = bootstrap.open_slot_judge(
            bootstrap.load_settings(extractor_url=args.judge, extractor_model=args.judge_model,
                                    drift_judge=True, drift_judge_timeout_s=120)
        )  # fmt: skip
        assert judge is not None
        print(f"slot judge: {judge.decided_by} at {args.judge}")
    async with scratch_store("quality") as store:
        if pairs:
            outcomes = await drift.through_service(store, matcher, pairs, slot_judge=judge)
            results["drift"] = drift_table(outcomes)
            results["grey"] = grey_table(outcomes, grey)
            results["near_slot"] = near_table(outcomes)
            if args.show:
                drift_errors(outcomes, args.show)
        if args.only in (None, "recall"):
            results["recall"] = await run_recall(store, embedder, not args.no_legs, args.show)
    return results


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", choices=("drift", "recall"), help="run one of the two")
    parser.add_argument("--fast", action="store_true", help="drift: the matcher alone")
    parser.add_argument("--no-legs", action="store_true", help="recall: skip the leg table")
    parser.add_argument("--show", choices=("tune",), help="list the misses of the tune split")
    parser.add_argument(
        "--tune-only", action="store_true", help="measure the tune part alone (while deciding)"
    )
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument("--data", type=Path, default=DATA, help="folder of the three sets")
    parser.add_argument("--judge", help="drift: the slot judge's endpoint (…/v1, or 'local')")
    parser.add_argument("--judge-model", default="gemma3:270m", help="the slot judge's model")
    parsed = parser.parse_args()
    DATA = parsed.data
    if parsed.tune_only:
        SPLITS = ("tune",)
    figures = asyncio.run(main(parsed))
    if parsed.json:
        parsed.json.write_text(json.dumps(figures, indent=2, default=str) + "\n")
    sys.exit(0)
