"""The recall benchmark's synthetic workload: service-like subjects, ~40 slots, history.

Subjects such as ``billing-api-17``; predicates such as ``ci_provider`` with realistic
values and qualifiers; about 15% of writes replace a value, so every size has history.
Fact vectors reuse MiniLM encodings of the distinct (predicate, value) texts and subject
kinds, perturbed, because encoding 100k facts one by one would dominate the run.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from datetime import UTC, datetime, timedelta

from history import PlannedHistory

from twoclocks.domain.model import FactVersion, Incoming, Tier
from twoclocks.domain.slot_names import humanize_predicate

T0 = datetime(2025, 1, 1, tzinfo=UTC)
UPDATE_SHARE = 0.15
NOISE = 0.08  # norm of the perturbation added to a reused vector (before renormalising)

# fmt: off
COMPONENTS = ["billing", "auth", "search", "checkout", "catalog", "inventory", "gateway",
              "notifications", "reports", "payments", "orders", "profile", "media", "ledger",
              "scheduler", "analytics"]
KINDS = ["api", "worker", "web", "service", "cron", "db", "cache", "frontend"]

# predicate -> (question template, value bases)
SLOTS: dict[str, tuple[str, list[str]]] = {
    "ci_provider": ("which CI does {s} use?", [
        "CircleCI", "GitHub Actions", "GitLab CI", "Buildkite", "Jenkins", "Travis CI", "Drone",
        "TeamCity"]),
    "deploy_target": ("where is {s} deployed?", [
        "Render", "Fly.io", "AWS ECS", "Heroku", "Kubernetes on GKE", "Vercel", "Netlify",
        "bare metal at Hetzner"]),
    "language": ("what language is {s} written in?", [
        "Python", "Go", "TypeScript", "Rust", "Kotlin", "Java", "Ruby", "Elixir"]),
    "runtime_version": ("which runtime version does {s} run?", [
        "Python 3.11", "Python 3.12", "Node 20", "Node 22", "Go 1.22", "Java 21", "Ruby 3.3",
        "Bun 1.1"]),
    "test_command": ("how do I run the tests of {s}?", [
        "make test", "pytest -q", "npm test", "go test ./...", "cargo test", "bundle exec rspec",
        "just test", "tox -e py311"]),
    "build_command": ("how is {s} built?", [
        "make build", "npm run build", "cargo build", "go build ./cmd/...", "docker build .",
        "bazel build //...", "gradle assemble", "poetry build"]),
    "lint_command": ("which linter runs on {s}?", [
        "ruff check", "eslint .", "golangci-lint", "clippy", "rubocop", "flake8", "biome lint",
        "pylint"]),
    "database": ("which database does {s} use?", [
        "Postgres 16", "Postgres 15", "MySQL 8", "SQLite", "MongoDB", "DynamoDB", "CockroachDB",
        "Cassandra"]),
    "cache": ("what cache does {s} use?", [
        "Redis", "Memcached", "Valkey", "Dragonfly", "in-process LRU", "Varnish", "CloudFront",
        "none"]),
    "queue": ("which message queue does {s} use?", [
        "RabbitMQ", "Kafka", "SQS", "NATS", "Redis streams", "Pub/Sub", "Celery with Redis",
        "Sidekiq"]),
    "owner_team": ("which team owns {s}?", [
        "team blue", "team red", "platform team", "payments squad", "growth team", "infra team",
        "data team", "mobile team"]),
    "oncall_engineer": ("who is on call for {s}?", [
        "Alice", "Bob", "Chen", "Dara", "Emeka", "Farah", "Goran", "Hana"]),
    "region": ("which region does {s} run in?", [
        "eu-west-1", "us-east-1", "us-west-2", "ap-southeast-1", "eu-central-1", "Oregon",
        "Frankfurt", "Tokyo"]),
    "default_branch": ("what is the default branch of {s}?", [
        "main", "master", "trunk", "develop", "release", "prod", "next", "stable"]),
    "package_manager": ("which package manager does {s} use?", [
        "uv", "pip", "poetry", "npm", "pnpm", "yarn", "cargo", "bundler"]),
    "framework": ("which framework is {s} built on?", [
        "FastAPI", "Django", "Flask", "Express", "Next.js", "Rails", "Phoenix", "Spring Boot"]),
    "orm": ("which ORM does {s} use?", [
        "SQLAlchemy", "Django ORM", "Prisma", "GORM", "ActiveRecord", "Ecto", "Hibernate",
        "Diesel"]),
    "error_tracker": ("where do errors of {s} go?", [
        "Sentry", "Rollbar", "Bugsnag", "Honeybadger", "Datadog", "New Relic", "Airbrake",
        "Raygun"]),
    "metrics_backend": ("where are metrics of {s}?", [
        "Prometheus", "Datadog", "Grafana Cloud", "CloudWatch", "Honeycomb", "StatsD", "InfluxDB",
        "Victoria Metrics"]),
    "log_backend": ("where do logs of {s} go?", [
        "Loki", "Elasticsearch", "CloudWatch Logs", "Papertrail", "Datadog Logs", "Splunk",
        "Logtail", "stdout only"]),
    "container_registry": ("which container registry does {s} push to?", [
        "GHCR", "ECR", "Docker Hub", "GCR", "Quay", "Harbor", "ACR", "GitLab registry"]),
    "base_image": ("which base image does {s} use?", [
        "python:3.11-slim", "node:20-alpine", "distroless", "ubuntu:24.04", "debian:bookworm",
        "alpine:3.20", "golang:1.22", "scratch"]),
    "formatter": ("which formatter does {s} use?", [
        "black", "ruff format", "prettier", "gofmt", "rustfmt", "standardrb", "mix format",
        "ktlint"]),
    "type_checker": ("which type checker runs on {s}?", [
        "mypy", "pyright", "tsc", "sorbet", "dialyzer", "pyre", "flow", "none"]),
    "secrets_manager": ("where are secrets of {s} kept?", [
        "Vault", "AWS Secrets Manager", "Doppler", "1Password", "SOPS", "GCP Secret Manager",
        "Infisical", "env files"]),
    "dns_provider": ("who hosts DNS for {s}?", [
        "Cloudflare", "Route 53", "Google Cloud DNS", "DNSimple", "Gandi", "Namecheap", "NS1",
        "Azure DNS"]),
    "auth_provider": ("which auth provider does {s} use?", [
        "Auth0", "Okta", "Keycloak", "Cognito", "Clerk", "Firebase Auth", "WorkOS",
        "our own OAuth"]),
    "email_provider": ("which email provider does {s} use?", [
        "SendGrid", "Postmark", "SES", "Mailgun", "Resend", "SparkPost", "Mandrill", "SMTP relay"]),
    "payment_provider": ("which payment provider does {s} use?", [
        "Stripe", "Adyen", "Braintree", "PayPal", "Paddle", "Mollie", "Square", "Checkout.com"]),
    "search_engine": ("which search engine does {s} use?", [
        "Elasticsearch", "OpenSearch", "Meilisearch", "Typesense", "Algolia", "Solr",
        "Postgres FTS", "Vespa"]),
    "http_port": ("which port does {s} listen on?", [
        "8000", "8080", "3000", "5000", "9000", "4000", "8443", "80"]),
    "staging_url": ("what is the staging URL of {s}?", [
        "staging.example.com", "stg.internal", "preview.example.dev", "beta.example.com",
        "staging.fly.dev", "qa.example.net", "stage.corp", "next.example.io"]),
    "release_cadence": ("how often does {s} release?", [
        "daily", "weekly", "every sprint", "on merge to main", "monthly", "twice a week",
        "on demand", "quarterly"]),
    "feature_flags": ("which feature flag service does {s} use?", [
        "LaunchDarkly", "Unleash", "Flagsmith", "GrowthBook", "Split", "ConfigCat",
        "PostHog flags", "env toggles"]),
    "cdn": ("which CDN serves {s}?", [
        "Cloudflare", "Fastly", "CloudFront", "Akamai", "Bunny", "KeyCDN", "Google Cloud CDN",
        "none"]),
    "code_owner": ("who reviews code for {s}?", [
        "Alice", "Bob", "Chen", "Dara", "Emeka", "Farah", "Goran", "Hana"]),
    "storage_bucket": ("which bucket does {s} store files in?", [
        "s3://assets", "gs://media", "s3://uploads", "r2://static", "s3://backups", "gs://exports",
        "azure://blobs", "minio://local"]),
    "license": ("what license does {s} use?", [
        "MIT", "Apache-2.0", "GPL-3.0", "BSD-3-Clause", "proprietary", "MPL-2.0", "AGPL-3.0",
        "ISC"]),
    "docs_site": ("where are the docs of {s}?", [
        "Read the Docs", "GitHub Pages", "Notion", "Confluence", "Docusaurus on Vercel",
        "MkDocs on Netlify", "the wiki", "README only"]),
    "incident_channel": ("where are incidents of {s} handled?", [
        "#incidents", "#ops", "#sre", "PagerDuty", "Opsgenie", "#war-room", "incident.io",
        "#oncall"]),
}
QUALIFIERS = [
    "", "since the migration", "in production", "for now", "per the ADR", "with caching", "v2",
    "on arm64", "behind a proxy", "pinned", "managed", "self-hosted", "with retries", "shared",
    "experimental", "legacy",
]
# fmt: on


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
    history = PlannedHistory("r")
    current: dict[tuple[str, str], str] = {}
    slots: list[tuple[str, str]] = []
    now = T0
    for _ in range(n):
        now += timedelta(seconds=30)
        if slots and rng.random() < UPDATE_SHARE:
            subject, predicate = slots[rng.randrange(len(slots))]
        else:
            subject = subject_name(rng.randrange(subjects))
            predicate = predicates[rng.randrange(len(predicates))]
        if (subject, predicate) not in history:
            slots.append((subject, predicate))
        value = f"{rng.choice(SLOTS[predicate][1])} {rng.choice(QUALIFIERS)}".strip()
        incoming = Incoming(
            subject=subject, predicate=predicate, object=value, valid_at=now, tier=Tier.OBSERVED
        )
        plan = history.write(incoming, now)
        if plan.version_id:
            current[(subject, predicate)] = plan.version_id
    return history.rows(), current


def perturbed(base: Sequence[float], rng: random.Random) -> list[float]:
    norm = sum(x * x for x in base) ** 0.5
    base = [x / norm for x in base]
    noise = [rng.gauss(0.0, 1.0) for _ in base]
    scale = NOISE / (sum(x * x for x in noise) ** 0.5)
    out = [b + scale * x for b, x in zip(base, noise, strict=True)]
    norm = sum(x * x for x in out) ** 0.5
    return [x / norm for x in out]
