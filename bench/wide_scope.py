"""Recall latency, scope ``wide`` vs ``here`` (issue 17).

    .venv/bin/python bench/wide_scope.py --size 10000 --projects 20 [--neo4j]

``size`` writes of bench/recall_workload.py's synthetic workload (service-like subjects,
~40 predicates, ~15% replacements), each subject placed in one of ``projects`` projects
(the version's workspace is that project's key, every key registered to the one implicit
space, as writes from unclaimed checkouts register them). The session sits in project 0:
``here`` reads its ~1/20, ``wide`` reads all of them. Vectors come from the deterministic
HashingEmbedder (no model: the query embedding, the same in both scopes, costs ~1 ms here
instead of MiniLM's ~10 ms, so the ratio is close to the filter's cost alone: conservative).
Distinct questions; ``here`` and ``wide`` alternate so both see the same machine load;
p50/p95 of ``RecallService.recall``. Embedded FalkorDB in a temp dir, or Neo4j started from
ci/neo4j/start with --neo4j.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import uuid
from datetime import UTC, datetime
from typing import Any

from engines import Neo4jServer, load_average, pct, timed
from recall_workload import SLOTS, synth

from twoclocks.domain.model import Place, Plan
from twoclocks.domain.places import Workspace
from twoclocks.domain.scope import IMPLICIT_SPACE, Scope
from twoclocks.domain.slot_names import fact_text
from twoclocks.embeddings.hashing import HashingEmbedder
from twoclocks.graph.port import Store

BATCH = 500
QUERIES = 100
WARMUP = 10


def project_key(i: int) -> str:
    """The project key of synthetic project ``i`` (as an unclaimed checkout's would be)."""
    return f"project:/home/dev/code/project-{i:02d}"


async def measure(store: Store, size: int, projects: int) -> dict[str, Any]:
    """Load, then time recall in both scopes; returns p50/p95 per scope and their ratio."""
    from twoclocks.service.recall import RecallService
    from twoclocks.service.recall_requests import RecallRequest
    from twoclocks.service.requests import Caller

    embedder = HashingEmbedder(384)
    account = f"wide-{size}-{uuid.uuid4().hex[:8]}"
    rows, current = synth(size)
    subjects = sorted({v.subject for v in rows})
    home = {s: i % projects for i, s in enumerate(subjects)}
    rows = [
        v.model_copy(update={"place": Place.PROJECT, "workspace": project_key(home[v.subject])})
        for v in rows
    ]
    for i in range(projects):
        await store.note_workspace(account, project_key(i), IMPLICIT_SPACE)
    for counter, start in enumerate(range(0, len(rows), BATCH)):
        chunk = tuple(rows[start : start + BATCH])
        vectors = embedder.embed_documents(
            [fact_text(v.subject, v.predicate, v.object) for v in chunk]
        )
        plan = Plan(now=chunk[-1].created_at, insert=chunk)
        embeddings = {v.version_id: vec for v, vec in zip(chunk, vectors, strict=True)}
        assert await store.apply(account, plan, "bench", "bulk", counter, embeddings)

    session = Workspace(project=project_key(0), space=IMPLICIT_SPACE)
    recall = RecallService(store, lambda: datetime.now(UTC), embedder, lambda _cwd: session, UTC)
    caller = Caller(account=account)
    rng = random.Random(5)
    asked = rng.sample(sorted(current), 2 * (QUERIES + WARMUP))
    questions = [SLOTS[p][0].format(s=s) for s, p in asked]
    samples: dict[Scope, list[float]] = {Scope.HERE: [], Scope.WIDE: []}
    found: dict[Scope, int] = {Scope.HERE: 0, Scope.WIDE: 0}
    for n, q in enumerate(questions):
        scope = Scope.HERE if n % 2 == 0 else Scope.WIDE
        req = RecallRequest(query=q, k=10, scope=scope)
        if n < 2 * WARMUP:
            await recall.recall(caller, req)
            continue
        got = await timed(samples[scope], lambda r=req: recall.recall(caller, r))
        found[scope] += len(got.facts)
    out: dict[str, Any] = {"size": size, "versions": len(rows), "projects": projects}
    for scope, ms in samples.items():
        out[scope.value] = {
            "p50_ms": round(pct(ms, 50), 1),
            "p95_ms": round(pct(ms, 95), 1),
            "rows_per_answer": round(found[scope] / len(ms), 1),
        }
    out["p95_ratio_wide_over_here"] = round(out["wide"]["p95_ms"] / out["here"]["p95_ms"], 2)
    out["load_average"] = load_average()
    return out


async def main_async(size: int, projects: int, neo4j: bool) -> dict[str, Any]:
    """Run on one engine, owning its server for the run."""
    if neo4j:
        from twoclocks.graph.neo4j.store import Neo4jStore

        with Neo4jServer() as uri:
            store: Store = Neo4jStore(uri)
            await store.start()
            try:
                return {"engine": "neo4j", **await measure(store, size, projects)}
            finally:
                await store.close()
    from twoclocks.graph.falkordb.store import FalkorDBStore

    with tempfile.TemporaryDirectory(prefix="widebench") as tmp:
        store = FalkorDBStore.embedded(tmp, appendfsync="everysec")
        await store.start()
        try:
            return {"engine": "falkordb", **await measure(store, size, projects)}
        finally:
            await store.close()


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=10_000)
    parser.add_argument("--projects", type=int, default=20)
    parser.add_argument("--neo4j", action="store_true")
    args = parser.parse_args()
    print(asyncio.run(main_async(args.size, args.projects, args.neo4j)))


if __name__ == "__main__":
    main()
