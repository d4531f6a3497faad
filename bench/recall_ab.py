"""Recall latency of two versions of the recall service on one loaded graph, interleaved.

    git archive <base-commit> | tar -x -C /tmp/base
    .venv/bin/python bench/recall_ab.py --base /tmp/base --size 100000

On a shared machine the load moves more between two runs than a small change costs, so
both versions answer the same distinct questions on the same embedded FalkorDB graph
(bench/recall.py's workload), alternating question by question: ``base`` is
twoclocks/service/recall.py of the other checkout, ``this`` is the one imported here.
Prints p50 / p95 of each (query embedding included, never cached), their ratio, and
hit@10 (the asked slot's current version among the 10). ``--ask TEXT`` times one question
instead, each time with a distinct tail ("what changed since 2025-01-20?": the workload's
writes run from 2025-01-01, 30 s apart, so that window holds most of them); no hit@10.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.abc
import importlib.machinery
import importlib.util
import os
import random
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

from engines import load_average, pct
from recall_workload import SLOTS, distinct_texts, fact_vector, synth

from twoclocks.domain.model import Plan
from twoclocks.domain.places import Workspace
from twoclocks.graph.falkordb.store import FalkorDBStore
from twoclocks.service import recall as this_recall
from twoclocks.service.requests import Caller

ROOT = Path(__file__).resolve().parent.parent
BATCH = 500
WARMUP = 10


class _BaseFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules in the other checkout, so its recall imports its own."""

    def __init__(self, paths: dict[str, Path]) -> None:
        self.paths = paths

    def find_spec(
        self, fullname: str, path: object, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        found = self.paths.get(fullname)
        return None if found is None else importlib.util.spec_from_file_location(fullname, found)


def base_module(checkout: Path) -> ModuleType:
    """twoclocks/service/recall.py of another checkout, over that checkout's own copies of
    the domain and service modules that differ from this tree's (or that this tree lacks);
    the rest of the package is this tree's. This tree's modules are put back after."""
    paths: dict[str, Path] = {}
    for folder in ("domain", "service"):
        for path in sorted((checkout / "twoclocks" / folder).glob("*.py")):
            ours = ROOT / "twoclocks" / folder / path.name
            if (
                path.name == "recall.py"
                or not ours.exists()
                or ours.read_bytes() != path.read_bytes()
            ):
                paths[f"twoclocks.{folder}.{path.stem}"] = path
    saved = {name: sys.modules.pop(name) for name in list(paths) if name in sys.modules}
    finder = _BaseFinder(paths)
    sys.meta_path.insert(0, finder)
    try:
        return importlib.import_module("twoclocks.service.recall")
    finally:
        sys.meta_path.remove(finder)
        for name in paths:
            sys.modules.pop(name, None)
        sys.modules.update(saved)
        for name, module in saved.items():  # the packages' attributes too
            parent, _, child = name.rpartition(".")
            setattr(sys.modules[parent], child, module)


async def main(args: argparse.Namespace) -> None:
    """Load once, then time both services question by question."""
    from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder

    base = base_module(args.base)
    embedder = SentenceTransformerEmbedder().load()
    texts = distinct_texts()
    vectors = dict(zip(texts, embedder.embed_documents(texts), strict=True))
    rows, current = synth(args.size)
    rng = random.Random(3)
    with tempfile.TemporaryDirectory(prefix="tc-ab-") as tmp:
        store = FalkorDBStore.embedded(tmp, appendfsync="everysec")
        await store.start()
        try:
            account = f"ab-{uuid.uuid4().hex[:8]}"
            started = time.perf_counter()
            for counter, i in enumerate(range(0, len(rows), BATCH)):
                chunk = tuple(rows[i : i + BATCH])
                vecs = {v.version_id: fact_vector(v, vectors, rng) for v in chunk}
                plan = Plan(now=chunk[-1].created_at, insert=chunk)
                assert await store.apply(account, plan, "bench", "bulk", counter, vecs)
            print(f"loaded {len(rows)} versions in {time.perf_counter() - started:.0f} s")
            asked = rng.sample(sorted(current), args.queries + WARMUP)
            questions = [(SLOTS[p][0].format(s=s), current[(s, p)]) for s, p in asked]
            if args.ask:
                questions = [(args.ask, "") for _ in questions]
            clock = lambda: datetime.now(UTC)  # noqa: E731
            services = {
                name: module.RecallService(store, clock, embedder, lambda _c: Workspace(), UTC)
                for name, module in (("base", base), ("this", this_recall))
            }
            caller = Caller(account=account)
            times: dict[str, list[float]] = {name: [] for name in services}
            hits = dict.fromkeys(services, 0)
            for n, (question, want) in enumerate(questions):
                order = list(services) if n % 2 else list(reversed(services))
                for name in order:
                    module = base if name == "base" else this_recall
                    # Distinct text: the embedding is never cached.
                    text = f"{question} ({name} {n})" if args.ask else f"{question} ({name})"
                    t0 = time.perf_counter()
                    got = await services[name].recall(
                        caller, module.RecallRequest(query=text, k=10)
                    )
                    if n >= WARMUP:
                        times[name].append((time.perf_counter() - t0) * 1000)
                        hits[name] += want in {f.version_id for f in got.facts}
            for name, ms in times.items():
                hit = "" if args.ask else f", hit@10 {hits[name]}/{len(ms)}"
                print(f"{name}: p50 {pct(ms, 50):.1f} ms, p95 {pct(ms, 95):.1f} ms{hit}")
            ratio = pct(times["this"], 95) / pct(times["base"], 95)
            print(f"this/base p95 {ratio:.3f}, p50 "
                  f"{pct(times['this'], 50) / pct(times['base'], 50):.3f}; "
                  f"load average {load_average()}")  # fmt: skip
        finally:
            await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True, help="the other checkout's root")
    parser.add_argument("--size", type=int, default=100_000, help="writes to load")
    parser.add_argument("--queries", type=int, default=300, help="questions timed per version")
    parser.add_argument("--ask", help="time this one question instead of the workload's")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    asyncio.run(main(parser.parse_args()))
