"""Capture every recall candidate and its signals once, for tuning the final order offline.

    .venv/bin/python bench/recall_signals.py --out /tmp/signals.pickle

Loads tests/data/recall_facts.jsonl through the service (as bench/quality.py does), asks
every question of recall_questions.jsonl with the service's leg weights and no relevance
floor, and pickles, per question: the rankings fused (the legs that found something,
in ``service.recall_fusion.LEGS`` order), the relevance signals and cosines of every
candidate, the named subjects, the fused scores and the candidate facts themselves.
Rescoring them with ``recall_order.by_score`` gives the service's order
(bench/recall_fit.py). Tuning reads the ``tune`` rows only (tests/data/README.md); heldout
is measured through the service.
"""

from __future__ import annotations

import argparse
import asyncio
import pickle
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder
from twoclocks.embeddings.slot_matcher import SlotMatcher
from twoclocks.eval import data, recall
from twoclocks.eval.scratch_store import scratch_store
from twoclocks.graph.port import FactQuery
from twoclocks.service import recall_fusion as recall_module
from twoclocks.service.recall_requests import RecallRequest
from twoclocks.service.requests import Caller


async def capture(out: Path, folder: Path = data.DATA_DIR) -> None:
    """Load, ask with capture hooks in place, pickle the captures."""
    embedder = SentenceTransformerEmbedder().load()
    facts = data.recall_facts(folder / "recall_facts.jsonl")
    questions = data.recall_questions(folder / "recall_questions.jsonl")
    seen: dict[str, Any] = {}
    fuse = recall_module.reciprocal_rank_fusion
    score = recall_module.by_score

    def fuse_spy(rankings: Sequence[Sequence[str]], **kw: Any) -> Any:
        seen["rankings"] = [list(r) for r in rankings]
        return fuse(rankings, **kw)

    def score_spy(
        fused: Any, relevance: Any, cosine: Any, own: Any, named: Any = (), *rest: Any
    ) -> Any:
        seen.update(
            fused=list(fused),
            relevance=dict(relevance),
            cosine=dict(cosine),
            named=set(named),
            own=set(own),
            rest=rest,
        )
        return score(fused, relevance, cosine, own, named, *rest)

    recall_module.reciprocal_rank_fusion = fuse_spy  # type: ignore[assignment]
    recall_module.by_score = score_spy  # type: ignore[assignment]
    async with scratch_store("signals") as store:
        loaded = await recall.load(store, embedder, SlotMatcher(embedder), facts)
        every = await store.query(
            loaded.account, FactQuery(now=loaded.now, include_history=True, limit=10_000)
        )
        by_id = {v.version_id: v for v in every}
        service = recall.recall_service(store, embedder, loaded, None)
        service.legs.relevance_floor = -1.0
        rows = []
        for q in questions:
            seen.clear()
            got = await service.recall(
                Caller(account=loaded.account), RecallRequest(query=q.question, k=5)
            )
            rows.append(
                {
                    "question": q,
                    "rankings": seen.get("rankings", []),
                    "relevance": seen.get("relevance", {}),
                    "cosine": seen.get("cosine", {}),
                    "named": seen.get("named", set()),
                    "fused": seen.get("fused", []),
                    "own": seen.get("own", set()),
                    "rest": seen.get("rest", ()),
                    "got": [f.version_id for f in got.facts],
                }
            )
        ids = {vid: loaded.ids.get(v.fact_id) for vid, v in by_id.items()}
        out.write_bytes(pickle.dumps({"rows": rows, "facts": by_id, "set_ids": ids}))


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, required=True, help="pickle file to write")
    parser.add_argument(
        "--data", type=Path, default=data.DATA_DIR, help="the set (B: tests/data/set_b)"
    )
    args = parser.parse_args()
    asyncio.run(capture(args.out, args.data))
