"""Recall benchmark: hybrid recall (keyword + vector index + traversal, RRF) on each engine.

    .venv/bin/python bench/recall.py --sizes 10000,100000 --engines falkordb,neo4j

For each size N, N writes over realistic slots (service-like subjects, ~40 predicates such
as ci_provider or deploy_target, ~15% of writes replace a value, so history exists) are
planned with the pure planner and bulk-loaded with fact embeddings in batched applies.

Embeddings: MiniLM (all-MiniLM-L6-v2) encodes only the DISTINCT "predicate words + value"
texts and subject kinds (~5k, batches of 64); a fact's vector is its (predicate, value)
vector plus half its subject kind's, with a small random perturbation (renormalised), not
its own encoding, because encoding 100k facts at ~150-300/s on 2 cores would take longer
than the rest of the run. Query embeddings are real and uncached (every query distinct)
unless reported as cached.

Measured per engine and size:

* bulk load rows/s through ``Store.apply`` (vectors precomputed), MiniLM docs/s;
* recall p50/p95 through ``RecallService.recall`` INCLUDING the query embedding, distinct
  queries (cache misses), then the same queries again (cache hits); per-leg p50s;
* hit@10: the asked slot's current version is among the 10 results;
* graphiti-core's own hybrid search (edge BM25 + cosine, RRF) on the same graph with the
  same embedding model, and its ratio to ours;
* writes with embeddings: one at a time through ``MemoryService.remember`` (slot-drift
  matcher on, as ``bootstrap`` wires it) vs batched (encode 64, apply 64 per plan);
* RSS of this process (with the model) and of the engine's server process.

FalkorDB runs in a temp dir of its own; Neo4j comes from ci/neo4j/start in a run dir of its
own (``NEO4J_RUN_DIR``, stopped again afterwards) unless --neo4j-uri is given.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from twoclocks.domain.model import FactVersion, Incoming, Plan, Tier
from twoclocks.domain.places import Workspace
from twoclocks.domain.slot_names import humanize_predicate
from twoclocks.domain.write_plan import plan_write
from twoclocks.graph.port import FactQuery, Store
from twoclocks.graph.schema import fact_text

REPO = Path(__file__).resolve().parent.parent
T0 = datetime(2025, 1, 1, tzinfo=UTC)
BATCH = 500
QUERIES = 200
GRAPHITI_QUERIES = 100  # graphiti's brute-force cosine is slow at 100k: fewer samples
WARMUP = 10
LEG_SAMPLES = 60
SINGLE_WRITES = 60
BATCHED_WRITES = 640
UPDATE_SHARE = 0.15
NOISE = 0.08  # norm of the perturbation added to a reused vector (before renormalising)

COMPONENTS = ["billing", "auth", "search", "checkout", "catalog", "inventory", "gateway",
              "notifications", "reports", "payments", "orders", "profile", "media", "ledger",
              "scheduler", "analytics"]  # fmt: skip
KINDS = ["api", "worker", "web", "service", "cron", "db", "cache", "frontend"]

# predicate -> (question template, value bases)
SLOTS: dict[str, tuple[str, list[str]]] = {
    "ci_provider": (
        "which CI does {s} use?",
        [
            "CircleCI",
            "GitHub Actions",
            "GitLab CI",
            "Buildkite",
            "Jenkins",
            "Travis CI",
            "Drone",
            "TeamCity",
        ],
    ),
    "deploy_target": (
        "where is {s} deployed?",
        [
            "Render",
            "Fly.io",
            "AWS ECS",
            "Heroku",
            "Kubernetes on GKE",
            "Vercel",
            "Netlify",
            "bare metal at Hetzner",
        ],
    ),
    "language": (
        "what language is {s} written in?",
        ["Python", "Go", "TypeScript", "Rust", "Kotlin", "Java", "Ruby", "Elixir"],
    ),
    "runtime_version": (
        "which runtime version does {s} run?",
        [
            "Python 3.11",
            "Python 3.12",
            "Node 20",
            "Node 22",
            "Go 1.22",
            "Java 21",
            "Ruby 3.3",
            "Bun 1.1",
        ],
    ),
    "test_command": (
        "how do I run the tests of {s}?",
        [
            "make test",
            "pytest -q",
            "npm test",
            "go test ./...",
            "cargo test",
            "bundle exec rspec",
            "just test",
            "tox -e py311",
        ],
    ),
    "build_command": (
        "how is {s} built?",
        [
            "make build",
            "npm run build",
            "cargo build",
            "go build ./cmd/...",
            "docker build .",
            "bazel build //...",
            "gradle assemble",
            "poetry build",
        ],
    ),
    "lint_command": (
        "which linter runs on {s}?",
        [
            "ruff check",
            "eslint .",
            "golangci-lint",
            "clippy",
            "rubocop",
            "flake8",
            "biome lint",
            "pylint",
        ],
    ),
    "database": (
        "which database does {s} use?",
        [
            "Postgres 16",
            "Postgres 15",
            "MySQL 8",
            "SQLite",
            "MongoDB",
            "DynamoDB",
            "CockroachDB",
            "Cassandra",
        ],
    ),
    "cache": (
        "what cache does {s} use?",
        [
            "Redis",
            "Memcached",
            "Valkey",
            "Dragonfly",
            "in-process LRU",
            "Varnish",
            "CloudFront",
            "none",
        ],
    ),
    "queue": (
        "which message queue does {s} use?",
        [
            "RabbitMQ",
            "Kafka",
            "SQS",
            "NATS",
            "Redis streams",
            "Pub/Sub",
            "Celery with Redis",
            "Sidekiq",
        ],
    ),
    "owner_team": (
        "which team owns {s}?",
        [
            "team blue",
            "team red",
            "platform team",
            "payments squad",
            "growth team",
            "infra team",
            "data team",
            "mobile team",
        ],
    ),
    "oncall_engineer": (
        "who is on call for {s}?",
        ["Alice", "Bob", "Chen", "Dara", "Emeka", "Farah", "Goran", "Hana"],
    ),
    "region": (
        "which region does {s} run in?",
        [
            "eu-west-1",
            "us-east-1",
            "us-west-2",
            "ap-southeast-1",
            "eu-central-1",
            "Oregon",
            "Frankfurt",
            "Tokyo",
        ],
    ),
    "default_branch": (
        "what is the default branch of {s}?",
        ["main", "master", "trunk", "develop", "release", "prod", "next", "stable"],
    ),
    "package_manager": (
        "which package manager does {s} use?",
        ["uv", "pip", "poetry", "npm", "pnpm", "yarn", "cargo", "bundler"],
    ),
    "framework": (
        "which framework is {s} built on?",
        ["FastAPI", "Django", "Flask", "Express", "Next.js", "Rails", "Phoenix", "Spring Boot"],
    ),
    "orm": (
        "which ORM does {s} use?",
        [
            "SQLAlchemy",
            "Django ORM",
            "Prisma",
            "GORM",
            "ActiveRecord",
            "Ecto",
            "Hibernate",
            "Diesel",
        ],
    ),
    "error_tracker": (
        "where do errors of {s} go?",
        [
            "Sentry",
            "Rollbar",
            "Bugsnag",
            "Honeybadger",
            "Datadog",
            "New Relic",
            "Airbrake",
            "Raygun",
        ],
    ),
    "metrics_backend": (
        "where are metrics of {s}?",
        [
            "Prometheus",
            "Datadog",
            "Grafana Cloud",
            "CloudWatch",
            "Honeycomb",
            "StatsD",
            "InfluxDB",
            "Victoria Metrics",
        ],
    ),
    "log_backend": (
        "where do logs of {s} go?",
        [
            "Loki",
            "Elasticsearch",
            "CloudWatch Logs",
            "Papertrail",
            "Datadog Logs",
            "Splunk",
            "Logtail",
            "stdout only",
        ],
    ),
    "container_registry": (
        "which container registry does {s} push to?",
        ["GHCR", "ECR", "Docker Hub", "GCR", "Quay", "Harbor", "ACR", "GitLab registry"],
    ),
    "base_image": (
        "which base image does {s} use?",
        [
            "python:3.11-slim",
            "node:20-alpine",
            "distroless",
            "ubuntu:24.04",
            "debian:bookworm",
            "alpine:3.20",
            "golang:1.22",
            "scratch",
        ],
    ),
    "formatter": (
        "which formatter does {s} use?",
        [
            "black",
            "ruff format",
            "prettier",
            "gofmt",
            "rustfmt",
            "standardrb",
            "mix format",
            "ktlint",
        ],
    ),
    "type_checker": (
        "which type checker runs on {s}?",
        ["mypy", "pyright", "tsc", "sorbet", "dialyzer", "pyre", "flow", "none"],
    ),
    "secrets_manager": (
        "where are secrets of {s} kept?",
        [
            "Vault",
            "AWS Secrets Manager",
            "Doppler",
            "1Password",
            "SOPS",
            "GCP Secret Manager",
            "Infisical",
            "env files",
        ],
    ),
    "dns_provider": (
        "who hosts DNS for {s}?",
        [
            "Cloudflare",
            "Route 53",
            "Google Cloud DNS",
            "DNSimple",
            "Gandi",
            "Namecheap",
            "NS1",
            "Azure DNS",
        ],
    ),
    "auth_provider": (
        "which auth provider does {s} use?",
        [
            "Auth0",
            "Okta",
            "Keycloak",
            "Cognito",
            "Clerk",
            "Firebase Auth",
            "WorkOS",
            "our own OAuth",
        ],
    ),
    "email_provider": (
        "which email provider does {s} use?",
        ["SendGrid", "Postmark", "SES", "Mailgun", "Resend", "SparkPost", "Mandrill", "SMTP relay"],
    ),
    "payment_provider": (
        "which payment provider does {s} use?",
        ["Stripe", "Adyen", "Braintree", "PayPal", "Paddle", "Mollie", "Square", "Checkout.com"],
    ),
    "search_engine": (
        "which search engine does {s} use?",
        [
            "Elasticsearch",
            "OpenSearch",
            "Meilisearch",
            "Typesense",
            "Algolia",
            "Solr",
            "Postgres FTS",
            "Vespa",
        ],
    ),
    "http_port": (
        "which port does {s} listen on?",
        ["8000", "8080", "3000", "5000", "9000", "4000", "8443", "80"],
    ),
    "staging_url": (
        "what is the staging URL of {s}?",
        [
            "staging.example.com",
            "stg.internal",
            "preview.example.dev",
            "beta.example.com",
            "staging.fly.dev",
            "qa.example.net",
            "stage.corp",
            "next.example.io",
        ],
    ),
    "release_cadence": (
        "how often does {s} release?",
        [
            "daily",
            "weekly",
            "every sprint",
            "on merge to main",
            "monthly",
            "twice a week",
            "on demand",
            "quarterly",
        ],
    ),
    "feature_flags": (
        "which feature flag service does {s} use?",
        [
            "LaunchDarkly",
            "Unleash",
            "Flagsmith",
            "GrowthBook",
            "Split",
            "ConfigCat",
            "PostHog flags",
            "env toggles",
        ],
    ),
    "cdn": (
        "which CDN serves {s}?",
        [
            "Cloudflare",
            "Fastly",
            "CloudFront",
            "Akamai",
            "Bunny",
            "KeyCDN",
            "Google Cloud CDN",
            "none",
        ],
    ),
    "code_owner": (
        "who reviews code for {s}?",
        ["Alice", "Bob", "Chen", "Dara", "Emeka", "Farah", "Goran", "Hana"],
    ),
    "storage_bucket": (
        "which bucket does {s} store files in?",
        [
            "s3://assets",
            "gs://media",
            "s3://uploads",
            "r2://static",
            "s3://backups",
            "gs://exports",
            "azure://blobs",
            "minio://local",
        ],
    ),
    "license": (
        "what license does {s} use?",
        [
            "MIT",
            "Apache-2.0",
            "GPL-3.0",
            "BSD-3-Clause",
            "proprietary",
            "MPL-2.0",
            "AGPL-3.0",
            "ISC",
        ],
    ),
    "docs_site": (
        "where are the docs of {s}?",
        [
            "Read the Docs",
            "GitHub Pages",
            "Notion",
            "Confluence",
            "Docusaurus on Vercel",
            "MkDocs on Netlify",
            "the wiki",
            "README only",
        ],
    ),
    "incident_channel": (
        "where are incidents of {s} handled?",
        [
            "#incidents",
            "#ops",
            "#sre",
            "PagerDuty",
            "Opsgenie",
            "#war-room",
            "incident.io",
            "#oncall",
        ],
    ),
}
QUALIFIERS = [
    "",
    "since the migration",
    "in production",
    "for now",
    "per the ADR",
    "with caching",
    "v2",
    "on arm64",
    "behind a proxy",
    "pinned",
    "managed",
    "self-hosted",
    "with retries",
    "shared",
    "experimental",
    "legacy",
]


@dataclass
class Result:
    """One engine at one size."""

    engine: str
    size: int
    versions: int = 0
    load_rows_s: float = 0.0
    recall_ms: list[float] = field(default_factory=list)
    recall_cached_ms: list[float] = field(default_factory=list)
    graphiti_ms: list[float] = field(default_factory=list)
    legs: dict[str, list[float]] = field(default_factory=dict)
    hits: int = 0
    graphiti_hits: int = 0
    single_ms: list[float] = field(default_factory=list)
    batched_facts_s: float = 0.0
    rss_mb: float = 0.0
    server_rss_mb: float = 0.0
    notes: list[str] = field(default_factory=list)


def subject_name(i: int) -> str:
    return f"{COMPONENTS[i % len(COMPONENTS)]}-{KINDS[(i // len(COMPONENTS)) % len(KINDS)]}-{i}"


def value_texts() -> list[tuple[str, str]]:
    """Every distinct (predicate, value) pair; the value carries an optional qualifier."""
    return [
        (p, f"{base} {q}".strip())
        for p, (_, bases) in SLOTS.items()
        for base in bases
        for q in QUALIFIERS
    ]


def key_text(predicate: str, value: str) -> str:
    return f"{humanize_predicate(predicate)} {value}"


def subject_kind(subject: str) -> str:
    """ "billing-api-17" -> "billing-api": the part of a subject MiniLM can mean something by."""
    return subject.rsplit("-", 1)[0]


def distinct_texts() -> list[str]:
    """Every text MiniLM encodes: the (predicate, value) pairs and the subject kinds."""
    kinds = {f"{c}-{k}" for c in COMPONENTS for k in KINDS}
    return sorted({key_text(p, v) for p, v in value_texts()} | kinds)


def fact_vector(v: FactVersion, vectors: dict[str, list[float]], rng: random.Random) -> list[float]:
    """The (predicate, value) vector plus half the subject kind's, perturbed, unit length."""
    pv, sv = vectors[key_text(v.predicate, v.object)], vectors[subject_kind(v.subject)]
    return perturbed([a + 0.5 * b for a, b in zip(pv, sv, strict=True)], rng)


def synth(n: int, seed: int = 7) -> tuple[list[FactVersion], dict[tuple[str, str], str]]:
    """Plan ``n`` writes in memory: every version with final clocks, and each slot's current
    version id."""
    rng = random.Random(seed)
    predicates = list(SLOTS)
    subjects = max(1, n // 12)
    believed: dict[tuple[str, str], list[FactVersion]] = {}
    versions: dict[str, FactVersion] = {}
    current: dict[tuple[str, str], str] = {}
    slots: list[tuple[str, str]] = []
    now = T0
    ids = (f"r{i:09d}" for i in range(10**9))
    for _ in range(n):
        now += timedelta(seconds=30)
        if slots and rng.random() < UPDATE_SHARE:
            subject, predicate = slots[rng.randrange(len(slots))]
        else:
            subject = subject_name(rng.randrange(subjects))
            predicate = predicates[rng.randrange(len(predicates))]
        if (subject, predicate) not in believed:
            slots.append((subject, predicate))
        value = f"{rng.choice(SLOTS[predicate][1])} {rng.choice(QUALIFIERS)}".strip()
        incoming = Incoming(
            subject=subject, predicate=predicate, object=value, valid_at=now, tier=Tier.OBSERVED
        )
        plan = plan_write(incoming, believed.get((subject, predicate), []), now, lambda: next(ids))
        expired = {x.version_id for x in plan.expire}
        for vid in expired:
            versions[vid] = versions[vid].model_copy(update={"expired_at": now})
        slot = [v for v in believed.get((subject, predicate), []) if v.version_id not in expired]
        for v in plan.insert:
            versions[v.version_id] = v
            slot.append(v)
        believed[(subject, predicate)] = slot
        if plan.version_id:
            current[(subject, predicate)] = plan.version_id
    return sorted(versions.values(), key=lambda v: v.created_at), current


def perturbed(base: Sequence[float], rng: random.Random) -> list[float]:
    norm = sum(x * x for x in base) ** 0.5
    base = [x / norm for x in base]
    noise = [rng.gauss(0.0, 1.0) for _ in base]
    scale = NOISE / (sum(x * x for x in noise) ** 0.5)
    out = [b + scale * x for b, x in zip(base, noise, strict=True)]
    norm = sum(x * x for x in out) ** 0.5
    return [x / norm for x in out]


def pct(samples: list[float], p: float) -> float:
    if not samples:
        return float("nan")
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, max(0, round(p / 100 * len(ordered)) - 1))]


def rss_mb(pid: int | str = "self") -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


async def timed(samples: list[float], call: Callable[[], Awaitable[Any]]) -> Any:
    start = time.perf_counter()
    out = await call()
    samples.append((time.perf_counter() - start) * 1000)
    return out


class MiniLMForGraphiti:
    """graphiti-core EmbedderClient over our MiniLM, uncached (every call encodes)."""

    def __new__(cls, embedder: Any) -> Any:
        from graphiti_core.embedder.client import EmbedderClient

        class _Client(EmbedderClient):
            async def create(self, input_data: Any) -> list[float]:
                texts = [input_data] if isinstance(input_data, str) else list(input_data)
                out = await asyncio.to_thread(embedder.embed_documents, texts[:1])
                return out[0]

            async def create_batch(self, input_data_list: list[str]) -> list[list[float]]:
                return await asyncio.to_thread(embedder.embed_documents, input_data_list)

        return _Client()


def graphiti_clients(embedder: Any) -> dict[str, Any]:
    """LLM and cross-encoder that refuse to be called; the embedder is our MiniLM."""
    from graphiti_core.cross_encoder.client import CrossEncoderClient
    from graphiti_core.llm_client.client import LLMClient

    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("graphiti called a model client the search must not need")

    class NoLLM(LLMClient):
        async def _generate_response(self, *a: Any, **k: Any) -> dict[str, Any]:
            return refuse()

    class NoReranker(CrossEncoderClient):
        async def rank(self, *a: Any, **k: Any) -> list[tuple[str, float]]:
            return refuse()

    return {
        "llm_client": NoLLM(None),
        "embedder": MiniLMForGraphiti(embedder),
        "cross_encoder": NoReranker(),
    }


async def run_engine(
    store: Store,
    engine: str,
    size: int,
    embedder: Any,
    vectors: dict[str, list[float]],
    graphiti_driver: Callable[[str], Any],
    server_pid: int | None,
) -> Result:
    from twoclocks.embeddings.slot_matcher import SlotMatcher
    from twoclocks.service.memory import MemoryService
    from twoclocks.service.recall import RecallRequest, RecallService
    from twoclocks.service.requests import Caller, RememberRequest

    result = Result(engine, size)
    account = f"recall-{size}-{uuid.uuid4().hex[:8]}"
    rows, current = synth(size)
    result.versions = len(rows)
    rng = random.Random(3)
    embedded = {v.version_id: fact_vector(v, vectors, rng) for v in rows}
    start = time.perf_counter()
    for counter, i in enumerate(range(0, len(rows), BATCH)):
        chunk = tuple(rows[i : i + BATCH])
        plan = Plan(now=chunk[-1].created_at, insert=chunk)
        assert await store.apply(
            account,
            plan,
            "bench",
            "bulk",
            counter,
            {v.version_id: embedded[v.version_id] for v in chunk},
        )
    result.load_rows_s = len(rows) / (time.perf_counter() - start)
    del embedded
    print(
        f"  {engine} {size}: loaded {len(rows)} versions at {result.load_rows_s:.0f} rows/s",
        flush=True,
    )

    # Distinct questions about random slots; the answer is the slot's current version.
    asked = rng.sample(sorted(current), QUERIES + WARMUP)
    questions = [(SLOTS[p][0].format(s=s), current[(s, p)]) for s, p in asked]
    clock = lambda: datetime.now(UTC)  # noqa: E731
    recall = RecallService(store, clock, embedder, lambda _cwd: Workspace(), UTC)
    caller = Caller(account=account)
    for q, _ in questions[:WARMUP]:  # warm connections, caches of the engine, not ours
        await recall.recall(caller, RecallRequest(query=q + " (warm-up)", k=10))
    measured = questions[WARMUP:]
    embedder.clear_query_cache()
    for q, want in measured:
        got = await timed(
            result.recall_ms, lambda q=q: recall.recall(caller, RecallRequest(query=q, k=10))
        )
        result.hits += want in {f.version_id for f in got.facts}
    info = embedder.query_cache_info()
    result.notes.append(f"query cache during distinct run: {info.hits} hits, {info.misses} misses")
    for q, _ in measured:
        await timed(
            result.recall_cached_ms, lambda q=q: recall.recall(caller, RecallRequest(query=q, k=10))
        )

    # Where the time goes: each leg alone (uncached embedding timed separately).
    legs: dict[str, list[float]] = {
        k: [] for k in ("embed", "entities", "text", "vector", "traverse")
    }
    query = FactQuery(now=clock(), workspaces=())
    for q, _ in measured[:LEG_SAMPLES]:
        vec = await timed(
            legs["embed"], lambda q=q: asyncio.to_thread(embedder.embed_documents, [q + " (legs)"])
        )
        ents = await timed(legs["entities"], lambda q=q: store.entities_named(account, q, 10))
        await timed(legs["text"], lambda q=q: store.search_text(account, q, query, 30))
        await timed(legs["vector"], lambda v=vec[0]: store.search_vector(account, v, query, 30))
        await timed(legs["traverse"], lambda e=ents: store.traverse(account, e, query, 3, 30))
    result.legs = legs

    # graphiti-core's own hybrid search on the same graph: edge BM25 + cosine, RRF.
    result.notes.append(
        await run_graphiti(graphiti_driver(account), account, embedder, measured, result)
    )

    # Writes with embeddings: one at a time through the service, then batched.
    matcher = SlotMatcher(embedder)
    memory = MemoryService(
        store, clock, lambda: uuid.uuid4().hex, embedder, lambda _cwd: Workspace(), matcher
    )
    for i in range(SINGLE_WRITES):
        s, p = asked[i]
        req = RememberRequest(
            subject=s,
            predicate=p,
            tier=Tier.OBSERVED,
            object=f"{rng.choice(SLOTS[p][1])} after change {i}",
        )
        await timed(result.single_ms, lambda r=req: memory.remember(caller, r))
    start = time.perf_counter()
    now = clock()
    new_rows: list[FactVersion] = []
    for i in range(BATCHED_WRITES):
        p = rng.choice(list(SLOTS))
        incoming = Incoming(
            subject=f"batch-{i}",
            predicate=p,
            tier=Tier.OBSERVED,
            object=f"{rng.choice(SLOTS[p][1])} batch {i}",
            valid_at=now,
        )
        new_rows.extend(plan_write(incoming, [], now, lambda: uuid.uuid4().hex).insert)
    for counter, i in enumerate(range(0, len(new_rows), 64)):
        chunk = tuple(new_rows[i : i + 64])
        texts = [fact_text(v.subject, v.predicate, v.object) for v in chunk]
        vecs = await asyncio.to_thread(embedder.embed_documents, texts)
        assert await store.apply(
            account,
            Plan(now=now, insert=chunk),
            "bench",
            "batched",
            counter,
            dict(zip([v.version_id for v in chunk], vecs, strict=True)),
        )
    result.batched_facts_s = BATCHED_WRITES / (time.perf_counter() - start)
    result.rss_mb = rss_mb()
    result.notes.append(
        "load average at the end (other processes share the cores): "
        + " ".join(Path("/proc/loadavg").read_text().split()[:3])
    )
    result.server_rss_mb = rss_mb(server_pid) if server_pid else float("nan")
    return result


async def run_graphiti(
    driver: Any, account: str, embedder: Any, measured: list[tuple[str, str]], result: Result
) -> str:
    from graphiti_core import Graphiti
    from graphiti_core.search.search_config import (
        EdgeReranker,
        EdgeSearchConfig,
        EdgeSearchMethod,
        SearchConfig,
    )

    graphiti = Graphiti(graph_driver=driver, **graphiti_clients(embedder))
    config = SearchConfig(
        edge_config=EdgeSearchConfig(
            search_methods=[EdgeSearchMethod.bm25, EdgeSearchMethod.cosine_similarity],
            reranker=EdgeReranker.rrf,
        ),
        limit=10,
    )
    try:
        for q, _ in measured[:WARMUP]:
            await graphiti.search_(q + " (warm-up)", config=config, group_ids=[account])
        for q, want in measured[:GRAPHITI_QUERIES]:
            got = await timed(
                result.graphiti_ms,
                lambda q=q: graphiti.search_(q, config=config, group_ids=[account]),
            )
            result.graphiti_hits += want in {e.uuid for e in got.edges}
    finally:
        await driver.close()
    return "graphiti: no temporal filter by default (history edges can come back)"


def start_neo4j(run_dir: Path) -> str:
    env = {
        **os.environ,
        "NEO4J_RUN_DIR": str(run_dir),
        "NEO4J_EXTRA_JAVA_OPTS": os.environ.get("NEO4J_EXTRA_JAVA_OPTS", "-Xmx2g -Xms2g"),
    }
    proc = subprocess.run(
        ["bash", str(REPO / "ci/neo4j/start")],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
        env=env,
    )
    lines = proc.stdout.strip().splitlines()
    if proc.returncode != 0 or not lines or not lines[-1].startswith("bolt://"):
        sys.exit(f"ci/neo4j/start failed:\n{proc.stderr[-2000:]}")
    return lines[-1]


def stop_neo4j(run_dir: Path) -> None:
    subprocess.run(
        ["bash", str(REPO / "ci/neo4j/stop")],
        capture_output=True,
        check=False,
        env={**os.environ, "NEO4J_RUN_DIR": str(run_dir)},
    )


async def bench(
    engine: str,
    sizes: list[int],
    embedder: Any,
    vectors: dict[str, list[float]],
    neo4j_uri: str | None,
) -> list[Result]:
    results: list[Result] = []
    if engine == "falkordb":
        from falkordb.asyncio import FalkorDB
        from graphiti_core.driver.falkordb_driver import FalkorDriver

        from twoclocks.graph.falkordb.store import FalkorDBStore

        with tempfile.TemporaryDirectory(prefix="tc-recall-") as tmp:
            store = FalkorDBStore.embedded(tmp, appendfsync="everysec")
            await store.start()
            socket = str(Path(tmp) / "falkordb.sock")
            pid = store._server.pid if store._server else None

            def driver(account: str) -> Any:
                return FalkorDriver(falkor_db=FalkorDB(unix_socket_path=socket), database=account)

            try:
                for size in sizes:
                    results.append(
                        await run_engine(store, engine, size, embedder, vectors, driver, pid)
                    )
                    print(table(results[-1:]), flush=True)
            finally:
                await store.close()
        return results
    from graphiti_core.driver.neo4j_driver import Neo4jDriver

    from twoclocks.graph.neo4j.store import Neo4jStore

    run_dir = Path(tempfile.mkdtemp(prefix="tc-recall-neo4j-"))
    uri = neo4j_uri or start_neo4j(run_dir)
    pid_file = run_dir / "neo4j.pid"
    pid = int(pid_file.read_text()) if pid_file.exists() else None
    store4 = Neo4jStore(uri)
    try:
        await store4.start()
        for size in sizes:
            results.append(
                await run_engine(
                    store4,
                    engine,
                    size,
                    embedder,
                    vectors,
                    lambda _account: Neo4jDriver(uri, None, None),
                    pid,
                )
            )
            print(table(results[-1:]), flush=True)
    finally:
        await store4.close()
        if neo4j_uri is None:
            stop_neo4j(run_dir)
    return results


def table(results: list[Result]) -> str:
    lines = []
    for r in results:
        n = len(r.recall_ms)
        ours, theirs = pct(r.recall_ms, 50), pct(r.graphiti_ms, 50)
        lines += [
            f"{r.engine} {r.size} writes -> {r.versions} versions; load {r.load_rows_s:.0f} "
            f"rows/s (batches of {BATCH}, vectors precomputed)",
            f"  recall (RecallService, k=10, incl. query embedding), {n} distinct queries: "
            f"p50 {ours:.1f} ms, p95 {pct(r.recall_ms, 95):.1f} ms; hit@10 {r.hits}/{n}",
            f"  recall, same queries again (embedding cached): p50 "
            f"{pct(r.recall_cached_ms, 50):.1f} ms, p95 {pct(r.recall_cached_ms, 95):.1f} ms",
            "  legs alone p50/p95 ms: "
            + ", ".join(f"{k} {pct(v, 50):.1f}/{pct(v, 95):.1f}" for k, v in r.legs.items()),
            f"  graphiti-core search_ (edge BM25 + cosine, RRF, same model): p50 {theirs:.1f} "
            f"ms, p95 {pct(r.graphiti_ms, 95):.1f} ms; hit@10 {r.graphiti_hits}/"
            f"{len(r.graphiti_ms)}; "
            f"graphiti/ours p50 ratio {theirs / ours:.2f}x",
            f"  writes with embeddings: one at a time (MemoryService.remember, drift matcher "
            f"on) p50 {pct(r.single_ms, 50):.1f} ms, p95 {pct(r.single_ms, 95):.1f} ms "
            f"(~{1000 / pct(r.single_ms, 50):.0f} facts/s); batched (encode 64 + apply 64) "
            f"{r.batched_facts_s:.0f} facts/s; batched/single "
            f"{r.batched_facts_s * pct(r.single_ms, 50) / 1000:.1f}x",
            f"  RSS: bench process (model loaded) {r.rss_mb:.0f} MB, engine server "
            f"{r.server_rss_mb:.0f} MB",
            *(f"  note: {note}" for note in r.notes),
        ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000", help="comma-separated write counts")
    parser.add_argument("--engines", default="falkordb,neo4j", help="falkordb,neo4j")
    parser.add_argument("--neo4j-sizes", default=None, help="sizes for Neo4j (default: --sizes)")
    parser.add_argument("--neo4j-uri", default=None, help="use this Neo4j instead of ci/neo4j")
    args = parser.parse_args()
    os.environ.setdefault("GRAPHITI_TELEMETRY_ENABLED", "false")
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from twoclocks.embeddings.sentence_transformer import SentenceTransformerEmbedder

    sizes = [int(s) for s in args.sizes.split(",") if s]
    neo4j_sizes = [int(s) for s in (args.neo4j_sizes or args.sizes).split(",") if s]
    print(
        f"{datetime.now(UTC):%Y-%m-%d %H:%M} UTC, {platform.node()}, "
        f"{len(os.sched_getaffinity(0))} cores, Python {platform.python_version()}, "
        f"load average {' '.join(Path('/proc/loadavg').read_text().split()[:3])}",
        flush=True,
    )
    start = time.perf_counter()
    embedder = SentenceTransformerEmbedder().load()
    print(f"MiniLM loaded in {time.perf_counter() - start:.1f} s", flush=True)
    texts = distinct_texts()
    start = time.perf_counter()
    encoded = embedder.embed_documents(texts)
    took = time.perf_counter() - start
    vectors = dict(zip(texts, encoded, strict=True))
    print(
        f"MiniLM encoded {len(texts)} distinct fact texts in {took:.1f} s "
        f"({len(texts) / took:.0f}/s, batches of {embedder.batch_size}); a fact's vector is "
        f"its (predicate words + value) vector + 0.5 x its subject kind's ('billing-api'), "
        f"plus a random perturbation of norm {NOISE}, renormalised: NOT the fact's own "
        "encoding",
        flush=True,
    )
    results: list[Result] = []
    for engine in [e.strip() for e in args.engines.split(",") if e.strip()]:
        engine_sizes = neo4j_sizes if engine == "neo4j" else sizes
        started = time.perf_counter()
        results += asyncio.run(bench(engine, engine_sizes, embedder, vectors, args.neo4j_uri))
        print(f"  ({engine}: {time.perf_counter() - started:.0f} s in all)", flush=True)
    print()
    print(table(results))


if __name__ == "__main__":
    main()
